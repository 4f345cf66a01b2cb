"""core.engine.compiled: what `make setup` compiles ahead of time is all that a server runs.

numba compiles a function again, for seconds, for every new kind of array it is given (read-only,
Fortran-ordered, strided, another dtype). Each test runs in a fresh process, so that what other
tests compiled cannot hide a second compilation.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Fits and predicts on every kind of array a page may hand the engine, then counts how many
# versions of each compiled function the process holds.
SCRIPT = """
import json
import numpy as np
from core import (
    DecisionTreeClassifier, DecisionTreeRegressor, RandomForestClassifier, RandomForestRegressor
)
from core.engine import criteria, grow, scan, sorting, walk
from core.engine.compiled import compile_everything

compile_everything()
rng = np.random.default_rng(0)
X = rng.normal(size=(80, 3))
X[::9, 2] = np.nan
labels = (X[:, 0] > 0).astype(int)
targets = X[:, 1] * 2.0
read_only = X.copy()
read_only.flags.writeable = False
fixed_targets = targets.copy()
fixed_targets.flags.writeable = False
kinds = [X, np.asfortranarray(X), X.astype(np.float32), X[::1, :], read_only, X.tolist()]
for data in kinds:
    for y in (labels, labels.astype(float)):
        tree = DecisionTreeClassifier(max_features=2, random_state=0).fit(data, y)
        tree.predict_proba(data), tree.apply(data), tree.decision_path(data)
        forest = RandomForestClassifier(3, random_state=0).fit(data, y)
        forest.predict_proba(data), forest.apply(data)
    for y in (targets, fixed_targets):
        for criterion in ("squared_error", "absolute_error"):
            DecisionTreeRegressor(criterion=criterion).fit(data, y).predict(data)
            RandomForestRegressor(3, criterion=criterion, random_state=0).fit(data, y).predict(data)
    column = np.asarray(data, dtype=float)[:, 1]
    scan.scan_feature(column, fixed_targets, criterion="squared_error")
    scan.scan_feature(column, labels, criterion="entropy")
    criteria.gini(np.array([[3, 1], [2, 2]])), criteria.entropy(np.array([[3, 1]]))
    criteria.weighted_median(fixed_targets)
functions = {
    "grow_tree": grow.grow_tree,
    "rows_in_bag": sorting.rows_in_bag,
    "score_splits": scan.score_splits,
    "node_statistics": criteria.node_statistics,
    "node_gini": criteria.node_gini,
    "node_median": criteria.node_median,
    "node_entropy": criteria.node_entropy,
    "leaf_of_rows": walk.leaf_of_rows,
    "forest_leaves": walk.forest_leaves,
    "path_of_rows": walk.path_of_rows,
    "forest_mean": walk.forest_mean,
}
print(json.dumps({name: len(f.signatures) for name, f in functions.items()}))
"""


def test_every_kind_of_input_runs_what_was_compiled_ahead_of_time() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, check=True
    )
    versions = json.loads(done.stdout.strip().splitlines()[-1])
    assert versions == dict.fromkeys(versions, 1), versions
