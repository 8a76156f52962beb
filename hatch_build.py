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
setuptools then).  The build says on standard error that it is compiling and how to skip it (pip shows a build's
output with ``pip install -v``; without ``-v`` only its "Building wheel ..." line).

**The cache**: a compiled core is kept in the user's cache directory (``$XDG_CACHE_HOME/goat-cards/mypyc``, by
default ``~/.cache/goat-cards/mypyc``; ``~/Library/Caches`` on macOS, ``%LOCALAPPDATA%`` on Windows) under a key
made of the two sources, this file, the mypy version, the Python version and ABI, the platform and the C compiler
settings; a build whose key is there copies the core instead of compiling it again.  ``GOAT_BUILD_CACHE=0``
turns the cache off; ``GOAT_BUILD_CACHE=<directory>`` puts it there.  The newest :data:`CACHE_KEEP` entries
are kept (about 1 MB each).  pip still sets up the build's environment with mypy in it: the key needs its version.

**Editable installs**: the extension is written into the source tree, next to ``_kernel.py`` (git ignores it),
because an editable install imports goat from there; each build first removes the one the last build of that
interpreter left there.

**The sdist**: hatchling force-includes the .gitignore it honours in every sdist, past any
``exclude``; a source distribution has no use for it (tests/test_packaging.py checks what the sdist
ships).
"""

from __future__ import annotations

import hashlib
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


#: How many compiled cores the cache keeps, the most recently used first.
CACHE_KEEP = 8


def _pure_requested() -> bool:
    return os.environ.get("GOAT_PURE_PYTHON", "") not in ("", "0")


def cache_directory() -> Path | None:
    """Where compiled cores are kept (``GOAT_BUILD_CACHE``, else the platform's user cache), or None: no cache."""
    setting = os.environ.get("GOAT_BUILD_CACHE", "")
    if setting == "0":
        return None
    if setting:
        return Path(setting)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:  # the XDG base directory specification: a relative XDG_CACHE_HOME is to be ignored
        xdg = os.environ.get("XDG_CACHE_HOME", "")
        base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "goat-cards" / "mypyc"


def cache_key(root: Path) -> str:
    """What the compiled core depends on: the sources and this build script, the toolchain and the platform."""
    import mypy.version

    parts = [(root / source).read_bytes() for source in SOURCES]
    parts.append((root / "hatch_build.py").read_bytes())
    toolchain = [mypy.version.__version__, sys.version, sys.implementation.cache_tag, _extension_suffix()]
    toolchain += [sysconfig.get_platform(), str(sysconfig.get_config_var("CC"))]
    toolchain += [os.environ.get(name, "") for name in ("CC", "CFLAGS", "LDFLAGS")]
    parts += [text.encode() for text in toolchain]
    digest = hashlib.sha256()
    for part in parts:  # each part length-prefixed, so that no two lists of parts hash alike
        digest.update(len(part).to_bytes(8, "big") + part)
    return digest.hexdigest()[:32]


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
            built = self._compiled_core(root, self._scratch)
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
        self.app.display_info(f"goat: the compiled rules core: {', '.join(p.name for p in built)}")

    def _compiled_core(self, root: Path, scratch: Path) -> list[Path]:
        """The compiled core's files in ``scratch``: copied from the cache, or compiled (and then cached)."""
        cache = cache_directory()
        key = cache_key(root)
        entry = None if cache is None else cache / key
        if entry is not None and entry.is_dir():
            os.utime(entry)  # recently used: kept the longest
            built = [Path(shutil.copy2(path, scratch)) for path in sorted(entry.iterdir())]
            self.app.display_info(
                f"goat: the sources and toolchain are unchanged: reusing the rules core compiled before ({entry}; "
                "GOAT_BUILD_CACHE=0 compiles it afresh)"
            )
            return built
        self.app.display_waiting(
            "goat: compiling the rules core (goat/_kernel.py, goat/bots/_search.py) with mypyc; this takes 10 s "
            "to a minute, once for each change of the sources or toolchain.  GOAT_PURE_PYTHON=1 skips it (the "
            "pure-Python core is about half as fast)"
        )
        built = _compile(root, scratch)
        if entry is not None:
            try:
                _store(entry, built)
            except OSError as error:  # a read-only or full disk costs the next build its time, nothing more
                self.app.display_warning(f"goat: could not cache the compiled rules core in {entry.parent}: {error}")
        return built

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)

    def clean(self, versions: list[str]) -> None:
        _remove_in_place(Path(self.root))


def _store(entry: Path, built: list[Path]) -> None:
    """Put ``built`` in the cache as ``entry`` (whole or not at all), and drop the least recently used entries."""
    entry.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f"{entry.name}.", dir=entry.parent))
    for path in built:
        shutil.copy2(path, partial)
    try:
        partial.rename(entry)  # atomic: a concurrent build sees the entry whole or not at all
    except OSError:  # a concurrent build stored the same key first
        shutil.rmtree(partial, ignore_errors=True)
    others = sorted(
        (path for path in entry.parent.iterdir() if path.is_dir() and "." not in path.name and path != entry),
        key=lambda path: path.stat().st_mtime,
        reverse=True,
    )
    for old in others[CACHE_KEEP - 1 :]:
        shutil.rmtree(old, ignore_errors=True)


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
