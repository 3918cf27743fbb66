"""Batches: many model files, a directory of them, or a collection file (one puzzle per line).

:func:`.items.instances` lists what a batch holds, file by file and instance by
instance (a bad file is a row of its own, never the end of the batch);
:func:`.solving.solve_all` solves them in this process or in ``jobs`` worker
processes and yields one :class:`.rows.Row` per instance, in order.

In a batch, ``auto`` runs the search engine and hands an instance it could
not prove to CP-SAT (one process per instance would cost more than most
instances take: :func:`cpsolve.engines.auto.turns.in_turn`, whose answer is the race's
verdict); ``compare`` is the command for cross-checks
(:mod:`.comparing`).

On a Dask cluster (:func:`.cluster.on_cluster`, through
:mod:`cpsolve.engines.runtime.dask`) each instance is one task —
:func:`.solving.solve_within`, or :func:`.comparing.compare_one` for ``compare`` —
and results come back as they finish: an instance whose task fails (its worker died) or
is still running at the time limit becomes an error row of its own, one that the time
limit or Ctrl-C came before a row not started (:attr:`.rows.Row.status`); the others are
never lost.

The modules, each imported from directly (this package re-exports nothing):

* :mod:`.items` — what a batch holds: the files named, their instances (:class:`Item`), in
  their :class:`Lineup` (each file loaded in its turn; ``solve``'s and ``compare``'s);
* :mod:`.rows` — a solved instance (:class:`Row`), its statuses, a batch's summary;
* :mod:`.solving` — solving instances into rows, here or in worker processes;
* :mod:`.comparing` — one instance through every engine that applies (:class:`Compared`);
* :mod:`.budget` — the seconds each instance gets (:class:`TaskBudget`);
* :mod:`.cluster` — instances as tasks on a Dask cluster, within the command's time.
"""
