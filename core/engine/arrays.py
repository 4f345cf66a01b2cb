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


def float32_values(values: ArrayLike) -> NDArray[np.float64]:
    """``values`` rounded to the nearest float32, held as a plain float64 array.

    scikit-learn's trees read every feature as float32: they split on float32 values and
    compare a row's float32 value with a float64 threshold. Rounding the data the same way,
    once, at the edge of the engine (fit, the walks, the scans) makes every midpoint and every
    comparison the engine makes exactly scikit-learn's, while the loops keep their one kind of
    array (a float32 value is exact in float64, so no comparison changes by the widening).
    Values beyond float32's range become infinite; NaN stays NaN.
    """
    with np.errstate(over="ignore"):
        rounded = np.asarray(values, dtype=np.float32)
    return plain_array(rounded, np.float64)


def threshold_as_written(threshold: float) -> float:
    """A threshold a person chose (a slider's 1.7, a student's answer), rounded to float32.

    A tree's own threshold lies between two float32 values and is kept as it is; a person's
    1.7 means "1.7 and below". Rounded like the features, it keeps every row whose value is
    1.7 (1.70000005 as float32) on the left, as the person expects, where the float64 1.7
    would send them right.
    """
    with np.errstate(over="ignore"):
        return float(np.float32(threshold))
