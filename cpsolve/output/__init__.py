"""What people and programs read: text (:mod:`.text`), JSON (:mod:`.json`) and its schema
(:mod:`.schema`), grid counts and generations (:mod:`.grids`), pictures (:mod:`.draw`)."""
