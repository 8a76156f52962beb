"""examples/goat-plugin-example: found by name through its entry point, conformant, and playing a match.

Rather than pip-installing it (slow in CI), the test puts the example's source on sys.path beside
a dist-info holding its real entry point table, read from its pyproject.toml: exactly what an install
would leave behind for importlib.metadata to find.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

import goat
from goat import arena
from goat.testing import check_strategy

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "goat-plugin-example"


@pytest.fixture
def installed(fake_distribution: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())["project"]
    entries = project["entry-points"]["goat.strategies"]
    fake_distribution(project["name"], entries, version=project["version"])
    monkeypatch.syspath_prepend(str(EXAMPLE))


def test_the_example_is_found_by_name(installed: None) -> None:
    (info,) = [i for i in goat.available_strategies() if i.name == "hoarder"]
    assert (info.distribution, info.version) == ("goat-plugin-example", "0.1.0")
    assert info.target == "goat_plugin_example:factory"


def test_the_example_passes_the_conformance_check(installed: None) -> None:
    check_strategy(goat.strategy_factory("hoarder"), games=4)
    check_strategy(goat.strategy_factory("hoarder"), games=2, greed=10)


def test_the_example_plays_a_match(installed: None) -> None:
    players = [goat.load_strategy(name, seed=seat) for seat, name in enumerate(["hoarder", "random"] * 2)]
    played = arena.play_match(players, seed=5, names=["hoarder", "random"] * 2)
    assert played.match.is_over and not played.faults


def test_the_examples_own_tests_pass(installed: None) -> None:
    done = pytest.main(["-q", "-p", "no:cacheprovider", str(EXAMPLE / "tests")])
    assert done == 0


def test_the_tutorial_shows_the_examples_real_files() -> None:
    tutorial = (Path(__file__).resolve().parent.parent / "docs" / "tutorial-bot.md").read_text(encoding="utf-8")
    for path in ("goat_plugin_example/__init__.py", "pyproject.toml", "tests/test_hoarder.py"):
        assert (EXAMPLE / path).is_file()
        assert f"```{{literalinclude}} ../examples/goat-plugin-example/{path}\n" in tutorial, path
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())
    assert project["build-system"]["build-backend"]  # pip can build it
    assert "goat-cards[testing]" in project["project"]["optional-dependencies"]["test"]
    assert "goat-cards[testing]" in tutorial and "goat-cards[cli]" in tutorial  # the extras are named
