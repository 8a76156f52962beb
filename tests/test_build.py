"""Which core runs (goat/_core.py, goat.build_info), and what ``import goat`` loads.

CI (``.ci/run``) sets ``GOAT_EXPECT_COMPILED=1`` where the install must have compiled the core, so that a
build that silently fell back to pure Python fails there instead of passing slowly.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import goat
from goat import _core

PACKAGE = Path(goat.__file__).resolve().parent


def run_python(code: str, *, cwd: Path | None = None, **environment: str) -> str:
    """Run ``code`` in a fresh interpreter (importing goat from ``cwd`` if given); its standard output."""
    env = {key: value for key, value in os.environ.items() if key not in ("GOAT_PURE_PYTHON", "PYTHONPATH")}
    env.update(environment)
    if cwd is not None:
        env["PYTHONPATH"] = str(cwd)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=cwd, timeout=60, check=True
    )
    return done.stdout.strip()


def test_the_compiled_core_runs_where_ci_expects_it() -> None:
    if os.environ.get("GOAT_EXPECT_COMPILED", "") in ("", "0"):
        pytest.skip("GOAT_EXPECT_COMPILED is not set")
    if os.environ.get("GOAT_PURE_PYTHON", "") not in ("", "0"):
        pytest.skip("GOAT_PURE_PYTHON is set: this run tests the pure core")
    assert _core.COMPILED, f"the install should have compiled the core, but goat runs {goat.build_info()}"


def test_build_info_names_the_core_and_why() -> None:
    info = goat.build_info()
    assert info == _core.BUILD
    if _core.COMPILED:
        assert info.startswith("compiled (mypyc ")
        assert (_core.step.__module__, _core.search.__name__) == ("goat._ckernel", "goat._csearch")
    else:
        assert info.startswith("pure (")
        assert (_core.step.__module__, _core.search.__name__) == ("goat._kernel", "goat.bots._search")
    assert goat.version_text().startswith(f"{goat.__version__}, core {info}, ")


def test_goat_pure_python_chooses_the_pure_core_at_import() -> None:
    code = "import goat, goat._core as c; print(goat.build_info(), c.step.__module__)"
    assert run_python(code, GOAT_PURE_PYTHON="1") == "pure (GOAT_PURE_PYTHON=1) goat._kernel"
    chosen = run_python(code, GOAT_PURE_PYTHON="0")  # "0" asks for nothing: whatever is built runs
    assert chosen.endswith("goat._ckernel") == chosen.startswith("compiled (mypyc "), chosen


def test_the_sources_are_the_one_copy_of_the_rules_and_the_search() -> None:
    assert (PACKAGE / "_kernel.py").is_file() and (PACKAGE / "bots" / "_search.py").is_file()
    # the compiled core is built from them, not kept as source
    assert not (PACKAGE / "_ckernel.py").exists() and not (PACKAGE / "_csearch.py").exists()


def copy_of_goat(tmp_path: Path) -> Path:
    """A copy of the installed package (compiled core included, if any) under ``tmp_path``."""
    shutil.copytree(PACKAGE, tmp_path / "goat", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def test_without_a_compiled_core_the_pure_one_runs(tmp_path: Path) -> None:
    root = copy_of_goat(tmp_path)
    for path in (root / "goat").glob("_c*.*"):
        if path.name != "_core.py":
            path.unlink()
    code = "import goat; print(goat.__file__); print(goat.build_info())"
    where, info = run_python(code, cwd=root).splitlines()
    assert Path(where).parent == root / "goat"
    assert info == "pure (no compiled core built)"


@pytest.mark.skipif(not _core.COMPILED, reason="no compiled core is built")
@pytest.mark.parametrize("source", ["_kernel.py", "bots/_search.py"])
def test_a_stale_compiled_core_is_not_used(tmp_path: Path, source: str) -> None:
    root = copy_of_goat(tmp_path)
    code = "import goat, goat._core as c; print(goat.build_info(), c.search.__name__)"
    assert run_python(code, cwd=root) == f"{goat.build_info()} goat._csearch"
    edited = root / "goat" / source
    edited.write_text(edited.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    assert run_python(code, cwd=root) == "pure (compiled core is stale) goat.bots._search"


def test_import_goat_loads_neither_world_sampling_nor_plugin_metadata() -> None:
    code = "import sys, goat; print(sorted(m for m in ('goat.bots.worlds', 'importlib.metadata') if m in sys.modules))"
    assert run_python(code) == "[]"


def test_the_lazy_names_are_still_goats() -> None:
    from goat import WorldSamplingError, sample_world
    from goat.bots import worlds

    assert (goat.sample_world, goat.WorldSamplingError) == (sample_world, WorldSamplingError)
    assert sample_world is worlds.sample_world
    assert {"sample_world", "WorldSamplingError"} <= set(goat.__all__) <= set(dir(goat))
    with pytest.raises(AttributeError, match="no attribute 'nonesuch'"):
        goat.nonesuch  # type: ignore[attr-defined]  # noqa: B018
