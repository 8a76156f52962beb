"""Hatchling build hook: the compiled rules core, and no .gitignore in the sdist.

**Wheels** (``pip install .``, ``pip install -e .``, ``python -m build``): the rules kernel
``goat/_kernel.py`` and the search's loops ``goat/bots/_search.py`` are copied to a scratch directory as
``goat/_ckernel.py`` and ``goat/_csearch.py`` (the search's import of the kernel renamed to match), each stamped
with the CRC-32 of its source and the mypyc version, compiled together by mypyc (``mypycify`` and setuptools'
``build_ext``: one shared library, so that the search calls the kernel natively) and put into the wheel beside
the untouched sources; ``goat/_core.py`` chooses between the two builds at import time.  Any failure
-- no C compiler or Python headers, not CPython, a mypyc error -- prints a warning and leaves a
pure-Python wheel (tagged ``py3-none-any``) that works the same, only slower.  ``GOAT_PURE_PYTHON=1``
in the environment of the build skips the compilation (and the build needs neither mypy nor
setuptools then).  For an editable install the extension is written into the source tree, next to
``_kernel.py`` (git ignores it), because an editable install imports goat from there; each build
first removes the one the last build of that interpreter left there.

**The sdist**: hatchling force-includes the .gitignore it honours in every sdist, past any
``exclude``; a source distribution has no use for it (tests/test_packaging.py checks what the sdist
ships).
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
import tempfile
import zlib
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: Each source compiled, and the name of its compiled module in goat/: names of their own, so that a compiled
#: module never shadows its source.
SOURCES = {"goat/_kernel.py": "_ckernel", "goat/bots/_search.py": "_csearch"}
#: The compiled modules' shared library: goat/_ccore__mypyc.
GROUP = "goat._ccore"
#: What compiling needs, beyond hatchling: mypy brings mypyc, setuptools its build_ext.
COMPILE_REQUIRES = ["mypy>=1.18", "setuptools>=61"]


def _pure_requested() -> bool:
    return os.environ.get("GOAT_PURE_PYTHON", "") not in ("", "0")


class CustomBuildHook(BuildHookInterface):  # type: ignore[misc]
    def dependencies(self) -> list[str]:
        if self.target_name != "wheel" or _pure_requested() or sys.implementation.name != "cpython":
            return []
        return COMPILE_REQUIRES

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name == "sdist":
            build_data["force_include"] = {
                source: target for source, target in build_data["force_include"].items() if target != ".gitignore"
            }
            return
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        if version == "editable":
            _remove_in_place(root)  # the last editable build's core must not outlive this one
        if _pure_requested():
            self.app.display_info("goat: GOAT_PURE_PYTHON is set: building the pure-Python core only")
            return
        if sys.implementation.name != "cpython":
            self.app.display_info(f"goat: mypyc needs CPython, not {sys.implementation.name}: pure-Python core")
            return
        self._scratch = Path(tempfile.mkdtemp(prefix="goat-mypyc-"))  # removed in finalize()
        try:
            built = _compile(root, self._scratch)
        except (Exception, SystemExit) as error:  # mypyc reports some failures with sys.exit()
            self.app.display_warning(
                f"goat: could not compile the rules core ({type(error).__name__}: {error}); "
                "installing the pure-Python core, which is slower but otherwise the same"
            )
            return
        for path in built:
            target = f"goat/{path.name}"
            if version == "editable":
                shutil.copy2(path, root / target)
            else:
                build_data["force_include"][str(path)] = target
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        self.app.display_info(f"goat: compiled the rules core with mypyc: {', '.join(p.name for p in built)}")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)

    def clean(self, versions: list[str]) -> None:
        _remove_in_place(Path(self.root))


def _extension_suffix() -> str:
    return str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")


def _remove_in_place(root: Path) -> None:
    """Remove this interpreter's compiled core from the source tree (other interpreters' files stay)."""
    for name in [*SOURCES.values(), GROUP.rpartition(".")[2]]:
        for path in (root / "goat").glob(f"{name}*{_extension_suffix()}"):
            path.unlink()


def _compile(root: Path, scratch: Path) -> list[Path]:
    """Compile :data:`SOURCES` as goat's compiled modules in ``scratch``; return the extension files made."""
    import mypy.version
    from mypyc.build import mypycify
    from setuptools import Distribution

    package = scratch / "src" / "goat"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    files = []
    for source, module in SOURCES.items():
        text = (root / source).read_bytes()
        stamp = f"\nSOURCE_CRC32 = {zlib.crc32(text)}\nMYPYC_VERSION = {mypy.version.__version__!r}\n"
        # the compiled search imports the compiled kernel
        text = text.replace(b"from goat._kernel import", f"from goat.{SOURCES['goat/_kernel.py']} import".encode())
        (package / f"{module}.py").write_bytes(text + stamp.encode())
        files.append(f"goat/{module}.py")
    here = Path.cwd()
    os.chdir(scratch / "src")  # mypyc names modules by their paths relative to the working directory
    try:
        extensions = mypycify(files, opt_level="3", target_dir=str(scratch / "c"), separate=[(files, GROUP)])
        distribution = Distribution({"name": "goat-core", "ext_modules": extensions})
        command = distribution.get_command_obj("build_ext")
        command.build_lib = str(scratch / "lib")
        command.build_temp = str(scratch / "tmp")
        command.ensure_finalized()
        command.run()
    finally:
        os.chdir(here)
    built = sorted((scratch / "lib" / "goat").glob(f"*{_extension_suffix()}"))
    if not built:
        raise RuntimeError("mypyc made no extension module")
    return built
