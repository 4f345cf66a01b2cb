"""The data: the table types and their split (:mod:`core.data.datasets`), reading a user's CSV
(:mod:`core.data.tables`), turning any table into a dataset (:mod:`core.data.prepare`, with the
column rules in :mod:`core.data.columns`) and the built-in tables listed in
``datasets/manifest.json`` (:mod:`core.data.catalogue`)."""
