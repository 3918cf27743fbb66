"""Work made of many engine runs: batches (:mod:`.batch`), grid counting and generation
(:mod:`.grids`)."""
