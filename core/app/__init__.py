"""The app's glue that needs no Streamlit: what a page is and what it shows, in plain data.

- :mod:`core.app.pages`: the registry of pages (script, title, icons, settings class), read by
  the home page, the sidebar, URL state and the tests.
- :mod:`core.app.settings`: each page's settings, read from and written to the URL.
- :mod:`core.app.models`: what a model is grown from (the cache keys of fitted models).
- :mod:`core.app.lessons`: the ready-made classroom links.
- :mod:`core.app.words`: plain-words helpers (a sample's path, Markdown escaping...).

:mod:`core.ui` is the Streamlit side of the same glue.
"""
