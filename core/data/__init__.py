"""The data catalogue: the table types and their checks (:mod:`core.data.datasets`) and the
built-in tables listed in ``datasets/manifest.json`` (:mod:`core.data.catalogue`)."""
