"""The run-time envelope every path goes through: the clock (:mod:`.clock`), the memory
watcher (:mod:`.memory`), the interrupt handler (:mod:`.interrupt`), why a run stopped
(:mod:`.stop`), an engine's big tables freed after its answer (:mod:`.release`) and a
stopped one's scratch directories removed once its answer is out (:mod:`.removal`), child
processes (:mod:`.processes`), the longest wait the system takes (:mod:`.waits`) and the
Dask client (:mod:`.dask`).  Engines ask
:meth:`.clock.Clock.stop` (or ``expired``) between steps: the one question that covers
their time limit, the memory limit, Ctrl-C and the command's clock."""
