"""Which core runs (goat/_core.py, goat.build_info), and what ``import goat`` loads.

CI (``.ci/run``) sets ``GOAT_EXPECT_COMPILED=1`` where the install must have compiled the core, so that a
build that silently fell back to pure Python fails there instead of passing slowly.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

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


# --- the build: hatch_build.py's cache of compiled cores ------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


class Messages:
    """A stand-in for hatchling's Application: keeps what the build hook displays."""

    def __init__(self) -> None:
        self.shown: list[str] = []

    def display_info(self, message: str = "") -> None:
        self.shown.append(message)

    display_waiting = display_warning = display_info


@pytest.fixture
def build_script(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """hatch_build.py over a copy of the sources in ``tmp_path/src``, its cache in ``tmp_path/cache``, mypyc faked.

    The fake compiler counts its runs in ``compiled`` and makes one "extension" holding the sources it was given.
    """
    pytest.importorskip("hatchling")
    pytest.importorskip("mypy")
    if sys.implementation.name != "cpython":
        pytest.skip("the build compiles on CPython only")
    source = tmp_path / "src"
    for path in ("goat/_kernel.py", "goat/bots/_search.py", "hatch_build.py"):
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / path, source / path)
    spec = importlib.util.spec_from_file_location("goat_hatch_build", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    script.compiled = []

    def fake_compile(root: Path, scratch: Path) -> list[Path]:
        script.compiled.append(root)
        (scratch / "lib").mkdir()
        built = scratch / "lib" / f"_ccore__mypyc{script._extension_suffix()}"
        built.write_bytes(b"".join((root / path).read_bytes() for path in script.SOURCES))
        return [built]

    monkeypatch.setattr(script, "_compile", fake_compile)
    monkeypatch.delenv("GOAT_PURE_PYTHON", raising=False)
    monkeypatch.setenv("GOAT_BUILD_CACHE", str(tmp_path / "cache"))
    script.source = source
    return script


def build_wheel(script: Any) -> tuple[dict[str, bytes], list[str]]:
    """Run the build hook as a wheel build does: the compiled files it puts in the wheel, and what it displayed."""
    messages = Messages()
    hook = script.CustomBuildHook(str(script.source), {}, None, None, str(script.source), "wheel", messages)
    build_data: dict[str, Any] = {"force_include": {}}
    hook.initialize("standard", build_data)
    files = {target: Path(path).read_bytes() for path, target in build_data["force_include"].items()}
    hook.finalize("standard", build_data, "")
    return files, messages.shown


def test_the_build_says_it_compiles_and_how_to_skip_it(build_script: Any) -> None:
    files, shown = build_wheel(build_script)
    assert list(files) == [f"goat/_ccore__mypyc{build_script._extension_suffix()}"]
    assert any("compiling the rules core" in line and "GOAT_PURE_PYTHON=1 skips it" in line for line in shown), shown


def test_a_second_build_of_the_same_sources_reuses_the_compiled_core(build_script: Any) -> None:
    first, _ = build_wheel(build_script)
    second, shown = build_wheel(build_script)
    assert len(build_script.compiled) == 1  # mypyc ran once
    assert second == first
    assert any("reusing the rules core compiled before" in line for line in shown), shown


@pytest.mark.parametrize("source", ["goat/_kernel.py", "goat/bots/_search.py"])
def test_a_changed_source_is_compiled_again(build_script: Any, source: str) -> None:
    first, _ = build_wheel(build_script)
    edited = build_script.source / source
    edited.write_text(edited.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    second, _ = build_wheel(build_script)
    assert len(build_script.compiled) == 2
    assert second != first
    assert build_wheel(build_script)[0] == second  # and that one is cached in turn
    assert len(build_script.compiled) == 2


def test_another_mypy_compiles_again(build_script: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import mypy.version

    build_wheel(build_script)
    monkeypatch.setattr(mypy.version, "__version__", mypy.version.__version__ + ".post1")
    build_wheel(build_script)
    assert len(build_script.compiled) == 2


def test_goat_build_cache_0_turns_the_cache_off(build_script: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOAT_BUILD_CACHE", "0")
    build_wheel(build_script)
    build_wheel(build_script)
    assert len(build_script.compiled) == 2
    assert build_script.cache_directory() is None


def test_the_cache_lives_in_the_users_cache_directory(build_script: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GOAT_BUILD_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", "/somewhere/cache")
    if sys.platform.startswith("linux"):
        assert build_script.cache_directory() == Path("/somewhere/cache/goat-cards/mypyc")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")  # ignored, as the XDG specification says
    assert "relative" not in build_script.cache_directory().parts


def test_the_cache_keeps_the_newest_entries(build_script: Any) -> None:
    kernel = build_script.source / "goat/_kernel.py"
    for edit in range(build_script.CACHE_KEEP + 2):
        kernel.write_text(kernel.read_text(encoding="utf-8") + f"\n# edit {edit}\n", encoding="utf-8")
        build_wheel(build_script)
    entries = list(build_script.cache_directory().iterdir())
    assert len(entries) == build_script.CACHE_KEEP
    assert build_script.cache_key(build_script.source) in {path.name for path in entries}
