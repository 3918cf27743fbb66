"""The expression language.

The tree, its operators and its text (:mod:`.expr`); the functions that combine trees
(:mod:`.combine`); the reference evaluator (:mod:`.interpret`); walks over a tree
(:mod:`.walk`) and its interval bounds (:mod:`.intervals`); Python's comparison chains
(:mod:`.chains`).  Model-file strings parsed with a whitelist (:mod:`.parse`): read into a
syntax tree (:mod:`.syntax`), names looked up in a scope (:mod:`.scope`), rebuilt node by
node (:mod:`.build`), generators and lists unrolled (:mod:`.unroll`), the short circuit
decided (:mod:`.shortcircuit`), with hints for common slips (:mod:`.slips`).  Constants
folded away (:mod:`.fold`).  Untrusted text escaped and shortened for people
(:mod:`.quoting`)."""
