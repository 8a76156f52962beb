"""The PettingZoo AEC environment: PettingZoo's own API, seed and render tests, and its conventions."""

from __future__ import annotations

import pickle
import subprocess
import sys
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils import wrappers

import goat
from goat.adapters import encoding
from goat.adapters.encoding import ILLEGAL_REWARD
from goat.adapters.pettingzoo import env, raw_env

# PettingZoo warns that dict observations (observation + action mask) are not plain arrays: intended.
pytestmark = pytest.mark.filterwarnings("ignore:Observation:UserWarning")


def test_pettingzoo_api_test() -> None:
    api_test(env(), num_cycles=300, verbose_progress=False)


def test_pettingzoo_seed_test() -> None:
    seed_test(env, num_cycles=300)


def test_pettingzoo_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(env)
    assert "trump card" in capsys.readouterr().out  # "human" printed the table


def play_out(game: Any, rng: np.random.Generator) -> tuple[dict[str, float], list[int]]:
    """Play random legal actions to the end: the rewards each agent was given in all, and the actions."""
    totals: dict[str, float] = {}
    actions = []
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _info = game.last()
        totals[agent] = totals.get(agent, 0) + reward
        action = None
        if not (termination or truncation):
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            actions.append(action)
        game.step(action)
    return totals, actions


def test_a_game_ends_with_the_defeat_scores_as_float_rewards() -> None:
    game = raw_env()
    game.reset(seed=7)
    assert game.state_ == goat.new_game(seed=7)
    rewards, _ = play_out(game, np.random.default_rng(1))
    assert game.state_ is not None and game.state_.is_over
    defeat = goat.score(game.state_).defeat
    for seat in range(4):
        reward = rewards[f"seat_{seat}"]
        assert type(reward) is float and reward == defeat[1 - seat % 2] - defeat[seat % 2]
    assert sum(rewards.values()) == 0


def test_masks_match_the_legal_moves_and_observations_fit_the_space() -> None:
    game = raw_env()
    game.reset(seed=3, options={"dealer": 2, "defeat": (4, 2)})
    assert game.state_ is not None and game.state_.dealer == 2 and game.state_.defeat == (4, 2)
    rng = np.random.default_rng(0)
    while not game.state_.is_over:
        agent = game.agent_selection
        seat = int(agent.split("_")[1])
        for other in game.agents:
            observation = game.observe(other)
            assert game.observation_space(other).contains(observation)
            assert observation["action_mask"].any() == (other == agent)
            view = goat.view(game.state_, int(other.split("_")[1]))
            assert observation["observation"].tolist() == pytest.approx(encoding.observation(view))
        mask = game.observe(agent)["action_mask"]
        assert sorted(np.flatnonzero(mask)) == encoding.legal_actions(goat.view(game.state_, seat))
        game.step(int(rng.choice(np.flatnonzero(mask))))


# --- illegal moves ----------------------------------------------------------------------------------------


def test_env_is_the_raw_game_in_pettingzoos_own_classic_wrappers() -> None:
    game = env()
    assert type(game) is wrappers.OrderEnforcingWrapper
    assert type(game.env) is wrappers.AssertOutOfBoundsWrapper
    assert type(game.env.env) is wrappers.TerminateIllegalWrapper
    assert type(game.env.env.env) is raw_env and game.unwrapped is game.env.env.env


def illegal_action(game: Any) -> int:
    """An action the agent to move may not take now (read from the unwrapped game, not through the wrappers)."""
    mask = game.unwrapped.observe(game.agent_selection)["action_mask"]
    return int(np.flatnonzero(mask == 0)[0])


@pytest.mark.parametrize("observed", [True, False], ids=["observed first", "not observed"])
def test_an_illegal_action_pays_worse_than_any_legal_outcome(observed: bool) -> None:
    assert ILLEGAL_REWARD < -6  # a team without a trick loses 6 (R19), the worst legal outcome
    game = env()
    game.reset(seed=5)
    agent = game.agent_selection
    if observed:  # the wrapper judges by the mask the agent was shown, or observes the agent itself
        game.last()
    game.step(illegal_action(game))
    assert game.rewards[agent] == ILLEGAL_REWARD and all(game.terminations.values())
    assert all(reward == 0 for other, reward in game.rewards.items() if other != agent)
    told = {}
    for other in game.agent_iter():  # the others are told, then leave
        _observation, reward, termination, _truncation, _info = game.last()
        assert termination
        told[other] = reward
        game.step(None)
    assert not game.agents
    assert told == {other: ILLEGAL_REWARD if other == agent else 0 for other in game.possible_agents}


def test_a_mask_changed_in_place_lets_the_raw_game_refuse_the_action_and_play_on() -> None:
    # PettingZoo's TerminateIllegalWrapper judges an action by the observation it handed the agent: an agent that
    # sets its mask to ones gets past it, and then the raw game refuses the action, its state unchanged.
    game = env()
    game.reset(seed=5)
    observation = game.last()[0]
    before = game.unwrapped.state_
    observation["action_mask"][:] = 1
    with pytest.raises(ValueError, match="not legal"):
        game.step(illegal_action(game))
    assert game.unwrapped.state_ == before and not any(game.terminations.values())
    rewards, _ = play_out(game, np.random.default_rng(2))
    assert sum(rewards.values()) == 0 and game.unwrapped.state_.is_over


def test_an_action_outside_the_space_fails_as_the_classic_wrappers_do() -> None:
    game = env()
    game.reset(seed=5)
    with pytest.raises(AssertionError, match="action space"):
        game.step(47)


def test_calls_out_of_order_are_errors_as_the_classic_wrappers_make_them() -> None:
    game = env()
    with pytest.raises(AssertionError, match="reset"):
        game.step(0)


def test_the_raw_environment_refuses_an_illegal_action() -> None:
    game = raw_env()
    game.reset(seed=5)
    before = game.state_
    with pytest.raises(ValueError, match="not legal"):
        game.step(illegal_action(game))
    assert game.state_ == before


def test_the_raw_environment_refuses_a_fractional_action() -> None:
    # int(action) cut 0.7 to action 0 and played it; an action is an integer (a numpy one too).
    game = raw_env()
    game.reset(seed=5)
    before = game.state_
    legal = int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"])[0])
    with pytest.raises(ValueError, match="not legal"):
        game.step(legal + 0.7)
    assert game.state_ == before
    game.step(np.int64(legal))
    assert game.state_ != before


# --- seeding ------------------------------------------------------------------------------------------------


def games_after(*seeds: Any) -> list[goat.GameState]:
    game = env()
    states = []
    for seed in seeds:
        game.reset(seed=seed)
        states.append(game.unwrapped.state_)
    return states


def test_reset_without_a_seed_continues_the_seeded_generator() -> None:
    first = games_after(42, None, None)
    again = games_after(42, None, None)
    assert first == again
    assert len({state.deck for state in first}) == 3


def test_numpy_integer_seeds_are_accepted() -> None:
    assert games_after(np.int64(42), None) == games_after(42, None)
    assert games_after(np.uint32(9))[0] == goat.new_game(seed=9)


def test_the_environment_has_gymnasiums_np_random() -> None:
    game = raw_env()
    game.reset(seed=3)
    assert isinstance(game.np_random, np.random.Generator) and game.np_random_seed == 3
    expected = np.random.default_rng(3)
    assert game.np_random.integers(1000) == expected.integers(1000)


# --- rendering and options -------------------------------------------------------------------------------


def test_ansi_rendering_returns_the_table_and_prints_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    game = env(render_mode="ansi")
    game.reset(seed=1)
    play_out(game, np.random.default_rng(0))
    text = game.render()
    assert isinstance(text, str) and "trump card" in text and "seat 3:" in text
    assert capsys.readouterr().out == ""


def test_human_rendering_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    game = env(render_mode="human")
    game.reset(seed=1)
    assert "trump card" in capsys.readouterr().out
    assert game.render() is None and "seat 0:" in capsys.readouterr().out
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb")


def test_env_passes_its_options_to_raw_env() -> None:
    assert env(render_mode="ansi").unwrapped.render_mode == "ansi"
    with pytest.raises(TypeError):
        env(no_such_option=1)


def test_the_environment_pickles_as_the_classic_ones_do() -> None:
    game = pickle.loads(pickle.dumps(raw_env(render_mode="ansi")))
    game.reset(seed=2)
    assert game.render_mode == "ansi" and game.state_ == goat.new_game(seed=2)


def test_the_adapter_without_its_extra_names_it() -> None:
    code = "import sys; sys.modules['pettingzoo'] = None; import goat.adapters.pettingzoo"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode != 0 and "(goat-cards[pettingzoo])" in done.stderr and "'pettingzoo>=1.24'" in done.stderr
    assert "During handling" not in done.stderr  # one message, not a chained traceback


def test_an_observation_changed_in_place_changes_only_the_agents_copy() -> None:
    # Found by a review: observe() handed out the arrays it kept, so an agent that normalised its observation, or
    # set its action mask to ones, changed what every later observe() of that state said (all 47 actions legal).
    game = raw_env()
    game.reset(seed=3)
    agent = game.agent_selection
    first = game.observe(agent)
    legal = first["action_mask"].copy()
    first["action_mask"][:] = 1
    first["observation"][:] = 0
    again = game.observe(agent)
    assert (again["action_mask"] == legal).all() and again["observation"].any()
