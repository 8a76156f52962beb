"""A batch of games played in lockstep: :class:`Batch`, made by :func:`new_games`, :func:`from_decks` or
:func:`from_stream`.

A batch is a value, like :class:`goat.GameState`: :meth:`Batch.step` and :meth:`Batch.redeal` return a new
batch and never change the old one (its arrays are read-only).  Inside, the games are the arrays of a
``Position`` arrays (:attr:`Batch.position`, as :attr:`goat.GameState.core` is the scalar
engine's); the actions each step took are kept in a log shared by the batches of one line of play, so that
:meth:`Batch.state` can replay any game through the scalar engine.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from goat._core import DEALT
from goat.adapters.encoding import NUM_ACTIONS, action_parts, actions_of
from goat.batch.deal import deal_decks
from goat.batch.legal import Legal, bits_of, legal_blocks, mask_array, uniform
from goat.batch.observe import observe
from goat.batch.position import FIRST_LEADER, Position, deal_into, deal_position, dealt_hands, slots
from goat.batch.seeds import MAX_GAMES, Deals, SeedStream, check_count
from goat.batch.step import advance
from goat.batch.tables import ACTION_BIT, ACTION_BLOCK, DEFEAT, SUIT
from goat.cards import DECK
from goat.errors import GameNotOverError, IllegalMoveError, InvalidDealError, InvalidSeatError, shown
from goat.moves import MoveKind
from goat.rules import new_game, play
from goat.scoring import GameResult
from goat.state import GameState

__all__ = ["Batch", "IllegalActionError", "Results", "from_decks", "from_stream", "new_games"]

_LOG_SLACK = 256  # steps of log kept beyond what the oldest game needs, before the log is cut
# _TEAM_HOLDS[seat mask] = (team 0 holds, team 1 holds): seats 0 and 2 are team 0 (R1).
_TEAM_HOLDS = np.array([[bool(m & 0b0101), bool(m & 0b1010)] for m in range(16)])


class IllegalActionError(IllegalMoveError):
    """An action that is not legal for its game's deciding seat (a :class:`goat.IllegalMoveError`, so a
    :class:`ValueError`); the message names the game, the seat and the action, and lists the legal ones."""


@dataclass(frozen=True, slots=True)
class Results:
    """Results of finished games (R18–R20), one row per game, teams by column (team 0 = seats 0 and 2)."""

    games: NDArray[np.intp]  #: (m,) the games' indices in the batch
    numbers: NDArray[np.int64]  #: (m,) the games' deal numbers (0 for the first game dealt, counting re-deals)
    points: NDArray[np.int16]  #: (m, 2) card points, summing to 120 (R18)
    tricks: NDArray[np.int8]  #: (m, 2) tricks won
    defeat: NDArray[np.int8]  #: (m, 2) defeat-scores gained (R19)
    balls: NDArray[np.bool_]  #: (m,) 60 : 60 (R20)
    winner: NDArray[np.int8]  #: (m,) the team with 61 or more points; -1 for balls
    last_trick_winner: NDArray[np.int8]  #: (m,) the seat that won the last trick (R22)
    first_leader: NDArray[np.int8]  #: (m,) the seat that led the first trick (R9)
    decisions: NDArray[np.int16]  #: (m,) decisions in the game, molodka waits and declarations included
    molodkas: NDArray[np.int8]  #: (m, 2) molodkas each team declared out of turn (R14)
    molodka_dealt: NDArray[np.bool_]  #: (m, 2) whether the deal gave a seat of each team a molodka (R14)
    dealer: NDArray[np.int8]  #: (m,) the seat that dealt each game

    def __len__(self) -> int:
        return int(self.games.shape[0])


_NO_SEED = np.iinfo(np.int64).min  # in a seed array: look in the batch's dict of other seeds


def _seed_array(seeds: list[int] | None, n: int) -> tuple[NDArray[np.int64], dict[int, int | None]]:
    """Seeds as int64, those that do not fit (or ``None`` for fixed decks) in a dict by position."""
    if seeds is None:
        return np.full(n, _NO_SEED, dtype=np.int64), dict.fromkeys(range(n))
    try:
        values = np.array(seeds, dtype=np.int64)
    except OverflowError:
        values = np.array([s if -(2**63) < s < 2**63 else _NO_SEED for s in seeds], dtype=np.int64)
    other: dict[int, int | None] = {}
    if (values == _NO_SEED).any():
        other = {int(i): seeds[i] for i in np.flatnonzero(values == _NO_SEED).tolist()}
    return values, other


def _read_only(array: NDArray[Any]) -> NDArray[Any]:
    array.flags.writeable = False
    return array


def _dealers(dealer: ArrayLike, n: int) -> NDArray[np.uint8]:
    values = np.asarray(dealer)
    if values.dtype.kind not in "iu" or values.shape not in ((), (n,)):
        raise InvalidDealError(f"dealer must be a seat 0–3 or one seat per game ({n}), not {dealer!r}")
    if ((values < 0) | (values > 3)).any():
        raise InvalidDealError(f"a dealer is a seat 0–3, not {values[(values < 0) | (values > 3)].flat[0]}")
    return np.broadcast_to(values, (n,)).astype(np.uint8)


def _seed_list(seeds: Iterable[int] | NDArray[np.integer[Any]]) -> list[int]:
    if isinstance(seeds, np.ndarray):
        if seeds.dtype.kind not in "iu" or seeds.ndim != 1:
            raise TypeError(f"seeds must be ints, not an array of {seeds.dtype} with shape {seeds.shape}")
        return [int(seed) for seed in seeds.tolist()]
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Iterable):
        raise TypeError(f"seeds must be a sequence of ints, not {seeds!r}")
    found = list(itertools.islice(seeds, MAX_GAMES + 1))  # a generator of 10**12 seeds is refused, not listed
    if len(found) > MAX_GAMES:
        raise ValueError(f"a batch holds at most {MAX_GAMES:,} games")
    for seed in found:
        if type(seed) is not int:
            raise TypeError(f"a seed is an int, not {seed!r}")
    return found


def new_games(seeds: Iterable[int] | NDArray[np.integer[Any]], *, dealer: ArrayLike = 0) -> Batch:
    """One game per seed, each dealt exactly as ``goat.new_game(seed=seed, dealer=dealer)`` deals it (R7–R9).

    ``dealer`` is one seat for every game or one per game.

    >>> import goat
    >>> from goat.batch import new_games
    >>> batch = new_games([1, 2, 3], dealer=2)
    >>> batch.to_move.tolist(), batch.state(1) == goat.new_game(seed=2, dealer=2)
    ([3, 3, 3], True)
    """
    found = _seed_list(seeds)
    if not found:
        raise ValueError("a batch holds at least one game")
    decks, trumps = deal_decks(found)
    return Batch._deal(decks, trumps, _dealers(dealer, len(found)), found)


def from_decks(decks: ArrayLike, trump_cards: ArrayLike, *, dealer: ArrayLike = 0) -> Batch:
    """Games dealt from fixed decks, as ``goat.new_game(deck=deck, trump_card=trump_card, dealer=dealer)``.

    ``decks`` is ``(n, 36)`` card indices (:attr:`goat.Card.index`, top first), ``trump_cards`` ``(n,)`` card
    indices, each in its deck's stock (R8).  Raises :class:`goat.InvalidDealError` otherwise.

    >>> import goat
    >>> from goat.batch import from_decks
    >>> batch = from_decks([list(range(36))], [20])
    >>> batch.state(0) == goat.new_game(deck=goat.DECK, trump_card=goat.DECK[20])
    True
    """
    order = np.asarray(decks)
    trump = np.asarray(trump_cards)
    if order.ndim != 2 or order.shape[1] != 36 or order.shape[0] == 0 or order.dtype.kind not in "iu":
        raise InvalidDealError(f"decks must be (n, 36) card indices, not an array of shape {order.shape}")
    n = order.shape[0]
    if trump.shape != (n,) or trump.dtype.kind not in "iu":
        raise InvalidDealError(f"trump_cards must be {n} card indices, one per deck, not shape {trump.shape}")
    wrong = np.flatnonzero((np.sort(order, axis=1) != np.arange(36)).any(axis=1))
    if wrong.size:
        raise InvalidDealError(f"deck {wrong[0]} is not the 36 distinct cards 0–35 (R2)")
    outside = np.flatnonzero(~(order[:, DEALT:] == trump[:, None]).any(axis=1))
    if outside.size:
        raise InvalidDealError(f"game {outside[0]}: the trump card must lie in the stock (R8)")
    return Batch._deal(order.astype(np.uint8), trump.astype(np.uint8), _dealers(dealer, n), None)


def from_stream(stream: SeedStream, n: int, *, dealer: int = 0) -> Batch:
    """``n`` games dealt from the next ``n`` seeds of ``stream``, each as ``goat.new_game(seed=seed, dealer=...)``:
    by the stream's dealers, or by ``dealer`` (a seat) when the stream leaves the dealer to the slot.

    >>> import goat
    >>> from goat.batch import SeedStream, from_stream
    >>> batch = from_stream(SeedStream(40, dealer="rotate"), 3)
    >>> batch.seeds.tolist(), batch.dealer.tolist(), batch.state(2) == goat.new_game(seed=42, dealer=2)
    ([40, 41, 42], [0, 1, 2], True)
    """
    if not isinstance(stream, SeedStream):
        raise TypeError(f"stream must be a goat.batch.SeedStream, not {type(stream).__name__}")
    check_count(n, "n")
    if type(dealer) is not int or not 0 <= dealer <= 3:
        raise InvalidSeatError(f"dealer must be a seat 0–3, not {dealer!r}")
    deals = stream.take(n)
    chosen = np.full(n, dealer, dtype=np.uint8) if deals.dealers is None else deals.dealers
    return Batch._deal(deals.decks, deals.trump_cards, chosen, deals.seeds)


class Batch:
    """``n`` games of Goat in lockstep; every array has one row per game.  See :mod:`goat.batch`.

    Besides the arrays for players and studies, a batch has an engine-level surface for code that extends the
    engine (policies, playouts, environments), as a :class:`goat.GameState` has :attr:`~goat.GameState.core`:
    :attr:`position` (the arrays the rules run on), :attr:`trump` (the trump suits) and :meth:`legal_blocks`.
    """

    __slots__ = (
        "_base",
        "_born",
        "_dealer",
        "_dealt",
        "_deck",
        "_legal",
        "_log",
        "_numbers",
        "_position",
        "_redealt",
        "_seeds",
        "_seeds_other",
        "_steps",
        "_trump",
        "_trump_card",
    )

    _position: Position
    _deck: NDArray[np.uint8]
    _trump_card: NDArray[np.uint8]
    _trump: NDArray[np.uint8]
    _dealer: NDArray[np.uint8]
    _seeds: NDArray[np.int64]
    _seeds_other: dict[int, int | None]
    _numbers: NDArray[np.int64]
    _born: NDArray[np.int64]
    _dealt: int
    _log: list[NDArray[np.int8]]
    _base: int
    _steps: int
    _legal: Legal | None
    _redealt: Results | None

    def __init__(self) -> None:
        raise TypeError("make a Batch with goat.batch.new_games() or goat.batch.from_decks()")

    @classmethod
    def _deal(
        cls, decks: NDArray[np.uint8], trumps: NDArray[np.uint8], dealers: NDArray[np.uint8], seeds: list[int] | None
    ) -> Batch:
        n = decks.shape[0]
        batch = object.__new__(cls)
        batch._position = deal_position(decks, dealers).freeze()
        batch._deck = _read_only(decks.copy())
        batch._trump_card = _read_only(trumps.copy())
        batch._trump = _read_only(SUIT[trumps])
        batch._dealer = _read_only(dealers.copy())
        values, other = _seed_array(seeds, n)
        batch._seeds = _read_only(values)
        batch._seeds_other = other
        batch._numbers = _read_only(np.arange(n, dtype=np.int64))
        batch._born = _read_only(np.zeros(n, dtype=np.int64))
        batch._dealt = n
        batch._log = []
        batch._base = 0
        batch._steps = 0
        batch._legal = None
        batch._redealt = None
        return batch

    def _with(self, **changes: Any) -> Batch:
        batch = object.__new__(Batch)
        for name in Batch.__slots__:
            object.__setattr__(batch, name, changes.get(name[1:], getattr(self, name)))
        batch._legal = changes.get("legal")
        batch._redealt = changes.get("redealt")
        return batch

    # --- what every game is at -------------------------------------------------------------------

    def __len__(self) -> int:
        return int(self._deck.shape[0])

    def __repr__(self) -> str:
        over = int(self.is_over.sum())
        return f"<goat.batch.Batch of {len(self)} games, {over} over, {self._steps} steps>"

    @property
    def n(self) -> int:
        """The number of games."""
        return len(self)

    @property
    def to_move(self) -> NDArray[np.int8]:
        """``(n,)`` the seat that decides now: the seat due to play or a molodka holder asked first (R14); -1 once
        the game is over."""
        return self._position.to_move

    @property
    def to_play(self) -> NDArray[np.int8]:
        """``(n,)`` the seat due to make the trick's next play; -1 once the game is over."""
        p = self._position
        due = ((p.leader + p.played) & 3).astype(np.int8)
        return _read_only(np.where(p.to_move < 0, np.int8(-1), due))

    @property
    def is_over(self) -> NDArray[np.bool_]:
        """``(n,)`` whether each game has ended (R17)."""
        return _read_only(self._position.to_move < 0)

    @property
    def all_over(self) -> bool:
        """Whether every game has ended."""
        return bool((self._position.to_move < 0).all())

    @property
    def leader(self) -> NDArray[np.uint8]:
        """``(n,)`` the current trick's leader (after a molodka, its owner); after the game, the last trick's winner."""
        return self._position.leader

    @property
    def dealer(self) -> NDArray[np.uint8]:
        """``(n,)`` the seat that dealt each game."""
        return self._dealer

    @property
    def trump_card(self) -> NDArray[np.uint8]:
        """``(n,)`` the trump card (R8), as a card index."""
        return self._trump_card

    @property
    def trump(self) -> NDArray[np.uint8]:
        """``(n,)`` the trump suit (R8), as a suit index 0–3, in :class:`goat.Suit`'s order."""
        return self._trump

    @property
    def position(self) -> Position:
        """The arrays the rules run on, read-only (a ``Position``, the game the last
        axis): the engine's state, for code that extends the engine."""
        return self._position

    @property
    def decks(self) -> NDArray[np.uint8]:
        """``(n, 36)`` the deck order each game was dealt from, top first (R7)."""
        return self._deck

    @property
    def seeds(self) -> NDArray[np.object_]:
        """``(n,)`` the seed each game was dealt with (a Python ``int``), or ``None`` for a fixed deck (a new
        object array)."""
        found = np.empty(len(self), dtype=object)
        found[:] = self._seeds.tolist()
        for game, seed in self._seeds_other.items():
            found[game] = seed
        return found

    @property
    def numbers(self) -> NDArray[np.int64]:
        """``(n,)`` each game's deal number: ``0 … n - 1`` for the first games, then counting on at every re-deal."""
        return self._numbers

    @property
    def hands(self) -> NDArray[np.uint8]:
        """``(n, 4, 4)`` each seat's cards as card indices in :data:`goat.DECK` order, 36 after them."""
        return slots(self._position.hands).transpose(1, 0, 2)

    @property
    def table(self) -> NDArray[np.uint8]:
        """``(n, 4, 4)`` the cards each seat has put on the table in the current trick, 36 after them."""
        return slots(self._position.table).transpose(1, 0, 2)

    @property
    def table_kinds(self) -> NDArray[np.uint8]:
        """``(n, 4)`` what each seat put there: 0 nothing yet, 1 lead, 2 beat, 3 pass, 4 molodka."""
        return self._position.kinds.T

    @property
    def stock_size(self) -> NDArray[np.uint8]:
        """``(n,)`` cards left in the stock."""
        return _read_only((36 - self._position.drawn).astype(np.uint8))

    @property
    def tricks_won(self) -> NDArray[np.uint8]:
        """``(n, 2)`` tricks each team has won."""
        return self._position.tricks.T

    @property
    def points(self) -> NDArray[np.uint8]:
        """``(n, 2)`` card points in each team's tricks so far (R18); hidden from the players until the end (R23)."""
        return self._position.points.T

    @property
    def decisions(self) -> NDArray[np.uint16]:
        """``(n,)`` decisions made in each game so far, waits and declarations included."""
        return self._position.decisions

    @property
    def steps(self) -> int:
        """Steps taken since the batch was first dealt."""
        return self._steps

    @property
    def nbytes(self) -> int:
        """Bytes held by this batch's arrays, and by the action log it keeps for :meth:`state`."""
        arrays = (self._deck, self._trump_card, self._trump, self._dealer, self._seeds, self._numbers, self._born)
        own = self._position.nbytes + sum(a.nbytes for a in arrays)
        return own + sum(a.nbytes for a in self._log[: self._steps - self._base])

    # --- deciding ----------------------------------------------------------------------------------

    def legal_blocks(self) -> Legal:
        """The deciding seats' legal actions as the engine holds them (``goat.batch.legal.legal_blocks``:
        four 15-bit blocks per game, the seat due to play and its packed hand), read-only, found once per batch."""
        found = self._legal
        if found is None:
            found = legal_blocks(self._position, self._trump)
            for array in found:
                _read_only(array)
            self._legal = found
        return found

    def legal_bits(self) -> NDArray[np.uint64]:
        """``(n,)`` the legal actions of each game's deciding seat as a mask, bit ``a`` for action ``a``."""
        return _read_only(bits_of(self.legal_blocks().blocks))

    def legal_mask(self) -> NDArray[np.bool_]:
        """``(n, 47)`` whether each action of :mod:`goat.adapters.encoding` is legal for the deciding seat; all
        ``False`` for a finished game."""
        return mask_array(self.legal_bits())

    def observations(self, seats: ArrayLike | None = None) -> NDArray[np.float32]:
        """``(n, 310)`` float32 observations (:mod:`goat.adapters.encoding`'s layout) of each game as ``seats``
        see it: the deciding seat by default (zeros for a finished game), or one seat for all or one per game."""
        n = len(self)
        if seats is None:
            chosen = self._position.to_move.astype(np.intp)
        else:
            values = np.asarray(seats)
            if values.dtype.kind not in "iu" or values.shape not in ((), (n,)) or ((values < 0) | (values > 3)).any():
                raise InvalidSeatError(f"seats must be a seat 0–3 or one seat per game ({n}), not {seats!r}")
            chosen = np.broadcast_to(values, (n,)).astype(np.intp)
        return observe(self._position, self._trump_card, chosen)

    def step(self, actions: ArrayLike, *, redeal: SeedStream | None = None) -> Batch:
        """The batch after one action per game (:mod:`goat.adapters.encoding`'s numbers, for the deciding seat).

        ``-1`` leaves a game as it is; a finished game's action is ignored.  With ``redeal``, every game that is
        over after this step is dealt again from the stream at once (auto-reset; as :meth:`redeal`, but with
        one copy of the arrays instead of two), and :attr:`redealt` holds the results of the games it replaced.

        Raises :class:`IllegalActionError` (a :class:`ValueError`) naming the first game whose action is not
        legal; this batch is never changed.
        """
        n = len(self)
        chosen = np.asarray(actions)
        if chosen.shape != (n,):
            raise ValueError(f"step() takes one action per game, shape ({n},), not {chosen.shape}")
        if chosen.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, not {chosen.dtype}")
        if redeal is not None and not isinstance(redeal, SeedStream):
            raise TypeError(f"redeal must be a goat.batch.SeedStream, not {type(redeal).__name__}")
        over = self._position.to_move < 0
        out_of_range = ~over & ((chosen < -1) | (chosen >= NUM_ACTIONS))
        if out_of_range.any():
            game = int(np.flatnonzero(out_of_range)[0])
            raise self._illegal(game, int(chosen[game]), out_of_range)
        moves = np.where(over, -1, chosen).astype(np.int16)
        blocks, due, due_hand = self.legal_blocks()
        at = np.maximum(moves, 0)
        flat = ACTION_BLOCK.take(at).astype(np.intp) * n + np.arange(n)
        legal = (blocks.reshape(-1).take(flat) >> ACTION_BIT.take(at)) & np.uint16(1)
        wrong = (moves >= 0) & (legal == 0)
        if wrong.any():
            game = int(np.flatnonzero(wrong)[0])
            raise self._illegal(game, int(moves[game]), wrong)
        position = advance(self._position, moves, self._deck, self._trump, due, due_hand)
        log, base = self._log, self._base
        if len(log) + base != self._steps:  # a branch from an older batch: its own copy of the log
            log = log[: self._steps - base]
        oldest = int(self._born.min())
        if oldest - base > _LOG_SLACK:
            log, base = log[oldest - base :], oldest
        log.append(_read_only(moves.astype(np.int8)))
        changes: dict[str, Any] = {"log": log, "base": base, "steps": self._steps + 1}
        if redeal is not None:
            finished = np.flatnonzero(position.to_move < 0)
            if finished.size:
                deals = redeal.take(int(finished.size))
                changes.update(self._deal_into(position, finished, deals, None, self._steps + 1))
        changes["position"] = position.freeze()
        return self._with(**changes)

    def _illegal(self, game: int, action: int, wrong: NDArray[np.bool_]) -> IllegalActionError:
        seat = int(self._position.to_move[game])
        legal = np.flatnonzero(self.legal_mask()[game]).tolist()
        others = int(wrong.sum()) - 1
        more = f" ({others} other games have illegal actions too)" if others else ""
        return IllegalActionError(
            f"game {game}: action {action} ({self._describe(game, action)}) is not legal for seat {seat}; "
            f"its legal actions are {legal}{more}"
        )

    def _describe(self, game: int, action: int) -> str:
        if not 0 <= action < NUM_ACTIONS:
            return f"actions are 0–{NUM_ACTIONS - 1}"
        kind, subset = action_parts(action)
        if not subset:
            return "declare a molodka" if kind is MoveKind.MOLODKA else "wait"
        seat = int(self._position.to_move[game])
        hand = self.hands[game, seat]
        cards = [str(DECK[hand[p]]) if hand[p] < 36 else f"empty slot {p}" for p in range(4) if subset >> p & 1]
        return f"{kind} {' '.join(cards)}"

    def sample(self, rng: np.random.Generator) -> NDArray[np.int16]:
        """``(n,)`` an action drawn uniformly from each game's legal actions; -1 for a finished game.

        The draw is ``floor(u * count)`` for a float64 ``u`` uniform in [0, 1), so each action's chance is
        within ``2 ** -52`` of ``1 / count``.
        """
        if not isinstance(rng, np.random.Generator):
            raise TypeError(f"sample() takes a numpy Generator (numpy.random.default_rng(seed)), not {shown(rng)}")
        return uniform(self.legal_blocks().blocks, rng)

    # --- re-dealing ----------------------------------------------------------------------------------

    def redeal(
        self,
        seeds: SeedStream | Sequence[int] | NDArray[np.integer[Any]],
        *,
        dealer: ArrayLike | None = None,
        games: ArrayLike | None = None,
    ) -> Batch:
        """This batch with every finished game replaced by a new deal (auto-reset); the others unchanged.

        ``seeds`` is a :class:`SeedStream` (the next seeds are taken from it) or exactly one seed per game
        re-dealt, in game order.  Each new game is dealt as ``goat.new_game(seed=seed, dealer=...)``, by its
        slot's dealer unless ``dealer`` (a seat, or one per game re-dealt) says otherwise.  ``games`` (indices of
        finished games) re-deals only those.  :attr:`redealt` of the new batch holds the results of the games it
        replaced.
        """
        over = np.flatnonzero(self._position.to_move < 0) if games is None else self._finished(games)
        count = int(over.size)
        dealers = None if dealer is None else _dealers(dealer, count)
        if isinstance(seeds, SeedStream):
            deals = seeds.take(count)
        else:
            found = _seed_list(seeds)
            if len(found) != count:
                raise ValueError(f"redeal() needs one seed per finished game it deals: {count}, not {len(found)}")
            decks, trumps = deal_decks(found)
            deals = Deals(found, decks, trumps, None, *dealt_hands(decks))
        if not count:
            return self._with(position=self._position, legal=self._legal, redealt=None)
        position = self._position.copy()
        changes = self._deal_into(position, over, deals, dealers, self._steps)
        return self._with(position=position.freeze(), **changes)

    def _finished(self, games: ArrayLike) -> NDArray[np.intp]:
        """``games`` as ascending indices, each a distinct finished game of this batch; else the error."""
        chosen = np.asarray(games)
        if chosen.ndim != 1 or (chosen.size and chosen.dtype.kind not in "iu"):
            raise TypeError(f"games must be a sequence of game indices, not {games!r}")
        n = len(self)
        if ((chosen < -n) | (chosen >= n)).any():
            raise IndexError(f"a game index is out of range for a batch of {n}: {games!r}")
        found = np.unique(chosen.astype(np.intp) % n)
        if found.size != chosen.size:
            raise ValueError(f"redeal() deals each game once: {games!r}")
        going = found[self._position.to_move.take(found) >= 0]
        if going.size:
            raise GameNotOverError(f"game {going[0]} is not over (R17): only finished games are dealt again")
        return found

    def _deal_into(
        self, position: Position, over: NDArray[np.intp], deals: Deals, dealers: NDArray[np.uint8] | None, born: int
    ) -> dict[str, Any]:
        """Deal the games ``over`` of the writeable ``position`` again; the other changes, for :meth:`_with`.

        The dealers are ``dealers``, else the stream's, else the slots' own.
        """
        count = int(over.size)
        redealt = _results(position, over, self._numbers.take(over), self._dealer.take(over))
        if dealers is None:
            dealers = self._dealer.take(over) if deals.dealers is None else deals.dealers
        deal_into(position, over, deals.hands, deals.holders, dealers)
        changes: dict[str, Any] = {"dealt": self._dealt + count, "redealt": redealt}
        for name, values in (
            ("deck", deals.decks),
            ("trump_card", deals.trump_cards),
            ("trump", SUIT.take(deals.trump_cards)),
            ("dealer", dealers),
            ("numbers", np.arange(self._dealt, self._dealt + count)),
            ("born", np.full(count, born)),
        ):
            array = getattr(self, "_" + name).copy()
            array[over] = values
            changes[name] = _read_only(array)
        values, other = _seed_array(deals.seeds, count)
        seeds = self._seeds.copy()
        seeds[over] = values
        changes["seeds"] = _read_only(seeds)
        kept = self._seeds_other
        if kept:
            dealt_again = set(over.tolist())
            kept = {game: seed for game, seed in kept.items() if game not in dealt_again}
        kept = {**kept}
        kept.update({int(over[i]): seed for i, seed in other.items()})
        changes["seeds_other"] = kept
        return changes

    @property
    def redealt(self) -> Results | None:
        """The results of the games that the :meth:`step` or :meth:`redeal` that made this batch replaced with
        new deals, or ``None`` if it replaced none."""
        return self._redealt

    # --- one game at a time ----------------------------------------------------------------------------

    def state(self, game: int) -> GameState:
        """Game ``game`` as a :class:`goat.GameState`: its deal replayed through the scalar engine with the moves
        of the actions it took (:func:`goat.adapters.encoding.actions_of`), so equal (``==``) to the state
        ``goat.play`` reaches with those moves."""
        i = self._index(game)
        deck = [DECK[c] for c in self._deck[i].tolist()]
        state = new_game(deck=deck, trump_card=DECK[int(self._trump_card[i])], dealer=int(self._dealer[i]))
        for step in range(int(self._born[i]), self._steps):
            action = int(self._log[step - self._base][i])
            if action >= 0:
                state = play(state, actions_of(state)[action])
        return state

    def result(self, game: int) -> GameResult:
        """Game ``game``'s result as a :class:`goat.GameResult`; :class:`goat.GameNotOverError` if it goes on."""
        i = self._index(game)
        if self._position.to_move[i] >= 0:
            raise GameNotOverError(f"game {i} is not over (R17)")
        found = self.results()
        row = int(np.flatnonzero(found.games == i)[0])
        winner = int(found.winner[row])
        return GameResult(
            tuple(found.points[row].tolist()),
            tuple(found.tricks[row].tolist()),
            tuple(found.defeat[row].tolist()),
            bool(found.balls[row]),
            None if winner < 0 else winner,
            int(found.last_trick_winner[row]),
        )

    def results(self) -> Results:
        """The results of every finished game (R18–R20), in game order."""
        games = np.flatnonzero(self._position.to_move < 0)
        return _results(self._position, games, self._numbers.take(games), self._dealer.take(games))

    def _index(self, game: int) -> int:
        if isinstance(game, bool) or not isinstance(game, (int, np.integer)):
            raise TypeError(f"a game is an index, not {game!r}")
        if not -len(self) <= game < len(self):
            raise IndexError(f"game {game} is out of range for a batch of {len(self)}")
        return int(game) % len(self)


def _results(
    position: Position, games: NDArray[np.intp], numbers: NDArray[np.int64], dealers: NDArray[np.uint8]
) -> Results:
    """The results of the finished games ``games`` of ``position``."""
    points = position.points.take(games, axis=1).T.astype(np.int16)
    tricks = position.tricks.take(games, axis=1).T.astype(np.int8)
    defeat = DEFEAT.take(points.astype(np.intp) * 2 + (tricks > 0)).astype(np.int8)
    balls = points[:, 0] == 60
    winner = np.where(balls, -1, np.where(points[:, 0] > 60, 0, 1)).astype(np.int8)
    return Results(
        games=games,
        numbers=numbers,
        dealer=dealers.astype(np.int8),
        points=points,
        tricks=tricks,
        defeat=defeat,
        balls=balls,
        winner=winner,
        last_trick_winner=position.leader.take(games).astype(np.int8),
        first_leader=FIRST_LEADER.take(dealers).astype(np.int8),
        decisions=position.decisions.take(games).astype(np.int16),
        molodkas=position.molodkas.take(games, axis=1).T.astype(np.int8),
        molodka_dealt=_TEAM_HOLDS.take(position.dealt_holders.take(games), axis=0),
    )
