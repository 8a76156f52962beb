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
# The pictures of the rules page and the embedded replay are drawn by goat at every build (docs/pictures.py),
# into _build/pictures, and served as _static/pictures/.
_PICTURES = Path(__file__).resolve().parent / "_build" / "pictures"
sys.path.insert(0, str(Path(__file__).resolve().parent))
import pictures  # noqa: E402

pictures.write(_PICTURES / "pictures")
html_static_path = ["_static", str(_PICTURES)]
html_css_files = ["goat.css"]

autodoc_typehints = "description"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_type_aliases = {"FaultPolicy": "goat.arena.FaultPolicy"}

# Intersphinx links to Python, attrs and Hypothesis.  The docs build without the web: each inventory is read from
# the copy vendored in docs/_inventories/ first (the web only if that copy is missing), and the links it makes
# still go to the projects' sites (the first item of each pair).  The copies come from Debian 12's documentation
# packages:
#   python.inv      python3.11-doc 3.11.2 (via python3-doc)   /usr/share/doc/python3.11/html/objects.inv
#   attrs.inv       python-attr-doc 22.2.0                    /usr/share/doc/python-attr-doc/html/objects.inv
#   hypothesis.inv  python-hypothesis-doc 6.67.1              /usr/share/doc/python-hypothesis-doc/html/objects.inv
# To refresh one, download the site's own inventory over it, e.g.
#   curl -fsSL -o docs/_inventories/hypothesis.inv https://hypothesis.readthedocs.io/en/latest/objects.inv
# (or copy it from a newer Debian package) and check that `sphinx-build -W --keep-going docs /tmp/html` stays clean.
_INVENTORIES = Path(__file__).resolve().parent / "_inventories"
intersphinx_mapping = {
    "python": ("https://docs.python.org/3", (str(_INVENTORIES / "python.inv"), None)),
    "attrs": ("https://www.attrs.org/en/stable", (str(_INVENTORIES / "attrs.inv"), None)),
    "hypothesis": ("https://hypothesis.readthedocs.io/en/latest", (str(_INVENTORIES / "hypothesis.inv"), None)),
}
intersphinx_timeout = 5
nitpicky = False
