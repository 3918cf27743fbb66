"""Answers: their kinds (:mod:`.kinds` — plan, assignment, count, analysis), the
:class:`~.result.Result` an engine returns and its statuses (:mod:`.result`), the
independent checker (:mod:`.check`), agreement between engines (:mod:`.agreement`) and
their wording in English: plurals, lists, bounds (:mod:`.words`)."""
