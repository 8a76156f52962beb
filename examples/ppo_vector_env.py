"""PPO with action masking on goat.batch's vector environment, in a plain torch loop (needs goat-cards[rl]).

    python examples/ppo_vector_env.py [--updates N] [--envs E] [--eval-deals M] [--plot PATH | --no-plot]
    python examples/ppo_vector_env.py --tiny      # a few seconds: what the tests run

A CleanRL-style PPO: ``--envs`` games in lockstep (:func:`goat.batch.vector_env`, ``autoreset_mode="SameStep"``:
the observation after a game's end is the next game's first, as the loop's bootstrapping expects), the learner
at seat ``--seat`` and the three other seats, partner included, playing ``greedy-lite`` (goat.batch's fast
array rule).  One network, two heads: the policy's logits over the 47 actions, the illegal ones masked out
with ``infos["action_mask"]``, and the value.  Rewards are the defeat-score difference / 6 at a game's end.
Each update collects ``--steps`` decisions per game, then runs 4 epochs of clipped PPO on 4 minibatches
(generalised advantage estimation, gamma 0.99, lambda 0.95; clip 0.2; entropy 0.01; Adam, ``--lr``).

Before training, at each of ``--checkpoints`` points and at the end, the learner plays the same
``--eval-deals`` deals (``reset(seed=[...])``, one seed per game, seeds 1,000,000 on), choosing its most
likely legal action; beside it greedy-lite plays the learner's seat on the same deals.  The figure is the game
win rate of the learner's team (61 points or more, R19; balls are not won), with a Wilson 95% interval.
``--plot`` saves the learning curve (default ``ppo_vector_env.png`` in the current directory; matplotlib).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from goat.adapters.encoding import NUM_ACTIONS, OBSERVATION_SIZE
from goat.arena.stats import wilson_interval
from goat.batch import greedy_lite_actions, vector_env

try:
    import torch
    from torch import nn
except ImportError as error:
    raise SystemExit(f"this example needs torch: pip install 'goat-cards[rl]' ({error})") from None

EVAL_SEEDS = 1_000_000
OPPONENTS = "greedy-lite"


class Agent(nn.Module):  # type: ignore[misc]
    """An MLP trunk with a policy head (masked logits) and a value head."""

    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(OBSERVATION_SIZE, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.policy = nn.Linear(hidden, NUM_ACTIONS)
        self.value = nn.Linear(hidden, 1)
        nn.init.orthogonal_(self.policy.weight, 0.01)  # near-uniform among the legal actions at first
        nn.init.zeros_(self.policy.bias)

    def distribution(self, observations: Any, masks: Any) -> tuple[Any, Any]:
        features = self.trunk(observations)
        logits = self.policy(features).masked_fill(~masks, -1e9)
        return torch.distributions.Categorical(logits=logits), self.value(features).squeeze(-1)


def win_rate(seat: int, deals: int, choose: Any) -> int:
    """Games won by the learner's team on the fixed deals, ``choose(env, observations, masks)`` acting.

    With NEXT_STEP autoreset, a game's result is in the infos of the step that ends it; the step after deals
    that game a new one, which is not counted (its actions are ignored).
    """
    env = vector_env(deals, seat=seat, opponents=OPPONENTS)
    observations, infos = env.reset(seed=[EVAL_SEEDS + deal for deal in range(deals)])
    result = np.zeros(deals, dtype=np.int64)
    counted = np.zeros(deals, dtype=bool)
    while not counted.all():
        actions = choose(env, observations, infos["action_mask"])
        observations, _, terminated, _, infos = env.step(actions)
        if terminated.any():
            first = terminated & ~counted
            result[first] = infos["winner"][first]
            counted |= terminated
    env.close()
    return int((result == 1).sum())


def learner(agent: Agent) -> Any:
    def choose(env: Any, observations: Any, masks: Any) -> Any:
        with torch.no_grad():
            found, _ = agent.distribution(torch.as_tensor(observations), torch.as_tensor(masks))
        return found.probs.argmax(-1).numpy()

    return choose


def greedy_lite(env: Any, observations: Any, masks: Any) -> Any:
    return np.maximum(greedy_lite_actions(env.batch), 0)  # -1 for a finished game: its action is ignored


def show(label: str, wins: int, deals: int) -> str:
    low, high = wilson_interval(wins, deals)
    return f"{label:<30} {wins:>5}/{deals} ({wins / deals:6.1%})   95% Wilson {low:6.1%} – {high:6.1%}"


def train(agent: Agent, args: argparse.Namespace, updates: int, state: dict[str, Any]) -> None:
    """``updates`` PPO updates, going on from ``state`` (the environment, its last observations and masks)."""
    env, optimizer = state["env"], state["optimizer"]
    n, steps = args.envs, args.steps
    observations = torch.zeros((steps, n, OBSERVATION_SIZE))
    masks = torch.zeros((steps, n, NUM_ACTIONS), dtype=torch.bool)
    actions = torch.zeros((steps, n), dtype=torch.long)
    log_probs = torch.zeros((steps, n))
    rewards = torch.zeros((steps, n))
    dones = torch.zeros((steps, n))
    values = torch.zeros((steps, n))
    for _ in range(updates):
        next_obs, next_mask, next_done = state["obs"], state["mask"], state["done"]
        for t in range(steps):
            observations[t], masks[t], dones[t] = next_obs, next_mask, next_done
            with torch.no_grad():
                found, value = agent.distribution(next_obs, next_mask)
                action = found.sample()
            actions[t], log_probs[t], values[t] = action, found.log_prob(action), value
            obs, reward, terminated, truncated, infos = env.step(action.numpy())
            rewards[t] = torch.as_tensor(reward / 6.0, dtype=torch.float32)
            next_obs = torch.as_tensor(obs)
            next_mask = torch.as_tensor(infos["action_mask"])
            next_done = torch.as_tensor(terminated | truncated, dtype=torch.float32)
        state.update(obs=next_obs, mask=next_mask, done=next_done)
        with torch.no_grad():  # generalised advantage estimation
            _, next_value = agent.distribution(next_obs, next_mask)
            advantages = torch.zeros_like(rewards)
            running = torch.zeros(n)
            for t in reversed(range(steps)):
                if t == steps - 1:
                    alive, following = 1.0 - next_done, next_value
                else:
                    alive, following = 1.0 - dones[t + 1], values[t + 1]
                delta = rewards[t] + 0.99 * following * alive - values[t]
                running = delta + 0.99 * 0.95 * alive * running
                advantages[t] = running
            returns = advantages + values
        flat = [
            x.reshape(steps * n, *x.shape[2:]) for x in (observations, masks, actions, log_probs, advantages, returns)
        ]
        b_obs, b_masks, b_actions, b_log_probs, b_advantages, b_returns = flat
        size = steps * n // 4
        for _ in range(4):
            order = torch.randperm(steps * n)
            for start in range(0, steps * n, size):
                part = order[start : start + size]
                found, value = agent.distribution(b_obs[part], b_masks[part])
                ratio = (found.log_prob(b_actions[part]) - b_log_probs[part]).exp()
                advantage = b_advantages[part]
                advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
                policy_loss = torch.max(-advantage * ratio, -advantage * ratio.clamp(0.8, 1.2)).mean()
                value_loss = 0.5 * ((value - b_returns[part]) ** 2).mean()
                loss = policy_loss + 0.5 * value_loss - 0.01 * found.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()
        state["decisions"] += steps * n


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=300, help="PPO updates (default 300)")
    parser.add_argument("--envs", type=int, default=64, help="games in lockstep (default 64)")
    parser.add_argument("--steps", type=int, default=32, help="decisions per game per update (default 32)")
    parser.add_argument("--hidden", type=int, default=128, help="hidden units per layer (default 128)")
    parser.add_argument("--lr", type=float, default=2.5e-4, help="Adam's learning rate (default 0.00025)")
    parser.add_argument("--eval-deals", type=int, default=2000, help="fixed deals per evaluation (default 2,000)")
    parser.add_argument("--checkpoints", type=int, default=4, help="evaluations during training (default 4)")
    parser.add_argument("--seat", type=int, default=0, help="the learner's seat (default 0)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", default="ppo_vector_env.png", help="where to save the curve")
    parser.add_argument("--no-plot", action="store_true", help="do not plot")
    parser.add_argument("--tiny", action="store_true", help="a run of seconds, for a test")
    args = parser.parse_args(argv)
    if args.tiny:
        args.updates, args.envs, args.steps, args.eval_deals, args.checkpoints = 2, 8, 16, 16, 1
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # a small MLP: more threads only contend
    started = time.perf_counter()
    agent = Agent(args.hidden)
    env = vector_env(args.envs, seat=args.seat, opponents=OPPONENTS, autoreset_mode="SameStep")
    obs, infos = env.reset(seed=args.seed)
    state: dict[str, Any] = {
        "env": env,
        "optimizer": torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5),
        "obs": torch.as_tensor(obs),
        "mask": torch.as_tensor(infos["action_mask"]),
        "done": torch.zeros(args.envs),
        "decisions": 0,
    }
    mark = win_rate(args.seat, args.eval_deals, greedy_lite)
    print(show(f"greedy-lite at seat {args.seat}", mark, args.eval_deals))
    curve = [(0, win_rate(args.seat, args.eval_deals, learner(agent)))]
    print(show("PPO, untrained", curve[0][1], args.eval_deals))
    done = 0
    for k in range(args.checkpoints + 1):
        target = round(args.updates * (k + 1) / (args.checkpoints + 1))
        train(agent, args, target - done, state)
        done = target
        curve.append((state["decisions"], win_rate(args.seat, args.eval_deals, learner(agent))))
        print(show(f"PPO, {state['decisions']:,} decisions", curve[-1][1], args.eval_deals))
    env.close()
    seconds = time.perf_counter() - started
    print(f"{state['decisions']:,} training decisions and {len(curve)} evaluations in {seconds:.0f} s")
    if not args.no_plot:
        plot(curve, mark, args)
    return {"greedy_lite": mark, "curve": curve, "deals": args.eval_deals, "seconds": seconds}


def plot(curve: list[tuple[int, int]], mark: int, args: argparse.Namespace) -> None:
    try:
        import matplotlib
    except ImportError:
        print("no plot: matplotlib is not installed (pip install 'goat-cards[rl]', or --no-plot)")
        return
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    deals = args.eval_deals
    points = [number for number, _ in curve]
    bands = [wilson_interval(wins, deals) for _, wins in curve]
    figure, axes = plt.subplots(figsize=(7, 4))
    axes.plot(points, [wins / deals for _, wins in curve], marker="o", color="tab:blue", label="PPO (masked)")
    axes.fill_between(points, [b[0] for b in bands], [b[1] for b in bands], color="tab:blue", alpha=0.2)
    low, high = wilson_interval(mark, deals)
    axes.axhline(mark / deals, color="tab:red", label=f"greedy-lite in the same seat ({mark / deals:.1%})")
    axes.axhspan(low, high, color="tab:red", alpha=0.1)
    axes.set_xlabel("training decisions (partner and opponents greedy-lite)")
    axes.set_ylabel("game win rate of the learner's team")
    axes.set_ylim(0, 1)
    axes.set_title(
        f"PPO on goat.batch.vector_env, seat {args.seat}: {deals:,} fixed deals a point, 95% Wilson", fontsize=10
    )
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(args.plot, dpi=120)
    print(f"plot saved to {args.plot}")


if __name__ == "__main__":
    main()
