"""What people and programs read: text (:mod:`.text`) and its tables, legible at any width
(:mod:`.tables`), JSON (:mod:`.json`) and its schema (:mod:`.schema`; a result's:
:mod:`.schema_result`), grid counts and generations (:mod:`.grids`), pictures
(:mod:`.draw`)."""
