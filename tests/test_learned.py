"""The learned player model (goat.bots.learned): a distribution over the legal moves, positive, made from the
seat's view alone (R23); its shipped weights load; its training command is reproducible; ismcts asks for it by name."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import goat
import goat.testing as gt
from goat import GameState, StrategyLoadError
from goat.bots.inference import log_likelihood, weighted_worlds
from goat.bots.ismcts import ISMCTSBot, factory
from goat.bots.learned import FEATURES, LearnedModel, move_features
from goat.bots.model import PlayerModel, view_arguments
from goat.testing import check_strategy


@given(gt.game_states(molodka=True))
def test_probabilities_are_positive_and_sum_to_one_over_the_legal_moves(state: GameState) -> None:
    if state.is_over:
        return
    seen = goat.view(state, state.to_move)  # type: ignore[arg-type]
    found = LearnedModel().probabilities(seen)
    assert len(found) == len(seen.legal_moves)
    assert all(p > 0 for p in found)
    assert math.isclose(sum(found), 1.0)
    rows = move_features(*view_arguments(seen))
    assert len(rows) == len(seen.legal_moves) and all(len(row) == len(FEATURES) for row in rows)


@given(gt.game_states(min_moves=1), st.randoms(use_true_random=False))
def test_the_learned_model_reads_only_what_the_seat_saw(state: GameState, rng: random.Random) -> None:
    # R23: another world the deciding seat cannot tell from this one (other hands, face-down passes) gets
    # the same probabilities.
    if state.is_over:
        return
    seen = goat.view(state, state.to_move)  # type: ignore[arg-type]
    other = goat.sample_world(seen, rng)
    assert LearnedModel().probabilities(goat.view(other, seen.seat)) == LearnedModel().probabilities(seen)


def test_the_shipped_weights_load_with_the_expected_shape() -> None:
    from importlib import resources

    data = json.loads(resources.files("goat.bots").joinpath("learned.json").read_text(encoding="utf-8"))
    assert data["features"] == list(FEATURES) and len(data["weights"]) == len(FEATURES)
    model = LearnedModel()
    assert model.weights == tuple(data["weights"]) and model.noise == data["noise"] and 0 < model.noise < 1
    assert repr(model) == "LearnedModel()" and repr(LearnedModel(data | {"noise": 0.5})) == "LearnedModel(<weights>)"


def test_the_weights_take_effect() -> None:
    # Zero weights and full noise are both uniform play; the shipped weights are not.
    state = goat.new_game(seed=3)
    seen = goat.view(state, state.to_move)  # type: ignore[arg-type]
    flat = {"features": list(FEATURES), "weights": [0.0] * len(FEATURES), "noise": 0.1}
    assert len(set(LearnedModel(flat).probabilities(seen))) == 1
    assert len(set(LearnedModel().probabilities(seen))) > 1
    world = goat.sample_world(seen, random.Random(1))
    assert log_likelihood(world, seen.seat, LearnedModel()) == log_likelihood(world, seen.seat, LearnedModel())
    drawn = weighted_worlds(seen, 5, random.Random(2), model=LearnedModel())
    assert math.isclose(sum(w.weight for w in drawn), 1.0)


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"features": ["x"]}, "features"),
        ({"weights": [1.0]}, "weights"),
        ({"weights": [math.nan] * len(FEATURES)}, "weights"),
        ({"weights": ["1"] * len(FEATURES)}, "weights"),
        ({"noise": 0}, "noise"),
        ({"noise": 1.5}, "noise"),
        ({"noise": "0.1"}, "noise"),
        ({"weights": [10**400] * len(FEATURES)}, "weights"),
    ],
)
def test_bad_weights_are_refused_clearly(change: dict[str, object], match: str) -> None:
    good = {"features": list(FEATURES), "weights": [0.0] * len(FEATURES), "noise": 0.1}
    with pytest.raises(ValueError, match=match):
        LearnedModel(good | change)


def test_weights_too_large_to_weigh_moves_are_a_clear_error() -> None:
    seen = goat.view(goat.new_game(seed=1), 1)
    huge = LearnedModel({"features": list(FEATURES), "weights": [1e308] * len(FEATURES), "noise": 0.1})
    with pytest.raises(ValueError, match="finite scores"):  # not probabilities of NaN
        huge.probabilities(seen)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--games", "4"], "--games: 4 is less than 5"),  # one game in five is held out
        (["--epochs", "0"], "--epochs: 0 is less than 1"),
        (["--budgets", "10", "0"], "--budgets: 0 is less than 1"),
        (["--out", "no/such/folder/w.json"], "--out: no folder no/such/folder"),
    ],
)
def test_the_training_command_refuses_bad_settings_before_playing(
    argv: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("numpy")
    from goat.bots.training import main

    files = ["--out", str(tmp_path / "w.json"), "--curve", str(tmp_path / "c.json")]
    with pytest.raises(SystemExit) as exit_:
        main([*files, *argv, "--quiet"])
    assert exit_.value.code == 2 and said in capsys.readouterr().err
    assert not (tmp_path / "w.json").exists()


def test_the_training_functions_refuse_what_the_command_refuses() -> None:
    pytest.importorskip("numpy")
    from goat.bots.training import fit, record, weights_file

    for games in (0, -1, True):
        with pytest.raises(ValueError, match="games must be"):
            record(games, 1, [10])
    for budgets in ([], [0], [1.5]):
        with pytest.raises(ValueError, match="budgets must be"):
            record(1, 1, budgets)  # type: ignore[arg-type]
    empty = record(1, 1, [5])
    with pytest.raises(ValueError, match="epochs must be"):
        fit(empty, empty, 0)
    with pytest.raises(ValueError, match="noise"):
        weights_file([0.0] * len(FEATURES), math.nan)  # NaN is no JSON


def test_training_is_reproducible(tmp_path: Path) -> None:
    # A tiny run twice: the same seed writes byte-identical weights and curves.
    pytest.importorskip("numpy")
    from goat.bots.training import main

    written = []
    for run in ("a", "b"):
        out, curve = tmp_path / f"{run}.json", tmp_path / f"{run}-curve.json"
        files = ["--out", str(out), "--curve", str(curve)]
        main(["--seed", "7", "--games", "5", "--budgets", "10", "--epochs", "5", "--quiet", *files])
        written.append((out.read_bytes(), curve.read_bytes()))
    assert written[0] == written[1]
    weights = json.loads(written[0][0])
    LearnedModel(weights)  # a file the model takes
    summary = json.loads(written[0][1])
    assert len(summary["curve"]) == 5 and summary["decisions"]["train"] > 0
    assert summary["curve"][-1]["train"] < summary["curve"][0]["train"]


def test_ismcts_asks_for_the_learned_model_by_name() -> None:
    bot = goat.load_strategy("ismcts[worlds=weighted,model=learned,pool=4,iterations=10]", seed=1)
    assert isinstance(bot, ISMCTSBot) and isinstance(bot.model, LearnedModel)
    assert isinstance(goat.load_strategy("ismcts[worlds=weighted,model=hand]", seed=1).model, PlayerModel)
    assert isinstance(goat.load_strategy("ismcts[worlds=weighted]", seed=1).model, LearnedModel)  # the default
    with pytest.raises(ValueError, match="model must be 'hand' or 'learned'"):
        factory(worlds="weighted", model="magic")
    with pytest.raises(ValueError, match="temperature and noise set the hand-written model"):
        factory(worlds="weighted", model="learned", temperature=4)
    with pytest.raises(ValueError, match="temperature and noise set the hand-written model"):
        factory(worlds="weighted", model="learned", noise=0.1)
    with pytest.raises(ValueError, match=r"\(model=hand\)"):  # the default model is the learned one
        factory(worlds="weighted", temperature=4)


def test_weighted_ismcts_with_the_learned_model_plays_legal_deterministic_games() -> None:
    check_strategy(goat.strategy_factory("ismcts"), games=2, iterations=15, worlds="weighted", pool=6)


def test_without_numpy_the_training_command_names_its_extra() -> None:
    # Playing with the learned model needs no extra; training it needs numpy, the train extra.
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['numpy'] = None\nimport goat.bots.learned, goat.bots.ismcts\nimport goat.bots.training"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("goat.errors.MissingExtraError: goat.bots.training needs numpy: pip install ")
    assert "goat-cards[train]" in last


def test_the_learned_strategy_plays_legal_deterministic_games() -> None:
    # The learned model's likeliest move, asked for by name.
    assert "learned" in {info.name for info in goat.available_strategies()}
    check_strategy(goat.strategy_factory("learned"), games=2)
    with pytest.raises(StrategyLoadError, match=r"'learned' raised TypeError: .*takes no options"):
        goat.load_strategy("learned[depth=2]")
