"""The kernel in use, and the search's loops: the compiled build when it was built and is current, else the
pure-Python sources.

Package-internal.  Other modules of goat import the kernel's names from here
(``from goat._core import BEATERS, step``); they are the names of ``goat._kernel.__all__``, taken
from whichever of its two builds runs.  The bots use :data:`search`, the module of the search's hot loops
(:mod:`goat.bots._search`) from the same build.  The builds:

* ``goat._kernel`` and ``goat.bots._search``, the sources, as they are (the *pure* core);
* ``goat._ckernel`` and ``goat._csearch``, the same sources compiled together by mypyc when goat was installed
  (``hatch_build.py``), under names of their own so that they never shadow the sources, each stamped with the
  CRC-32 of the source it was compiled from (the *compiled* core).

The compiled core runs unless ``GOAT_PURE_PYTHON`` is set (to anything but ``""`` or ``"0"``, spaces aside) when
goat is imported, or none was built (no C compiler at install time), or it fails to import, or it is
*stale*: compiled from another version of ``goat/_kernel.py`` or ``goat/bots/_search.py`` (an edit in an
editable install, until the next ``pip install -e .`` compiles them again).  :func:`goat.build_info` says which
runs, and why.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import TYPE_CHECKING

#: Which core runs, as :func:`goat.build_info` reports it: ``"compiled (mypyc …)"`` or ``"pure (<why>)"``.
BUILD: str
#: Whether the compiled core runs.
COMPILED: bool


def _choose() -> tuple[ModuleType, ModuleType, str]:
    # The pure build is imported only when it runs: building its tables is a good part of what ``import goat``
    # would cost otherwise.  The compiled one is checked against the source files' bytes.
    if os.environ.get("GOAT_PURE_PYTHON", "").strip() not in ("", "0"):  # as GOAT_DISABLE_PLUGIN_AUTOLOAD is read
        return (*_pure(), f"pure (GOAT_PURE_PYTHON={os.environ['GOAT_PURE_PYTHON']})")
    try:
        import goat._ckernel as compiled  # type: ignore[import-not-found]
        import goat._csearch as compiled_search  # type: ignore[import-not-found]
    except ModuleNotFoundError as error:
        if error.name not in ("goat._ckernel", "goat._csearch"):
            return (*_pure(), f"pure (the compiled core failed to import: {error})")
        return (*_pure(), "pure (no compiled core built)")
    except ImportError as error:  # built for another interpreter, or a broken file
        return (*_pure(), f"pure (the compiled core failed to import: {error})")
    for module, source in ((compiled, "_kernel.py"), (compiled_search, "bots/_search.py")):
        if getattr(module, "SOURCE_CRC32", None) != _source_crc32(source):
            return (*_pure(), "pure (compiled core is stale)")
    return compiled, compiled_search, f"compiled (mypyc {getattr(compiled, 'MYPYC_VERSION', '?')})"


def _pure() -> tuple[ModuleType, ModuleType]:
    import goat._kernel
    import goat.bots._search

    return goat._kernel, goat.bots._search


def _source_crc32(source: str) -> int | None:
    """The CRC-32 of a source file of the compiled build, or ``None`` where it cannot be read.

    A checksum, not a cryptographic hash: it only has to notice an edited source, and zlib imports
    in a fraction of the time hashlib takes (every ``import goat`` pays it).
    """
    import zlib

    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), source), "rb") as file:
            return zlib.crc32(file.read())
    except OSError:
        return None


if TYPE_CHECKING:  # mypy checks every use against the sources: both builds have the same names and types
    from goat._kernel import *  # noqa: F403
    from goat.bots import _search

    search = _search
else:
    # search: the search's hot loops (goat.bots._search), from the same build as the kernel
    _kernel, search, BUILD = _choose()
    COMPILED = BUILD.startswith("compiled")
    globals().update({name: getattr(_kernel, name) for name in _kernel.__all__})
