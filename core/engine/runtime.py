"""Process settings that make the engine faster where it runs: the app and the benchmark.

Why the memory allocator matters
--------------------------------
The tree builder works on whole arrays: every depth of a 100-tree forest creates a few dozen
temporary arrays of around a megabyte. glibc's ``malloc`` hands out blocks that large straight
from the operating system (``mmap``) and gives them back on ``free``, so every new temporary
starts as untouched memory and pays a page fault per 4 KiB on first write. Measured on this
project's benchmark (2-core machine): a 100-tree breast-cancer forest fits in 106 ms with the
defaults and in 68 ms when such blocks are served from the reusable heap instead.

:func:`tune_allocator` raises the size below which glibc serves blocks from the heap (32 MiB)
and lets the heap keep up to 128 MiB of freed memory before giving it back. It changes nothing
but speed and memory, and does nothing where glibc is not the C library (macOS, Windows, musl).

Why the number of arenas matters
--------------------------------
Streamlit runs every session's script on its own thread, and glibc gives threads their own
heaps ("arenas", up to 8 per core) so that they do not wait for each other's locks. Each arena
keeps its own freed memory, up to the 128 MiB above, so a server that thirty students used at
once holds many times what one student needs. Measured with the classroom benchmark
(``bench/classroom.py --distinct 200 --distinct-changes 2``: 30 students at once opening 200
fresh links): resident memory peaked at 867 MiB and stayed at 756 MiB after they left with
glibc's default arenas; with two arenas (``MALLOC_ARENA_MAX=2``) 497 and 333 MiB, at the same
CPU per change. The Python code holds the GIL anyway, so little is lost by sharing:
:func:`tune_allocator` caps the arenas at :data:`ARENA_MAX`, unless ``MALLOC_ARENA_MAX`` is set
in the environment, which then decides.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os

# mallopt parameter numbers, from glibc's <malloc.h>.
_M_TRIM_THRESHOLD = -1
_M_TOP_PAD = -2
_M_MMAP_THRESHOLD = -3
_M_ARENA_MAX = -8

MMAP_THRESHOLD = 32 * 1024 * 1024
TRIM_THRESHOLD = 128 * 1024 * 1024
TOP_PAD = 32 * 1024 * 1024
#: Thread arenas glibc may create in all (the main heap is one of them).
ARENA_MAX = 2


@functools.cache
def tune_allocator() -> bool:
    """Serve blocks up to 32 MiB from glibc's heap, keep up to 128 MiB of it, use 2 arenas.

    Safe to call any number of times (only the first call acts). The arena cap holds for
    arenas made after the call: call it before many threads have allocated (glibc fixes its
    limit once 8 arenas exist). ``MALLOC_ARENA_MAX`` in the environment, if set, wins.

    Returns
    -------
    bool
        True when the settings were applied, False where glibc's ``mallopt`` is unavailable.
    """
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    settings = [
        (_M_MMAP_THRESHOLD, MMAP_THRESHOLD),
        (_M_TRIM_THRESHOLD, TRIM_THRESHOLD),
        (_M_TOP_PAD, TOP_PAD),
    ]
    if "MALLOC_ARENA_MAX" not in os.environ:
        settings.append((_M_ARENA_MAX, ARENA_MAX))
    return all(mallopt(param, value) == 1 for param, value in settings)
