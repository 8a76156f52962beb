"""Repository-wide pytest set-up: Hypothesis profiles for the tests and the doctests alike, and the docs' doctests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis profiles, chosen with GOAT_HYPOTHESIS_PROFILE (default "dev"):
#   ci        bounded and derandomized, so CI is repeatable and quick; .ci/run uses it
#   dev       Hypothesis's defaults, random each run
#   thorough  many more examples, for a long local run before a release
# tests/test_batch.py sizes its lockstep tests by the profile's max_examples: 200 games (ci) to 2,500 (thorough).
settings.register_profile(
    "ci",
    max_examples=60,
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None)
settings.register_profile("thorough", max_examples=2_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("GOAT_HYPOTHESIS_PROFILE", "dev"))


_PLUGIN_EXAMPLE = Path(__file__).resolve().parent / "examples" / "goat-plugin-example"


@pytest.fixture(autouse=True)
def _plugin_example_importable_in_the_docs(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The documentation's doctests import the plugin example as its readers would after installing it."""
    if "docs" in Path(str(request.node.path)).parts:
        monkeypatch.syspath_prepend(str(_PLUGIN_EXAMPLE))
