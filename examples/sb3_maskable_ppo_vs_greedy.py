"""Train sb3-contrib's MaskablePPO at one seat of goat/Goat-v0 against greedy bots (needs goat-cards[rl]).

    python examples/sb3_maskable_ppo_vs_greedy.py [--timesteps N] [--eval-deals M] [--plot PATH | --no-plot]
    python examples/sb3_maskable_ppo_vs_greedy.py --tiny      # a few seconds: what the tests run

The learner plays seat ``--seat`` (default 0) of ``goat/Goat-v0``, made by stable-baselines3's
``make_vec_env`` (``--envs`` environments); its partner and both opponents are goat's ``greedy`` bot.
MaskablePPO (its default MLP policy) reads the legal actions from the environments' ``action_masks()``.

Before training, at each of ``--checkpoints`` points and at the end, the learner plays the same
``--eval-deals`` deals (seeds 1,000,000 on; the training deals come from the 63-bit seeds the environments
draw), choosing its most likely legal action.  The figure is the **game win rate**: the share of games its
team wins (61 points or more, R19; balls are not won), with a Wilson 95% interval.  Beside it, ``greedy``
plays the learner's seat on the same deals with the same partner and opponents: the mark to reach.
``--plot`` saves the learning curve (default ``sb3_maskable_ppo_vs_greedy.png`` in the current directory;
matplotlib).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import goat
import goat.adapters.gymnasium  # registers goat/Goat-v0
from goat.adapters import encoding
from goat.adapters.gymnasium import GoatEnv
from goat.arena.stats import wilson_interval

try:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env
except ImportError as error:
    needs = "this example needs stable-baselines3, sb3-contrib and torch: pip install 'goat-cards[rl]'"
    raise SystemExit(f"{needs} ({error})") from None

EVAL_SEEDS = 1_000_000  # the first evaluation deal: training deals are drawn from the environments' generators


def play_deals(seat: int, deals: int, choose: Any) -> int:
    """Games won by seat ``seat``'s team over the fixed deals, ``choose(env, observation)`` picking each of its
    actions."""
    env = GoatEnv(seat=seat, partner="greedy", opponents="greedy")
    wins = 0
    for deal in range(deals):
        observation, _ = env.reset(seed=EVAL_SEEDS + deal)
        terminated = False
        while not terminated:
            observation, _, terminated, _, _ = env.step(choose(env, observation))
        assert env.state_ is not None
        wins += goat.score(env.state_).winner == seat % 2
    env.close()
    return wins


def learner(model: Any) -> Any:
    """The policy's most likely legal action."""

    def choose(env: GoatEnv, observation: Any) -> int:
        action, _ = model.predict(observation, deterministic=True, action_masks=env.action_masks())
        return int(action)

    return choose


def greedy(seat: int) -> Any:
    """goat's greedy bot in the learner's seat, seeing what a player there sees."""
    bot = goat.load_strategy("greedy", seed=0)

    def choose(env: GoatEnv, observation: Any) -> int:
        assert env.state_ is not None
        seen = goat.view(env.state_, seat)
        return encoding.encode(bot.choose(seen, seen.legal_moves), seen)

    return choose


def show(label: str, wins: int, deals: int) -> str:
    low, high = wilson_interval(wins, deals)
    return f"{label:<28} {wins:>5}/{deals} ({wins / deals:6.1%})   95% Wilson {low:6.1%} – {high:6.1%}"


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=200_000, help="learner decisions to train on (200,000)")
    parser.add_argument("--envs", type=int, default=8, help="environments make_vec_env makes (default 8)")
    parser.add_argument("--eval-deals", type=int, default=1000, help="fixed deals per evaluation (default 1,000)")
    parser.add_argument("--checkpoints", type=int, default=4, help="evaluations during training (default 4)")
    parser.add_argument("--seat", type=int, default=0, help="the learner's seat (default 0)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", default="sb3_maskable_ppo_vs_greedy.png", help="where to save the curve")
    parser.add_argument("--no-plot", action="store_true", help="do not plot")
    parser.add_argument("--tiny", action="store_true", help="a run of seconds, for a test")
    args = parser.parse_args(argv)
    n_steps = 256
    if args.tiny:
        args.timesteps, args.envs, args.eval_deals, args.checkpoints, n_steps = 256, 2, 10, 1, 64
    torch.set_num_threads(1)  # a small MLP: more threads only contend
    started = time.perf_counter()
    envs = make_vec_env(
        "goat/Goat-v0",
        n_envs=args.envs,
        seed=args.seed,
        env_kwargs={"seat": args.seat, "partner": "greedy", "opponents": "greedy"},
    )
    model = MaskablePPO("MlpPolicy", envs, n_steps=n_steps, batch_size=64, seed=args.seed, verbose=0)
    mark = play_deals(args.seat, args.eval_deals, greedy(args.seat))
    print(show(f"greedy at seat {args.seat}", mark, args.eval_deals))
    curve = [(0, play_deals(args.seat, args.eval_deals, learner(model)))]
    print(show("MaskablePPO, untrained", curve[0][1], args.eval_deals))
    points = [round(args.timesteps * (k + 1) / (args.checkpoints + 1)) for k in range(args.checkpoints)]
    for target in [*points, args.timesteps]:
        model.learn(target - model.num_timesteps, reset_num_timesteps=False)
        curve.append((model.num_timesteps, play_deals(args.seat, args.eval_deals, learner(model))))
        print(show(f"MaskablePPO, {model.num_timesteps:,} steps", curve[-1][1], args.eval_deals))
    envs.close()
    seconds = time.perf_counter() - started
    print(f"{model.num_timesteps:,} training steps and {len(curve)} evaluations in {seconds:.0f} s")
    if not args.no_plot:
        plot(curve, mark, args)
    return {"greedy": mark, "curve": curve, "deals": args.eval_deals, "seconds": seconds}


def plot(curve: list[tuple[int, int]], mark: int, args: argparse.Namespace) -> None:
    try:
        import matplotlib
    except ImportError:
        print("no plot: matplotlib is not installed (pip install 'goat-cards[rl]', or --no-plot)")
        return
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    deals = args.eval_deals
    steps = [number for number, _ in curve]
    bands = [wilson_interval(wins, deals) for _, wins in curve]
    figure, axes = plt.subplots(figsize=(7, 4))
    axes.plot(steps, [wins / deals for _, wins in curve], marker="o", color="tab:blue", label="MaskablePPO")
    axes.fill_between(steps, [b[0] for b in bands], [b[1] for b in bands], color="tab:blue", alpha=0.2)
    low, high = wilson_interval(mark, deals)
    axes.axhline(mark / deals, color="tab:red", label=f"greedy in the same seat ({mark / deals:.1%})")
    axes.axhspan(low, high, color="tab:red", alpha=0.1)
    axes.set_xlabel("training steps (learner decisions), partner and opponents greedy")
    axes.set_ylabel("game win rate of the learner's team")
    axes.set_ylim(0, 1)
    axes.set_title(f"sb3-contrib MaskablePPO, seat {args.seat}: {deals:,} fixed deals a point, 95% Wilson", fontsize=10)
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(args.plot, dpi=120)
    print(f"plot saved to {args.plot}")


if __name__ == "__main__":
    main()
