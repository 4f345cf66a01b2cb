"""The browser tests' app fixture, for the protocol client's comparison with Chromium.

The browser itself is the project's one session browser (the top-level ``conftest.py``); the
served app and its tabs are the browser tests' own fixtures, imported rather than written again.
"""

from tests.browser.conftest import app, server

__all__ = ["app", "server"]
