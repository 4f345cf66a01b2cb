"""The old name of :mod:`core.engine.replay`, kept only while a page still imports it.

Delete this file once ``pages/4_Grow_it_step_by_step.py`` imports ``core.engine.replay``.
"""

from core.engine.replay import (
    GrowthPrefix,
    GrowthSteps,
    estimator_after,
    growth_steps,
    prefix_after,
    tree_after,
)

__all__ = [
    "GrowthPrefix",
    "GrowthSteps",
    "estimator_after",
    "growth_steps",
    "prefix_after",
    "tree_after",
]
