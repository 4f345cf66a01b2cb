"""Checking hyperparameters and turning them into concrete numbers for a given dataset.

Every check raises ``ValueError`` (bad value) or ``TypeError`` (bad type) with a message that
names the parameter, says the rule and repeats the value received, e.g.
``max_depth must be an int >= 1 or None; got 0``.
"""

from __future__ import annotations

import math
import numbers
import os
from dataclasses import dataclass
from typing import Any

from core.engine.criteria import CLASSIFICATION_CRITERIA, REGRESSION_CRITERIA, Criterion


@dataclass(frozen=True)
class GrowthParams:
    """Resolved growth settings (the estimators turn their hyperparameters into these).

    Attributes
    ----------
    criterion : str
        ``"gini"``, ``"entropy"``, ``"log_loss"``, ``"squared_error"`` or ``"absolute_error"``.
    n_classes : int
        Number of classes; 0 for regression.
    max_depth : int
        Nodes at this depth are leaves.
    min_samples_split : int
        Nodes with fewer samples are leaves.
    min_samples_leaf : int
        Every child keeps at least this many samples.
    min_impurity_decrease : float
        A split must decrease the weighted impurity,
        ``w_t / w * (I(t) - w_L / w_t * I(L) - w_R / w_t * I(R))``, by at least this much.
    max_features : int
        Number of features tried at every split (all ``d`` for no sampling).
    """

    criterion: Criterion
    n_classes: int
    max_depth: int
    min_samples_split: int
    min_samples_leaf: int
    min_impurity_decrease: float
    max_features: int


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _is_real(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def check_criterion(criterion: Any, *, classification: bool) -> str:
    """Validate ``criterion``; return it with ``"log_loss"`` mapped to ``"entropy"``."""
    allowed = CLASSIFICATION_CRITERIA if classification else REGRESSION_CRITERIA
    if not isinstance(criterion, str) or criterion not in allowed:
        raise ValueError(
            f"criterion must be one of {', '.join(map(repr, allowed))}; got {criterion!r}"
        )
    return "entropy" if criterion == "log_loss" else criterion


def check_max_depth(max_depth: Any) -> int | None:
    """``max_depth``: an int >= 1, or None for no limit."""
    if max_depth is None:
        return None
    if not _is_int(max_depth):
        raise TypeError(f"max_depth must be an int >= 1 or None; got {max_depth!r}")
    if max_depth < 1:
        raise ValueError(f"max_depth must be an int >= 1 or None; got {max_depth!r}")
    return int(max_depth)


def _count_or_fraction(name: str, value: Any, *, min_int: int, n_samples: int) -> int:
    """An int >= ``min_int``, or a float fraction of ``n_samples`` (rounded up)."""
    if _is_int(value):
        if value < min_int:
            raise ValueError(
                f"{name} must be an int >= {min_int} or a float in (0, 1]; got {value!r}"
            )
        return int(value)
    if _is_real(value):
        if not 0.0 < float(value) <= 1.0:
            raise ValueError(
                f"{name} must be an int >= {min_int} or a float in (0, 1]; got {value!r}"
            )
        return max(1, math.ceil(float(value) * n_samples))
    raise TypeError(f"{name} must be an int >= {min_int} or a float in (0, 1]; got {value!r}")


def resolve_min_samples(
    min_samples_split: Any, min_samples_leaf: Any, n_samples: int
) -> tuple[int, int]:
    """Resolve ``(min_samples_split, min_samples_leaf)`` to sample counts.

    ``min_samples_split`` is an int >= 2 or a fraction; ``min_samples_leaf`` an int >= 1 or a
    fraction. A node needs at least ``2 * min_samples_leaf`` samples to have a valid split, so
    the effective ``min_samples_split`` is at least that (as in scikit-learn).
    """
    if _is_real(min_samples_split) and not _is_int(min_samples_split):
        if not 0.0 < float(min_samples_split) <= 1.0:
            rule = "an int >= 2 or a float in (0, 1]"
            raise ValueError(f"min_samples_split must be {rule}; got {min_samples_split!r}")
        split = max(2, math.ceil(float(min_samples_split) * n_samples))
    else:
        split = _count_or_fraction(
            "min_samples_split", min_samples_split, min_int=2, n_samples=n_samples
        )
    leaf = _count_or_fraction("min_samples_leaf", min_samples_leaf, min_int=1, n_samples=n_samples)
    return max(split, 2 * leaf), leaf


def check_non_negative(name: str, value: Any) -> float:
    """A finite real number >= 0 (``min_impurity_decrease``, ``ccp_alpha``)."""
    if not _is_real(value):
        raise TypeError(f"{name} must be a float >= 0; got {value!r}")
    if not math.isfinite(float(value)) or value < 0:
        raise ValueError(f"{name} must be a float >= 0; got {value!r}")
    return float(value)


def resolve_max_features(max_features: Any, n_features: int) -> int:
    """Number of features drawn at every split.

    ``None``: all; ``"sqrt"``: ``floor(sqrt(d))``; ``"log2"``: ``floor(log2(d))``; an int in
    ``[1, d]``; a float in ``(0, 1]``: ``floor(max_features * d)``. Never less than 1.
    """
    rule = "None, 'sqrt', 'log2', an int in [1, n_features] or a float in (0, 1]"
    if max_features is None:
        return n_features
    if isinstance(max_features, str):
        if max_features == "sqrt":
            return max(1, int(math.sqrt(n_features)))
        if max_features == "log2":
            return max(1, int(math.log2(n_features)))
        raise ValueError(f"max_features must be {rule}; got {max_features!r}")
    if _is_int(max_features):
        if not 1 <= max_features <= n_features:
            raise ValueError(
                f"max_features must be {rule} (n_features={n_features}); got {max_features!r}"
            )
        return int(max_features)
    if _is_real(max_features):
        if not 0.0 < float(max_features) <= 1.0:
            raise ValueError(f"max_features must be {rule}; got {max_features!r}")
        return max(1, int(float(max_features) * n_features))
    raise TypeError(f"max_features must be {rule}; got {max_features!r}")


def check_random_state(random_state: Any) -> int | None:
    """``random_state``: None (fresh entropy) or a non-negative int seed (0 is a seed)."""
    if random_state is None:
        return None
    if isinstance(random_state, (numbers.Integral)) and not isinstance(random_state, bool):
        if random_state < 0:
            raise ValueError(f"random_state must be None or an int >= 0; got {random_state!r}")
        return int(random_state)
    raise TypeError(f"random_state must be None or an int >= 0; got {random_state!r}")


def check_n_estimators(n_estimators: Any) -> int:
    """``n_estimators``: an int >= 1."""
    if not _is_int(n_estimators):
        raise TypeError(f"n_estimators must be an int >= 1; got {n_estimators!r}")
    if n_estimators < 1:
        raise ValueError(f"n_estimators must be an int >= 1; got {n_estimators!r}")
    return int(n_estimators)


def resolve_max_samples(max_samples: Any, n_samples: int) -> int:
    """Bootstrap sample size: None (``n_samples``), an int in ``[1, n]`` or a float in (0, 1]."""
    rule = "None, an int in [1, n_samples] or a float in (0, 1]"
    if max_samples is None:
        return n_samples
    if _is_int(max_samples):
        if not 1 <= max_samples <= n_samples:
            raise ValueError(
                f"max_samples must be {rule} (n_samples={n_samples}); got {max_samples!r}"
            )
        return int(max_samples)
    if _is_real(max_samples):
        if not 0.0 < float(max_samples) <= 1.0:
            raise ValueError(f"max_samples must be {rule}; got {max_samples!r}")
        return max(1, round(float(max_samples) * n_samples))
    raise TypeError(f"max_samples must be {rule}; got {max_samples!r}")


def check_n_jobs(n_jobs: Any) -> int:
    """Threads for a forest's trees: None or 1 -> 1, -1 -> every core, k > 0 -> k."""
    if n_jobs is None:
        return 1
    if not _is_int(n_jobs) or n_jobs == 0 or n_jobs < -1:
        raise ValueError(f"n_jobs must be None, -1 or an int >= 1; got {n_jobs!r}")
    return (os.cpu_count() or 1) if n_jobs == -1 else int(n_jobs)


def check_bool(name: str, value: Any) -> bool:
    """A plain bool (``bootstrap``, ``oob_score``)."""
    if not isinstance(value, (bool, numbers.Integral)) or value not in (0, 1, True, False):
        raise TypeError(f"{name} must be True or False; got {value!r}")
    return bool(value)


#: Stands for "no depth limit" inside the growing loop.
UNLIMITED_DEPTH = 2**31 - 1


def resolve_growth_params(
    settings: Any, *, classification: bool, n_samples: int, n_features: int, n_classes: int
) -> GrowthParams:
    """Check a tree's hyperparameters and resolve them for one dataset.

    Parameters
    ----------
    settings : object
        Anything with a tree's hyperparameters as attributes (``criterion``, ``max_depth``,
        ``min_samples_split``, ``min_samples_leaf``, ``min_impurity_decrease``,
        ``max_features``): a tree, or a forest applying them to every tree.
    classification : bool
    n_samples, n_features : int
        Shape of the training data.
    n_classes : int
        Number of classes; 0 for regression.
    """
    criterion = check_criterion(settings.criterion, classification=classification)
    max_depth = check_max_depth(settings.max_depth)
    split, leaf = resolve_min_samples(
        settings.min_samples_split, settings.min_samples_leaf, n_samples
    )
    return GrowthParams(
        criterion=criterion,  # type: ignore[arg-type]
        n_classes=n_classes,
        max_depth=UNLIMITED_DEPTH if max_depth is None else max_depth,
        min_samples_split=split,
        min_samples_leaf=leaf,
        min_impurity_decrease=check_non_negative(
            "min_impurity_decrease", settings.min_impurity_decrease
        ),
        max_features=resolve_max_features(settings.max_features, n_features),
    )
