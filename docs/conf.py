"""Sphinx configuration for the goat-cards documentation.  Build: sphinx-build -W --keep-going docs docs/_build/html"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import goat  # noqa: E402

project = "goat-cards"
author = "goat-cards developers"
copyright = "2026, goat-cards developers"
release = goat.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

html_theme = "furo"
html_title = f"goat-cards {release}"
html_static_path = ["_static"]

autodoc_typehints = "description"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_type_aliases = {"FaultPolicy": "goat.arena.FaultPolicy"}

# Intersphinx links to Python, attrs and Hypothesis.  Each inventory is fetched from the web, and where
# there is no web (this project's CI) read from Debian's documentation packages instead, which .ci/run
# installs (python3-doc, python-attr-doc, python-hypothesis-doc).
_DEBIAN = "/usr/share/doc"
intersphinx_mapping = {
    "python": ("https://docs.python.org/3", (None, f"{_DEBIAN}/python3.11/html/objects.inv")),
    "attrs": ("https://www.attrs.org/en/stable", (None, f"{_DEBIAN}/python-attr-doc/html/objects.inv")),
    "hypothesis": (
        "https://hypothesis.readthedocs.io/en/latest",
        (None, f"{_DEBIAN}/python-hypothesis-doc/html/objects.inv"),
    ),
}
intersphinx_timeout = 5
nitpicky = False
