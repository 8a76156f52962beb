"""The records as values: a game, a match, a fault; building them from play, and replaying them.

A :class:`GameRecord` holds everything needed to play a game again — the deal (seed, deck order,
trump card, dealer, the match's defeat-scores before it), every move in order, free-form headers,
comments on moves — and how it ended: the result, the faults the arena recorded, the team that
forfeited.  A game may be unfinished (``result`` is ``None``): it replays to its last state, so a game
can be saved and taken up again.  A :class:`MatchRecord` holds the games of a match in order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

import attrs

from goat.cards import Card
from goat.errors import GoatError, InvalidDealError, shown
from goat.moves import Move
from goat.rules import deck_order, new_game, play
from goat.scoring import FORFEIT_DEFEAT as _FORFEIT_DEFEAT
from goat.scoring import GameResult, Match, score
from goat.seats import check_seat, is_seat
from goat.state import GameState, check_defeat

__all__ = [
    "FAULT_KINDS",
    "FORFEIT_DEFEAT",
    "Fault",
    "GameRecord",
    "MatchRecord",
    "RecordError",
    "forfeit_result",
    "from_match",
    "from_state",
    "replay",
]

#: The defeat-scores a forfeiting team gains (as for a game without a trick, R19); GameResult knows it too.
FORFEIT_DEFEAT: Final = _FORFEIT_DEFEAT

#: What a fault can be: an in-process bot raised (``exception``), answered a move that is not legal or
#: not a move (``illegal``) or overran its budget (``timeout``; for a sealed bot, its CPU time too); ``tamper`` is
#: found only in records of earlier versions, whose referee guarded in-process bots; a sealed bot also replied
#: ``error``, broke the protocol
#: (``protocol``), died (``crash``) or flooded its output (``flood``); ``disabled`` is a seat not asked
#: again after an earlier fault.
FAULT_KINDS: Final = ("exception", "illegal", "timeout", "tamper", "error", "protocol", "crash", "flood", "disabled")


class RecordError(GoatError, ValueError):
    """A record that cannot be read, is inconsistent, or does not replay; the message names the field or step."""


def _text(value: object, what: str) -> str:
    """``value`` if it is text that a UTF-8 file can hold (no lone surrogate), else :class:`RecordError`."""
    if not isinstance(value, str):
        raise RecordError(f"{what} must be text, not {shown(value, 60)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise RecordError(f"{what} holds a character that UTF-8 cannot write (a lone surrogate)") from None
    return value


def _headers(value: Mapping[str, str] | Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    items = list(value.items()) if isinstance(value, Mapping) else list(value)
    seen = set()
    for item in items:
        if not isinstance(item, tuple) or len(item) != 2:
            raise RecordError(f"headers are pairs of texts, not {shown(item, 60)}")
        key = _text(item[0], "a header's name")
        _text(item[1], f"header {key!r}")
        if not key or key in seen:
            raise RecordError(f"a header's name is non-empty text given once, not {shown(key, 60)}")
        seen.add(key)
    return tuple(items)


def _comments(value: Mapping[int, str] | Iterable[tuple[int, str]]) -> tuple[tuple[int, str], ...]:
    items = list(value.items() if isinstance(value, Mapping) else value)
    seen = set()
    for item in items:
        if not isinstance(item, tuple) or len(item) != 2:
            raise RecordError(f"comments are pairs of a move number and a text, not {shown(item, 60)}")
        number, text = item
        if type(number) is not int or number < 0:
            raise RecordError(f"a comment is on a move number 0 (the deal) or more, not {shown(number, 40)}")
        _text(text, f"the comment on move {number}")
        if number in seen:  # a record writes one comment per move: the second would be lost
            raise RecordError(f"two comments on move {number}: a move has at most one")
        seen.add(number)
    return tuple(sorted(items))


def _items(value: object, kind: type, what: str) -> tuple[Any, ...]:
    """Any iterable of ``kind`` values, as a tuple (hashable, as a record is); :class:`TypeError` otherwise."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise TypeError(f"a record's {what} are {kind.__name__} values in order, not {shown(value)}")
    items = tuple(value)
    for item in items:
        if not isinstance(item, kind):
            raise TypeError(f"a record's {what} are {kind.__name__} values, not {shown(item)}")
    return items


#: The largest seed a record holds: 79 digits, as its JSON Schema writes it (``^(0|-?[1-9][0-9]{0,78})$``).
MAX_SEED: Final = 10**79 - 1


def _check_record_seed(seed: object, what: str) -> None:
    if seed is not None and (type(seed) is not int or not -MAX_SEED <= seed <= MAX_SEED):
        raise RecordError(f"{what} is an int of at most 79 digits, or None, not {shown(seed, 40)}")


def _deck(value: object) -> tuple[Card, ...]:
    return _items(value, Card, "deck's cards")


def _moves(value: object) -> tuple[Move, ...]:
    return _items(value, Move, "moves")


def _faults(value: object) -> tuple[Fault, ...]:
    return _items(value, Fault, "faults")


def _games(value: object) -> tuple[GameRecord, ...]:
    return _items(value, GameRecord, "games")


def _defeat_scores(value: object) -> tuple[int, int]:
    pair = tuple(value) if isinstance(value, (tuple, list)) else value
    try:
        check_defeat(pair)  # what a game can be dealt at (R19, R21)
    except InvalidDealError as error:
        raise RecordError(f"a record's defeat-scores: {error}") from None
    return pair  # type: ignore[return-value]  # checked: two ints


def _players(value: Iterable[str] | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):  # "abcd" is one name, not four
        raise TypeError(f"players are four names, one per seat, not {shown(value)}")
    names = tuple(value)
    if len(names) != 4:
        raise RecordError(f"players are four names, one per seat, not {len(names)}")
    for seat, name in enumerate(names):
        _text(name, f"the name of seat {seat}")
    return names


@attrs.frozen
class Fault:
    """A bot's failure at one decision, as the arena recorded it."""

    seat: int
    move: int  #: 1-based number of the decision in the game (0: before the first, in ``start_game``)
    kind: str  #: one of :data:`FAULT_KINDS`
    reason: str
    replacement: Move | None = None  #: the move played instead (``on_fault="random"``), or ``None``
    stderr: str | None = None  #: the tail of a sealed bot's standard error, if it wrote any

    def __attrs_post_init__(self) -> None:
        if not is_seat(self.seat):
            raise RecordError(f"a fault's seat is 0–3, not {shown(self.seat)}")
        if type(self.move) is not int or self.move < 0:
            raise RecordError(f"a fault's move number is 0 or more, not {shown(self.move)}")
        if self.kind not in FAULT_KINDS:
            raise RecordError(f"a fault's kind is one of {', '.join(FAULT_KINDS)}, not {shown(self.kind, 40)}")
        _text(self.reason, "a fault's reason")
        if self.stderr is not None:
            _text(self.stderr, "a fault's stderr")
        if self.replacement is not None and (type(self.replacement) is not Move or self.replacement.seat != self.seat):
            raise RecordError(
                f"a fault's replacement is a move of its own seat {self.seat}, not {shown(self.replacement)}"
            )


@attrs.frozen
class GameRecord:
    """One game, replayable: the deal, every move, headers and comments, and how it ended.

    ``result`` is ``None`` for a game that is not finished (saved to be taken up again).  ``headers``
    are free-form text pairs (event, date, site, round …) kept in order; ``comments`` map a move's
    number (1 for the first move, 0 for the deal) to a text.  The constructor refuses values that no
    record can hold (four player names, text UTF-8 can write); :func:`replay` checks that the moves
    and the result follow the rules.
    """

    deck: tuple[Card, ...] = attrs.field(converter=_deck)
    trump_card: Card
    dealer: int
    moves: tuple[Move, ...] = attrs.field(converter=_moves)
    result: GameResult | None
    seed: int | None = None
    defeat: tuple[int, int] = attrs.field(default=(0, 0), converter=_defeat_scores)
    players: tuple[str, ...] | None = attrs.field(default=None, converter=_players)
    faults: tuple[Fault, ...] = attrs.field(default=(), converter=_faults)
    forfeit: int | None = None  #: the team that forfeited, or ``None``
    headers: tuple[tuple[str, str], ...] = attrs.field(default=(), converter=_headers)
    comments: tuple[tuple[int, str], ...] = attrs.field(default=(), converter=_comments)

    def __attrs_post_init__(self) -> None:
        try:  # the rules' check of a deck: it names the cards there twice and those missing (R2)
            deck_order(self.deck)
        except InvalidDealError as error:
            raise RecordError(f"a record's deck: {error}") from None
        if not isinstance(self.trump_card, Card):
            raise TypeError(f"a record's trump card is a Card, not {shown(self.trump_card)}")
        check_seat(self.dealer, "a record's dealer", RecordError)
        if self.result is not None and not isinstance(self.result, GameResult):
            raise TypeError(f"a record's result is a GameResult or None, not {shown(self.result)}")
        _check_record_seed(self.seed, "a record's seed")
        if self.forfeit is not None and (type(self.forfeit) is not int or self.forfeit not in (0, 1)):
            raise RecordError(f"the team that forfeited is 0 or 1, not {shown(self.forfeit)}")
        if self.forfeit is not None and self.result is None:
            raise RecordError("a forfeited game has a result")
        for number, _ in self.comments:
            if number > len(self.moves):
                raise RecordError(f"a comment on move {number}, but the game has {len(self.moves)} moves")

    @property
    def is_finished(self) -> bool:
        """Whether the game ended (played out or forfeited); an unfinished record replays to its last state."""
        return self.result is not None

    def header(self, name: str, default: str | None = None) -> str | None:
        """The header called ``name``, or ``default``."""
        return dict(self.headers).get(name, default)

    def comment(self, number: int) -> str | None:
        """The comment on move ``number`` (0: on the deal), if any."""
        return dict(self.comments).get(number)

    def _repr_html_(self) -> str:
        # Jupyter and IPython show a record as its replay (goat.records.html).
        from goat.records.html import to_html

        return to_html(self)

    def start(self) -> GameState:
        """The dealt state this record starts from."""
        return new_game(deck=self.deck, trump_card=self.trump_card, dealer=self.dealer, defeat=self.defeat)


@attrs.frozen
class MatchRecord:
    """A whole match: every game's record in order, and the final :class:`~goat.Match`.

    The games' deals follow the match (R9, R22); the last game may be unfinished, in a match saved to be
    taken up again.
    """

    seed: int | None
    games: tuple[GameRecord, ...] = attrs.field(converter=_games)
    match: Match
    players: tuple[str, ...] | None = attrs.field(default=None, converter=_players)
    headers: tuple[tuple[str, str], ...] = attrs.field(default=(), converter=_headers)

    def __attrs_post_init__(self) -> None:
        _check_record_seed(self.seed, "a match record's seed")
        if not isinstance(self.match, Match):
            raise TypeError(f"a match record's match is a Match, not {shown(self.match)}")

    @property
    def faults(self) -> tuple[Fault, ...]:
        """Every fault of every game, in order."""
        return tuple(fault for game in self.games for fault in game.faults)

    def header(self, name: str, default: str | None = None) -> str | None:
        """The header called ``name``, or ``default``."""
        return dict(self.headers).get(name, default)

    def _repr_html_(self) -> str:
        from goat.records.html import to_html

        return to_html(self)


def from_state(
    state: GameState,
    *,
    seed: int | None = None,
    players: Iterable[str] | None = None,
    faults: tuple[Fault, ...] = (),
    forfeit_by: int | None = None,
    headers: Mapping[str, str] | Iterable[tuple[str, str]] = (),
    comments: Mapping[int, str] | Iterable[tuple[int, str]] = (),
) -> GameRecord:
    """The record of ``state``'s game: finished, forfeited at ``state`` by seat ``forfeit_by``'s team, or
    unfinished (a game still going on, ``result`` ``None``)."""
    if type(state) is not GameState:
        raise TypeError(f"from_state() takes a GameState, not {shown(state)}")
    if forfeit_by is not None:
        check_seat(forfeit_by, "from_state()'s forfeit_by")
        result: GameResult | None = forfeit_result(state, forfeit_by)
    else:
        result = score(state) if state.is_over else None
    record = GameRecord(
        deck=state.deck,
        trump_card=state.trump_card,
        dealer=state.dealer,
        moves=state.history,
        result=result,
        seed=seed,
        defeat=state.defeat,
        players=players,
        faults=faults,
        forfeit=None if forfeit_by is None else forfeit_by % 2,
        headers=headers,
        comments=comments,
    )
    # What loads would refuse, refused here (without replaying: the moves are the state's own): a forfeit that
    # does not follow from the faults, a seed that does not deal this deck.
    if forfeit_by is not None:
        _check_forfeit(record, state)
    check_seed(record)
    return record


def from_match(
    games: Iterable[GameRecord],
    *,
    seed: int | None = None,
    players: Iterable[str] | None = None,
    first_dealer: int = 0,
    headers: Mapping[str, str] | Iterable[tuple[str, str]] = (),
) -> MatchRecord:
    """The record of a match of these games, in order (the last may be unfinished); checks that they follow
    one another as the match deals them (R9, R21, R22), raising :class:`RecordError` if not."""
    match = Match(first_dealer=first_dealer)
    played = tuple(games)
    for number, game in enumerate(played, start=1):
        if not isinstance(game, GameRecord):
            raise TypeError(f"a match record holds GameRecord values, not {shown(game, 60)}")
        if match.is_over:
            raise RecordError(f"game {number}: the match was over after game {number - 1} (R21)")
        if game.dealer != match.next_dealer or game.defeat != match.defeat:
            raise RecordError(
                f"game {number} is not the match's next game: dealt by seat {game.dealer} with defeat-scores "
                f"{game.defeat}, where the match deals from seat {match.next_dealer} with {match.defeat} (R9, R22)"
            )
        if game.result is None:
            if number != len(played):
                raise RecordError(f"game {number} is unfinished, but games follow it")
            break
        match = Match((*match.results, game.result), match.first_dealer)
    return MatchRecord(seed, played, match, players, headers)


def forfeit_result(state: GameState, seat: int) -> GameResult:
    """The result of a game that ``seat``'s team forfeits: it loses 120 : 0 with 6 defeat-scores.

    Tricks count as taken so far; the seat after the faulty one counts as the
    last trick's winner, so an opponent leads the next game (R22).
    """
    team = check_seat(seat, "forfeit_result()'s seat") % 2
    tricks = [0, 0]
    for trick in state.tricks:
        tricks[trick.winner % 2] += 1
    points = (0, 120) if team == 0 else (120, 0)
    defeat = (FORFEIT_DEFEAT, 0) if team == 0 else (0, FORFEIT_DEFEAT)
    return GameResult(points, (tricks[0], tricks[1]), defeat, False, 1 - team, (seat + 1) % 4)


def _check_forfeit(record: GameRecord, state: GameState) -> None:
    """A forfeit follows from the record's first fault that had no replacement, at ``state``, where the game
    stopped: that fault's team forfeits, at that fault's move, with :func:`forfeit_result`."""
    assert record.result is not None and record.forfeit is not None
    causes = [f for f in record.faults if f.replacement is None]
    if not causes or causes[0].seat % 2 != record.forfeit:
        raise RecordError(f"team {record.forfeit} forfeited, but the first fault that forfeits is not theirs")
    cause = causes[0]
    at_its_fault = (cause.move == 0 and not record.moves) or (
        cause.move == len(record.moves) + 1 and state.to_move == cause.seat
    )
    if not at_its_fault:
        raise RecordError(f"team {record.forfeit} forfeited, but the game did not stop at its fault {cause}")
    if record.result != forfeit_result(state, causes[0].seat):
        raise RecordError(f"the recorded result {record.result} is not that of team {record.forfeit}'s forfeit")


def check_seed(record: GameRecord, where: str = "") -> None:
    """A record with a seed must hold the deal that seed gives (R7, R8): the deck, and the trump card."""
    if record.seed is None:
        return
    dealt = new_game(seed=record.seed, dealer=record.dealer, defeat=record.defeat)
    if dealt.deck != record.deck:
        raise RecordError(f"{where}field 'deck' is not the deck that seed {record.seed} deals")
    if dealt.trump_card != record.trump_card:
        raise RecordError(f"{where}field 'trump_card' is not the card that seed {record.seed} shows")


def replay(record: GameRecord) -> tuple[GameState, ...]:
    """Every state of the game, from the deal to the last move; checks the faults and the recorded result.

    Raises :class:`RecordError` naming the step whose move is not legal, the fault that does not fit the
    moves, or saying how the recorded result differs from the replayed one.
    """
    if not isinstance(record, GameRecord):
        raise TypeError(f"replay() takes a GameRecord, not {shown(record)}")
    try:
        state = record.start()
    except ValueError as error:
        raise RecordError(f"the record's deal is not valid: {error}") from None
    states = [state]
    for step, move in enumerate(record.moves, start=1):
        try:
            state = play(state, move)
        except ValueError as error:
            raise RecordError(f"step {step}: {error}") from None
        states.append(state)
    _check_faults(record, states)
    if record.forfeit is not None:
        _check_forfeit(record, state)
        return tuple(states)
    if record.result is None:
        if state.is_over:
            raise RecordError(f"the game is over after its {len(record.moves)} moves, but the record has no result")
        return tuple(states)
    if not state.is_over:
        raise RecordError(f"the game is not over after its {len(record.moves)} moves, and nobody forfeited")
    replayed = score(state)
    if replayed != record.result:
        raise RecordError(f"the recorded result {record.result} differs from the replayed one {replayed}")
    return tuple(states)


def _check_faults(record: GameRecord, states: list[GameState]) -> None:
    """Each fault fits the moves: its decision exists, and a replacement is the move that seat played there.

    A fault with no replacement is a hook's (``start_game`` at move 0, ``end_game`` after the last move) or the one
    a team forfeited by, after which nothing was played: one in the middle of the moves is impossible, as the game
    went on after it with no move put in its place.  The faults are in the order the referee records them
    (:func:`_check_fault_order`)."""
    for number, fault in enumerate(record.faults, start=1):
        if fault.move > len(record.moves) + 1:
            raise RecordError(f"fault {number}: move {fault.move}, but the game has {len(record.moves)} moves")
        if fault.replacement is None and 1 <= fault.move < len(record.moves):
            raise RecordError(
                f"fault {number}: at move {fault.move} with no replacement, but the game went on to move"
                f" {len(record.moves)}"
            )
        if fault.replacement is not None and (
            not 1 <= fault.move <= len(record.moves) or record.moves[fault.move - 1] != fault.replacement
        ):
            raise RecordError(f"fault {number}: its replacement {fault.replacement} is not move {fault.move}")
    _check_fault_order(record, states)  # after the checks above: every fault's move is one of the game's


#: The prefixes the referee puts before a hook's fault reason (goat.arena.game): no bot's reason starts so, as
#: every other reason starts with the referee's own words ("choose() raised", "answered", "replied", …).
_START_HOOK: Final = "start_game: "
_END_HOOK: Final = "end_game: "
_PHASES: Final = ("start_game", "a decision", "end_game")  #: what each of a record's faults was at, in order


def _check_fault_order(record: GameRecord, states: list[GameState]) -> None:
    """The faults in the order the referee appends them (``goat.arena.game.play_seats``), each decision's once.

    First ``start_game``'s, at move 0, by seat (each seat's hook is called once); then at most one fault per
    decision, by move number, each of the seat that was to move there; then ``end_game``'s (their reasons start
    ``"end_game: "``), by seat, all at the number of the game's last decision: its move count, or one more when a
    decision's fault forfeited it (0 when ``start_game``'s did).  A fault recorded twice would count twice against
    its bot, and faults out of order are not what the referee wrote: both are refused, naming the faults."""
    faults = record.faults
    # A fault at move 0 is start_game's (version 1 records may lack the prefix); a decision's is at move 1 or later.
    phases = [2 if f.reason.startswith(_END_HOOK) else 0 if f.move == 0 else 1 for f in faults]
    for number, (fault, phase) in enumerate(zip(faults, phases, strict=True), start=1):
        if phase == 1 and fault.reason.startswith(_START_HOOK):
            raise RecordError(f"fault {number}: start_game's at move {fault.move}, not 0")
        mover = states[fault.move - 1].to_move if phase == 1 else fault.seat  # _check_faults saw the move exists
        if mover != fault.seat:
            there = "the game was over" if mover is None else f"seat {mover} was to move"
            raise RecordError(f"fault {number}: of seat {fault.seat} at move {fault.move}, but {there} there")
        if number == 1:
            continue
        before, earlier = faults[number - 2], phases[number - 2]
        pair = f"faults {number - 1} and {number}"
        if phase < earlier:
            raise RecordError(
                f"fault {number} ({_PHASES[phase]}'s, at move {fault.move}) comes after fault {number - 1}"
                f" ({_PHASES[earlier]}'s, at move {before.move}): faults are recorded start_game's first, then the"
                " decisions' in the order of the moves, then end_game's"
            )
        if phase != earlier:
            continue
        if phase == 1 and fault.move == before.move:
            raise RecordError(f"{pair} are both for move {fault.move}: a decision has at most one fault")
        if phase == 1 and fault.move < before.move:
            raise RecordError(
                f"{pair} are out of order, at moves {before.move} and {fault.move}: a decision's faults are"
                " recorded in the order of the moves"
            )
        if phase == 2 and fault.move != before.move:
            raise RecordError(
                f"{pair} are end_game's at moves {before.move} and {fault.move}: end_game is called once, after the"
                " game's last decision"
            )
        if phase != 1 and fault.seat == before.seat:
            raise RecordError(
                f"{pair} are both {_PHASES[phase]}'s of seat {fault.seat}: a seat's {_PHASES[phase]} is called once"
                " a game"
            )
        if phase != 1 and fault.seat < before.seat:
            raise RecordError(
                f"{pair} are {_PHASES[phase]}'s of seats {before.seat} and {fault.seat}, out of order: they are"
                " recorded by seat"
            )
    if phases and phases[-1] == 2:
        forfeited = any(f.replacement is None for f, phase in zip(faults, phases, strict=True) if phase == 1)
        last = len(record.moves) + (1 if forfeited else 0)
        if faults[-1].move != last:
            raise RecordError(
                f"fault {phases.index(2) + 1}: end_game's at move {faults[-1].move}, but the game's last decision"
                f" is move {last}"
            )
