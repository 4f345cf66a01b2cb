"""The one kind of array the compiled loops are given, so each is compiled once.

numba compiles a function once for every kind of array it is given (read-only or not,
C-ordered or strided): :func:`plain_array` hands the compiled functions one kind only, so what
was compiled ahead of time (:func:`core.engine.compiled.compile_everything`) is what a server
runs. This module imports nothing of the engine, so every other module can use it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray


def plain_array(values: ArrayLike, dtype: DTypeLike) -> NDArray[Any]:
    """``values`` as a C-ordered, writable array of ``dtype``, the kind the loops are compiled for.

    A read-only or strided array is copied (a dataset cached by the app is read-only); an
    array that already is such an array is returned as it is. Otherwise numba would compile
    the function again, for seconds, the first time it met that kind of array, and a visitor
    would wait for the compiler.
    """
    array = np.ascontiguousarray(values, dtype=dtype)
    return array if array.flags.writeable else array.copy()
