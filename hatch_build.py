"""Hatchling build hook: keep .gitignore out of the sdist.

Hatchling force-includes the .gitignore it honours in every sdist, past any ``exclude``; a source
distribution has no use for it (tests/test_packaging.py checks what the sdist ships).
"""

from __future__ import annotations

from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):  # type: ignore[misc]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name == "sdist":
            build_data["force_include"] = {
                source: target for source, target in build_data["force_include"].items() if target != ".gitignore"
            }
