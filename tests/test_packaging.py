"""The sdist and the wheel hold what a release needs, and nothing twice.

One build per session: ``python -m build --no-isolation`` (the ``test`` extra installs ``build`` and ``hatchling``)
builds the sdist from this checkout, then the wheel from the sdist — as pip does — into a temporary directory.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tarfile
import zipfile
from collections import defaultdict
from email.parser import HeaderParser
from pathlib import Path

import pytest

import goat
from goat import _core

pytest.importorskip("build")
pytest.importorskip("hatchling")

ROOT = Path(__file__).resolve().parent.parent


def build(*arguments: str, cache: Path) -> subprocess.CompletedProcess[str]:
    """``python -m build --no-isolation ARGUMENTS``, compiled cores cached in ``cache`` (not the user's cache)."""
    env = {key: value for key, value in os.environ.items() if key != "GOAT_PURE_PYTHON"}
    env["GOAT_BUILD_CACHE"] = str(cache)
    command = [sys.executable, "-m", "build", "--no-isolation", *arguments]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False, env=env)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mypyc-cache")


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory, cache: Path) -> Path:
    out = tmp_path_factory.mktemp("dist")
    build("--outdir", str(out), str(ROOT), cache=cache)
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
    # The learned player model's weights (goat.bots.learned reads them with importlib.resources): small.
    assert "goat/bots/learned.json" in names and wheel.getinfo("goat/bots/learned.json").file_size < 2_000_000
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


def compiles_here() -> bool:
    """Whether a build on this machine compiles the core: it did for the goat that runs these tests."""
    return _core.COMPILED


def compiled_core(wheel: zipfile.ZipFile) -> dict[str, bytes]:
    return {name: wheel.read(name) for name in wheel.namelist() if name.startswith("goat/_c") and name.endswith(".so")}


@pytest.mark.skipif(not compiles_here(), reason="no compiled core here: this machine builds pure-Python wheels")
def test_the_wheel_carries_the_compiled_core_and_a_platform_tag(wheel: zipfile.ZipFile) -> None:
    assert {name.split("/")[1].split(".")[0] for name in compiled_core(wheel)} == {
        "_ccore__mypyc",
        "_ckernel",
        "_csearch",
    }
    assert not any(name.endswith((".c", ".h")) for name in wheel.namelist())  # mypyc's C sources stay behind
    tag = Path(str(wheel.filename)).name.removesuffix(".whl").split("-")[2:]
    python = f"cp{sys.version_info.major}{sys.version_info.minor}"
    assert tag[:2] == [python, python] and tag[2] != "any", tag


@pytest.mark.skipif(not compiles_here(), reason="no compiled core here: this machine builds pure-Python wheels")
def test_the_wheel_installs_without_a_compiler_and_runs_compiled(wheel: zipfile.ZipFile, tmp_path: Path) -> None:
    target = tmp_path / "site"
    # No compiler on the way: CC names a program that fails, and pip is not allowed an index.
    env = {key: value for key, value in os.environ.items() if key not in ("GOAT_PURE_PYTHON", "PYTHONPATH")}
    env.update(CC="false", CXX="false")
    install = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--target", str(target)]
    subprocess.run([*install, str(wheel.filename)], check=True, env=env, timeout=300)
    assert not list(target.glob("goat/*.c"))
    env["PYTHONPATH"] = str(target)  # before the editable install of this checkout on sys.path
    code = "import goat; print(goat.__file__); print(goat.build_info())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)
    where, info = done.stdout.splitlines()
    assert Path(where).parent == target / "goat"
    assert info == goat.build_info() and info.startswith("compiled (mypyc ")


def test_twine_check_passes_on_the_sdist_and_the_wheel(dist: Path) -> None:
    pytest.importorskip("twine")
    files = sorted(str(path) for path in dist.iterdir())
    assert len(files) == 2
    done = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *files], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    assert done.stdout.count("PASSED") == 2, done.stdout


@pytest.mark.skipif(not compiles_here(), reason="no compiled core here: this machine builds pure-Python wheels")
def test_building_the_wheel_again_reuses_the_compiled_core(
    dist: Path, wheel: zipfile.ZipFile, cache: Path, tmp_path: Path
) -> None:
    """The build hook's cache (hatch_build.py), with the real mypyc: the second build of the same sources copies."""
    (sdist,) = dist.glob("*.tar.gz")
    done = build("--wheel", "--outdir", str(tmp_path), str(sdist), cache=cache)
    assert "reusing the rules core compiled before" in done.stdout + done.stderr
    assert "compiling the rules core" not in done.stdout + done.stderr
    (again,) = tmp_path.glob("*.whl")
    assert compiled_core(zipfile.ZipFile(again)) == compiled_core(wheel)
