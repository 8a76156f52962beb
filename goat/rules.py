"""The rules engine: dealing, legal moves, playing a move, winning a trick (R7–R17).

Every function here is pure: it returns a new :class:`~goat.GameState` and never
changes its arguments.

>>> import goat
>>> state = goat.new_game(seed=7)
>>> state.dealer, state.leader, state.to_move
(0, 1, 1)
>>> move = goat.legal_moves(state)[0]
>>> goat.play(state, move).table == (move,)
True

Two routines answer "is this move legal?": :func:`legal_moves` enumerates
every legal move, and :func:`play` checks the one move it is given directly
against the rules (in constant time, with the reason when it fails).  The
property tests check that the two agree move for move.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Final, Protocol, TypeVar

from goat._core import (
    BEAT,
    DEALT,
    FIXED,
    HANDS,
    HOLDERS,
    LEAD,
    LEADER,
    MOLODKA,
    SUIT_MASK,
    SUIT_OF,
    TABLE,
    TO_MOVE,
    TOP,
    TRUMP,
    WAIT,
    deal,
    set_beats,
    shuffled,
    start_hand,
    step,
)
from goat._core import legal_moves as kernel_legal_moves
from goat.cards import DECK, Card, Suit, cards, describe
from goat.errors import IllegalMoveError, InvalidDealError, InvalidMoveError, InvalidTrickError, shown
from goat.moves import MOVES, Move, MoveKind, make_move
from goat.seats import check_seat
from goat.state import GameState, check_defeat, check_trump, state_of

__all__ = ["legal_moves", "new_game", "play", "trick_winner"]

_HAND_SIZE: Final = 4
_NO_DEFEAT: Final = (0, 0)  # new_game's default: known good, not checked again
_Random = random.Random


class _Play(Protocol):
    @property
    def kind(self) -> MoveKind: ...


_P = TypeVar("_P", bound=_Play)


def top_play(table: Sequence[_P]) -> _P:
    """The top play of a trick's plays (R12): the last beat, else the lead.  For moves and seen moves alike.

    Shared inside the package (the bots read tricks with it); not part of the API.
    """
    for play in reversed(table):
        if play.kind is MoveKind.BEAT:
            return play
    return table[0]


# --- new_game -----------------------------------------------------------------


def deck_order(deck: Iterable[Card] | str) -> tuple[int, ...]:
    """The card indices of ``deck`` in order: :class:`~goat.InvalidDealError` naming the cards that are there
    twice and those missing, if it is not the 36 cards each once (R2).  Records check their decks with it."""
    if isinstance(deck, str):
        deck = cards(deck)
    elif isinstance(deck, (bytes, AbstractSet, Mapping)) or not isinstance(deck, Iterable):
        # (a set or a dict has no order of its own to deal from: the deal would follow the cards' hashes)
        raise InvalidDealError(f"deck must be the 36 cards in order (Card objects or card text), not {shown(deck)}")
    order = []
    for card in deck:
        if isinstance(card, str):
            card = Card.from_str(card)
        if not isinstance(card, Card):
            raise InvalidDealError(f"a deck holds cards, not {shown(card)}")
        order.append(card.index)
    if len(order) != 36 or len(set(order)) != 36:
        seen: set[int] = set()
        twice = sorted({i for i in order if i in seen or seen.add(i)})  # type: ignore[func-returns-value]
        missing = sorted(set(range(36)) - set(order))
        problems = [f"{len(order)} cards, not 36"] if len(order) != 36 else []
        if twice:
            problems.append("twice: " + " ".join(str(DECK[i]) for i in twice))
        if missing:
            problems.append("missing: " + " ".join(str(DECK[i]) for i in missing))
        raise InvalidDealError("a deck is the 36 distinct cards (R2); this one has " + "; ".join(problems))
    return tuple(order)


def new_game(
    seed: int | None = None,
    *,
    deck: Iterable[Card] | str | None = None,
    trump_card: Card | str | None = None,
    dealer: int = 0,
    defeat: tuple[int, int] = _NO_DEFEAT,
    moves: Iterable[Move | str] = (),
) -> GameState:
    """Deal a new game (R7–R9), and play ``moves`` in it if any are given.

    With ``seed``, the deck is shuffled and the trump card chosen from the
    stock by :class:`random.Random` seeded with it, so the same seed always
    gives the same game.  With ``deck`` (36 cards, top first) and
    ``trump_card`` (which must lie in the stock), the deal is fixed; if
    ``trump_card`` is left out, it is drawn from the stock with ``seed``.
    With neither ``seed`` nor ``deck`` the shuffle is unseeded, the one case
    where equal arguments do not give equal games.

    Cards are dealt one at a time from the top, starting with the seat after
    ``dealer`` (R7); that seat leads the first trick (R9).  ``defeat`` is the
    match's defeat-scores before this game, which every player sees (R23);
    :meth:`goat.Match.new_game` fills it in.

    ``moves`` (:class:`~goat.Move` objects or move text such as
    ``"1 lead 10H"``) are played in order, as by :func:`play`: this is how
    ``repr()`` of a :class:`~goat.GameState` writes a state so that it pastes
    back into Python.

    Raises :class:`~goat.InvalidDealError` (a :class:`ValueError`) for a deck
    that is not the 36 distinct cards, a trump card not in the stock, or a
    seat outside 0–3; :class:`~goat.IllegalMoveError` or
    :class:`~goat.InvalidMoveError` naming the step for a move that cannot be played.

    >>> from goat import DECK, new_game
    >>> state = new_game(deck=DECK, trump_card="9S", dealer=3)
    >>> sorted(state.hands[0])  # DECK[0], DECK[4], DECK[8], DECK[12]
    [Card.from_str('6C'), Card.from_str('JC'), Card.from_str('AC'), Card.from_str('9D')]
    >>> state.leader, state.trump
    (0, Suit.SPADES)
    """
    if seed is not None and type(seed) is not int:
        raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
    if type(dealer) is not int or not 0 <= dealer <= 3:
        check_seat(dealer, "dealer", InvalidDealError)
    if defeat is not _NO_DEFEAT:
        check_defeat(defeat)
    if deck is None:
        if trump_card is not None:
            raise InvalidDealError("a trump_card can only be named together with a fixed deck")
        # The same draws as rng.shuffle(list(range(36))), then rng.randrange(20) for the trump card.
        indices, at = shuffled(_Random(seed).getrandbits)
        trump = indices[DEALT + at]
    else:
        indices = deck_order(deck)
        stock = indices[DEALT:]
        if trump_card is None:
            trump = stock[_Random(seed).randrange(len(stock))]
        else:
            if isinstance(trump_card, str):
                trump_card = Card.from_str(trump_card)
            if not isinstance(trump_card, Card):
                raise InvalidDealError(f"trump_card must be a Card, not {shown(trump_card)}")
            trump = trump_card.index
            check_trump(indices, trump, dealer)
    state = state_of(deal(indices, trump, dealer, defeat if type(defeat) is tuple else (defeat[0], defeat[1])))
    return _play_all(state, moves) if moves else state


def _play_all(state: GameState, moves: Iterable[Move | str]) -> GameState:
    """``state`` after ``moves`` (moves or move text), with errors that name the step."""
    if isinstance(moves, (str, bytes)) or not isinstance(moves, Iterable):
        raise TypeError(f"moves must be a list of moves or move text such as ['1 lead 10H'], not {shown(moves)}")
    for number, move in enumerate(moves, start=1):
        try:
            if isinstance(move, str):
                move = Move.from_str(move)
            elif type(move) is not Move:
                raise TypeError(f"a Move or move text such as '1 lead 10H', not {shown(move)}")
            state = play(state, move)
        except InvalidMoveError as error:
            raise InvalidMoveError(f"move {number}: {error}") from None
        except IllegalMoveError as error:
            raise IllegalMoveError(f"move {number}: {error}") from None
        except TypeError as error:
            raise TypeError(f"move {number}: {error}") from None
    return state


# --- legal_moves ----------------------------------------------------------------

# The legal moves of the last state asked about, as one (state, moves) pair replaced whole: a game loop asks
# again for the state it is at (the referee, then the view it hands a bot), hardly ever for an older one.
_last: tuple[GameState | None, tuple[Move, ...]] = (None, ())


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """Every legal move of ``state.to_move``, in a fixed order; ``()`` once the game is over.

    Before a play a molodka holder being asked has exactly two moves, declare
    (``MOLODKA``) or ``WAIT`` (R14).  The seat due to lead has every non-empty
    set of cards of one suit (R10).  The seat due to answer has every beat
    (R6, R11), every pass (any ``k`` cards, R11) and, if it holds one and the
    trick has none yet, its molodka (R14).
    """
    global _last
    if type(state) is not GameState:
        raise TypeError(f"legal_moves() takes a GameState, not {type(state).__name__}")
    last = _last
    if last[0] is state:
        return last[1]
    moves = kernel_legal_moves(state.core, MOVES, make_move)
    _last = (state, moves)
    return moves


# --- play -----------------------------------------------------------------------


def play(state: GameState, move: Move | str) -> GameState:
    """The state after ``move``; ``state`` itself is unchanged.

    ``move`` may be text in move notation, whatever :meth:`Move.from_str` reads (as python-chess's
    ``push_san`` takes a move's notation):

    >>> import goat
    >>> state = goat.new_game(seed=3)
    >>> goat.play(state, "1 lead 7c") == goat.play(state, goat.Move.from_str("1 lead 7C"))
    True

    Raises :class:`~goat.IllegalMoveError` (a :class:`ValueError`) saying why
    when the rules forbid the move in this state, and :class:`~goat.InvalidMoveError` for text that is no move.
    """
    if type(move) is not Move or type(state) is not GameState:
        if type(state) is GameState and isinstance(move, str):
            return play(state, Move.from_str(move))
        raise TypeError(
            f"play() takes a GameState and a Move (or a move's text), not {type(state).__name__} and "
            f"{type(move).__name__}"
        )
    core = step(state.core, move.key)
    if core is None:
        raise IllegalMoveError(f"illegal move {move}: {_why_illegal(state, move)}")
    return state_of(core)


def _why_illegal(state: GameState, move: Move) -> str:
    """Why the kernel refused ``move`` in ``state``, in words (R10–R14)."""
    core = state.core
    key = move.key
    kind, seat, mask = key >> 2 & 7, key & 3, key >> 5
    decider = core[TO_MOVE]
    if decider < 0:
        return "the game is over (R17)"
    if seat != decider:
        return f"it is seat {decider}'s turn, not seat {seat}'s"
    table = core[TABLE]
    holders = core[HOLDERS]
    due = (core[LEADER] + len(table)) % 4
    hand = core[HANDS][seat]
    if kind == WAIT:
        if mask:
            return "a wait holds no cards"
        return "only a molodka holder asked before another seat's play may wait (R14); this seat must play"
    if kind == MOLODKA:
        if seat == due and not table:
            return "the leader has no separate molodka: lead the four cards of one suit instead (R14)"
        if not holders and state.molodka_made:
            return "this trick already has its molodka (R14: at most one per trick)"
        if seat not in holders:
            return "this seat held no molodka (four cards of one suit) when the trick started (R14)"
        start = start_hand(core, seat)
        return f"a molodka is the four cards of one suit held at the start of the trick: {describe(start)} (R14)"
    if seat != due:
        return "seat is being asked about its molodka before another seat's play: it may only declare it or wait (R14)"
    if not mask:
        return "a play needs at least one card"
    if mask & ~hand:
        return f"not in hand: {describe(mask & ~hand)}"
    if not table:
        if kind != LEAD:
            return "the trick has no lead yet: this seat must lead (R10)"
        return "a lead is cards of one suit (R10)"
    if kind == LEAD:
        return "the trick is already led: this seat must beat or pass (R11)"
    top = core[TOP]
    size = (table[0] >> 5).bit_count()
    if mask.bit_count() != size:
        return f"every answer has as many cards as the lead (R11): {size}, not {mask.bit_count()}"
    if kind == BEAT and not set_beats(mask, top >> 5, core[FIXED][TRUMP]):
        return f"{describe(mask)} does not beat the top play {describe(top >> 5)} of seat {top & 3} (R6, R12)"
    return "the rules forbid this move"  # not reached by a well-formed move: the checks above are the kernel's


# --- trick_winner -----------------------------------------------------------------


def trick_winner(plays: Sequence[Move], trump: Suit) -> int:
    """The seat that wins a finished trick with these plays (R12, R13).

    ``plays`` are the four plays since the lead (or molodka), in order; the
    owner of the last beat wins, or the leader if nobody beat.  Raises
    :class:`~goat.InvalidTrickError` (a :class:`ValueError`) if the plays do not
    form a finished trick: not four plays of consecutive seats, answers of the
    wrong size, a lead of mixed suits or of more than four cards, a card twice,
    or a "beat" that does not beat the top play.

    >>> from goat import Move, Suit
    >>> plays = [Move.from_str(text) for text in ("0 lead 9H", "1 beat 10H", "2 pass 6C", "3 beat 6S")]
    >>> trick_winner(plays, Suit.SPADES)
    3
    """
    if not isinstance(trump, Suit):
        raise TypeError(f"trump must be a Suit, not {shown(trump)}")
    if isinstance(plays, (str, bytes)) or not isinstance(plays, Iterable):
        raise TypeError(f"trick_winner(): plays must be a sequence of four Move objects, not {shown(plays)}")
    plays = tuple(plays)
    if len(plays) != 4 or any(type(p) is not Move for p in plays):
        raise InvalidTrickError(f"a finished trick is four moves, not {shown(plays)}")
    first = plays[0]
    if first.kind not in (MoveKind.LEAD, MoveKind.MOLODKA):
        raise InvalidTrickError(f"a trick starts with a lead or a molodka, not {first}")
    suit_mask = SUIT_MASK[SUIT_OF[(first.mask & -first.mask).bit_length() - 1]] if first.mask else 0
    if not first.mask or first.mask & suit_mask != first.mask:
        raise InvalidTrickError(f"a lead is one or more cards of one suit (R10), not {first}")
    if first.kind is MoveKind.MOLODKA and first.mask.bit_count() != 4:
        raise InvalidTrickError(f"a molodka is four cards of one suit (R14), not {first}")
    size = first.mask.bit_count()
    if size > _HAND_SIZE:
        raise InvalidTrickError(f"a lead holds at most {_HAND_SIZE} cards, a whole hand (R10, R15), not {first}")
    seen = first.mask
    top = first
    t = trump.index
    for i, answer in enumerate(plays[1:], start=1):
        if answer.seat != (first.seat + i) % 4:
            raise InvalidTrickError(f"play {i + 1} must be by seat {(first.seat + i) % 4}, not {answer}")
        if answer.kind not in (MoveKind.BEAT, MoveKind.PASS):
            raise InvalidTrickError(f"after the lead come beats and passes (R11), not {answer}")
        if answer.mask.bit_count() != size:
            raise InvalidTrickError(f"every answer has {size} card(s) like the lead (R11), not {answer}")
        if answer.mask & seen:
            raise InvalidTrickError(f"a card is played twice: {describe(answer.mask & seen)}")
        seen |= answer.mask
        if answer.kind is MoveKind.BEAT:
            if not set_beats(answer.mask, top.mask, t):
                raise InvalidTrickError(f"{answer} does not beat the top play {top} (R6, R12)")
            top = answer
    return top.seat
