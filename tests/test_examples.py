"""The scripts in examples/ run and print what they promise."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run_example(name: str, *args: str, cwd: Path | None = None, without: str | None = None) -> str:
    """The script's output, run in ``cwd``; ``without`` names a module made unimportable for the run."""
    command = [sys.executable, str(EXAMPLES / name), *args]
    if without is not None:
        code = (
            f"import runpy, sys; sys.modules[{without!r}] = None; sys.argv = sys.argv[1:]; "
            "runpy.run_path(sys.argv[0], run_name='__main__')"
        )
        command = [sys.executable, "-c", code, *command[1:]]
    done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=120, cwd=cwd)
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


TINY_RL = ("--games", "200", "--eval-games", "40", "--checkpoints", "1")


def test_rl_example_trains_briefly_and_plots_into_the_current_directory(tmp_path: Path) -> None:
    # Its default plot path was docs/_static/rl_train_vs_random.png, a tracked image of the docs (relative to
    # the current directory: from the repository's root it overwrote it, from anywhere else it crashed).
    pytest.importorskip("gymnasium")
    out = run_example("rl_train_vs_random.py", *TINY_RL, cwd=tmp_path)
    assert "before training  vs random" in out and "after training  vs greedy" in out and "95% Wilson" in out
    plotted = (tmp_path / "rl_train_vs_random.png").exists()
    assert plotted == ("plot saved to" in out) and list(tmp_path.iterdir()) == (
        [tmp_path / "rl_train_vs_random.png"] if plotted else []
    )


def test_rl_example_ends_without_matplotlib(tmp_path: Path) -> None:
    # It crashed at its end with ModuleNotFoundError, after the whole run: no extra installed matplotlib.
    pytest.importorskip("gymnasium")
    out = run_example("rl_train_vs_random.py", *TINY_RL, cwd=tmp_path, without="matplotlib")
    assert "after training  vs greedy" in out and "no plot: matplotlib is not installed" in out
    assert "goat-cards[rl]" in out and not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("script", "needs", "says"),
    [
        ("sb3_maskable_ppo_vs_greedy.py", ("torch", "stable_baselines3", "sb3_contrib"), "greedy at seat 0"),
        ("ppo_vector_env.py", ("torch",), "greedy-lite at seat 0"),
    ],
)
def test_the_rl_examples_run_tiny(script: str, needs: tuple[str, ...], says: str, tmp_path: Path) -> None:
    for module in needs:
        pytest.importorskip(module, reason=f"{module} is not installed (the rl extra: pip install 'goat-cards[rl]')")
    out = run_example(script, "--tiny", cwd=tmp_path)
    assert says in out and "95% Wilson" in out and "untrained" in out
    name = script.replace(".py", ".png")
    assert (tmp_path / name).exists() == ("plot saved to" in out)  # in the current directory, if matplotlib is here


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


def test_the_card_location_benchmark_fits_and_reports() -> None:
    pytest.importorskip("numpy")
    script = str(EXAMPLES.parent / "benchmarks" / "card_location.py")
    done = subprocess.run(
        [sys.executable, script, "--games", "12", "--iterations", "20", "--workers", "1"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    fitted = done.stdout.split("mean probability")[0]
    weights = [float(line.split()[-1]) for line in fitted.splitlines() if line.startswith("  ")]
    assert len(weights) == 24 and any(abs(w) > 0.01 for w in weights)  # fitted, not uniform
    assert "model / uniform" in done.stdout and "\n  all " in done.stdout


def test_the_inference_benchmark_runs_with_its_defaults() -> None:
    # Its default noise of 0 became one no model takes; the run stopped at the first model.
    script = str(EXAMPLES.parent / "benchmarks" / "inference.py")
    done = subprocess.run(
        [sys.executable, script, "--games", "1", "--worlds", "3", "--players", "greedy", "--temperatures", "8"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    assert "hand 8/0.3" in done.stdout and "learned" in done.stdout


def test_the_match_reward_experiment_values_the_match() -> None:
    import importlib.util
    import math

    import goat

    spec = importlib.util.spec_from_file_location("match_reward", EXAMPLES.parent / "benchmarks" / "match_reward.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    chance = module.match_chance
    for mine in range(0, 12, 2):
        for theirs in range(0, 12, 2):
            assert math.isclose(chance(mine, theirs) + chance(theirs, mine), 1.0)
            assert mine == 10 or chance(mine + 2, theirs) < chance(mine, theirs)
    bot = module.factory(seed=1)
    rewards = bot.rewards(goat.view(goat.new_game(seed=1, defeat=(10, 0)), 0))
    lost_by_2, lost_by_6 = (50, 70, 3, 6), (0, 120, 0, 9)
    # At 10 defeat-scores any lost game ends the match: only the points tell the two losses apart.
    assert math.isclose(rewards(lost_by_2)[0] - rewards(lost_by_6)[0], (1 - module.MATCH_WEIGHT) * 50 / 120)
