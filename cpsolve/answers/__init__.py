"""Answers: their kinds (:mod:`.kinds` — plan, assignment, count, analysis), the
:class:`~.result.Result` an engine returns and its statuses (:mod:`.result`), the
independent checker (:mod:`.check`) and agreement between engines (:mod:`.agreement`)."""
