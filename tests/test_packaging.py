"""The sdist and the wheel hold what a release needs, and nothing twice.

One build per session: ``python -m build --no-isolation`` (the ``test`` extra installs ``build`` and ``hatchling``)
builds the sdist from this checkout, then the wheel from the sdist — as pip does — into a temporary directory.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tarfile
import zipfile
from collections import defaultdict
from email.parser import HeaderParser
from pathlib import Path

import pytest

pytest.importorskip("build")
pytest.importorskip("hatchling")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    command = [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    return out


@pytest.fixture(scope="module")
def sdist(dist: Path) -> dict[str, bytes]:
    """The sdist's files by path below its top directory (goat_cards-<version>/), with their contents."""
    (archive,) = dist.glob("*.tar.gz")
    files = {}
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            if member.isfile():
                top, _, path = member.name.partition("/")
                assert top == archive.name.removesuffix(".tar.gz"), member.name
                stream = tar.extractfile(member)
                assert stream is not None
                files[path] = stream.read()
    return files


@pytest.fixture(scope="module")
def wheel(dist: Path) -> zipfile.ZipFile:
    (archive,) = dist.glob("*.whl")
    return zipfile.ZipFile(archive)


def test_the_sdist_has_what_the_tests_and_docs_need(sdist: dict[str, bytes]) -> None:
    for path in ("pyproject.toml", "README.md", "CHANGELOG.md", "LICENSE", "conftest.py", "goat/py.typed"):
        assert path in sdist, path
    assert sdist["conftest.py"] == (ROOT / "conftest.py").read_bytes()  # the Hypothesis profiles
    assert sdist["LICENSE"].startswith(b"MIT License")
    for directory in ("tests/", "docs/", "docs/_inventories/", "examples/", "benchmarks/"):
        assert any(path.startswith(directory) for path in sdist), directory
    assert "tests/test_packaging.py" in sdist
    assert "docs/_static/strength.png" in sdist


def test_the_sdist_ships_no_repository_machinery(sdist: dict[str, bytes]) -> None:
    hidden = sorted(path for path in sdist if any(part.startswith(".") for part in path.split("/")))
    assert hidden == [], hidden  # no .gitignore (hatch_build.py), .ci/, .venv*/, .hypothesis/, caches
    assert not any(path.endswith((".pyc", ".pyo")) or "__pycache__" in path for path in sdist)
    assert not any(path.startswith(("docs/_build/", "build/", "dist/")) for path in sdist)


def test_the_sdist_ships_no_gitignore(sdist: dict[str, bytes]) -> None:
    assert ".gitignore" not in sdist


def test_the_sdist_has_no_file_twice(sdist: dict[str, bytes]) -> None:
    """No two files with the same contents (an image copied beside its source, say); empty files aside."""
    by_content = defaultdict(list)
    for path, content in sdist.items():
        if content.strip():
            by_content[hashlib.sha256(content).hexdigest()].append(path)
    assert [paths for paths in by_content.values() if len(paths) > 1] == []


def test_the_wheel_holds_the_package_typed_and_licensed(wheel: zipfile.ZipFile) -> None:
    names = wheel.namelist()
    assert "goat/py.typed" in names
    (info,) = {name.split("/")[0] for name in names if ".dist-info/" in name}
    assert {name.split("/")[0] for name in names} == {"goat", info}
    assert f"{info}/licenses/LICENSE" in names
    assert wheel.read(f"{info}/licenses/LICENSE").startswith(b"MIT License")
    metadata = HeaderParser().parsestr(wheel.read(f"{info}/METADATA").decode("utf-8"))
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"]
    assert "Programming Language :: Python :: 3.13" in metadata.get_all("Classifier", [])
    urls = dict(url.split(", ", 1) for url in metadata.get_all("Project-URL", []))
    assert set(urls) == {"Homepage", "Documentation", "Changelog", "Issues"}
    assert urls["Changelog"].endswith("/CHANGELOG.md")
