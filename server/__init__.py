"""What ``serve.py`` puts in front of Streamlit's server: the class check, the frontend files
answered from memory, a health check off the event loop, and sockets that send at once.

- :mod:`server.class_check`: ``GET /api/class/CODE``, a class's version for its followers.
- :mod:`server.class_cookie`: ``POST /api/class-cookie/TICKET``, the class cookie set HttpOnly.
- :mod:`server.frontend_files`: Streamlit's content-hashed frontend files, from memory.
- :mod:`server.health`: a health check on a thread of its own, which a busy event loop does
  not delay.
- :mod:`server.in_flight`: work many requests ask for at once, done once.
- :mod:`server.no_delay`: Nagle's algorithm off on every accepted connection.
- :mod:`server.rebalance`: a replica holding clearly more sessions than another lets a few go,
  so a class spreads back over the replicas after one returns.

It may import ``core`` but never ``core.ui`` (the pages' side); nothing in ``core`` imports it.
"""
