"""The single-agent Gymnasium environment goat/Goat-v0: Gymnasium's checker, vector environments, conventions."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

gymnasium = pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

import goat  # noqa: E402
import goat.adapters.gymnasium  # noqa: E402 - registers goat/Goat-v0
from goat.adapters import encoding  # noqa: E402
from goat.adapters.encoding import ILLEGAL_REWARD  # noqa: E402
from goat.adapters.gymnasium import GoatEnv  # noqa: E402


def finish(env: Any, seed: int, rng: np.random.Generator) -> tuple[float, int, dict[str, Any]]:
    """Play random legal actions from reset(seed) to the end: the final reward, the decisions, the last info."""
    _observation, info = env.reset(seed=seed)
    decisions = 0
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _observation, reward, terminated, truncated, info = env.step(action)
        decisions += 1
        assert not truncated
        if terminated:
            return float(reward), decisions, info
        assert reward == 0


def test_gymnasiums_env_checker_passes() -> None:
    check_env(gymnasium.make("goat/Goat-v0", seat=0, partner="greedy", opponents="greedy").unwrapped)


@pytest.mark.filterwarnings("ignore:.*is different from the unwrapped version")  # the checker prefers unwrapped
def test_gymnasiums_env_checker_passes_through_make() -> None:
    check_env(gymnasium.make("goat/Goat-v0", seat=2, partner="random", opponents="greedy", render_mode="ansi"))


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_game_against_the_bots_ends_with_the_learners_defeat_scores(seat: int) -> None:
    env = gymnasium.make("goat/Goat-v0", seat=seat, partner="greedy", opponents="random")
    reward, decisions, info = finish(env, seed=seat, rng=np.random.default_rng(seat))
    state = env.unwrapped.state_
    assert state.is_over and decisions >= 1
    defeat = goat.score(state).defeat
    assert reward == defeat[1 - seat % 2] - defeat[seat % 2]
    assert not info["action_mask"].any()


def test_the_mask_is_the_learners_legal_actions_and_observations_its_view() -> None:
    env = GoatEnv(seat=1, partner="random", opponents="random")
    observation, info = env.reset(seed=3)
    rng = np.random.default_rng(1)
    while True:
        state = env.state_
        assert state.to_move == 1
        seen = goat.view(state, 1)
        assert list(np.flatnonzero(info["action_mask"])) == encoding.legal_actions(seen)
        assert list(np.flatnonzero(env.action_masks())) == encoding.legal_actions(seen)
        assert observation.tolist() == pytest.approx(encoding.observation(seen))
        assert env.observation_space.contains(observation)
        observation, _reward, terminated, _truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        if terminated:
            break


def test_an_illegal_action_ends_the_game_worse_than_any_legal_outcome() -> None:
    env = GoatEnv()
    _observation, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _observation, reward, terminated, truncated, info = env.step(illegal)
    assert reward == ILLEGAL_REWARD < -6 and terminated and not truncated and info["illegal"]
    # every info value is a NumPy value: torchrl's info reader (auto_register_info_dict) failed on a Python bool
    assert all(isinstance(value, (np.ndarray, np.generic)) for value in info.values())
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_seeding_follows_gymnasium() -> None:
    def deals(*seeds: Any) -> list[Any]:
        env = GoatEnv(partner="random", opponents="random")
        out = []
        for seed in seeds:
            observation, _info = env.reset(seed=seed)
            out.append((env.state_.deck, observation.tobytes()))
        return out

    assert deals(42, None, None) == deals(42, None, None)
    assert deals(np.int64(42), None) == deals(42, None)
    first = GoatEnv()
    first.reset(seed=5)
    assert first.state_.deck == goat.new_game(seed=5).deck
    # The bots are seeded too: the same seed, the same whole game.
    games = [finish(GoatEnv(partner="random", opponents="random"), 11, np.random.default_rng(0)) for _ in range(2)]
    assert games[0][:2] == games[1][:2]


def test_options_set_the_dealer_and_the_match_score() -> None:
    env = GoatEnv()
    env.reset(seed=1, options={"dealer": 3, "defeat": (2, 4)})
    assert env.state_.dealer == 3 and env.state_.defeat == (2, 4)


def test_rendering(capsys: pytest.CaptureFixture[str]) -> None:
    text = GoatEnv(render_mode="ansi")
    text.reset(seed=1)
    assert "trump card" in (text.render() or "") and capsys.readouterr().out == ""
    human = GoatEnv(render_mode="human")
    human.reset(seed=1)
    assert human.render() is None and "seat 0:" in capsys.readouterr().out
    with pytest.raises(ValueError, match="render_mode"):
        GoatEnv(render_mode="rgb")


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="seat"):
        GoatEnv(seat=4)
    with pytest.raises(goat.StrategyNameError):
        GoatEnv(opponents="no-such-bot")
    # Found by a review: a float seat or True was taken (and a numpy seat failed at reset, naming the bots' seed)
    for seat in (1.0, True, "1"):
        with pytest.raises(goat.InvalidSeatError, match="seat must be 0–3"):
            GoatEnv(seat=seat)  # type: ignore[arg-type]
    env = GoatEnv(seat=np.int64(2), opponents="random")  # type: ignore[arg-type]
    assert env.seat == 2 and type(env.seat) is int
    env.reset(seed=0)


@pytest.mark.parametrize("action", [100, -1, 3.7, True, "1"])
def test_an_action_outside_the_action_space_is_refused(action: Any) -> None:
    # Found by a review: 100 and -1 were scored as illegal moves (-7), 3.7 was cut to 3 and played.
    env = GoatEnv(opponents="random")
    env.reset(seed=1)
    with pytest.raises(ValueError, match="not in the action space"):
        env.step(action)


def test_an_async_vector_environment_of_two() -> None:
    envs = gymnasium.make_vec("goat/Goat-v0", num_envs=2, vectorization_mode="async", opponents="random")
    try:
        observations, infos = envs.reset(seed=7)
        assert observations.shape == (2, encoding.OBSERVATION_SIZE) and infos["action_mask"].shape == (2, 47)
        rng = np.random.default_rng(0)
        finished = np.zeros(2, dtype=bool)
        for _ in range(200):
            actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in infos["action_mask"]])
            observations, _rewards, terminated, truncated, infos = envs.step(actions)
            assert not truncated.any()
            finished |= terminated
            if finished.all():
                break
        assert finished.all()
    finally:
        envs.close()


def test_the_adapter_without_its_extra_names_it() -> None:
    code = "import sys; sys.modules['gymnasium'] = None; import goat.adapters.gymnasium"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode != 0 and "pip install 'gymnasium>=1.0' 'numpy>=1.24' " in done.stderr
    assert "(goat-cards[gymnasium])" in done.stderr
    assert "During handling" not in done.stderr
