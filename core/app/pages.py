"""The registry of pages: one entry per script, read by everything that lists pages.

The home page's links, the sidebar's page list, URL state (which page a run belongs to) and
the tests all iterate :data:`PAGES`; a new page is a script in ``pages/`` and one entry here.
Streamlit still discovers the scripts in ``pages/`` itself, so every page keeps its own URL.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from core.app.settings import (
    Form,
    GiniEntropySettings,
    GrowStepSettings,
    RandomForestSettings,
    SingleTreeSettings,
)


@dataclass(frozen=True)
class Page:
    """One page of the app.

    Attributes
    ----------
    path : str
        The script, relative to the project root (``"pages/1_Single_tree.py"``).
    title : str
        Its heading, link label and browser-tab title (with " · Arboretum").
    icon : str
        Material icon of its links (``":material/park:"``).
    tab_icon : str
        Emoji of its browser tab.
    settings : Form or None
        Its settings (None for the home page, which has no settings).
    """

    path: str
    title: str
    icon: str
    tab_icon: str
    settings: Form | None = None

    @property
    def url_path(self) -> str:
        """The path Streamlit serves the page at: ``"Single_tree"``; ``""`` for the home page."""
        if self.settings is None:
            return ""
        return re.sub(r"^\d+_", "", PurePosixPath(self.path).stem)

    @property
    def tab_title(self) -> str:
        return "Arboretum" if self.settings is None else f"{self.title} · Arboretum"


HOME = Page("app.py", "Home", ":material/home:", "🌳")
SINGLE_TREE = Page(
    "pages/1_Single_tree.py", "Single tree", ":material/park:", "🌳", SingleTreeSettings
)
RANDOM_FOREST = Page(
    "pages/2_Random_forest.py", "Random forest", ":material/forest:", "🌲", RandomForestSettings
)
GINI_VS_ENTROPY = Page(
    "pages/3_Gini_vs_entropy.py",
    "Gini vs entropy",
    ":material/balance:",
    "⚖️",
    GiniEntropySettings,
)
GROW_STEP_BY_STEP = Page(
    "pages/4_Grow_it_step_by_step.py",
    "Grow it step by step",
    ":material/account_tree:",
    "🌱",
    GrowStepSettings,
)

#: Every page, in the order the sidebar and the home page list them.
PAGES: tuple[Page, ...] = (HOME, SINGLE_TREE, RANDOM_FOREST, GINI_VS_ENTROPY, GROW_STEP_BY_STEP)

__all__ = [
    "GINI_VS_ENTROPY",
    "GROW_STEP_BY_STEP",
    "HOME",
    "PAGES",
    "RANDOM_FOREST",
    "SINGLE_TREE",
    "Page",
]
