"""``python -m core.engine``: compile the engine's loops now and keep them in numba's cache.

``make setup`` and the Docker image run it, so that no visitor waits for the compiler.
"""

import sys

from core.engine.compiled import compile_everything

seconds = compile_everything()
print(f"core.engine: compiled and cached in {seconds:.1f} s", file=sys.stderr)
