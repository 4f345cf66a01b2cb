"""Numba's cache of compiled machine code, kept in step with the engine's source.

``@njit(cache=True)`` keeps each compiled function in ``__pycache__`` beside its module, and
numba checks only that module's own file when it reloads it. The growing loop in ``grow.py``
has the formulas of ``criteria.py`` compiled into it, so an edit of ``criteria.py`` alone
would leave the old formulas running in the cached loop. :func:`forget_stale_machine_code`
removes the engine's cached machine code whenever any of the engine's source files changed
since it was compiled. It runs when :mod:`core.engine` is imported, before anything is
compiled.

``make setup`` (and the Docker image) compile everything once ahead of time
(``python -m core.engine``), so a server's first page does not wait for it; the arrays the
loops are given are of one kind only (:func:`core.engine.arrays.plain_array`), so what was
compiled ahead of time is what a server runs.
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

ENGINE = Path(__file__).resolve().parent
CACHE = ENGINE / "__pycache__"
STAMP = CACHE / "numba-sources.sha256"


def sources_digest() -> str:
    """SHA-256 of every Python source file of the engine, in name order."""
    digest = hashlib.sha256()
    for path in sorted(ENGINE.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def forget_stale_machine_code() -> bool:
    """Delete numba's cached machine code of the engine if the sources changed since.

    Returns
    -------
    bool
        True when stale files were found and deleted. Nothing happens where the folder cannot
        be written (an installed, read-only copy, whose sources do not change either).
    """
    digest = sources_digest()
    try:
        if STAMP.exists() and STAMP.read_text() == digest:
            return False
        stale = [*CACHE.glob("*.nbi"), *CACHE.glob("*.nbc")]
        for path in stale:
            path.unlink(missing_ok=True)
        CACHE.mkdir(exist_ok=True)
        STAMP.write_text(digest)
    except OSError:
        return False
    return bool(stale)


def compile_everything() -> float:
    """Fit one tiny model of every kind, so every compiled function is compiled and cached.

    Returns
    -------
    float
        Seconds taken.
    """
    import numpy as np

    # The modules themselves, not the package: nothing the engine compiles imports this one.
    from core.engine.criteria import entropy, gini, squared_error_of_moments
    from core.engine.forest import RandomForestClassifier, RandomForestRegressor
    from core.engine.node_splits import why_leaf
    from core.engine.scan import scan_feature
    from core.engine.tree import DecisionTreeClassifier, DecisionTreeRegressor

    start = time.perf_counter()
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    X[::7, 1] = np.nan
    labels = (X[:, 0] > 0).astype(int)
    targets = X[:, 0] * 2.0
    for criterion in ("gini", "entropy"):
        model = DecisionTreeClassifier(criterion=criterion, max_features=2, random_state=0)
        model.fit(X, labels).predict_proba(X)
        model.apply(X), model.decision_path(X), model.feature_importances_
        forest = RandomForestClassifier(3, criterion=criterion, random_state=0).fit(X, labels)
        forest.predict(X), forest.apply(X), forest.mean_path_changes(X[0], 1)
        why_leaf(model, X, labels, int(np.flatnonzero(model.tree_.children_left == -1)[0]))
    for criterion in ("squared_error", "absolute_error"):
        DecisionTreeRegressor(criterion=criterion).fit(X, targets).predict(X)
        regressor = RandomForestRegressor(3, criterion=criterion, random_state=0)
        regressor.fit(X, targets).predict(X), regressor.mean_path_changes(X[0])
        scan_feature(X[:, 1], targets, criterion=criterion)  # type: ignore[arg-type]
    scan_feature(X[:, 1], labels, criterion="gini")
    counts = np.array([[3.0, 1.0], [2.0, 2.0]])
    gini(counts), entropy(counts), squared_error_of_moments(np.array([[4.0, 0.0, 5.0]]))
    return time.perf_counter() - start
