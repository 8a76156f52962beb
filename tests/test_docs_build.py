"""The documentation builds cleanly without the web, and its API reference is complete.

One Sphinx build (``python -m sphinx -W --keep-going``, in a subprocess so that pytest's ``filterwarnings = error``
and Sphinx's global state stay apart) into a temporary directory -- nitpicky (docs/conf.py), so that every
cross-reference must resolve; then every name in the ``__all__`` of every public module must be in the built
``objects.inv`` as a Python object, under its module's name or under the ``goat.`` name it is re-exported as, and
every local link and anchor of the built site must lead somewhere.  Needs the ``docs`` extra (the ``test`` extra
includes it).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import re
import subprocess
import sys
import zlib
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

import goat
import goat.adapters
import goat.bots

pytest.importorskip("sphinx")
pytest.importorskip("myst_parser")
pytest.importorskip("furo")

DOCS = Path(__file__).resolve().parent.parent / "docs"
# One line of a version 2 inventory: name, domain:role, priority, location, display name.
ENTRY = re.compile(r"(?x) (.+?) \s+ (\S+?):(\S+) \s+ (-?\d+) \s+ (\S*) \s+ (.*)")


def public_modules() -> list[str]:
    """The modules whose ``__all__`` is public API: the core's, and every public bot and adapter module."""
    found = ["goat", "goat.arena", "goat.batch", "goat.batch.env", "goat.records", "goat.plugins", "goat.strategy"]
    found += ["goat.svg", "goat.testing"]
    for package in (goat.bots, goat.adapters):
        found += [
            f"{package.__name__}.{info.name}"
            for info in pkgutil.iter_modules(package.__path__)
            if not info.name.startswith("_")
        ]
    return found


def python_objects(inventory: Path) -> set[str]:
    """The names of the Python objects (domain ``py``) in a Sphinx objects.inv."""
    with inventory.open("rb") as stream:
        header = [stream.readline() for _ in range(4)]
        body = zlib.decompress(stream.read()).decode("utf-8")
    assert header[0].rstrip() == b"# Sphinx inventory version 2", header[0]
    names = set()
    for line in body.splitlines():
        match = ENTRY.fullmatch(line.rstrip())
        if match and match.group(2) == "py":
            names.add(match.group(1))
    return names


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The HTML site, built once with warnings as errors, intersphinx reading the vendored inventories."""
    out = tmp_path_factory.mktemp("html")
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(DOCS), str(out)]
    # No proxy either: intersphinx must never need the web (docs/conf.py, docs/_inventories/).
    environment = {key: value for key, value in os.environ.items() if "proxy" not in key.lower()}
    done = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=600, check=False)
    assert done.returncode == 0, f"sphinx-build failed or warned:\n{done.stdout}\n{done.stderr}"
    assert not done.stderr.strip(), f"sphinx-build warned:\n{done.stderr}"
    return out


def test_the_docs_build_without_warnings(built: Path) -> None:
    assert (built / "index.html").is_file()
    assert (built / "api.html").is_file()
    assert (built / "_images" / "strength.png").is_file() or (built / "_static" / "strength.png").is_file()


def test_every_public_name_is_in_the_reference(built: Path) -> None:
    documented = python_objects(built / "objects.inv")
    assert "goat.new_game" in documented  # the inventory was read at all
    missing = []
    for name in public_modules():
        module = importlib.import_module(name)
        exported = getattr(module, "__all__", None)
        assert exported is not None, f"{name} has no __all__"
        missing += [
            f"{name}.{attribute}"
            for attribute in exported
            if f"{name}.{attribute}" not in documented and f"goat.{attribute}" not in documented
        ]
    assert not missing, f"public names missing from the API reference: {missing}"


def test_intersphinx_links_go_to_the_projects_sites(built: Path) -> None:
    """The vendored inventories resolve references, and the links they make point at the web, not at files."""
    pages = "".join(page.read_text(encoding="utf-8") for page in built.glob("*.html"))
    assert re.search(r'href="https://docs\.python\.org/3/library/[^"]+#', pages)
    assert re.search(r'href="https://hypothesis\.readthedocs\.io/en/latest/[^"]+#hypothesis\.', pages)
    assert "_inventories" not in pages


class Page(HTMLParser):
    """One built page's anchors (``id``, ``<a name>``), its links (``href``, ``src``) and its captions' markup."""

    def __init__(self) -> None:
        super().__init__()
        self.anchors: set[str] = set()
        self.links: list[str] = []
        self.captions: list[str] = []
        self._caption_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if attributes.get("id"):
            self.anchors.add(str(attributes["id"]))
        if tag == "a" and attributes.get("name"):
            self.anchors.add(str(attributes["name"]))
        self.links += [str(attributes[key]) for key in ("href", "src") if attributes.get(key) is not None]
        if self._caption_depth:
            self._caption_depth += 1
            self.captions[-1] += f"<{tag}>"
        elif tag == "span" and attributes.get("class") == "caption-text":
            self._caption_depth = 1
            self.captions.append("")

    def handle_endtag(self, tag: str) -> None:
        if self._caption_depth:
            self._caption_depth -= 1
            if self._caption_depth:
                self.captions[-1] += f"</{tag}>"

    def handle_data(self, data: str) -> None:
        if self._caption_depth:
            self.captions[-1] += data


def pages_of(built: Path) -> dict[Path, Page]:
    pages = {}
    for path in built.rglob("*.html"):
        page = Page()
        page.feed(path.read_text(encoding="utf-8"))
        pages[path.resolve()] = page
    return pages


def test_every_local_link_and_anchor_of_the_site_resolves(built: Path) -> None:
    """Pages, the API reference, the highlighted sources and their [docs] links: every link within the site."""
    pages = pages_of(built)
    broken = []
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc:
                continue  # the web: intersphinx's links, checked by test_intersphinx_links_go_to_the_projects_sites
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            where = f"{path.relative_to(built.resolve())}: {link}"
            if not target.is_file():
                broken.append(f"{where} (no such file)")
            elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in pages[target].anchors:
                broken.append(f"{where} (no such anchor)")
    assert len(pages) > 20 and any("_modules" in str(path) for path in pages)  # the site and its sources were read
    assert broken == []


def test_captions_show_their_file_names_as_written(built: Path) -> None:
    """No Markdown inside a caption: ``__init__`` is a name, not bold ``init``."""
    captions = {caption for page in pages_of(built).values() for caption in page.captions}
    assert "goat_plugin_example/__init__.py" in captions
    assert [caption for caption in captions if "<" in caption] == []
