"""The expression language: the tree and its reference evaluator (:mod:`.expr`), model-file
strings parsed with a whitelist (:mod:`.parse`), constants folded away (:mod:`.fold`)."""
