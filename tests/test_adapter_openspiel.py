"""The OpenSpiel game, python_goat: OpenSpiel's own tests and algorithms on it, and OpenSpiel's conventions.

Perfect recall is checked against an independent account of what a player saw: the sequence of its
goat.view() snapshots (with the cards dealt to it during the deal), consecutive repeats dropped.  OpenSpiel's
C++ ISMCTSBot crashes on every game written in Python in open_spiel 2.0.2 (see docs/adapters.md), so the
searches here are OpenSpiel's Python ISMCTS and MCTS.
"""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts, outcome_sampling_mccfr  # noqa: E402

import goat  # noqa: E402
from goat._core import receiver  # noqa: E402
from goat.adapters import encoding  # noqa: E402
from goat.adapters.openspiel import INFO_STATE_SIZE, GoatGame, RolloutEvaluator, StrategyBot  # noqa: E402

SAMPLER = pyspiel.UniformProbabilitySampler


def game(**params: object) -> Any:
    return pyspiel.load_game("python_goat", params) if params else pyspiel.load_game("python_goat")


def random_action(state: Any, rng: np.random.RandomState) -> int:
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        return int(rng.choice(actions, p=probs))
    return int(rng.choice(state.legal_actions()))


def seen_by(state: Any, player: int) -> tuple[object, ...]:
    """What ``player`` sees now: its view once dealt, and before that the cards dealt to it so far."""
    if state.game_state is None:
        dealer = state.get_game().dealer
        return tuple(card for i, card in enumerate(state.deck) if i < 16 and receiver(dealer, i) == player)
    return (goat.view(state.game_state, player),)


def observed(history: list[int], player: int, spiel_game: Any = None) -> list[tuple[object, ...]]:
    """The player's sequence of observations along ``history``: its snapshots, repeats dropped."""
    spiel_game = spiel_game or game()
    state = spiel_game.new_initial_state()
    sequence = [seen_by(state, player)]
    for action in history:
        state.apply_action(action)
        now = seen_by(state, player)
        if now != sequence[-1]:
            sequence.append(now)
    return sequence


# --- OpenSpiel's own tests and algorithms ------------------------------------------------------------------


def test_random_sim_test_with_serialization() -> None:
    pyspiel.random_sim_test(game(), num_sims=3, serialize=True, verbose=False)


def test_random_sim_test_with_points_returns() -> None:
    pyspiel.random_sim_test(game(returns="points", dealer=2), num_sims=2, serialize=True, verbose=False)


def play(spiel_game: Any, bots: list[Any], seed: int) -> Any:
    rng = np.random.RandomState(seed)
    state = spiel_game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(random_action(state, rng))
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    return state


def test_openspiel_ismcts_plays_a_game() -> None:
    g = game()
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(g, evaluator, 2.0, 4, random_state=np.random.RandomState(2))
    returns = play(g, [bot] * 4, seed=3).returns()
    assert sum(returns) == 0 and returns[0] == returns[2] and returns[1] == returns[3]


def test_openspiel_ismcts_with_goats_rollout_evaluator() -> None:
    g = game()
    bot = ismcts.ISMCTSBot(g, RolloutEvaluator(2, np.random.RandomState(1)), 2.0, 8)
    returns = play(g, [bot] * 4, seed=5).returns()
    assert sum(returns) == 0 and returns[0] == returns[2]


def test_openspiel_mcts_plays_a_game() -> None:
    g = game(returns="points")
    bot = mcts.MCTSBot(
        g, 2.0, 4, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), random_state=np.random.RandomState(2)
    )
    returns = play(g, [bot] * 4, seed=4).returns()
    assert sum(returns) == pytest.approx(2.0) and returns[0] == returns[2]


def test_evaluate_bots_with_goat_strategies_as_openspiel_bots() -> None:
    # OpenSpiel's Python ISMCTSBot has no restart_at(), which evaluate_bots calls; its MCTSBot and C++ bots do.
    g = game()
    searcher = mcts.MCTSBot(g, 2.0, 4, mcts.RandomRolloutEvaluator(1, np.random.RandomState(3)))
    bots = [
        searcher,
        StrategyBot("greedy", seed=1),
        pyspiel.make_uniform_random_bot(2, 3),
        StrategyBot("random", seed=2),
    ]
    returns = evaluate_bots.evaluate_bots(g.new_initial_state(), bots, np.random.RandomState(5))
    assert sum(returns) == 0 and returns[0] == returns[2]


def test_cpp_evaluate_bots_runs_python_goat() -> None:
    bots = [pyspiel.make_uniform_random_bot(seat, seat) for seat in range(4)]
    returns = pyspiel.evaluate_bots(game().new_initial_state(), bots, 7)
    assert sum(returns) == 0


def test_outcome_sampling_mccfr_steps() -> None:
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game())
    np.random.seed(1)  # the solver samples with numpy's global generator
    for _ in range(3):
        solver.iteration()
    policy = solver.average_policy()
    state = game().new_initial_state()
    rng = np.random.RandomState(2)
    while state.is_chance_node():
        state.apply_action(random_action(state, rng))
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions()) and sum(probabilities.values()) == pytest.approx(1)
    assert solver._infostates  # regrets were kept, keyed by information-state strings


# --- game type -----------------------------------------------------------------------------------------------


def test_defeat_returns_are_zero_sum_and_points_constant_sum() -> None:
    utility = pyspiel.GameType.Utility
    assert game().get_type().utility == utility.ZERO_SUM and game().utility_sum() == 0
    points = game(returns="points")
    assert points.get_type().utility == utility.CONSTANT_SUM and points.utility_sum() == 2
    assert pyspiel.load_game("python_goat(returns=points)").get_type().utility == utility.CONSTANT_SUM


@pytest.mark.parametrize("returns", ["defeat", "points"])
def test_returns_agree_with_goats_score(returns: str) -> None:
    g = game(returns=returns)
    for seed in range(20):
        state = g.new_initial_state()
        rng = np.random.RandomState(seed)
        while not state.is_terminal():
            assert state.returns() == [0.0] * 4
            state.apply_action(random_action(state, rng))
        result = goat.score(state.game_state)
        for seat in range(4):
            team = seat % 2
            expected = (
                result.points[team] / 120 if returns == "points" else result.defeat[1 - team] - result.defeat[team]
            )
            assert state.returns()[seat] == expected


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="returns must be"):
        game(returns="money")
    with pytest.raises(ValueError, match="dealer must be"):
        game(dealer=5)
    for dealer in (1.0, True):  # equal to a seat, but none (pyspiel's load_game checks the type itself)
        with pytest.raises(ValueError, match="dealer must be"):
            GoatGame({"dealer": dealer})
    for rollouts in (0, -1, 1.5):  # 0 averaged no games into NaN values
        with pytest.raises(ValueError, match="n_rollouts must be"):
            RolloutEvaluator(rollouts)


# --- perfect recall ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_information_states_change_exactly_when_the_player_observes(seed: int) -> None:
    rng = np.random.RandomState(seed)
    state = game().new_initial_state()
    before = [seen_by(state, p) for p in range(4)]
    strings = [state.information_state_string(p) for p in range(4)]
    tensors = [state.information_state_tensor(p) for p in range(4)]
    steps = 0
    while not state.is_terminal():
        state.apply_action(random_action(state, rng))
        steps += 1
        for p in range(4):
            now, string, tensor = (
                seen_by(state, p),
                state.information_state_string(p),
                state.information_state_tensor(p),
            )
            saw = now != before[p]
            assert (string != strings[p]) == saw, (steps, p)
            assert (tensor != tensors[p]) == saw, (steps, p)
            before[p], strings[p], tensors[p] = now, string, tensor
    assert steps > 37


def test_a_players_own_wait_is_in_its_information_state_and_no_one_elses() -> None:
    for seed in range(200):
        state = game().new_initial_state()
        rng = np.random.RandomState(seed)
        while not state.is_terminal():
            if not state.is_chance_node() and encoding.WAIT_ACTION in state.legal_actions():
                holder = state.current_player()
                strings = [state.information_state_string(p) for p in range(4)]
                state.apply_action(encoding.WAIT_ACTION)
                for p in range(4):
                    assert (state.information_state_string(p) != strings[p]) == (p == holder)
                return
            state.apply_action(random_action(state, rng))
    pytest.fail("no molodka wait in 200 random games")


def histories_sharing_a_present(seed: int, player: int) -> list[list[int]]:
    """Histories that leave ``player`` with the same view now, drawn by goat.sample_world (not adjusted)."""
    rng = np.random.RandomState(seed)
    g = game()
    state = g.new_initial_state()
    while state.is_chance_node() or len(state.game_state.tricks) < 3 or state.current_player() != player:
        state.apply_action(random_action(state, rng))
        if state.is_terminal():
            return []
    histories = [list(state.history())]
    seen = goat.view(state.game_state, player)
    for draw in range(6):
        world = goat.sample_world(seen, random.Random(draw))
        other = g.new_initial_state()
        for card in world.deck:
            other.apply_action(card.index)
        other.apply_action(world.trump_card.index)
        for move in world.history:
            other.apply_action(encoding.action_of(move, other.game_state.hands[move.seat]))
        assert goat.view(other.game_state, player) == seen
        histories.append(list(other.history()))
    return histories


@pytest.mark.parametrize("seed", [3, 4, 5, 6])
def test_information_states_are_equal_exactly_when_the_player_saw_the_same(seed: int) -> None:
    player = seed % 4
    histories = histories_sharing_a_present(seed, player)
    if not histories:
        pytest.skip("the game ended early")
    g = game()
    states = []
    for history in histories:
        state = g.new_initial_state()
        for action in history:
            state.apply_action(action)
        states.append(state)
    # Each pair shares the present view; whether the player saw the same things before decides.
    different = 0
    for a in range(len(states)):
        for b in range(a + 1, len(states)):
            same_sight = observed(histories[a], player) == observed(histories[b], player)
            same_string = states[a].information_state_string(player) == states[b].information_state_string(player)
            same_tensor = states[a].information_state_tensor(player) == states[b].information_state_tensor(player)
            assert same_string == same_sight and same_tensor == same_sight
            different += not same_sight
    assert different, "the pairs should include histories the present view cannot tell apart"


def test_resampled_states_share_the_whole_information_state_and_have_a_history() -> None:
    g = game()
    rng = np.random.RandomState(9)
    checked = 0
    for _ in range(4):
        state = g.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node() and rng.random_sample() < 0.3:
                player = state.current_player()
                mine = state.information_state_string(player)  # asked first, as OpenSpiel's ISMCTS does
                sampled = state.resample_from_infostate(player, SAMPLER(0.0, 1.0))
                assert sampled.information_state_string(player) == mine
                assert replayed(sampled).information_state_string(player) == mine  # written afresh
                assert sampled.information_state_tensor(player) == state.information_state_tensor(player)
                assert observed(sampled.history(), player) == observed(state.history(), player)
                assert sampled.legal_actions() == state.legal_actions()
                # history() is the action sequence that reaches it: chance deal actions, then the moves.
                history = sampled.history()
                assert len(sampled.full_history()) == len(history)
                assert [h.player for h in sampled.full_history()[:37]] == [pyspiel.PlayerId.CHANCE] * 37
                again = g.new_initial_state()
                for action in history:
                    again.apply_action(action)
                assert again.game_state == sampled.game_state
                assert [again.information_state_string(p) for p in range(4)] == [
                    sampled.information_state_string(p) for p in range(4)
                ]
                checked += 1
            state.apply_action(random_action(state, rng))
    assert checked > 10


def played(state: Any) -> list[tuple[int, int]]:
    return [(int(step.player), int(step.action)) for step in state.full_history()]


def replayed(state: Any) -> Any:
    """A new state reached by applying ``state``'s history one action at a time, through pyspiel."""
    again = state.get_game().new_initial_state()
    for action in state.history():
        again.apply_action(action)
    return again


def test_resampled_states_are_the_states_their_history_reaches() -> None:
    # The same players and move number as the replay, the same state through pickling and OpenSpiel's
    # serialization, and play goes on.
    g = game(dealer=2)
    rng = np.random.RandomState(11)
    state = g.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            player = state.current_player()
            sampled = state.resample_from_infostate(player, SAMPLER(0.0, 1.0))
            again = replayed(sampled)
            assert played(sampled) == played(again) and sampled.move_number() == again.move_number()
            assert sampled.game_state == again.game_state and sampled.current_player() == again.current_player()
            assert pickle.loads(pickle.dumps(sampled)).game_state == sampled.game_state
            restored = g.deserialize_state(sampled.serialize())
            assert played(restored) == played(sampled) and restored.game_state == sampled.game_state
            while not sampled.is_terminal():
                sampled.apply_action(random_action(sampled, rng))
            assert len(sampled.returns()) == 4
            checked += 1
        state.apply_action(random_action(state, rng))
    assert checked > 20


#: The hooks of OpenSpiel's Python game API (open_spiel/python/pybind11/python_games.cc forwards them to Python).
HOOKS = {"current_player", "_legal_actions", "chance_outcomes", "_apply_action", "_action_to_string", "is_terminal"}
HOOKS |= {"returns", "__str__", "resample_from_infostate"}


def test_the_state_and_game_define_only_the_python_game_hooks() -> None:
    from goat.adapters.openspiel import GoatGame, GoatState

    plain = {"__init__", "__doc__", "__module__", "__dict__"}
    assert {name for name in vars(GoatState) if hasattr(pyspiel.State, name)} - plain <= HOOKS <= set(vars(GoatState))
    hooks = {"new_initial_state", "make_py_observer", "max_chance_nodes_in_history"}
    assert {name for name in vars(GoatGame) if hasattr(pyspiel.Game, name)} - plain <= hooks <= set(vars(GoatGame))


def test_a_subclass_of_the_state_is_answered_through_its_own_hooks() -> None:
    from goat.adapters.openspiel import GoatState

    class FirstOnly(GoatState):
        def _legal_actions(self, player: int) -> list[int]:
            return super()._legal_actions(player)[:1]

    state = FirstOnly(game())
    rng = np.random.RandomState(2)
    while state.is_chance_node():
        state.apply_action(random_action(state, rng))
    assert state.legal_actions() == pyspiel.State.legal_actions(state) == [0]


@pytest.mark.parametrize("dealt", [0, 10, 16, 36])
def test_resampling_during_the_deal_keeps_the_players_cards(dealt: int) -> None:
    state = game(dealer=3).new_initial_state()
    rng = np.random.RandomState(dealt)
    for _ in range(dealt):
        state.apply_action(random_action(state, rng))
    for seed in range(5):
        sampled = state.resample_from_infostate(2, SAMPLER(0.0, 1.0))
        assert replayed(sampled).information_state_string(2) == state.information_state_string(2)
        assert len(sampled.history()) == dealt and sampled.is_chance_node()
        assert seed or dealt < 16 or sampled.deck != state.deck  # the other seats' cards are drawn anew


def test_information_state_tensor_layout() -> None:
    g = game()
    assert g.information_state_tensor_shape() == [INFO_STATE_SIZE] == [310 + 9 * 36 + 64 * 49]
    state = g.new_initial_state()
    rng = np.random.RandomState(4)
    while state.is_chance_node() or len(state.game_state.tricks) < 2:
        state.apply_action(random_action(state, rng))
    player = state.current_player()
    tensor = np.array(state.information_state_tensor(player))
    assert list(tensor[:310]) == pytest.approx(state.observation_tensor(player))
    received = tensor[310:634].reshape(9, 36)
    assert (received.sum(axis=1) <= 1).all() and received.sum() >= 4
    moves = tensor[634:].reshape(64, 49)
    seen = goat.view(state.game_state, player)
    assert int(moves[:, :4].sum()) == len(seen.history)  # one row per move the player saw, waits of its own included


def test_clone_copies_no_game_data() -> None:
    state = game().new_initial_state()
    rng = np.random.RandomState(2)
    for _ in range(45):
        state.apply_action(random_action(state, rng))
    copy = state.clone()
    assert copy._node is state._node and copy.history() == state.history()
    copy.apply_action(random_action(copy, rng))
    assert len(state.history()) == 45 and len(copy.history()) == 46


def test_states_pickle_as_their_actions() -> None:
    state = game(dealer=1).new_initial_state()
    rng = np.random.RandomState(3)
    for _ in range(50):
        state.apply_action(random_action(state, rng))
    for restored in (
        pickle.loads(pickle.dumps(state)),
        state.get_game().deserialize_state(state.serialize()),
        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(state.get_game(), state))[1],
    ):
        assert restored.history() == state.history() and restored.game_state == state.game_state
        assert restored.information_state_string(1) == state.information_state_string(1)
        assert str(restored.get_game()) == "python_goat(dealer=1,returns=defeat)"


def test_bad_actions_get_goats_errors_and_leave_the_state_as_it_was() -> None:
    from goat.errors import IllegalMoveError, InvalidDealError

    state = game().new_initial_state()
    with pytest.raises(InvalidDealError, match="not a card left to deal"):
        state.apply_action(36)
    for card in range(36):
        state.apply_action(card)
    with pytest.raises(InvalidDealError, match="R8"):
        state.apply_action(3)  # dealt to a seat, not in the stock
    state.apply_action(20)
    illegal = next(action for action in range(encoding.NUM_ACTIONS) if action not in state.legal_actions())
    with pytest.raises(IllegalMoveError, match=f"action {illegal} is not legal"):
        state.apply_action(illegal)
    assert state.history() == [*range(36), 20] and state.current_player() == state.game_state.to_move


def test_legal_actions_agree_with_the_views_encoding() -> None:
    rng = np.random.RandomState(6)
    state = game().new_initial_state()
    while not state.is_terminal():
        if not state.is_chance_node():
            seen = goat.view(state.game_state, state.current_player())
            assert state.legal_actions() == encoding.legal_actions(seen)
        state.apply_action(random_action(state, rng))


# --- lengths, as OpenSpiel's C++ games count them (issue 28) ----------------------------------------------


def test_max_game_length_counts_decisions_and_chance_nodes_apart_as_bridge_does() -> None:
    # OpenSpiel's bridge: 52 deal moves are chance nodes, not part of max_game_length; the history holds both.
    bridge = pyspiel.load_game("bridge")
    assert bridge.max_chance_nodes_in_history() == 52
    assert bridge.max_history_length() == bridge.max_game_length() + bridge.max_chance_nodes_in_history()
    assert bridge.max_move_number() == bridge.max_history_length()
    g = game()
    assert (g.max_game_length(), g.max_chance_nodes_in_history(), g.max_history_length()) == (144, 37, 181)
    assert g.max_move_number() == g.max_history_length()
    rng = np.random.RandomState(3)
    for _ in range(20):
        state = g.new_initial_state()
        while not state.is_terminal():
            state.apply_action(random_action(state, rng))
        chance = sum(step.player == pyspiel.PlayerId.CHANCE for step in state.full_history())
        assert chance == 37 and len(state.history()) - chance <= g.max_game_length()


# --- public and all-players observations (R23) --------------------------------------------------------------


def observer(private: Any, perfect_recall: bool) -> Any:
    from open_spiel.python.observation import make_observation

    kind = pyspiel.IIGObservationType(public_info=True, perfect_recall=perfect_recall, private_info=private)
    return make_observation(game(), kind)


def seen(obs: Any, state: Any, player: int) -> tuple[str, list[float]]:
    obs.set_from(state, player)
    return obs.string_from(state, player), list(obs.tensor)


NONE, ALL = pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.ALL_PLAYERS


@pytest.mark.parametrize("perfect_recall", [False, True])
def test_the_public_observation_is_what_every_seat_sees(perfect_recall: bool) -> None:
    # Worlds drawn for any seat's information state share the public observation with the real state, and
    # hold other hands and passes: so the public observation shows no seat's private information.
    public, everything = observer(NONE, perfect_recall), observer(ALL, perfect_recall)
    rng = np.random.RandomState(7)
    state, told_apart = game().new_initial_state(), 0
    while not state.is_terminal():
        if not state.is_chance_node() and rng.random_sample() < 0.3:
            for player in range(4):
                sampled = state.resample_from_infostate(state.current_player(), SAMPLER(0.0, 1.0))
                assert seen(public, sampled, player) == seen(public, state, player)
                told_apart += seen(everything, sampled, player) != seen(everything, state, player)
        state.apply_action(random_action(state, rng))
    assert told_apart > 10  # the all-players observation shows what the worlds differ in


def test_what_the_public_and_all_players_observations_hold() -> None:
    state = game().new_initial_state()
    rng = np.random.RandomState(12)
    while state.is_chance_node() or len(state.game_state.tricks) < 2:
        state.apply_action(random_action(state, rng))
    player = state.current_player()
    public, everything = observer(NONE, True), observer(ALL, True)
    public.set_from(state, player)
    own = np.array(state.observation_tensor(player))
    assert not public.dict["observation"][:36].any() and own[:36].any()  # no hand
    assert public.dict["seen_moves"].shape == (36, 49) and "received" not in public.dict
    everything.set_from(state, player)
    for row in range(4):
        assert list(everything.dict["observation"][row]) == state.observation_tensor((player + row) % 4)
    assert everything.dict["received"].shape == (4, 9, 36) and everything.dict["seen_moves"].shape == (144, 49)
    text = everything.string_from(state, player)
    assert "??" not in text and all(f"to {seat}" in text for seat in range(4))  # every deal and pass shown
    assert "??" in public.string_from(state, player) or "pass" not in text
    assert "dealt" not in public.string_from(state, player)


def test_an_observation_without_public_information_is_refused() -> None:
    kind = pyspiel.IIGObservationType(public_info=False, perfect_recall=False)
    with pytest.raises(ValueError, match="public_info"):
        game().make_py_observer(kind)


# --- OpenSpiel's C++ ISMCTS --------------------------------------------------------------------------------

CPP_ISMCTS = """
import pyspiel
from open_spiel.python.games import kuhn_poker  # registers python_kuhn_poker
game = pyspiel.load_game("python_kuhn_poker")
state = game.new_initial_state()
while state.is_chance_node():
    state.apply_action(state.chance_outcomes()[0][0])
bot = pyspiel.ISMCTSBot(1, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 10)
print(bot.step(state))
"""


@pytest.mark.skipif(
    not pyspiel.__file__
    or "2.0.2"
    not in subprocess.run([sys.executable, "-m", "pip", "show", "open_spiel"], capture_output=True, text=True).stdout,
    reason="documents open_spiel 2.0.2",
)
def test_openspiels_cpp_ismcts_crashes_on_its_own_python_game() -> None:
    """The upstream bug the docs describe: if this starts passing, OpenSpiel fixed it; update docs/adapters.md."""
    done = subprocess.run([sys.executable, "-c", CPP_ISMCTS], capture_output=True, text=True, timeout=60)
    assert done.returncode == -11  # SIGSEGV: its step() runs Python callbacks with the GIL released


def test_the_adapter_without_its_extra_names_it() -> None:
    code = "import sys; sys.modules['pyspiel'] = None; import goat.adapters.openspiel"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode != 0 and "(goat-cards[openspiel])" in done.stderr and "'open-spiel>=1.5'" in done.stderr
    assert "During handling" not in done.stderr  # one message, not a chained traceback
