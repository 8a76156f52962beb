"""The OpenSpiel game passes OpenSpiel's random_sim_test, and OpenSpiel's ISMCTS and MCTS bots play it.

OpenSpiel's C++ ISMCTSBot crashes on every Python-implemented game in open_spiel 2.0.2 (OpenSpiel's own
python_kuhn_poker included), so the test uses OpenSpiel's Python ISMCTS, open_spiel.python.algorithms.ismcts.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import goat  # noqa: E402
import goat.adapters.openspiel  # noqa: E402 - registers python_goat


def game(**params: object) -> object:
    return pyspiel.load_game("python_goat", params) if params else pyspiel.load_game("python_goat")


def test_random_sim_test() -> None:
    pyspiel.random_sim_test(game(), num_sims=3, serialize=False, verbose=False)


def test_random_sim_test_with_points_returns() -> None:
    pyspiel.random_sim_test(game(returns="points", dealer=2), num_sims=2, serialize=False, verbose=False)


def play(spiel_game: object, bots: list[object], seed: int) -> object:
    rng = np.random.RandomState(seed)
    state = spiel_game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))  # type: ignore[attr-defined]
    return state


def test_openspiel_ismcts_plays_a_game() -> None:
    g = game()
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(g, evaluator, 2.0, 4, random_state=np.random.RandomState(2))
    state = play(g, [bot] * 4, seed=3)
    returns = state.returns()  # type: ignore[attr-defined]
    assert sum(returns) == 0 and returns[0] == returns[2] and returns[1] == returns[3]


def test_openspiel_mcts_plays_a_game() -> None:
    g = game(returns="points")
    bot = mcts.MCTSBot(
        g, 2.0, 4, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), random_state=np.random.RandomState(2)
    )
    state = play(g, [bot] * 4, seed=4)
    returns = state.returns()  # type: ignore[attr-defined]
    assert sum(returns) == pytest.approx(2.0) and returns[0] == returns[2]


def test_information_and_resampling() -> None:
    g = game()
    state = g.new_initial_state()
    rng = np.random.RandomState(0)
    while state.is_chance_node() or len(state.history()) < 45:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    info = state.information_state_string(player)
    assert f"seat {player} hand" in info and "history:" in info
    assert len(state.information_state_tensor(player)) == 310 + 4 * 36
    assert len(state.observation_tensor(player)) == 310
    resampled = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert resampled.information_state_string(player) == info
    assert resampled.legal_actions() == state.legal_actions()
    view = goat.view(state.game_state, player)
    assert goat.view(resampled.game_state, player) == view


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="returns must be"):
        game(returns="money")
    with pytest.raises(ValueError, match="dealer must be"):
        game(dealer=5)


def test_the_adapter_without_its_extra_names_it() -> None:
    code = "import sys; sys.modules['pyspiel'] = None; import goat.adapters.openspiel"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode != 0 and "pip install 'goat-cards[openspiel]'" in done.stderr
    assert "During handling" not in done.stderr  # one message, not a chained traceback
