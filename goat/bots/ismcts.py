"""``ismcts``: single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse 2012).

Each iteration draws a fresh world consistent with the bot's view (the
placement of :func:`goat.sample_world`, built directly without the replay that
proves it reachable, for speed), walks down one tree shared by all worlds —
choosing by UCB among the moves that are legal in *this* world, each child
counting how often it was available — adds one node, finishes the game with a
fast rollout policy, and backs the result up.  The move played is the root
child visited most.  Molodka decisions are moves like any other.

Options: ``iterations`` (per decision), ``time_ms`` (per decision; either or
both, the first reached stops the search; default 200 iterations),
``exploration`` (the UCB constant, default 0.7) and ``seed``.  With a seed
and an iteration budget only, the bot is deterministic.

The rollout plays on the engine's bit masks directly (it never builds a
:class:`~goat.GameState`): every lead a single random card; an answer beats
an opponent's top play with the cheapest beating cards when it can, and
otherwise passes the least valuable cards — points onto a partner's trick.
Molodka holders wait.  All of these are legal moves, so a rollout is a game
the rules allow.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, Final

from goat._core import (
    BEATERS,
    FIXED,
    HANDS,
    LEADER,
    POINTS,
    STOCK,
    SUIT_MASK,
    SUIT_OF,
    TABLE,
    TOP,
    TRICKS,
    TRUMP,
    mask_points,
    set_beats,
    subsets,
)
from goat.bots.worlds import WorldSampler
from goat.moves import Move
from goat.rules import legal_moves, play
from goat.scoring import defeat_scores
from goat.state import GameState
from goat.view import PlayerView

__all__ = ["ISMCTSBot", "factory", "rollout"]

DEFAULT_ITERATIONS: Final = 200

# How much a card is worth keeping (lowest is passed first), by trump suit: points, then rank, trumps last.
_KEEP: Final = tuple(tuple(POINTS[c] * 3 + c % 9 + (30 if SUIT_OF[c] == t else 0) for c in range(36)) for t in range(4))


def _cheapest(hand: int, size: int, keep: tuple[int, ...]) -> int:
    """The ``size`` cards of ``hand`` least worth keeping."""
    if size == 1:  # the common case, without sorting
        best, best_value = 0, 1 << 30
        while hand:
            low = hand & -hand
            value = keep[low.bit_length() - 1]
            if value < best_value:
                best, best_value = low, value
            hand ^= low
        return best
    cards = []
    while hand:
        low = hand & -hand
        cards.append(low)
        hand ^= low
    cards.sort(key=lambda bit: keep[bit.bit_length() - 1])
    return sum(cards[:size])


def rollout(state: GameState, rng: random.Random) -> tuple[tuple[int, int], tuple[int, int]]:
    """Finish the game from ``state`` with the fast policy; return (points, tricks) by team."""
    core = state._core
    hands = list(core[HANDS])
    stock = core[STOCK]
    drawn = 0
    trump = core[FIXED][TRUMP]
    beaters = BEATERS[trump]
    keep = _KEEP[trump]
    points = [0, 0]
    tricks = [0, 0]
    for keys, winner in core[TRICKS]:
        pile = 0
        for key in keys:
            pile |= key >> 5
        points[winner % 2] += mask_points(pile)
        tricks[winner % 2] += 1
    leader = core[LEADER]
    table = core[TABLE]
    if table:
        size = (table[0] >> 5).bit_count()
        top_mask, top_seat = core[TOP] >> 5, core[TOP] & 3
        pile = 0
        for key in table:
            pile |= key >> 5
        played = len(table)
    else:
        played = 0
        size = top_mask = top_seat = pile = 0
    while True:
        if played == 0:
            hand = hands[leader]
            if not hand:
                break
            cards = []
            while hand:
                low = hand & -hand
                cards.append(low)
                hand ^= low
            top_mask = rng.choice(cards)
            top_seat, size, pile, played = leader, 1, top_mask, 1
            hands[leader] ^= top_mask
        while played < 4:
            seat = (leader + played) % 4
            hand = hands[seat]
            chosen = 0
            if top_seat % 2 != seat % 2:  # an opponent holds the top: beat it as cheaply as possible
                if size == 1:
                    options = hand & beaters[top_mask.bit_length() - 1]
                    if options:
                        side = options & ~SUIT_MASK[trump]
                        pool = side or options
                        chosen = pool & -pool
                else:
                    beating = [s for s in subsets(hand, size) if set_beats(s, top_mask, trump)]
                    if beating:
                        chosen = min(beating, key=lambda s: sum(keep[i] for i in range(36) if s >> i & 1))
                if chosen:
                    top_mask, top_seat = chosen, seat
            if not chosen:
                chosen = _cheapest(hand, size, keep)
            hands[seat] ^= chosen
            pile |= chosen
            played += 1
        team = top_seat % 2
        points[team] += mask_points(pile)
        tricks[team] += 1
        rounds = min(size, (len(stock) - drawn) // 4)
        for position in range(4 * rounds):
            hands[(top_seat + position) % 4] |= 1 << stock[drawn + position]
        drawn += 4 * rounds
        leader, played = top_seat, 0
    return (points[0], points[1]), (tricks[0], tricks[1])


def _reward(team: int, points: tuple[int, int], tricks: tuple[int, int]) -> float:
    """How good the outcome is for ``team``, in [0, 1]: defeat-scores above all, then points."""
    mine = defeat_scores(points[team], tricks[team])
    theirs = defeat_scores(points[1 - team], tricks[1 - team])
    return 0.7 * (0.5 + (theirs - mine) / 12) + 0.3 * points[team] / 120


class _Node:
    __slots__ = ("avail", "children", "move", "reward", "team", "visits")

    def __init__(self, move: Move | None, team: int) -> None:
        self.move = move
        self.team = team  # the team that made the move leading here
        self.children: dict[Move, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 0


class ISMCTSBot:
    """The ``ismcts`` strategy; see the module documentation."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        time_ms: float | None = None,
        exploration: float = 0.7,
    ) -> None:
        if iterations is not None and (iterations.__class__ is not int or iterations < 1):
            raise ValueError(f"iterations must be a positive int, not {iterations!r}")
        if time_ms is not None and not time_ms > 0:
            raise ValueError(f"time_ms must be a positive number, not {time_ms!r}")
        if not exploration >= 0:
            raise ValueError(f"exploration must be >= 0, not {exploration!r}")
        self.iterations = DEFAULT_ITERATIONS if iterations is None and time_ms is None else iterations
        self.time_ms = time_ms
        self.exploration = exploration
        self._rng = random.Random(seed)
        self.last_iterations = 0  #: iterations the last decision ran (for benchmarks)

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        if len(legal) == 1:
            return legal[0]
        rng = self._rng
        sampler = WorldSampler(view)
        root = _Node(None, 1 - view.team)
        deadline = None if self.time_ms is None else time.perf_counter() + self.time_ms / 1000
        limit = self.iterations
        done = 0
        c = self.exploration
        while (limit is None or done < limit) and (deadline is None or time.perf_counter() < deadline):
            done += 1
            state = sampler.fast(rng)
            node = root
            path = [root]
            while not state.is_over:
                moves = legal_moves(state)
                untried = []
                available = []
                for move in moves:
                    child = node.children.get(move)
                    if child is None:
                        untried.append(move)
                    else:
                        child.avail += 1
                        available.append(child)
                if untried:
                    move = rng.choice(untried)
                    child = _Node(move, (state.to_move or 0) % 2)
                    child.avail = 1
                    node.children[move] = child
                    path.append(child)
                    state = play(state, move)
                    break
                log_avail = math.log
                node = max(
                    available, key=lambda ch: ch.reward / ch.visits + c * math.sqrt(log_avail(ch.avail) / ch.visits)
                )
                path.append(node)
                state = play(state, node.move)  # type: ignore[arg-type]
            points, tricks = rollout(state, rng)
            rewards = (_reward(0, points, tricks), _reward(1, points, tricks))
            for visited in path:
                visited.visits += 1
                visited.reward += rewards[visited.team]
        self.last_iterations = done
        best = max((root.children[m] for m in legal if m in root.children), key=lambda ch: ch.visits, default=None)
        return best.move if best is not None and best.move is not None else legal[0]


def factory(*, seed: int | None = None, **options: Any) -> ISMCTSBot:
    """The ``ismcts`` strategy's factory: options ``iterations``, ``time_ms``, ``exploration``."""
    unknown = set(options) - {"iterations", "time_ms", "exploration"}
    if unknown:
        raise TypeError(
            f"the ismcts strategy takes iterations, time_ms and exploration, not {', '.join(sorted(unknown))}"
        )
    return ISMCTSBot(seed, **options)
