"""Sphinx configuration for the goat-cards documentation.  Build: sphinx-build -W --keep-going docs docs/_build/html"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from typing import Any

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
autodoc_type_aliases = {
    "FaultPolicy": "goat.arena.FaultPolicy",
    "Sandbox": "goat.arena.sandbox.Sandbox",
    "Validator": "jsonschema.protocols.Validator",  # imported for type checking only (goat.records.validator)
}

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

# Every cross-reference must resolve (tests/test_docs_build.py builds with -W, and checks every local link and anchor
# of the built site), except these, which have no target to resolve to:
nitpicky = True
# numpy, Gymnasium, PettingZoo, OpenSpiel and jsonschema types in goat's signatures: their projects' inventories
# are not vendored (docs/_inventories/), so they show as plain names.
nitpick_ignore_regex = [(r"py:.*", r"(numpy|np|gymnasium|pettingzoo|pyspiel|open_spiel|jsonschema)(\..+)?")]
nitpick_ignore = [
    ("py:class", "AutoresetMode"),  # Gymnasium's, as goat.batch.env's signature names it
    # standard library classes that autodoc names by their private home, or that Python's docs do not list
    ("py:class", "concurrent.futures._base.Executor"),
    ("py:class", "metadata.EntryPoint"),
    # goat's internal types in public signatures: not part of the API reference
    ("py:class", "goat.arena.tournament.Sealing"),
    ("py:class", "goat.arena.sandbox.BotGroup"),
    # goat.batch's internal types, named by its public signatures
    ("py:class", "goat.batch.position.Position"),
    ("py:class", "goat.batch.legal.Legal"),
    ("py:class", "goat.batch.seeds.Deals"),
    ("py:attr", "action_space"),
]


# sphinx.ext.viewcode links each object of a source file back to the reference under the name of the module that
# documented the file's first object (goat.arena for goat/records/values.py, through goat.arena.MatchRecord), but
# goat documents some objects of a file under one public module and some under another (goat.records.GameRecord):
# those [docs] links pointed at anchors that do not exist.  Point each at the anchor of the object it shows.
_BACKLINK = re.compile(r'(<div class="viewcode-block" id="([^"]+)">\s*<a class="viewcode-back" href=")([^"]*)(")')


def _documented(module: str, name: str, objects: dict[str, Any]) -> Any:
    """The Python domain's entry of the object ``module.name`` as the reference documents it, or None."""
    found = objects.get(f"{module}.{name}")
    if found is not None:
        return found  # documented where it is defined, or a class's canonical alias
    here = _resolve(module, name)
    for documented, entry in objects.items():
        where = documented.removesuffix(f".{name}")
        if where != documented and not entry.aliased and here is not None and _resolve(where, name) is here:
            return entry
    return None


def _resolve(module: str, name: str) -> object:
    try:
        value: object = importlib.import_module(module)
        for part in name.split("."):
            value = getattr(value, part)
    except (ImportError, AttributeError):
        return None
    return value


def _fix_backlinks(app: Any, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    if not pagename.startswith("_modules/") or "body" not in context:
        return
    module = pagename.removeprefix("_modules/").replace("/", ".")
    objects = app.env.get_domain("py").objects

    def link(match: re.Match[str]) -> str:
        entry = _documented(module, match.group(2), objects)
        if entry is None:
            return match.group(0)
        href = f"{app.builder.get_relative_uri(pagename, entry.docname)}#{entry.node_id}"
        return f"{match.group(1)}{href}{match.group(4)}"

    context["body"] = _BACKLINK.sub(link, context["body"])


def setup(app: Any) -> None:
    app.connect("html-page-context", _fix_backlinks)
