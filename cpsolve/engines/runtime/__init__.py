"""The run-time envelope every path goes through: the clock (:mod:`.clock`), the memory
watcher (:mod:`.memory`), the interrupt handler (:mod:`.interrupt`), child processes
(:mod:`.processes`) and the Dask client (:mod:`.dask_client`)."""
