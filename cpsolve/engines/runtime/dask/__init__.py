"""The Dask client for ``--workers N`` (a local cluster) or ``--scheduler ADDRESS``, and work
run there within its limits.

The one place that starts or joins a cluster: the partitioned analysis
(:mod:`cpsolve.engines.search.statespace.cluster`), batches and ``compare``
(:mod:`cpsolve.workflows.batch`) all use :func:`.client.client_for`, and batches and
compare run their tasks through :func:`.tasks.each`.  Dask is an optional extra (``pip
install 'cpsolve[dask]'``): it is imported in these modules only, when a cluster is asked
for; importing this package imports none of it.

The modules, each importing only those before it:

* :mod:`.logs` — Dask's logs as one line each on stderr, and silenced for a shutdown;
* :mod:`.waiting` — waiting for futures while asking whether to stop (:func:`.waiting.gather`,
  :func:`.waiting.finished`), and how often and how long the client looks;
* :mod:`.worker` — what runs in a worker process: the preload hook
  (:func:`.worker.dask_setup`) and the wrapper that sets a task's limits;
* :mod:`.local` — a local cluster: its settings, its start (stopped by a limit or Ctrl-C),
  its workers killed when its tasks are abandoned (:func:`.local.abandon`);
* :mod:`.client` — :func:`.client.client_for`: a local cluster's client, or one connected to
  a scheduler;
* :mod:`.tasks` — :func:`.tasks.each`: one task per item, each within its budget, every
  item accounted for;
* :mod:`.exchange` — the partitioned analysis' pieces handed from worker to worker
  (imported by its tasks, on the workers).

The limits, the same on every path:

* memory — the workers of a local cluster share the command's memory limit
  (:func:`.memory.limit`), each an equal part; on a worker, a task's engines stop
  themselves at :data:`.worker.TASK_SHARE` of that worker's limit, before Dask pauses or
  kills it;
* time — :func:`.tasks.each` gives every task a budget (seconds) when it submits it, and
  the task hands it to its engines as their time limit; the client stops waiting ``grace``
  seconds past it, cancels the task and, on a local cluster, restarts the worker still
  running it, so that a task that does not stop never holds up the others;
* stop — Ctrl-C or SIGTERM (:func:`.interrupt.requested`) makes :func:`.tasks.each` submit
  no more tasks and ask the running ones to stop (:func:`.interrupt.request` in their
  workers): what they return within :data:`.waiting.STOP_WAIT` seconds is yielded, the
  others are cancelled, and every item is accounted for; the local cluster is shut down on
  exit.  The workers of a local cluster ignore SIGINT and SIGTERM
  (:func:`.worker.dask_setup`), which reach them too when sent to the process group: the
  client answers them.
"""
