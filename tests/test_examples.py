"""The scripts in examples/ run and print what they promise."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run_example(name: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args], capture_output=True, text=True, check=True, timeout=120
    )
    return done.stdout


@pytest.mark.parametrize("seed", ["1", "7", "42"])
def test_random_game_prints_every_trick_and_the_result(seed: str) -> None:
    out = run_example("random_game.py", seed)
    assert "Trump card" in out
    assert out.count("Trick ") >= 1
    found = re.search(r"Points: team 0 \(seats 0, 2\) (\d+), team 1 \(seats 1, 3\) (\d+)", out)
    assert found is not None
    assert int(found[1]) + int(found[2]) == 120


def test_match_ends_with_a_goat() -> None:
    out = run_example("match.py", "3")
    assert out.strip().splitlines()[-1].startswith("Team ")
    assert "game 1:" in out


def test_benchmark_runs() -> None:
    out = subprocess.run(
        [
            sys.executable,
            str(EXAMPLES.parent / "benchmarks" / "playouts.py"),
            "--games",
            "20",
            "--repeat",
            "1",
            "--samples",
            "100",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    assert "decisions/s" in out and "legal_moves" in out


def test_tournament_prints_its_table_and_no_progress_into_a_log() -> None:
    # Found by a review: with standard error not a terminal (a log), the example wrote a progress line per match.
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "tournament.py"), "greedy", "random", "--matches", "4"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert "entrant" in done.stdout and "greedy" in done.stdout and "random" in done.stdout
    assert "4 matches in" in done.stdout and done.stderr == ""


def test_pettingzoo_example_plays_a_game() -> None:
    pytest.importorskip("pettingzoo")
    out = run_example("pettingzoo_random.py", "3")
    assert "one game of Goat" in out and "seat_3:" in out


def test_openspiel_example_pits_ismcts_against_greedy() -> None:
    pytest.importorskip("pyspiel")
    out = run_example("openspiel_ismcts_vs_greedy.py", "1", "4")
    assert "game 1: OpenSpiel ISMCTS" in out and "greedy" in out


def test_rl_example_trains_briefly() -> None:
    pytest.importorskip("gymnasium")
    out = run_example(
        "rl_train_vs_random.py", "--games", "200", "--eval-games", "40", "--checkpoints", "1", "--no-plot"
    )
    assert "before training  vs random" in out and "after training  vs greedy" in out and "95% Wilson" in out


@pytest.mark.parametrize(
    ("script", "args"),
    [
        ("openspiel_ismcts.py", ["--decisions", "2", "--simulations", "5"]),
        ("pettingzoo_env.py", ["--games", "3", "--repeat", "1"]),
    ],
)
def test_adapter_benchmarks_run(script: str, args: list[str]) -> None:
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    done = subprocess.run(
        [sys.executable, str(EXAMPLES.parent / "benchmarks" / script), *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    assert "/s: median" in done.stdout
