"""benchmarks/strength.py: its figures agree with the matches played, and its cheat stays a research tool."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import goat
from goat import arena
from goat.bots.ismcts import ISMCTSBot

ROOT = Path(__file__).resolve().parent.parent
A, B = "ismcts[iterations=20]", "greedy"


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    """The benchmark as a module, under a name its worker processes find (they are forked from this one)."""
    name = "strength_tool"
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / "strength.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_every_board_is_played_twice_with_the_teams_swapped(tool: ModuleType) -> None:
    jobs = tool.jobs(A, B, 3, 5)
    assert len(jobs) == 6
    for first, second in zip(jobs[::2], jobs[1::2], strict=True):
        assert first.seed == second.seed  # the same deals...
        assert first.teams == (A, B) and second.teams == (B, A)  # ...A's team in seats 0 and 2, then 1 and 3
        assert first.titles == tuple(reversed(second.titles))
    assert len({job.seed for job in jobs}) == 3


def test_a_rows_figures_are_those_of_its_matches(tool: ModuleType) -> None:
    played = [tool.play(job) for job in tool.jobs(A, B, 2, 11)]
    row = tool.row(A, B, played, 1.0)
    wins = losses = games = game_wins = decided = net = 0
    for p in played:
        me = p.outcome.teams.index(f"A: {A}")
        goat_team = p.outcome.goat
        assert goat_team in (0, 1)
        wins += goat_team == 1 - me
        losses += goat_team == me
        # R21: the goat's team reached 12 defeat-scores, the other did not; so A's net has the sign of its result
        assert p.outcome.defeat[goat_team] >= 12 > p.outcome.defeat[1 - goat_team]
        match_net = p.outcome.defeat[1 - me] - p.outcome.defeat[me]
        assert (match_net > 0) == (goat_team != me)
        net += match_net
        games += p.outcome.games
        game_wins += p.outcome.game_wins[me]
        decided += sum(p.outcome.game_wins)
    assert row["matches"] == wins + losses == 4
    assert row["match_wins"] == wins
    assert row["match_win_interval"] == list(arena.wilson_interval(wins, 4))
    assert row["games"] == games and row["decided_games"] == decided <= games
    assert row["game_wins"] == game_wins
    assert row["game_win_interval"] == list(arena.wilson_interval(game_wins, decided))
    assert row["defeat_per_game"] == pytest.approx(net / games)
    assert row["defeat_a"] - row["defeat_b"] == -net
    decisions = [sum(len(p.ms[p.outcome.teams.index(t)]) for p in played) for t in (f"A: {A}", f"B: {B}")]
    assert row["decisions"] == decisions and min(decisions) > 0
    assert all(ms is not None and ms > 0 for ms in row["ms_per_decision"])
    assert row["faults"] == [0, 0]


def test_the_command_prints_the_table_and_writes_the_json(
    tool: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "result.json"
    assert tool.main([A, B, "--boards", "1", "--workers", "1", "--seed", "3", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    data = json.loads(out.read_text(encoding="utf-8"))
    (row,) = data["rows"]
    assert (data["a"], data["b"], data["boards"], data["seed"], row["matches"]) == (A, B, 1, 3, 2)
    assert data["command"].endswith(f"'{A}' {B} --boards 1 --workers 1 --seed 3 --out {out}")
    assert f"| `{A}` | `{B}` | {row['match_wins']}/2 = " in printed


def test_equal_time_gives_a_the_references_median_time(
    tool: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "equal.json"
    argv = ["ismcts[iterations=30]", B, "--equal-time", A, "--boards", "1", "--workers", "1", "--out", str(out)]
    assert tool.main(argv) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    budget = data["equal_time"]["time_ms"]
    assert data["equal_time"]["reference"] == A and budget > 0
    assert goat.plugins.parse_spec(data["rows"][0]["a"]) == ("ismcts", {"iterations": 30, "time_ms": budget})
    assert f"takes {budget} ms per decision" in capsys.readouterr().out


def test_a_sweep_plays_a_row_per_value_and_plots_them(tool: ModuleType, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out, png = tmp_path / "sweep.json", tmp_path / "sweep.png"
    argv = ["ismcts", B, "--sweep", "iterations", "5", "20", "--boards", "1", "--workers", "1"]
    assert tool.main([*argv, "--out", str(out), "--plot", str(png)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["sweep"] == {"option": "iterations", "values": [5, 20]}
    assert [row["a"] for row in data["rows"]] == ["ismcts[iterations=5]", "ismcts[iterations=20]"]
    assert png.stat().st_size > 0
    png.unlink()
    assert tool.main(["--plot-only", "--out", str(out), "--plot", str(png)]) == 0 and png.stat().st_size > 0


def test_the_stored_sweep_still_plots(tool: ModuleType, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "strength.png"
    stored = ROOT / "benchmarks" / "results" / "strength.json"
    assert tool.main(["--plot-only", "--out", str(stored), "--plot", str(png)]) == 0 and png.stat().st_size > 0


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["bogus", B], "A 'bogus': no strategy named 'bogus'"),
        ([A, "ismcts[iterations=0]"], "B 'ismcts[iterations=0]'"),
        (["cheat-true-world[worlds=weighted]", B], "cheat-true-world takes iterations, time_ms, exploration"),
        (["ismcts[", B], "A 'ismcts['"),
        ([A], "name two strategies"),
        ([A, B, "--boards", "0"], "--boards and --workers are positive"),
        ([A, B, "--sweep", "time_ms"], "an option and one or more values"),
        ([A, B, "--sweep", "time_ms", "fast"], "values are numbers"),
        ([A, B, "--sweep", "time_ms", "5", "--equal-time", A], "choose one"),
        ([A, B, "--plot"], "--plot draws a sweep"),
        (["greedy", B, "--equal-time", A], "A at equal time 'greedy[time_ms="),
        ([A, B, "--equal-time", "bogus"], "--equal-time 'bogus'"),
    ],
)
def test_bad_settings_are_refused_before_any_match(
    tool: ModuleType, argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        tool.main([*argv, "--workers", "1"])
    assert exit_.value.code == 2
    assert said in capsys.readouterr().err


@pytest.mark.parametrize("name", ["cheat-true-world", "cheat-true-hands"])
def test_the_cheats_are_no_strategies(tool: ModuleType, name: str) -> None:
    with pytest.raises(goat.plugins.StrategyNameError):
        goat.load_strategy(name)
    assert name not in {info.name for info in goat.plugins.available_strategies()}
    assert tool.CHEATS[name].__module__.partition(".")[0] != "goat"  # not in the package


def test_the_cheat_runs_ismcts_own_search_in_the_true_state(tool: ModuleType) -> None:
    # the same search: only where the worlds come from is the cheat's own
    assert issubclass(tool.TrueWorldCheat, ISMCTSBot)
    assert {name for name in vars(tool.TrueWorldCheat) if not name.startswith("__")} == {"world_source"}
    state = goat.new_game(seed=8)
    for _ in range(6):
        state = goat.play(state, goat.legal_moves(state)[-1])
    referee = tool.Referee()
    cheat = tool.TrueWorldCheat(referee, 1, iterations=20)
    assert state.to_move is not None
    seen = goat.view(state, state.to_move)
    with pytest.raises(RuntimeError, match="not shown the state"):
        cheat.choose(seen, seen.legal_moves)  # no state watched: no search
    referee.watch(state)
    world = cheat.world_source(seen, 0.0)
    assert world() is state.core and world() is state.core  # every iteration in the one true world
    assert cheat.choose(seen, seen.legal_moves) in seen.legal_moves
    referee.watch(goat.play(state, seen.legal_moves[0]))
    with pytest.raises(RuntimeError, match="not shown the state"):
        cheat.choose(seen, seen.legal_moves)  # a state the decision is not asked in is refused


def test_results_are_named_after_the_specs(tool: ModuleType) -> None:
    assert tool.slug('ismcts[worlds="weighted", time_ms=13.1]') == "ismcts-worlds-weighted-time_ms-13.1"
    assert tool.slug("cheat-true-world[iterations=1000]") == "cheat-true-world-iterations-1000"


def test_the_true_hands_cheat_deals_only_what_the_seat_cannot_see_otherwise(tool: ModuleType) -> None:
    from goat._core import HANDS, PASS, STOCK, TABLE, TRICKS, search

    def others_passes(core: tuple[Any, ...]) -> list[int]:
        keys = [*core[TABLE], *(k for keys, _ in core[TRICKS] for k in keys)]
        return [k for k in keys if (k >> 2) & 7 == PASS and k & 3 != 0]

    rng = random.Random(3)
    state = goat.new_game(seed=5)
    while not (state.to_move == 0 and len(others_passes(state.core)) >= 2 and state.core[STOCK]):
        state = goat.play(state, rng.choice(goat.legal_moves(state))) if state.to_move is not None else goat.new_game()
    seen = goat.view(state, 0)
    referee = tool.Referee()
    referee.watch(state)
    cheat = tool.TrueHandsCheat(referee, 1, iterations=20)
    world = cheat.world_source(seen, 0.0)

    def hidden(core: tuple[Any, ...]) -> tuple[list[int], list[int]]:  # the others' passes' sizes; their cards + stock
        others = others_passes(core)
        cards = sorted(c for k in others for c in range(36) if k >> 5 >> c & 1)
        return [(k >> 5).bit_count() for k in others], sorted(cards + list(core[STOCK]))

    true_core = state.core
    stocks = set()
    for _ in range(30):
        drawn = world()
        assert drawn[HANDS] == true_core[HANDS]  # the true hands, every time
        assert hidden(drawn) == hidden(true_core)  # the same places, the same cards
        visible = [k for k in drawn[TABLE] if not ((k >> 2) & 7 == PASS and k & 3 != 0)]
        assert visible == [k for k in true_core[TABLE] if not ((k >> 2) & 7 == PASS and k & 3 != 0)]
        search.playout(drawn, rng.random)  # a position the rules play on
        stocks.add(drawn[STOCK])
    assert len(stocks) > 1  # dealt afresh
    assert cheat.choose(seen, seen.legal_moves) in seen.legal_moves
