"""Names a package imports on first use (PEP 562), so that importing the package stays cheap."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def lazy(
    package: str, names: Mapping[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__``: each of ``names`` (name -> module) is imported from its
    module when first asked for, and kept in the package's ``namespace`` (its ``globals()``) from then on."""

    def get(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        import importlib

        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def listed() -> list[str]:
        return sorted({*namespace, *names})

    return get, listed
