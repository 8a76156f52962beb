"""Reinforcement-learning clients take goat's environments as they are: torchrl's GymWrapper with its ActionMask
transform (on goat.batch's vector env and on goat/Goat-v0), stable-baselines3's make_vec_env and sb3-contrib's
MaskablePPO.

These are the extra ``goat-cards[rl]`` (torch is large: CI installs it in one interpreter's environment only);
without it, each test is skipped and says which package is missing, unless GOAT_EXPECT_RL=1 (as CI sets where it
installs them): then a missing package fails.  The recipes are the ones docs/adapters.md shows.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

import goat.adapters.gymnasium  # noqa: E402, F401 - registers goat/Goat-v0
from goat.adapters.encoding import NUM_ACTIONS  # noqa: E402
from goat.batch import vector_env  # noqa: E402

WHY = "the rl extra: pip install 'goat-cards[rl]'"


def need(module: str, package: str) -> Any:
    if os.environ.get("GOAT_EXPECT_RL") == "1":
        return importlib.import_module(module)
    return pytest.importorskip(module, reason=f"{package} is not installed ({WHY})")


def torchrl_modules() -> Any:
    need("torch", "torch")
    return need("torchrl", "torchrl")


def sb3_modules() -> Any:
    need("torch", "torch")
    need("stable_baselines3", "stable-baselines3")
    return need("sb3_contrib", "sb3-contrib")


# --- torchrl ------------------------------------------------------------------------------------------------


def masked_env(env: Any, mask_dtype: Any) -> Any:
    """GymWrapper, an info reader for the action mask alone (its spec given: no probing rollout), and the
    ActionMask transform."""
    from torchrl.data import Binary
    from torchrl.envs import GymWrapper, default_info_dict_reader
    from torchrl.envs.transforms import ActionMask

    # with SAME_STEP autoreset, GymWrapper is already a TransformedEnv (its final_obs reader): append to it
    wrapped = GymWrapper(env, categorical_action_encoding=True)
    spec = Binary(NUM_ACTIONS, shape=(*wrapped.batch_size, NUM_ACTIONS), dtype=mask_dtype)
    wrapped.set_info_dict_reader(default_info_dict_reader(["action_mask"], spec=[spec]))
    return wrapped.append_transform(ActionMask())


def check_rollout(rollout: Any) -> None:
    """A masked random policy's rollout: only legal actions, so every finished episode has a legal result."""
    actions = rollout["action"]
    masks = rollout["action_mask"].bool()
    assert masks.gather(-1, actions.unsqueeze(-1)).all()  # each action was allowed by the mask it was chosen from
    done = rollout["next", "done"].squeeze(-1)
    rewards = rollout["next", "reward"].squeeze(-1)
    assert done.any()
    assert set(rewards[done].tolist()) <= {-6.0, -4.0, -2.0, 0.0, 2.0, 4.0, 6.0}  # never the illegal -7
    assert (rewards[~done] == 0).all()


@pytest.mark.parametrize("mode", ["Disabled", "SameStep"])
def test_torchrl_gym_wrapper_on_the_vector_env_with_the_action_mask(mode: str) -> None:
    torchrl_modules()
    import torch
    from torchrl.envs.utils import check_env_specs

    torch.manual_seed(0)
    env = masked_env(vector_env(4, seat=1, autoreset_mode=mode), torch.bool)
    assert env.batch_size == torch.Size([4])
    check_env_specs(env)
    env.set_seed(3)
    check_rollout(env.rollout(120, break_when_any_done=False))  # policy None: random actions of the masked spec


def test_torchrl_refuses_next_step_autoreset_and_says_which_it_takes() -> None:
    torchrl_modules()
    from torchrl.envs import GymWrapper

    with pytest.raises(RuntimeError, match="SAME_STEP or DISABLED"):  # it found no autoreset_mode before
        GymWrapper(vector_env(2))


def test_torchrl_gym_wrapper_on_goat_v0_with_the_action_mask() -> None:
    torchrl_modules()
    import torch
    from torchrl.envs.utils import check_env_specs

    torch.manual_seed(0)
    env = masked_env(gymnasium.make("goat/Goat-v0", opponents="random"), torch.int8)  # Gymnasium's int8 masks
    check_env_specs(env)
    env.set_seed(5)
    check_rollout(env.rollout(80, break_when_any_done=False))


def test_torchrl_registers_the_info_itself_even_after_an_illegal_probe() -> None:
    # The docs' recipe.  auto_register_info_dict probes with unmasked random actions, mostly illegal ones: the
    # vector env raised IllegalActionError there, and goat/Goat-v0's Python bool info["illegal"] broke the reader.
    torchrl_modules()
    import torch
    from torchrl.envs import GymWrapper, TransformedEnv
    from torchrl.envs.transforms import ActionMask

    for make in (lambda: vector_env(3, autoreset_mode="Disabled"), lambda: gymnasium.make("goat/Goat-v0")):
        for seed in range(3):
            torch.manual_seed(seed)
            env = GymWrapper(make(), categorical_action_encoding=True).auto_register_info_dict()
            env = TransformedEnv(env, ActionMask())
            check_rollout(env.rollout(60, break_when_any_done=False))


# --- stable-baselines3 -------------------------------------------------------------------------------------


def test_make_vec_env_makes_goat_v0() -> None:
    # make_vec_env asks for render_mode="rgb_array": goat/Goat-v0 refused it with a ValueError before
    sb3_modules()
    from stable_baselines3.common.env_util import make_vec_env

    envs = make_vec_env("goat/Goat-v0", n_envs=2, seed=0)
    try:
        assert envs.num_envs == 2 and envs.render_mode == "rgb_array"
        observations = envs.reset()
        assert observations.shape == (2, 310)
        masks = np.stack(envs.env_method("action_masks"))
        assert masks.shape == (2, NUM_ACTIONS) and masks.any(axis=1).all()
        frame = envs.render()
        assert frame is not None and frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    finally:
        envs.close()


def test_maskable_ppo_learns_a_few_hundred_steps() -> None:
    sb3_contrib = sb3_modules()
    from sb3_contrib.common.maskable.evaluation import evaluate_policy
    from stable_baselines3.common.env_util import make_vec_env

    envs = make_vec_env("goat/Goat-v0", n_envs=2, seed=0, env_kwargs={"opponents": "random"})
    try:
        model = sb3_contrib.MaskablePPO("MlpPolicy", envs, n_steps=64, batch_size=64, n_epochs=2, seed=0)
        model.learn(256)
        assert model.num_timesteps >= 256
        rewards, _ = evaluate_policy(model, envs, n_eval_episodes=4, use_masking=True, return_episode_rewards=True)
        assert len(rewards) == 4 and set(rewards) <= {-6.0, -4.0, -2.0, 0.0, 2.0, 4.0, 6.0}  # no illegal action
    finally:
        envs.close()
