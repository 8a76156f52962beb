"""Train :class:`goat.bots.learned.LearnedModel` on games the library plays itself (needs the ``train`` extra).

    python -m goat.bots.training --seed 1

plays ``--games`` games (default 3000) of four ``ismcts`` bots, each game at one of the ``--budgets``
iteration counts in turn (default 100, 300 and 1000), on the deals ``seed * 1_000_000 + game`` (far from the
seeds the benchmarks hold out), and records every decision of more than one legal move: the
:func:`~goat.bots.learned.move_features` of each legal move, read from the deciding seat's view (R23), and
the move made.  One game in five is held out.  It fits the conditional logit's weights by full-batch Adam
on the mean log-loss (the negative log-probability of the move made) with a small L2 penalty, from zero,
for ``--epochs`` epochs (default 1000), then the noise share with the least held-out log-loss among a few,
and writes the weights file (``--out``, by default the shipped ``goat/bots/learned.json`` of a checkout) and the loss
curve with the data's sizes (``--curve``, JSON: train and held-out log-loss per epoch).

Everything is seeded: the same arguments write byte-identical files.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from goat.bots.ismcts import ISMCTSBot
from goat.bots.learned import FEATURES, LearnedModel, move_features
from goat.bots.model import view_arguments
from goat.errors import MissingExtraError, shown
from goat.rules import new_game, play
from goat.view import view

try:
    import numpy as np
except ImportError as error:
    raise MissingExtraError("goat.bots.training", "numpy", "train", error) from None

__all__ = ["Decisions", "fit", "main", "record", "weights_file"]

#: The noise shares tried (the one of least held-out log-loss is kept).
NOISES = (0.01, 0.02, 0.05, 0.1, 0.2)
#: The L2 penalty on the weights, per decision.
PENALTY = 1e-4


class Decisions:
    """Recorded decisions: every legal move's features (rows of ``x``), the decision each row belongs to
    (``group``, ascending), the row of the move made per decision (``chosen``) and each decision's game."""

    def __init__(self, rows: list[list[float]], group: list[int], chosen: list[int], games: list[int]) -> None:
        self.x = np.array(rows, dtype=np.float64).reshape(-1, len(FEATURES))
        self.group = np.array(group, dtype=np.int64)
        self.chosen = np.array(chosen, dtype=np.int64)
        self.games = np.array(games, dtype=np.int64)
        self.starts = np.searchsorted(self.group, np.arange(len(self.chosen)))

    def __len__(self) -> int:
        return len(self.chosen)

    def subset(self, keep: Any) -> Decisions:
        """The decisions where ``keep`` (a boolean array by decision) is true."""
        picked = np.flatnonzero(keep)
        rows: list[list[float]] = []
        group: list[int] = []
        chosen: list[int] = []
        for new, old in enumerate(picked):
            start = self.starts[old]
            end = self.starts[old + 1] if old + 1 < len(self.starts) else len(self.x)
            chosen.append(len(rows) + int(self.chosen[old] - start))
            rows.extend(self.x[start:end].tolist())
            group.extend([new] * int(end - start))
        return Decisions(rows, group, chosen, self.games[picked].tolist())


def record(games: int, seed: int, budgets: Sequence[int], progress: bool = False) -> Decisions:
    """The decisions of more than one legal move in ``games`` games of four ``ismcts`` bots (see the module docs)."""
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be a positive int, not {shown(games)}")
    if not budgets or not all(type(b) is int and b >= 1 for b in budgets):
        raise ValueError(f"budgets must be one or more positive ints (iterations), not {shown(budgets)}")
    rows: list[list[float]] = []
    group: list[int] = []
    chosen: list[int] = []
    played: list[int] = []
    start = time.perf_counter()
    for game in range(games):
        budget = budgets[game % len(budgets)]
        deal = seed * 1_000_000 + game
        bots = [ISMCTSBot(seed=deal * 4 + seat, iterations=budget) for seat in range(4)]
        state = new_game(seed=deal)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            seen = view(state, seat)
            move = bots[seat].choose(seen, seen.legal_moves)
            if len(seen.legal_moves) > 1:
                chosen.append(len(rows) + seen.legal_moves.index(move))
                features = move_features(*view_arguments(seen))
                group.extend([len(played)] * len(features))
                rows.extend(features)
                played.append(game)
            state = play(state, move)
        if progress and (game + 1) % 100 == 0:
            print(f"{game + 1} games, {len(played)} decisions, {time.perf_counter() - start:.0f} s", flush=True)
    return Decisions(rows, group, chosen, played)


def _loss(data: Decisions, weights: Any, noise: float = 0.0) -> tuple[float, Any]:
    """The mean log-loss of ``data`` under ``weights`` (and the uniform share ``noise``), and its gradient
    (without noise)."""
    scores = data.x @ weights
    top = np.maximum.reduceat(scores, data.starts)
    exps = np.exp(scores - top[data.group])
    sums = np.add.reduceat(exps, data.starts)
    chances = exps / sums[data.group]
    if noise:
        sizes = np.diff(np.append(data.starts, len(data.x)))
        made = (1 - noise) * chances[data.chosen] + noise / sizes
        return float(-np.mean(np.log(made))), None
    loss = float(-np.mean(np.log(chances[data.chosen])))
    # d(-log p_chosen)/dw = E_p[x] - x_chosen, per decision
    expected = np.add.reduceat(chances[:, None] * data.x, data.starts)
    gradient = (expected.sum(axis=0) - data.x[data.chosen].sum(axis=0)) / len(data)
    return loss, gradient


def fit(train: Decisions, held: Decisions, epochs: int) -> tuple[Any, list[dict[str, float]]]:
    """The weights fitted by full-batch Adam (step 0.05) from zero, and the loss curve by epoch."""
    if type(epochs) is not int or epochs < 1:
        raise ValueError(f"epochs must be a positive int, not {shown(epochs)}")
    weights = np.zeros(len(FEATURES))
    first, second = np.zeros_like(weights), np.zeros_like(weights)
    curve = []
    for epoch in range(1, epochs + 1):
        loss, gradient = _loss(train, weights)
        gradient = gradient + 2 * PENALTY * weights
        first = 0.9 * first + 0.1 * gradient
        second = 0.999 * second + 0.001 * gradient**2
        step = 0.05 * (first / (1 - 0.9**epoch)) / (np.sqrt(second / (1 - 0.999**epoch)) + 1e-8)
        weights = weights - step
        curve.append({"epoch": epoch, "train": round(loss, 6), "held_out": round(_loss(held, weights)[0], 6)})
    return weights, curve


def weights_file(weights: Any, noise: float) -> dict[str, Any]:
    """The contents of a weights file (what :class:`goat.bots.learned.LearnedModel` takes, and checks)."""
    contents = {"features": list(FEATURES), "weights": [float(f"{w:.6g}") for w in weights], "noise": noise}
    LearnedModel(contents)  # a NaN would be written as NaN, which is no JSON
    return contents


def at_least(low: int) -> Any:
    """An argparse type: an int no less than ``low``."""

    def parse(text: str) -> int:
        value = int(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"{text} is less than {low}")
        return value

    parse.__name__ = "int"  # argparse names the type in its errors
    return parse


def main(argv: Sequence[str] | None = None) -> None:
    """The training command (see the module docs)."""
    parser = argparse.ArgumentParser(prog="python -m goat.bots.training", description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=at_least(5), default=3000, help="at least 5: one in five is held out")
    parser.add_argument("--budgets", type=at_least(1), nargs="+", default=[100, 300, 1000], help="ismcts iterations")
    parser.add_argument("--epochs", type=at_least(1), default=1000)
    parser.add_argument("--out", type=Path, default=Path("goat/bots/learned.json"))
    parser.add_argument("--curve", type=Path, default=Path("benchmarks/results/learned_training.json"))
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    for option, path in (("--out", args.out), ("--curve", args.curve)):  # before the games, not after them
        if not path.parent.is_dir():
            parser.error(f"{option}: no folder {path.parent} to write {path.name} in (the defaults are a checkout's)")
    start = time.perf_counter()
    data = record(args.games, args.seed, args.budgets, progress=not args.quiet)
    recorded = time.perf_counter() - start
    held_out = data.games % 5 == 4
    train, held = data.subset(~held_out), data.subset(held_out)
    weights, curve = fit(train, held, args.epochs)
    losses = {noise: _loss(held, weights, noise)[0] for noise in NOISES}
    noise = min(NOISES, key=lambda n: (losses[n], n))
    sizes = np.diff(np.append(held.starts, len(held.x)))
    uniform = float(np.mean(np.log(sizes)))
    args.out.write_text(json.dumps(weights_file(weights, noise), indent=1) + "\n", encoding="utf-8")
    summary = {
        "command": f"python -m goat.bots.training --seed {args.seed} --games {args.games} "
        f"--budgets {' '.join(map(str, args.budgets))} --epochs {args.epochs}",
        "players": [f"ismcts[iterations={b}]" for b in args.budgets],
        "games": args.games,
        "decisions": {"train": len(train), "held_out": len(held)},
        "moves per decision": round(len(data.x) / max(len(data), 1), 3),
        "held-out log-loss of uniform play": round(uniform, 6),
        "held-out log-loss by noise": {str(n): round(v, 6) for n, v in losses.items()},
        "noise": noise,
        "curve": curve,
    }
    args.curve.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    if not args.quiet:
        last = curve[-1]
        print(
            f"{len(train)} + {len(held)} decisions recorded in {recorded:.0f} s; after {args.epochs} epochs "
            f"log-loss {last['train']:.4f} train, {last['held_out']:.4f} held out (uniform {uniform:.4f}); "
            f"noise {noise}; {time.perf_counter() - start:.0f} s in all"
        )


if __name__ == "__main__":
    main()
