"""Names a package imports on first use (PEP 562), so that importing the package stays cheap."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any


def lazy(
    package: str, names: Mapping[str, str], namespace: dict[str, Any], submodules: Iterable[str] = ()
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__``: each of ``names`` (name -> module) is imported from its
    module when first asked for, and kept in the package's ``namespace`` (its ``globals()``) from then on.
    Each of ``submodules`` is imported when first asked for as an attribute (``package.protocol``), as it
    would be there already had the package imported it."""
    modules = frozenset(submodules)

    def get(name: str) -> Any:
        module = names.get(name)
        if module is None and name not in modules:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        import importlib

        if module is None:
            return importlib.import_module(f"{package}.{name}")  # which also sets the package's attribute
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def listed() -> list[str]:
        return sorted({*namespace, *names, *modules})

    return get, listed
