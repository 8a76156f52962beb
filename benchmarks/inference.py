"""Inference quality: how much likelier the true hidden cards are under the weighted sampler than under uniform.

    python benchmarks/inference.py [--games G] [--worlds N] [--players greedy ismcts] [--models hand learned]
                                   [--temperatures 2 4 8] [--noise 0.1 0.3] [--weights FILE]
                                   [--seed S] [--ismcts-iterations I [I ...]]

Held-out games (seeds ``S``, ``S+1``, ... — the model's default temperature was chosen on other seeds) are played
by four copies of each player (``ismcts`` once per iteration budget); at the seat to move after 2, 4, 6 and 8
finished tricks (R13), with a decision to make, the script draws ``N`` worlds with :func:`goat.sample_world`
(uniform) and weighs them with :func:`goat.bots.inference.weighted_worlds`'s likelihood under each model:
``hand``, the hand-written :class:`~goat.bots.model.PlayerModel` at each temperature and noise share, and
``learned``, the shipped :class:`~goat.bots.learned.LearnedModel` (or the weights file ``--weights``; its training
games' seeds, ``seed * 1_000_000 + game``, are far from these).  It reports, by stage:

- **ratio**: how many times likelier the true world is under the weighted sampler than under uniform,
  ``L(true) / mean L(uniform draws)`` (the importance-sampling estimate of the posterior's normaliser), as the
  geometric mean over positions (Rebstock et al. 2019 compare the true state's probability the same way);
- **rank**: the share of uniform draws less likely than the true world under the model (0.5 means no information);
- **cards**: the mean probability that an unseen card is placed where it truly is (another seat's hand, or a
  face-down pass), weighted against uniform.

Small runs are noisy: say how many positions a figure comes from.

How strong the weighted bot plays is measured by ``benchmarks/strength.py`` (``--equal-time``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from pathlib import Path
from typing import Any

import goat
from goat.bots.inference import log_likelihood
from goat.bots.learned import LearnedModel
from goat.bots.model import DEFAULT_NOISE, MoveModel, PlayerModel

STAGES = (2, 4, 6, 8)  # finished tricks


def game_positions(bots: list[goat.Strategy], deal: int) -> list[tuple[int, goat.GameState]]:
    """(stage, true state) at the first decision with a choice after each stage's number of finished tricks, in
    the game ``bots`` play from the deal of seed ``deal``."""
    found = []
    state = goat.new_game(seed=deal)
    stages = list(STAGES)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        seen = goat.view(state, seat)
        if stages and len(state.tricks) >= stages[0] and len(seen.legal_moves) > 1:
            found.append((stages.pop(0), state))
        state = goat.play(state, bots[seat].choose(seen, seen.legal_moves))
    return found


def positions(player: str, games: int, seed: int, iterations: int) -> list[tuple[int, goat.GameState]]:
    """:func:`game_positions` of ``games`` games of four ``player`` bots, deals ``seed, seed + 1, ...``."""
    options: dict[str, Any] = {"iterations": iterations} if player == "ismcts" else {}
    found = []
    for game in range(games):
        bots = [goat.load_strategy(player, seed=seed + 10 * game + seat, **options) for seat in range(4)]
        found += game_positions(bots, seed + game)
    return found


def places(state: goat.GameState, seat: int) -> dict[goat.Card, Any]:
    """Where each card unseen by ``seat`` lies: ('hand', s) or ('pass', history index of the play)."""
    where: dict[goat.Card, Any] = {}
    for other in range(4):
        if other != seat:
            for card in state.hands[other]:
                where[card] = ("hand", other)
    plays = [m for t in state.tricks for m in t.plays] + list(state.table)
    for index, move in enumerate(plays):
        if move.kind is goat.MoveKind.PASS and move.seat != seat:
            for card in move.cards:
                where[card] = ("pass", index)
    return where


def measure(state: goat.GameState, worlds: int, models: list[MoveModel], rng: random.Random) -> list[Any]:
    seat = state.to_move
    assert seat is not None
    seen = goat.view(state, seat)
    drawn = [goat.sample_world(seen, rng) for _ in range(worlds)]
    truth = places(state, seat)
    spots = [places(world, seat) for world in drawn]
    hits = [sum(spot.get(card) == place for card, place in truth.items()) / max(len(truth), 1) for spot in spots]
    rows = []
    for model in models:
        true_log = log_likelihood(state, seat, model)
        logs = [log_likelihood(world, seat, model) for world in drawn]
        top = max(logs)
        weights = [math.exp(value - top) for value in logs]
        mean_log = top + math.log(sum(weights) / len(weights))
        rank = sum(value < true_log for value in logs) / len(logs)
        weighted_hits = sum(w * h for w, h in zip(weights, hits, strict=True)) / sum(weights)
        rows.append(
            (
                true_log - mean_log,
                rank,
                weighted_hits,
                statistics.fmean(hits),
                1 / sum((w / sum(weights)) ** 2 for w in weights),
            )
        )
    return rows


def label(model: MoveModel) -> str:
    """A model's name in the table: ``hand 8/0.3`` (temperature/noise) or ``learned``."""
    if isinstance(model, PlayerModel):
        return f"hand {model.temperature:g}/{model.noise:g}"
    return "learned"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--players", nargs="+", default=["greedy", "ismcts"])
    parser.add_argument("--temperatures", type=float, nargs="+", default=[2.0, 4.0, 8.0])
    parser.add_argument("--noise", type=float, nargs="+", default=[DEFAULT_NOISE], help="the models' noise shares")
    parser.add_argument("--models", nargs="+", choices=["hand", "learned"], default=["hand", "learned"])
    parser.add_argument("--weights", type=Path, help="the learned model's weights file (default: the shipped one)")
    parser.add_argument("--ismcts-iterations", type=int, nargs="+", default=[100])
    parser.add_argument("--seed", type=int, default=10_000)
    args = parser.parse_args()
    models: list[MoveModel] = []
    if "hand" in args.models:
        models += [PlayerModel(temperature=t, noise=e) for t in args.temperatures for e in args.noise]
    if "learned" in args.models:
        models.append(LearnedModel(json.loads(args.weights.read_text()) if args.weights else None))
    rng = random.Random(args.seed)
    print(f"core: {goat.build_info()}")
    players = [
        (player, iterations)
        for player in args.players
        for iterations in (args.ismcts_iterations if player == "ismcts" else [0])
    ]
    for player, iterations in players:
        start = time.perf_counter()
        found = positions(player, args.games, args.seed, iterations)
        results = [(stage, measure(state, args.worlds, models, rng)) for stage, state in found]
        name = f"{player}[iterations={iterations}]" if player == "ismcts" else player
        print(
            f"\n{name} games ({args.games} games, seeds {args.seed}+, {args.worlds} uniform worlds a position, "
            f"{time.perf_counter() - start:.0f} s)"
        )
        print(
            "model          after tricks  positions  ratio (geo. mean)  ratio (median)  rank  "
            "cards weighted/uniform  ESS"
        )
        for t, model in enumerate(models):
            for stage in (*STAGES, None):
                rows = [r[t] for s, r in results if stage is None or s == stage]
                if not rows:
                    continue
                logs = [r[0] for r in rows]
                print(
                    f"{label(model):13} {'all' if stage is None else stage:>12}  "
                    f"{len(rows):9d}  "
                    f"{math.exp(statistics.fmean(logs)):17.2f}  {math.exp(statistics.median(logs)):14.2f}  "
                    f"{statistics.fmean(r[1] for r in rows):4.2f}  "
                    f"{statistics.fmean(r[2] for r in rows):8.3f}/{statistics.fmean(r[3] for r in rows):.3f}  "
                    f"{statistics.median(r[4] for r in rows):6.1f}"
                )


if __name__ == "__main__":
    main()
