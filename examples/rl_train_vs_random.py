"""Train a small policy to play Goat against goat's random bot, with numpy alone (needs goat-cards[gymnasium]).

    python examples/rl_train_vs_random.py [--games N] [--eval-games M] [--plot PATH | --no-plot] [--seed S]

The learner plays seat 0 of the Gymnasium environment ``goat/Goat-v0``; its partner (seat 2) is goat's
``random`` bot, and so are the opponents during training.  The policy is a softmax over the 47 actions,
masked to the legal ones (``info["action_mask"]``), on one hidden layer of ``--hidden`` tanh units over the
310-number observation; it learns by REINFORCE (the game's final reward, a running-mean baseline, an
entropy bonus) with Adam, in batches of ``--batch`` games.

Before training, at each checkpoint and at the end, the policy (sampling its actions, as it trains) plays
``--eval-games`` games on fixed deals against ``random`` opponents and against ``greedy`` ones.  The figure
is the **game win rate**: the share of games the learner's team wins (61 points or more, R19; balls count as
not won), with a Wilson 95% interval.  ``--plot`` saves the curve (default ``rl_train_vs_random.png`` in the
current directory; needs matplotlib, of the extra ``goat-cards[rl]``: without it the run ends with the table and
says so).  A tiny run for a test: ``--games 200 --eval-games 40 --checkpoints 1 --no-plot``.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import gymnasium
import numpy as np

import goat.adapters.gymnasium  # noqa: F401 - registers goat/Goat-v0
from goat.adapters import encoding


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for z = 1.96)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


class Policy:
    """A masked softmax policy with one hidden layer, trained by REINFORCE with Adam."""

    def __init__(self, hidden: int, rng: np.random.Generator, lr: float) -> None:
        size, actions = encoding.OBSERVATION_SIZE, encoding.NUM_ACTIONS
        self.params = {
            "w1": rng.normal(0, 1 / math.sqrt(size), (size, hidden)),
            "b1": np.zeros(hidden),
            "w2": rng.normal(0, 0.01, (hidden, actions)),  # near-uniform at first
            "b2": np.zeros(actions),
        }
        self.moments = {key: (np.zeros_like(value), np.zeros_like(value)) for key, value in self.params.items()}
        self.lr, self.steps = lr, 0

    def probabilities(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        hidden = np.tanh(observations @ self.params["w1"] + self.params["b1"])
        logits = hidden @ self.params["w2"] + self.params["b2"]
        logits = np.where(masks, logits, -np.inf)
        logits -= logits.max(axis=-1, keepdims=True)
        weights = np.exp(logits)
        return weights / weights.sum(axis=-1, keepdims=True), hidden

    def act(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
        probabilities, _ = self.probabilities(observation[None], mask[None].astype(bool))
        return int(rng.choice(encoding.NUM_ACTIONS, p=probabilities[0]))

    def update(self, batch: list[tuple[np.ndarray, np.ndarray, np.ndarray, float]], entropy: float) -> None:
        """One gradient step on a batch of (observations, masks, actions, advantage) games."""
        observations = np.concatenate([game[0] for game in batch])
        masks = np.concatenate([game[1] for game in batch]).astype(bool)
        actions = np.concatenate([game[2] for game in batch])
        advantages = np.concatenate([np.full(len(game[2]), game[3]) for game in batch])
        probabilities, hidden = self.probabilities(observations, masks)
        # d(-log pi(a) * advantage - entropy * H) / d logits, averaged over the games
        chosen = np.zeros_like(probabilities)
        chosen[np.arange(len(actions)), actions] = 1
        logs = np.log(np.where(masks, probabilities, 1.0))
        entropy_term = probabilities * (logs + (-(probabilities * logs).sum(axis=1, keepdims=True)))
        grad_logits = (probabilities - chosen) * advantages[:, None] + entropy * entropy_term
        grad_logits /= len(batch)
        grads = {
            "w2": hidden.T @ grad_logits,
            "b2": grad_logits.sum(axis=0),
        }
        grad_hidden = (grad_logits @ self.params["w2"].T) * (1 - hidden**2)
        grads["w1"] = observations.T @ grad_hidden
        grads["b1"] = grad_hidden.sum(axis=0)
        self.steps += 1
        for key, grad in grads.items():
            first, second = self.moments[key]
            first *= 0.9
            first += 0.1 * grad
            second *= 0.999
            second += 0.001 * grad**2
            corrected = first / (1 - 0.9**self.steps), second / (1 - 0.999**self.steps)
            self.params[key] -= self.lr * corrected[0] / (np.sqrt(corrected[1]) + 1e-8)


def play_game(env: Any, policy: Policy, seed: int | None, rng: np.random.Generator) -> tuple[list[Any], float]:
    """One game: the learner's (observation, mask, action) steps and its final reward."""
    observation, info = env.reset(seed=seed)
    steps = []
    while True:
        mask = info["action_mask"]
        action = policy.act(observation, mask, rng)
        steps.append((observation, mask, action))
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return steps, float(reward)


def evaluate(policy: Policy, opponents: str, games: int, seed: int) -> tuple[int, int]:
    """Games won by the learner's team out of ``games`` fixed deals against ``opponents``."""
    env = gymnasium.make("goat/Goat-v0", seat=0, partner="random", opponents=opponents)
    rng = np.random.default_rng(seed)
    wins = sum(play_game(env, policy, 1_000_000 + seed + number, rng)[1] > 0 for number in range(games))
    env.close()
    return wins, games


def report(label: str, policy: Policy, games: int, seed: int) -> dict[str, tuple[int, int]]:
    results = {}
    for opponents in ("random", "greedy"):
        wins, played = results[opponents] = evaluate(policy, opponents, games, seed)
        low, high = wilson(wins, played)
        print(
            f"{label:>16}  vs {opponents:<6}  game win rate {wins}/{played} = {wins / played:6.1%}  "
            f"(95% Wilson {low:.1%}–{high:.1%})",
            flush=True,
        )
    return results


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40_000, help="training games (default 40,000)")
    parser.add_argument("--eval-games", type=int, default=2000, help="games per evaluation (default 2,000)")
    parser.add_argument("--checkpoints", type=int, default=5, help="evaluations during training (default 5)")
    parser.add_argument("--batch", type=int, default=64, help="games per gradient step (default 64)")
    parser.add_argument("--hidden", type=int, default=64, help="hidden units (default 64)")
    parser.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate (default 0.001)")
    parser.add_argument("--entropy", type=float, default=0.01, help="entropy bonus (default 0.01)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", default="rl_train_vs_random.png", help="where to save the plot")
    parser.add_argument("--no-plot", action="store_true", help="do not plot")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    policy = Policy(args.hidden, rng, args.lr)
    started = time.process_time()
    curve = [(0, report("before training", policy, args.eval_games, args.seed))]
    env = gymnasium.make("goat/Goat-v0", seat=0, partner="random", opponents="random")
    env.reset(seed=args.seed)
    baseline, batch = 0.0, []
    every = max(1, args.games // max(1, args.checkpoints))
    for number in range(1, args.games + 1):
        steps, reward = play_game(env, policy, None, rng)
        reward /= 6  # defeat-scores: -6 … +6
        baseline += 0.01 * (reward - baseline)
        observations, masks, actions = (np.array(column) for column in zip(*steps, strict=True))
        batch.append((observations, masks, actions, reward - baseline))
        if len(batch) == args.batch:
            policy.update(batch, args.entropy)
            batch = []
        if number % every == 0 or number == args.games:
            label = "after training" if number == args.games else f"after {number:,}"
            curve.append((number, report(label, policy, args.eval_games, args.seed)))
    env.close()
    seconds = time.process_time() - started
    print(f"{args.games:,} training games and {len(curve)} evaluations in {seconds:.0f} s of CPU")
    if not args.no_plot:
        plot(curve, args.plot, args)
    return {"curve": curve, "seconds": seconds}


def plot(curve: list[tuple[int, dict[str, tuple[int, int]]]], path: str, args: argparse.Namespace) -> None:
    try:
        import matplotlib
    except ImportError:  # the figures are printed above; only the picture is missing
        print("no plot: matplotlib is not installed (pip install 'goat-cards[rl]', or --no-plot)")
        return

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    games = [number for number, _ in curve]
    for opponents, colour in (("random", "tab:blue"), ("greedy", "tab:red")):
        rates = [results[opponents][0] / results[opponents][1] for _, results in curve]
        bands = [wilson(*results[opponents]) for _, results in curve]
        axes.plot(games, rates, marker="o", color=colour, label=f"vs {opponents} (partner: random)")
        axes.fill_between(games, [b[0] for b in bands], [b[1] for b in bands], color=colour, alpha=0.2)
    axes.axhline(0.5, color="grey", linewidth=0.8, linestyle=":")
    axes.set_xlabel("training games (against random)")
    axes.set_ylabel("game win rate of the learner's team")
    axes.set_ylim(0, 1)
    axes.set_title(f"REINFORCE, {args.hidden} hidden units, numpy; {args.eval_games:,} games per point, 95% Wilson")
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    print(f"plot saved to {path}")


if __name__ == "__main__":
    main()
