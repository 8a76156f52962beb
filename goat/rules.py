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
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Final, Protocol, TypeVar

from goat.cards import _CARDS, _SUIT_INDEX, BEATERS, SUIT_MASK, SUIT_OF, Card, Suit, cards, describe, set_beats
from goat.errors import IllegalMoveError, InvalidDealError, InvalidMoveError, InvalidTrickError
from goat.moves import _MOVES, BEAT, LEAD, MOLODKA, PASS, WAIT, Move, MoveKind, move_of
from goat.seats import check_seat
from goat.state import GameState, Trick

__all__ = ["legal_moves", "new_game", "play", "trick_winner"]

_HAND_SIZE: Final = 4


def _is_molodka(hand: int) -> bool:
    """Four cards, all of one suit (R14)."""
    if hand.bit_count() != 4:
        return False
    suit = SUIT_OF[(hand & -hand).bit_length() - 1]
    return hand & SUIT_MASK[suit] == hand


def _holders(hands: tuple[int, ...], leader: int) -> tuple[int, ...]:
    """Seats holding a molodka at the start of a trick, closest to the leader first (R14)."""
    return tuple(seat for seat in ((leader + i) % 4 for i in range(4)) if _is_molodka(hands[seat]))


def _decider(leader: int, played: int, holders: tuple[int, ...], waited: int) -> int:
    """Who decides now: the next holder still to be asked before this play, else the seat due to play (R14)."""
    due = (leader + played) % 4
    if holders:
        asked = [seat for seat in holders if seat != due]
        if waited < len(asked):
            return asked[waited]
    return due


# --- new_game -----------------------------------------------------------------


def _parse_deck(deck: Iterable[Card] | str) -> tuple[int, ...]:
    if isinstance(deck, str):
        deck = cards(deck)
    elif isinstance(deck, bytes) or not isinstance(deck, Iterable):
        raise InvalidDealError(f"deck must be the 36 cards in order (Card objects or card text), not {deck!r}")
    order = []
    for card in deck:
        if isinstance(card, str):
            card = Card.from_str(card)
        if not isinstance(card, Card):
            raise InvalidDealError(f"a deck holds cards, not {card!r}")
        order.append(card.index)
    if len(order) != 36 or len(set(order)) != 36:
        seen: set[int] = set()
        twice = sorted({i for i in order if i in seen or seen.add(i)})  # type: ignore[func-returns-value]
        missing = sorted(set(range(36)) - set(order))
        problems = [f"{len(order)} cards, not 36"] if len(order) != 36 else []
        if twice:
            problems.append("twice: " + " ".join(str(_CARDS[i]) for i in twice))
        if missing:
            problems.append("missing: " + " ".join(str(_CARDS[i]) for i in missing))
        raise InvalidDealError("a deck is the 36 distinct cards (R2); this one has " + "; ".join(problems))
    return tuple(order)


def new_game(
    seed: int | None = None,
    *,
    deck: Iterable[Card] | str | None = None,
    trump_card: Card | str | None = None,
    dealer: int = 0,
    defeat: tuple[int, int] = (0, 0),
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
    if seed is not None and seed.__class__ is not int:
        raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
    dealer = check_seat(dealer, "dealer", InvalidDealError)
    if (
        not isinstance(defeat, tuple)
        or len(defeat) != 2
        or any(score.__class__ is not int or score < 0 for score in defeat)
    ):
        raise InvalidDealError(f"defeat must be two non-negative ints, not {defeat!r}")
    rng = random.Random(seed)
    if deck is None:
        if trump_card is not None:
            raise InvalidDealError("a trump_card can only be named together with a fixed deck")
        order = list(range(36))
        rng.shuffle(order)
        indices = tuple(order)
    else:
        indices = _parse_deck(deck)
    stock = indices[16:]
    if trump_card is None:
        trump = stock[rng.randrange(len(stock))]
    else:
        if isinstance(trump_card, str):
            trump_card = Card.from_str(trump_card)
        if not isinstance(trump_card, Card):
            raise InvalidDealError(f"trump_card must be a Card, not {trump_card!r}")
        trump = trump_card.index
        if trump not in stock:
            seat = (dealer + 1 + indices.index(trump)) % 4
            raise InvalidDealError(f"the trump card must lie in the stock (R8); {trump_card} is dealt to seat {seat}")
    hands = [0, 0, 0, 0]
    for position in range(16):  # one card at a time, clockwise from the dealer's left (R7)
        hands[(dealer + 1 + position) % 4] |= 1 << indices[position]
    leader = (dealer + 1) % 4  # R9: the first to receive a card leads
    holders = _holders(tuple(hands), leader)
    state = GameState(
        (hands[0], hands[1], hands[2], hands[3]),
        stock,
        trump,
        dealer,
        leader,
        (),
        (),
        holders,
        0,
        _decider(leader, 0, holders, 0),
        None,
        indices,
        (defeat[0], defeat[1]),
    )
    return _play_all(state, moves) if moves else state


def _play_all(state: GameState, moves: Iterable[Move | str]) -> GameState:
    """``state`` after ``moves`` (moves or move text), with errors that name the step."""
    if isinstance(moves, (str, bytes)) or not isinstance(moves, Iterable):
        raise TypeError(f"moves must be a list of moves or move text such as ['1 lead 10H'], not {moves!r}")
    for step, move in enumerate(moves, start=1):
        try:
            if isinstance(move, str):
                move = Move.from_str(move)
            elif move.__class__ is not Move:
                raise TypeError(f"a Move or move text such as '1 lead 10H', not {move!r}")
            state = play(state, move)
        except InvalidMoveError as error:
            raise InvalidMoveError(f"move {step}: {error}") from None
        except IllegalMoveError as error:
            raise IllegalMoveError(f"move {step}: {error}") from None
        except TypeError as error:
            raise TypeError(f"move {step}: {error}") from None
    return state


# --- legal_moves ----------------------------------------------------------------


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """Every legal move of ``state.to_move``, in a fixed order; ``()`` once the game is over.

    Before a play a molodka holder being asked has exactly two moves, declare
    (``MOLODKA``) or ``WAIT`` (R14).  The seat due to lead has every non-empty
    set of cards of one suit (R10).  The seat due to answer has every beat
    (R6, R11), every pass (any ``k`` cards, R11) and, if it holds one and the
    trick has none yet, its molodka (R14).
    """
    if state.__class__ is not GameState:
        raise TypeError(f"legal_moves() takes a GameState, not {type(state).__name__}")
    cached = state._legal
    if cached is None:
        cached = _legal_moves(state)
        object.__setattr__(state, "_legal", cached)
    return cached


def _legal_moves(state: GameState) -> tuple[Move, ...]:
    seat = state._to_move
    if seat < 0:
        return ()
    table = state._table
    due = (state._leader + len(table)) % 4
    if seat != due:  # a holder asked before the play (R14)
        return (move_of(MOLODKA, seat, _start_hand(state, seat)), move_of(WAIT, seat, 0))
    return _plays(state, seat)


def _plays(state: GameState, seat: int) -> tuple[Move, ...]:
    """The moves of the seat due to play, whoever else may be asked first."""
    hand = state._hands[seat]
    table = state._table
    if not table:
        moves = []
        for suit_mask in SUIT_MASK:  # every non-empty set of cards of one suit (R10)
            of_suit = hand & suit_mask
            subset = of_suit
            while subset:
                moves.append(move_of(LEAD, seat, subset))
                subset = (subset - 1) & of_suit
        return tuple(moves)
    size = table[0].mask.bit_count()
    top = _top(table).mask
    trump = SUIT_OF[state._trump_card]
    subsets = _subsets(hand, size)
    if size == 1:
        beaters = BEATERS[trump][top.bit_length() - 1]
        beating = [subset for subset in subsets if subset & beaters]
    else:
        beating = [subset for subset in subsets if set_beats(subset, top, trump)]
    # move_of inlined as a dict look-up: this is the engine's hottest loop.
    interned = _MOVES.get
    beat_code = BEAT << 2 | seat
    pass_code = PASS << 2 | seat
    moves = [interned(s << 5 | beat_code) or move_of(BEAT, seat, s) for s in beating]
    moves.extend([interned(s << 5 | pass_code) or move_of(PASS, seat, s) for s in subsets])
    if seat in state._holders:
        moves.append(move_of(MOLODKA, seat, hand))
    return tuple(moves)


def _subsets(hand: int, size: int) -> list[int]:
    """The ``size``-card subsets of ``hand`` (at most 4 cards) as masks, lowest cards first.

    Not memoised: measured, hands recur too rarely across games for a cache to pay.
    """
    singles = []
    rest = hand
    while rest:
        low = rest & -rest
        singles.append(low)
        rest ^= low
    held = len(singles)
    if size == 1:
        return singles
    if size == held:
        return [hand]
    if size == held - 1:
        return [hand ^ single for single in reversed(singles)]
    return [sum(combo) for combo in combinations(singles, size)]


class _Play(Protocol):
    @property
    def kind(self) -> MoveKind: ...


_P = TypeVar("_P", bound=_Play)


def _top(table: Sequence[_P]) -> _P:
    """The top play (R12): the last beat, else the lead.  Works on moves and on seen moves alike."""
    for play in reversed(table):
        if play.kind is MoveKind.BEAT:
            return play
    return table[0]


def _start_hand(state: GameState, seat: int) -> int:
    """The seat's hand at the start of the trick: its hand plus its cards on the table."""
    hand = state._hands[seat]
    for play in state._table:
        if play.seat == seat:
            hand |= play.mask
    return hand


# --- play -----------------------------------------------------------------------


def play(state: GameState, move: Move) -> GameState:
    """The state after ``move``; ``state`` itself is unchanged.

    Raises :class:`~goat.IllegalMoveError` (a :class:`ValueError`) saying why
    when the rules forbid the move in this state.
    """
    if move.__class__ is not Move or state.__class__ is not GameState:
        raise TypeError(f"play() takes a GameState and a Move, not {type(state).__name__} and {type(move).__name__}")
    key = move._key
    kind = key >> 2 & 7
    seat = key & 3
    mask = key >> 5
    reason = _why_illegal(state, kind, seat, mask)
    if reason is not None:
        raise IllegalMoveError(f"illegal move {move}: {reason}")
    return _apply(state, move, kind, seat, mask)


def _why_illegal(state: GameState, kind: int, seat: int, mask: int) -> str | None:
    """``None`` when the move is legal, else the reason in words (R10–R14)."""
    decider = state._to_move
    if decider < 0:
        return "the game is over (R17)"
    if seat != decider:
        return f"it is seat {decider}'s turn, not seat {seat}'s"
    table = state._table
    due = (state._leader + len(table)) % 4
    hand = state._hands[seat]
    if kind == WAIT:
        if mask:
            return "a wait holds no cards"
        if seat == due:
            return "only a molodka holder asked before another seat's play may wait (R14); this seat must play"
        return None
    if kind == MOLODKA:
        if seat == due and not table:
            return "the leader has no separate molodka: lead the four cards of one suit instead (R14)"
        if not state._holders:
            if state.molodka_made:
                return "this trick already has its molodka (R14: at most one per trick)"
            return "this seat held no molodka (four cards of one suit) when the trick started (R14)"
        start = _start_hand(state, seat)
        if seat not in state._holders:
            return "this seat held no molodka (four cards of one suit) when the trick started (R14)"
        if mask != start:
            return f"a molodka is the four cards of one suit held at the start of the trick: {describe(start)} (R14)"
        return None
    if seat != due:
        return "seat is being asked about its molodka before another seat's play: it may only declare it or wait (R14)"
    if not mask:
        return "a play needs at least one card"
    if mask & ~hand:
        return f"not in hand: {describe(mask & ~hand)}"
    if not table:
        if kind != LEAD:
            return "the trick has no lead yet: this seat must lead (R10)"
        if mask & SUIT_MASK[SUIT_OF[(mask & -mask).bit_length() - 1]] != mask:
            return "a lead is cards of one suit (R10)"
        return None
    if kind == LEAD:
        return "the trick is already led: this seat must beat or pass (R11)"
    size = table[0].mask.bit_count()
    if mask.bit_count() != size:
        return f"every answer has as many cards as the lead (R11): {size}, not {mask.bit_count()}"
    if kind == BEAT:
        top = _top(table)
        if not set_beats(mask, top.mask, SUIT_OF[state._trump_card]):
            return f"{describe(mask)} does not beat the top play {describe(top.mask)} of seat {top.seat} (R6, R12)"
    return None


def _apply(state: GameState, move: Move, kind: int, seat: int, mask: int) -> GameState:
    """The state after a legal move."""
    log = (move, state._log)
    leader = state._leader
    table = state._table
    holders = state._holders
    if kind == WAIT:
        waited = state._waited + 1
        return GameState(
            state._hands,
            state._stock,
            state._trump_card,
            state._dealer,
            leader,
            table,
            state._tricks,
            holders,
            waited,
            _decider(leader, len(table), holders, waited),
            log,
            state._deck,
            state._defeat,
        )
    hands = list(state._hands)
    if kind == MOLODKA:
        for earlier in table:  # cards on the table go back to their owners (R14)
            hands[earlier.seat] |= earlier.mask
        hands[seat] &= ~mask
        return GameState(
            (hands[0], hands[1], hands[2], hands[3]),
            state._stock,
            state._trump_card,
            state._dealer,
            seat,
            (move,),
            state._tricks,
            (),
            0,
            (seat + 1) % 4,
            log,
            state._deck,
            state._defeat,
        )
    hands[seat] &= ~mask
    table = (*table, move)
    if len(table) < 4:
        if kind == LEAD and mask.bit_count() == 4:
            holders = ()  # a four-card lead of one suit is the trick's molodka (R14)
        return GameState(
            (hands[0], hands[1], hands[2], hands[3]),
            state._stock,
            state._trump_card,
            state._dealer,
            leader,
            table,
            state._tricks,
            holders,
            0,
            _decider(leader, len(table), holders, 0),
            log,
            state._deck,
            state._defeat,
        )
    # The fourth play ends the trick (R13); then the draw (R15) and the next lead (R16).
    winner = _top(table).seat
    tricks = (*state._tricks, Trick(table, winner))
    stock = state._stock
    rounds = min(_HAND_SIZE - hands[0].bit_count(), len(stock) // 4)
    for position in range(4 * rounds):  # one card at a time, the winner first (R15)
        hands[(winner + position) % 4] |= 1 << stock[position]
    stock = stock[4 * rounds :]
    new_hands = (hands[0], hands[1], hands[2], hands[3])
    if not stock and not new_hands[0]:  # R17; hands always hold equal numbers of cards
        holders, to_move = (), -1
    else:
        holders = _holders(new_hands, winner)
        to_move = _decider(winner, 0, holders, 0)
    return GameState(
        new_hands,
        stock,
        state._trump_card,
        state._dealer,
        winner,
        (),
        tricks,
        holders,
        0,
        to_move,
        log,
        state._deck,
        state._defeat,
    )


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
        raise TypeError(f"trump must be a Suit, not {trump!r}")
    if isinstance(plays, (str, bytes)) or not isinstance(plays, Iterable):
        raise TypeError(f"trick_winner(): plays must be a sequence of four Move objects, not {plays!r}")
    plays = tuple(plays)
    if len(plays) != 4 or any(p.__class__ is not Move for p in plays):
        raise InvalidTrickError(f"a finished trick is four moves, not {plays!r}")
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
    t = _SUIT_INDEX[trump]
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
