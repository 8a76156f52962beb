"""goat.batch's vector environment by Gymnasium 1.x's conventions: the three autoreset modes, Gymnasium's vector
wrappers, illegal actions treated as goat/Goat-v0 treats them, and reset's seeds and options."""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import data_equivalence  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

import goat  # noqa: E402
from goat.adapters import encoding  # noqa: E402
from goat.adapters.encoding import ILLEGAL_REWARD  # noqa: E402
from goat.adapters.gymnasium import GoatEnv  # noqa: E402
from goat.batch import IllegalActionError, vector_env  # noqa: E402


def legal(mask: Any, rng: Any) -> Any:
    """A legal action for each game; 0 for one whose episode has just ended (the next step ignores it)."""
    return np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])


def illegal_action(mask_row: Any) -> int:
    return int(np.flatnonzero(~mask_row.astype(bool))[0])


# --- autoreset --------------------------------------------------------------------------------------------


def test_next_step_is_the_default_and_deals_again_on_the_step_after_the_end() -> None:
    env = vector_env(6, seat=1, reward="win")
    assert env.autoreset_mode is AutoresetMode.NEXT_STEP
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    rng = np.random.default_rng(3)
    obs, info = env.reset(seed=4)
    ended_before = np.zeros(6, dtype=bool)
    episodes = 0
    for _ in range(80):
        actions = legal(info["action_mask"], rng)
        was_ended = ended_before
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any() and "final_obs" not in info and "final_info" not in info
        # a sub-environment that ended at the last step starts its new game now: reward 0, not terminated
        assert (rewards[was_ended] == 0).all() and not terminated[was_ended].any()
        for game in np.flatnonzero(was_ended):
            state = env.batch.state(int(game))
            assert not state.is_over and state.to_move == 1
            assert np.array_equal(obs[game], encoding.observation_array(state, 1))
        if terminated.any():
            episodes += int(terminated.sum())
            # the step that ends an episode returns its last observation and its result
            assert (info["_winner"] == terminated).all() and (rewards[terminated] == info["winner"][terminated]).all()
            assert (info["points"][terminated].sum(axis=1) == 120).all()
            assert not info["action_mask"][terminated].any()  # nothing to do but wait for the new deal
            for game in np.flatnonzero(terminated):
                state = env.batch.state(int(game))
                assert state.is_over and np.array_equal(obs[game], encoding.observation_array(state, 1))
        ended_before = terminated
    assert episodes > 6


def test_same_step_deals_again_at_once_and_reports_the_finished_episode() -> None:
    env = vector_env(6, seat=0, autoreset_mode=AutoresetMode.SAME_STEP)
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    rng = np.random.default_rng(1)
    _, info = env.reset(seed=2)
    seen = 0
    for _ in range(60):
        obs, rewards, terminated, _, info = env.step(legal(info["action_mask"], rng))
        assert info["action_mask"].any(axis=1).all()  # every game is at a decision again
        if terminated.any():
            seen += 1
            assert (info["_final_obs"] == terminated).all() and (info["_final_info"] == terminated).all()
            final = info["final_info"]
            assert (rewards[terminated] == final["defeat"][terminated, 1] - final["defeat"][terminated, 0]).all()
            for game in np.flatnonzero(terminated):
                assert not np.array_equal(info["final_obs"][game], obs[game])
    assert seen


def test_disabled_deals_only_what_reset_is_asked_to() -> None:
    env = vector_env(4, autoreset_mode="Disabled", opponents="greedy-lite")
    assert env.metadata["autoreset_mode"] is AutoresetMode.DISABLED
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=9)
    terminated = np.zeros(4, dtype=bool)
    while not terminated.any():
        _, _, terminated, _, info = env.step(legal(info["action_mask"], rng))
    with pytest.raises(RuntimeError, match="reset_mask"):
        env.step(legal(info["action_mask"], rng))
    going = [env.batch.state(game) for game in range(4)]
    _, info = env.reset(options={"reset_mask": terminated})
    assert info["action_mask"].any(axis=1).all()
    for game in range(4):
        state = env.batch.state(game)
        if terminated[game]:
            assert not state.is_over and len(state.hands[0]) >= 4  # a new deal
        else:
            assert state == going[game]  # untouched
    env.step(legal(info["action_mask"], rng))  # runs again
    with pytest.raises(ValueError, match="reset_mask"):
        env.reset(options={"reset_mask": np.zeros(4, dtype=bool)})
    with pytest.raises(ValueError, match="reset_mask"):
        env.reset(options={"reset_mask": [True, False, False, False]})


# --- Gymnasium's vector wrappers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "wrap",
    [
        lambda env: gymnasium.wrappers.vector.NormalizeObservation(env),
        pytest.param(
            lambda env: gymnasium.wrappers.vector.DtypeObservation(env, np.float64),
            # Gymnasium's Box compares float32 bounds with float64's range: so does any float32 Box made float64
            marks=pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning"),
        ),
        lambda env: gymnasium.wrappers.vector.FlattenObservation(env),
        lambda env: gymnasium.wrappers.vector.TransformObservation(env, lambda obs: obs * 2.0),
        lambda env: gymnasium.wrappers.vector.NormalizeReward(env),
        lambda env: gymnasium.wrappers.vector.RecordEpisodeStatistics(env),
        lambda env: gymnasium.wrappers.vector.ClipReward(env, min_reward=-1.0, max_reward=1.0),
    ],
    ids=["NormalizeObservation", "DtypeObservation", "FlattenObservation", "TransformObservation",
         "NormalizeReward", "RecordEpisodeStatistics", "ClipReward"],
)  # fmt: skip
def test_gymnasiums_vector_wrappers_take_the_env(wrap: Any) -> None:
    # The observation wrappers refused it before: they take NEXT_STEP or DISABLED autoreset, not SAME_STEP.
    env = wrap(vector_env(4, seat=2))
    rng = np.random.default_rng(5)
    obs, info = env.reset(seed=3)
    assert obs.shape == (4, encoding.OBSERVATION_SIZE)
    ended = 0
    for _ in range(40):
        obs, rewards, terminated, _, info = env.step(legal(info["action_mask"], rng))
        assert obs.shape == (4, encoding.OBSERVATION_SIZE) and rewards.shape == (4,)
        ended += int(terminated.sum())
    assert ended
    if isinstance(env, gymnasium.wrappers.vector.RecordEpisodeStatistics):
        assert len(env.return_queue) == ended
    env.close()


# --- illegal actions ---------------------------------------------------------------------------------------------


def test_an_illegal_action_ends_the_episode_as_in_goat_v0() -> None:
    env = vector_env(3, seat=1)  # seat 1 leads the first trick: no other seat plays before its first decision
    obs, info = env.reset(seed=1)
    actions = legal(info["action_mask"], np.random.default_rng(0))
    actions[1] = illegal_action(info["action_mask"][1])
    before = env.batch.state(1)
    after, rewards, terminated, truncated, info = env.step(actions)
    assert rewards[1] == ILLEGAL_REWARD == -7 and terminated[1] and not truncated[1]
    assert info["illegal"].tolist() == [False, True, False] and info["_illegal"].tolist() == [False, True, False]
    assert np.array_equal(after[1], obs[1]) and env.batch.state(1) == before  # the action changed nothing
    assert not info["action_mask"][1].any()
    # goat/Goat-v0 does the same with the same game
    single = GoatEnv(seat=1, opponents="random", partner="random")
    single_obs, single_info = single.reset(seed=int(env.batch.seeds[1]))
    assert np.array_equal(single_obs, obs[1])
    _, reward, done, _, single_info = single.step(actions[1])
    assert reward == rewards[1] and done and single_info["illegal"]
    # the next step deals sub-environment 1 a new game and ignores its action
    _, rewards, terminated, _, info = env.step(legal(info["action_mask"], np.random.default_rng(1)))
    assert rewards[1] == 0 and not terminated[1] and info["action_mask"][1].any()
    assert env.batch.state(1) != before and not env.batch.state(1).is_over


def test_an_illegal_action_with_same_step_autoreset_reports_it_in_the_final_info() -> None:
    env = vector_env(2, autoreset_mode="SameStep", illegal_reward=-1.5)
    obs, info = env.reset(seed=2)
    actions = legal(info["action_mask"], np.random.default_rng(0))
    actions[0] = illegal_action(info["action_mask"][0])
    new_obs, rewards, terminated, _, info = env.step(actions)
    assert rewards[0] == -1.5 and terminated[0] and info["_final_obs"].tolist() == [True, False]
    assert np.array_equal(info["final_obs"][0], obs[0]) and info["final_info"]["illegal"][0]
    assert info["action_mask"][0].any() and not np.array_equal(new_obs[0], obs[0])  # a new game at once


def test_illegal_raise_keeps_the_old_behaviour() -> None:
    env = vector_env(2, illegal="raise")
    _, info = env.reset(seed=1)
    with pytest.raises(IllegalActionError):
        env.step(np.array([illegal_action(info["action_mask"][0]), illegal_action(info["action_mask"][1])]))


def test_gymnasiums_step_checks_with_sampled_actions() -> None:
    """check_step_determinism's steps, for a vector env: action_space.sample() is mostly illegal (it raised
    IllegalActionError before); two seeded runs step alike and leave np_random alike.  (Gymnasium's own function
    asserts ``truncated is False``, a single environment's bool, so it cannot take a vector env as it is.)"""
    from gymnasium.utils.env_checker import check_returned_data_not_reused

    env = vector_env(4, seat=3)
    env.action_space.seed(123)
    actions = [env.action_space.sample() for _ in range(30)]
    runs = []
    for _ in range(2):
        trace: list[Any] = [env.reset(seed=123)]
        trace += [env.step(action) for action in actions]
        trace.append(env.np_random.bit_generator.state)
        runs.append(trace)
    assert data_equivalence(runs[0], runs[1], exact=True)
    assert sum(int(step[4].get("illegal", np.zeros(4)).sum()) for step in runs[0][1:-1]) > 0
    check_returned_data_not_reused(vector_env(1))


# --- reset: seeds and options ---------------------------------------------------------------------------------


def test_reset_takes_numpy_integer_seeds_as_ints() -> None:
    env = vector_env(3)
    by_int, _ = env.reset(seed=7)
    for seed in (np.int64(7), np.uint32(7), np.int8(7)):
        again, _ = env.reset(seed=seed)
        assert np.array_equal(again, by_int)


def test_reset_takes_one_seed_per_sub_environment() -> None:
    env = vector_env(3, seat=1)
    obs, _ = env.reset(seed=[10, 11, 12])
    for game, seed in enumerate((10, 11, 12)):
        dealt = goat.new_game(seed=seed)  # goat/Goat-v0's deal for reset(seed=seed)
        assert env.batch.state(game).deck == dealt.deck and env.batch.state(game).dealer == dealt.dealer
        single, _ = GoatEnv(seat=1, opponents="random", partner="random").reset(seed=seed)
        assert np.array_equal(single, obs[game])
    for seeds in ([np.int64(10), 11, 12], np.array([10, 11, 12]), (10, 11, 12)):
        again, _ = env.reset(seed=seeds)
        assert np.array_equal(again, obs)
    mixed, _ = env.reset(seed=[10, None, 12])
    assert np.array_equal(mixed[0], obs[0]) and np.array_equal(mixed[2], obs[2])
    with pytest.raises(ValueError, match="one seed or None per sub-environment"):
        env.reset(seed=[1, 2])
    with pytest.raises(ValueError, match=r"seed\[1\]"):
        env.reset(seed=[1, -2, 3])


def test_reset_ignores_options_it_does_not_know_as_goat_v0_does() -> None:
    env = vector_env(2)
    plain, _ = env.reset(seed=5)
    again, _ = env.reset(seed=5, options={"no_such_option": 1})  # refused before with a ValueError
    assert np.array_equal(plain, again)
    GoatEnv().reset(seed=5, options={"no_such_option": 1})  # as the single env
    env.reset(seed=5, options={"dealer": 2})
    assert env.batch.state(0).deck == goat.new_game(seed=5 * 2**32, dealer=2).deck
    assert env.batch.state(0).dealer == 2
