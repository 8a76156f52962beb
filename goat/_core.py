"""The kernel in use: the compiled one when it was built and is current, else the pure-Python source.

Package-internal.  Other modules of goat import the kernel's names from here
(``from goat._core import BEATERS, step``); they are the names of ``goat._kernel.__all__``, taken
from whichever of its two builds runs:

* ``goat._kernel``, the source, as it is (the *pure* core);
* ``goat._ckernel``, the same source compiled by mypyc when goat was installed (``hatch_build.py``),
  under a name of its own so that it never shadows the source, and stamped with the CRC-32 of the
  source it was compiled from (the *compiled* core).

The compiled core runs unless ``GOAT_PURE_PYTHON`` is set (to anything but ``""`` or ``"0"``, spaces aside) when
goat is imported, or none was built (no C compiler at install time), or it fails to import, or it is
*stale*: compiled from another version of ``goat/_kernel.py`` (an edit in an editable install, until
the next ``pip install -e .`` compiles it again).  :func:`goat.build_info` says which runs, and why.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import TYPE_CHECKING

#: Which core runs, as :func:`goat.build_info` reports it: ``"compiled (mypyc …)"`` or ``"pure (<why>)"``.
BUILD: str
#: Whether the compiled core runs.
COMPILED: bool


def _choose() -> tuple[ModuleType, str]:
    # The pure kernel is imported only when it runs: building its tables is a good part of what
    # ``import goat`` would cost otherwise.  The compiled one is checked against the source file's bytes.
    if os.environ.get("GOAT_PURE_PYTHON", "").strip() not in ("", "0"):  # as GOAT_DISABLE_PLUGIN_AUTOLOAD is read
        return _pure(), f"pure (GOAT_PURE_PYTHON={os.environ['GOAT_PURE_PYTHON']})"
    try:
        import goat._ckernel as compiled  # type: ignore[import-not-found]
    except ModuleNotFoundError as error:
        if error.name != "goat._ckernel":
            return _pure(), f"pure (the compiled core failed to import: {error})"
        return _pure(), "pure (no compiled core built)"
    except ImportError as error:  # built for another interpreter, or a broken file
        return _pure(), f"pure (the compiled core failed to import: {error})"
    if getattr(compiled, "SOURCE_CRC32", None) != _source_crc32():
        return _pure(), "pure (compiled core is stale)"
    return compiled, f"compiled (mypyc {getattr(compiled, 'MYPYC_VERSION', '?')})"


def _pure() -> ModuleType:
    import goat._kernel

    return goat._kernel


def _source_crc32() -> int | None:
    """The CRC-32 of the kernel's source file, ``goat/_kernel.py``, or ``None`` where it cannot be read.

    A checksum, not a cryptographic hash: it only has to notice an edited source, and zlib imports
    in a fraction of the time hashlib takes (every ``import goat`` pays it).
    """
    import zlib

    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "_kernel.py"), "rb") as file:
            return zlib.crc32(file.read())
    except OSError:
        return None


if TYPE_CHECKING:  # mypy checks every use against the source: both builds have the same names and types
    from goat._kernel import *  # noqa: F403
else:
    _kernel, BUILD = _choose()
    COMPILED = BUILD.startswith("compiled")
    globals().update({name: getattr(_kernel, name) for name in _kernel.__all__})
