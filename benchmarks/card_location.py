"""How well a learned card-location model places the cards a seat has not seen, against uniform sampling.

    python benchmarks/card_location.py [--games G] [--iterations I] [--seed S] [--workers W]

Policy-based inference (``ismcts[worlds=weighted]``, benchmarks/inference.py) weighs whole worlds by how the others
played.  This is the other reading the literature offers (Solinas et al. 2019): a model of where each unseen card
lies, learned from games with the truth known.  Four copies of ``ismcts[iterations=I]`` play ``G`` games (seeds
``S, S+1, ...``); at the first decision after 2, 4, 6 and 8 finished tricks (R13), as benchmarks/inference.py chooses
its positions, every card the deciding seat has not seen (the trump card aside: shown to all, it lies in the stock or
was drawn from it, R8) gets a *place*: the stock, another seat's hand, or one of another seat's face-down passes
(R11).  The model is a conditional logit over a card's places: each place scores ``log(room) + w . features``, so
with ``w = 0`` it is uniform sampling, where a card lies in a place in proportion to the cards the place holds.  The
features are what a player reads at the table: a seat that passed face down when this card would have beaten an
opponent's top play (since the last draw, R15, or at all), suits it led or beat with, whether the stock is empty;
for a face-down pass, the card's points, rank and trump, whether it would have beaten the top play it was passed
under, and whether it was passed onto the partner's trick.

It fits ``w`` by Newton's method on the first three quarters of the games and reports, on the rest, by stage, the
mean probability it gives each card's true place against uniform's, for the cards in another seat's hand or pass
(benchmarks/inference.py's *cards* column) and for all of them.  Needs numpy (the ``train`` extra).
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
from inference import STAGES, game_positions  # benchmarks/inference.py, beside this script

import goat
from goat._core import BEATERS, POINTS, SUIT_OF
from goat.moves import MoveKind

FEATURES = (
    "stock",
    "stock share",
    "hand partner",
    "hand opponent",
    "hand points",
    "hand rank",
    "hand trump",
    "hand declined a beat",
    "hand declined a beat, since the draw",
    "hand led the suit",
    "hand led the suit, since the draw",
    "hand beat with the suit",
    "hand trumped the suit",
    "hand, stock empty",
    "hand, stock empty x declined",
    "pass points",
    "pass rank",
    "pass trump",
    "pass ace or ten",
    "pass would have beaten an opponent's top",
    "pass under the partner's top",
    "pass points under the partner's top",
    "pass points, opponents won the trick",
    "pass size",
)
_AT = {name: i for i, name in enumerate(FEATURES)}

# One place: (kind, seat, room, cards passed under (top cards, top seat) or None, trick winner or -1)
Place = tuple[str, int, int, Any, int]


def play(seed: int, iterations: int) -> list[tuple[int, goat.GameState]]:
    """The positions benchmarks/inference.py measures in the game of deal ``seed`` (see the module docs)."""
    bots = [goat.load_strategy("ismcts", seed=seed * 10 + seat, iterations=iterations) for seat in range(4)]
    return game_positions(bots, seed)


def _beats(card: int, top: int, trump: int) -> bool:
    return bool(BEATERS[trump][top] >> card & 1)


def _rank(card: int, trump: int) -> float:
    return (card % 9 + (9 if SUIT_OF[card] == trump else 0)) / 17


def examples(state: goat.GameState) -> list[tuple[list[float], list[list[float]], int, bool]]:
    """For each card the seat to move has not seen (the trump card aside): the log rooms and features of its
    places, the index of its true place, and whether that is a hand or a pass."""
    seat = state.to_move
    assert seat is not None
    seen = goat.view(state, seat)
    trump = seen.trump_card.index // 9
    partner = (seat + 2) % 4
    plays = [(play, trick.winner) for trick in seen.tricks for play in trick.plays]
    plays += [(play, -1) for play in seen.table]
    truths = [play for trick in state.tricks for play in trick.plays] + list(state.table)
    # Evidence by seat, from the plays that stand (R13: a finished trick's, and the table's)
    refused: list[list[tuple[tuple[int, ...], bool]]] = [[] for _ in range(4)]  # opponent tops passed under
    led = [[0.0] * 4 for _ in range(4)]
    led_fresh = [[0.0] * 4 for _ in range(4)]
    beat_with = [[0.0] * 4 for _ in range(4)]
    trumped = [[0.0] * 4 for _ in range(4)]
    places: list[Place] = [("stock", -1, seen.stock_size, None, -1)]
    places += [("hand", s, seen.hand_sizes[s], None, -1) for s in range(4) if s != seat]
    truth: dict[int, int] = {card.index: 0 for card in state.stock}
    for p, (kind, s, _, _, _) in enumerate(places):
        if kind == "hand":
            truth.update({card.index: p for card in state.hands[s]})
    stock = 20
    top: tuple[int, ...] = ()
    top_seat = -1
    for n, ((play, winner), true_play) in enumerate(zip(plays, truths, strict=True)):
        s = play.seat
        cards = tuple(card.index for card in play.cards)
        if play.kind in (MoveKind.LEAD, MoveKind.MOLODKA):
            for card in cards:
                led[s][card // 9] += 1 / len(cards)
                led_fresh[s][card // 9] += 1 / len(cards)
            top, top_seat = cards, s
        elif play.kind is MoveKind.BEAT:
            for card in cards:
                beat_with[s][card // 9] += 1 / len(cards)
                if SUIT_OF[card] == trump:
                    for under in top:
                        trumped[s][under // 9] += 1 / len(top)
            top, top_seat = cards, s
        elif play.hidden:
            if (top_seat ^ s) & 1:
                refused[s].append((top, True))
            places.append(("pass", s, play.size, (top, top_seat), winner))
            truth.update({card.index: len(places) - 1 for card in true_play.cards})
        if n % 4 == 3 and winner >= 0:  # a finished trick: everyone draws while the stock lasts (R15)
            if stock:
                stock -= 4 * min(play.size, stock // 4)
                refused = [[(t, False) for t, _ in r] for r in refused]
                led_fresh = [[0.0] * 4 for _ in range(4)]
            top, top_seat = (), -1
    empty = 1.0 if seen.stock_size == 0 else 0.0
    found = []
    for card, where in truth.items():
        if card == seen.trump_card.index:
            continue
        points, rank, is_trump, suit = POINTS[card] / 11, _rank(card, trump), float(SUIT_OF[card] == trump), card // 9
        rooms: list[float] = []
        rows: list[list[float]] = []
        for p, (kind, s, room, under, winner) in enumerate(places):
            if not room:
                continue
            row = [0.0] * len(FEATURES)
            if kind == "stock":
                row[_AT["stock"]], row[_AT["stock share"]] = 1.0, seen.stock_size / 20
            elif kind == "hand":
                beaten = [any(_beats(card, t, trump) for t in top) / len(top) for top, _ in refused[s] if top]
                fresh = [any(_beats(card, t, trump) for t in top) / len(top) for top, new in refused[s] if top and new]
                values = {
                    "hand partner" if s == partner else "hand opponent": 1.0,
                    "hand points": points,
                    "hand rank": rank,
                    "hand trump": is_trump,
                    "hand declined a beat": sum(beaten),
                    "hand declined a beat, since the draw": sum(fresh),
                    "hand led the suit": led[s][suit],
                    "hand led the suit, since the draw": led_fresh[s][suit],
                    "hand beat with the suit": beat_with[s][suit],
                    "hand trumped the suit": trumped[s][suit],
                    "hand, stock empty": empty,
                    "hand, stock empty x declined": empty * sum(beaten),
                }
                for name, value in values.items():
                    row[_AT[name]] = value
            else:
                top, top_seat = under
                row[_AT["pass points"]], row[_AT["pass rank"]], row[_AT["pass trump"]] = points, rank, is_trump
                row[_AT["pass ace or ten"]] = float(POINTS[card] >= 10)
                row[_AT["pass size"]] = room / 4
                if top and (top_seat ^ s) & 1:
                    row[_AT["pass would have beaten an opponent's top"]] = float(
                        any(_beats(card, t, trump) for t in top)
                    )
                elif top:
                    row[_AT["pass under the partner's top"]] = 1.0
                    row[_AT["pass points under the partner's top"]] = points
                if winner >= 0 and (winner ^ s) & 1:
                    row[_AT["pass points, opponents won the trick"]] = points
            if p == where:
                true_at = len(rows)
            rooms.append(math.log(room))
            rows.append(row)
        found.append((rooms, rows, true_at, where > 0))
    return found


def _game(args: tuple[int, int]) -> list[tuple[int, int, list[Any]]]:
    seed, iterations = args
    return [(seed, stage, examples(state)) for stage, state in play(seed, iterations)]


def _arrays(data: list[tuple[int, int, list[Any]]]) -> dict[str, Any]:
    offsets, rows, truth, groups, stages, located = [], [], [], [], [], []
    g = 0
    for _, stage, cards in data:
        for rooms, features, true_at, in_place in cards:
            offsets += rooms
            rows += features
            truth += [i == true_at for i in range(len(rooms))]
            groups += [g] * len(rooms)
            stages.append(stage)
            located.append(in_place)
            g += 1
    return {
        "off": np.array(offsets),
        "X": np.array(rows),
        "y": np.array(truth, dtype=float),
        "group": np.array(groups),
        "stage": np.array(stages),
        "located": np.array(located),
    }


def _probabilities(d: dict[str, Any], w: Any) -> Any:
    scores = d["off"] + d["X"] @ w
    starts = np.flatnonzero(np.r_[True, d["group"][1:] != d["group"][:-1]])
    top = np.maximum.reduceat(scores, starts)
    e = np.exp(scores - top[d["group"]])
    return e / np.add.reduceat(e, starts)[d["group"]]


def fit(d: dict[str, Any], l2: float = 1e-3) -> Any:
    """The conditional logit's weights by Newton's method (the log-likelihood is concave)."""
    features, y, group = d["X"], d["y"], d["group"]
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    n = len(starts)
    w = np.zeros(features.shape[1])
    for _ in range(50):
        p = _probabilities(d, w)
        gradient = features.T @ (p - y) / n + l2 * w
        weighted = features * p[:, None]
        mean = np.add.reduceat(weighted, starts)
        hessian = (features.T @ weighted - mean.T @ mean) / n + l2 * np.eye(len(w))
        change = np.linalg.solve(hessian, gradient)
        w -= change
        if np.abs(change).max() < 1e-7:
            break
    return w


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1600)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=30_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    start = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        seeds = [(args.seed + game, args.iterations) for game in range(args.games)]
        played = [row for rows in pool.map(_game, seeds, chunksize=8) for row in rows]
    cut = args.seed + args.games * 3 // 4
    train = _arrays([row for row in played if row[0] < cut])
    test = _arrays([row for row in played if row[0] >= cut])
    w = fit(train)
    print(f"{args.games} games of ismcts[iterations={args.iterations}], seeds {args.seed}+; fitted on the first")
    print(f"three quarters ({len(train['stage'])} cards), tested on the rest; {time.perf_counter() - start:.0f} s\n")
    for name, weight in zip(FEATURES, w, strict=True):
        print(f"  {name:45} {weight:+.3f}")
    p, u = _probabilities(test, w), _probabilities(test, np.zeros_like(w))
    hit, even = p[test["y"] == 1], u[test["y"] == 1]
    print("\nmean probability of the true place: model / uniform (cards)")
    print("stage   in another seat's hand or pass        all unseen cards")
    for stage in (*STAGES, 0):
        at = test["stage"] == stage if stage else np.ones(len(hit), dtype=bool)
        held = at & test["located"]
        if not held.any():
            continue  # (games seldom last eight tricks)
        print(
            f"{stage or 'all':>5}   {hit[held].mean():6.1%} / {even[held].mean():6.1%} ({held.sum():5})"
            f"              {hit[at].mean():6.1%} / {even[at].mean():6.1%} ({at.sum():5})"
        )


if __name__ == "__main__":
    main()
