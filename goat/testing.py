"""Hypothesis strategies for Goat, and a conformance check for bots.

Install with ``pip install 'goat-cards[testing]'`` (it pulls in Hypothesis).
Every strategy here builds valid values directly: a game state is reached by
playing drawn legal moves from a drawn deal, so it is reachable by the rules,
and nothing is filtered.  Strategies are nouns, their options keyword-only.

>>> from hypothesis import given, settings
>>> import goat
>>> import goat.testing as gt
>>> @settings(max_examples=20)
... @given(gt.game_states(max_moves=30))
... def test_someone_decides(state):
...     assert state.is_over or goat.legal_moves(state)
>>> test_someone_decides()

With goat-cards installed, Hypothesis also knows the types themselves:
``st.from_type(goat.Card)``, ``st.from_type(goat.GameState)``,
``st.from_type(goat.Move)``, ``st.from_type(goat.GameResult)`` … work without
importing this module: Hypothesis imports it at start-up, through goat's ``hypothesis`` entry point.

:func:`check_strategy` is the conformance check a bot author runs in their
own tests, in the spirit of PettingZoo's ``api_test`` and OpenSpiel's
``random_sim_test``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any

from goat._core import DEALT, receiver
from goat.errors import InvalidDealError, MissingExtraError, describe_error, shown

try:
    from hypothesis import strategies as st
    from hypothesis.errors import InvalidArgument
except ImportError as error:  # pragma: no cover - exercised in a subprocess test
    raise MissingExtraError("goat.testing", "Hypothesis", "testing", error) from None

from goat.cards import DECK, Card, Suit
from goat.moves import Move, MoveKind, canonical_move
from goat.rules import legal_moves, new_game, play
from goat.scoring import GameResult, Match, score
from goat.seats import is_seat
from goat.state import MATCH_LIMIT, GameState, Trick, check_defeat
from goat.strategy import Strategy, end_game, start_game
from goat.view import PlayerView, SeenMove, SeenTrick, view

__all__ = [
    "StrategyCheckError",
    "cards",
    "check_strategy",
    "deals",
    "decks",
    "finished_games",
    "game_results",
    "game_states",
    "hands",
    "legal_moves_of",
    "matches",
    "moves",
    "suits",
]

#: Plays left in a game if from now on every lead is a single card and nobody declares.
#: 36 at the deal: the most a game can have (waits are not plays).
MAX_PLAYS = 36


def suits() -> st.SearchStrategy[Suit]:
    """A suit (R2).

    >>> import goat
    >>> from goat.testing import suits
    >>> suits().example() in set(goat.Suit)
    True
    """
    return st.sampled_from(tuple(Suit))


def cards(*, suits: Iterable[Suit] | None = None) -> st.SearchStrategy[Card]:
    """A card (R2), optionally of the given ``suits`` only.

    >>> import goat
    >>> from goat.testing import cards
    >>> cards(suits=[goat.Suit.HEARTS]).example().suit
    Suit.HEARTS
    """
    if suits is not None and (isinstance(suits, (str, Suit)) or not isinstance(suits, Iterable)):
        raise InvalidArgument(
            f"cards(suits=...) takes a collection of Suit values, e.g. [Suit.HEARTS], not {shown(suits)}"
        )
    allowed = set(Suit) if suits is None else set(suits)
    if not all(type(suit) is Suit for suit in allowed):
        raise InvalidArgument(f"cards(suits=...) takes Suit values only, not {shown(sorted(allowed, key=str))}")
    pool = tuple(card for card in DECK if card.suit in allowed)
    if not pool:
        raise InvalidArgument("cards(suits=...) needs at least one suit")
    return st.sampled_from(pool)


def hands(*, size: int | None = None) -> st.SearchStrategy[frozenset[Card]]:
    """A hand: a set of distinct cards, ``size`` of them (0–4), or any size 0–4 when ``None``.

    >>> from goat.testing import hands
    >>> len(hands(size=4).example())
    4
    """
    if size is not None and (type(size) is not int or not 0 <= size <= 4):
        raise InvalidArgument(f"a hand holds 0 to 4 cards, not size={shown(size)}")
    return _hands(size)


@st.composite
def _hands(draw: st.DrawFn, size: int | None) -> frozenset[Card]:
    count = draw(st.integers(0, 4)) if size is None else size
    return frozenset(_distinct(draw, DECK, 4)[:count])


def _distinct(draw: st.DrawFn, pool: tuple[Card, ...], count: int) -> list[Card]:
    """``count`` distinct cards of ``pool`` in ``count`` draws: a partial Fisher–Yates shuffle, nothing rejected.

    (Hypothesis's ``lists(..., unique=True)`` redraws duplicates, and draws whose number varies get thrown
    away when Hypothesis replays mutated examples; see :func:`_game_states`.)
    """
    left = list(pool)
    return [left.pop(draw(st.integers(0, len(left) - 1))) for _ in range(count)]


def decks() -> st.SearchStrategy[tuple[Card, ...]]:
    """A full deck order: the 36 cards, top first (R7).

    >>> import goat
    >>> from goat.testing import decks
    >>> sorted(decks().example()) == list(goat.DECK)
    True
    """
    return st.permutations(DECK).map(tuple)


def _dealt_positions(seat: int, dealer: int) -> list[int]:
    """The deck positions dealt to ``seat`` (R7)."""
    return [position for position in range(DEALT) if receiver(dealer, position) == seat]


@st.composite
def _deals(draw: st.DrawFn, dealer: int | None, molodka: bool, defeat: tuple[int, int]) -> GameState:
    deck = list(draw(decks()))
    dealer = draw(st.integers(0, 3)) if dealer is None else dealer
    if molodka:
        # Put four cards of one suit into one seat's hand by swapping them into
        # its dealt positions: a permutation stays a permutation, nothing is filtered.
        seat = draw(st.integers(0, 3))
        suit = draw(suits())
        chosen = _distinct(draw, tuple(card for card in DECK if card.suit is suit), 4)
        for position, card in zip(_dealt_positions(seat, dealer), chosen, strict=True):
            where = deck.index(card)
            deck[position], deck[where] = deck[where], deck[position]
    trump_position = draw(st.integers(16, 35))
    return new_game(deck=deck, trump_card=deck[trump_position], dealer=dealer, defeat=defeat)


def deals(
    *, dealer: int | None = None, molodka: bool = False, defeat: tuple[int, int] = (0, 0)
) -> st.SearchStrategy[GameState]:
    """A freshly dealt game (R7–R9) from a drawn deck, trump card and dealer.

    ``dealer`` fixes the dealer; ``molodka=True`` deals some seat four cards
    of one suit (R14); ``defeat`` is the match's score the game starts from.

    >>> from goat.testing import deals
    >>> state = deals(dealer=2).example()
    >>> state.dealer, state.leader, len(state.stock)
    (2, 3, 20)
    """
    if dealer is not None and not is_seat(dealer):
        raise InvalidArgument(f"dealer must be a seat 0–3, not {shown(dealer)}")
    try:
        check_defeat(defeat)  # the rules' one check (R19, R21), in Hypothesis's own error
    except InvalidDealError:
        raise InvalidArgument(
            f"defeat must be two even ints 0–{MATCH_LIMIT - 2}, a match's score before a game (R19, R21), not"
            f" {shown(defeat)}"
        ) from None
    _check_flag(molodka, "molodka")
    return _deals(dealer, molodka, defeat)


def _check_flag(value: object, name: str) -> None:
    """A yes-or-no option is True or False: ``molodka="no"`` would be read as yes."""
    if type(value) is not bool:
        raise InvalidArgument(f"{name} must be True or False, not {shown(value)}")


def _plays_left(state: GameState) -> int:
    """The most plays the game can still have: every later lead a single card, no molodka."""
    if state.is_over:
        return 0
    cards_left = sum(len(hand) for hand in state.hands) + len(state.stock)
    table = state.table
    if not table:
        return cards_left
    size = len(table[0].cards)
    answers_left = 4 - len(table)
    return answers_left + cards_left - answers_left * size


def _steer(state: GameState, moves: tuple[Move, ...], needed: int) -> tuple[Move, ...]:
    """The moves after which ``needed`` moves (this one included) stay possible."""
    # A single-card lead, any answer and a wait each keep this true, so it is never empty.
    return tuple(m for m in moves if 1 + _plays_left(play(state, m)) >= needed)


def _longest_game_first(move: Move) -> tuple[bool, int]:
    """Hypothesis's simplest choice is 0: make it the move that keeps the game longest.

    A single-card lead and a wait leave the most decisions to come, so shrinking leads to
    plain one-card tricks and rarely runs out of drawn choices (see :func:`_game_states`).
    """
    return (move.kind is MoveKind.MOLODKA, len(move.cards))


#: The drawn stopping point is a number below this, taken modulo the number of states the game went through.
STOPS = 1 << 12
#: Choices drawn for a game's moves, whatever it needs; a game that needs more (rare: waits) draws on.
CHOICES_PER_GAME = 48
#: Each move is chosen by a drawn number modulo the number of legal moves (at most about 40).
_CHOICE_RANGE = 1 << 10


def _move_picks(draw: st.DrawFn, budget: int) -> list[int]:
    """The numbers that choose a game's moves (see :func:`_play_picks`)."""
    return [draw(st.integers(0, _CHOICE_RANGE - 1)) for _ in range(budget)]


def _play_picks(
    draw: st.DrawFn, state: GameState, picks: list[int], *, min_moves: int = 0, max_moves: int | None = None
) -> list[GameState]:
    """Every state from ``state`` on, each move chosen by the next pick modulo the number of legal moves."""
    states = [state]
    while not state.is_over and (max_moves is None or len(states) <= max_moves):
        made = len(states) - 1
        moves = sorted(legal_moves(state), key=_longest_game_first)
        if made < min_moves:
            # Keep the game long enough: only moves after which min_moves stays reachable.
            moves = list(_steer(state, tuple(moves), min_moves - made))
        pick = picks[made] if made < len(picks) else draw(st.integers(0, _CHOICE_RANGE - 1))
        state = play(state, moves[pick % len(moves)])
        states.append(state)
    return states


@st.composite
def _game_states(draw: st.DrawFn, min_moves: int, max_moves: int | None, molodka: bool, to_end: bool) -> GameState:
    # Why every game draws the same numbers of choices: Hypothesis explores by mutating the choices of
    # earlier examples and replaying them within their old length.  When the number of draws depended on the
    # moves made (a drawn target, or a sampled_from per move), a fifth to a quarter of those replays ran
    # out of choices and were thrown away.  So the deal, the stopping point and the moves are a fixed
    # number of draws; the moves are played to the end (or to max_moves) and one of the states on the way
    # is picked, so early, middle and late states come equally often, a finished one about one time in 30.
    position = 0 if to_end else draw(st.integers(0, STOPS - 1))
    state = draw(deals(molodka=molodka))
    budget = CHOICES_PER_GAME if max_moves is None else min(max_moves, CHOICES_PER_GAME)
    states = _play_picks(draw, state, _move_picks(draw, budget), min_moves=min_moves, max_moves=max_moves)
    if to_end:
        return states[-1]
    last = len(states) - 1  # max_moves, or the end of the game if it comes first
    # Modulo, not a fraction of the game: Hypothesis draws the extremes of a range often, and the top of
    # the range would make the last (finished) state come several times as often as any other.
    return states[min_moves + position % (last - min_moves + 1)]


def game_states(
    *, min_moves: int = 0, max_moves: int | None = None, molodka: bool = False
) -> st.SearchStrategy[GameState]:
    """A state reached by playing between ``min_moves`` and ``max_moves`` drawn legal moves from a drawn deal.

    Moves include molodka declarations and waits (R14).  A game may end before
    ``max_moves``; it never ends before ``min_moves`` (at most 36: until then,
    only moves that keep the game long enough are drawn, so nothing is
    filtered).  ``molodka=True`` deals a molodka (see :func:`deals`).

    >>> from goat.testing import game_states
    >>> state = game_states(min_moves=5, max_moves=5).example()
    >>> len(state.history)
    5
    """
    if type(min_moves) is not int or not 0 <= min_moves <= MAX_PLAYS:
        raise InvalidArgument(
            f"min_moves must be 0–{MAX_PLAYS} (no game is sure to last longer), not {shown(min_moves)}"
        )
    if max_moves is not None and (type(max_moves) is not int or max_moves < min_moves):
        raise InvalidArgument(f"max_moves must be an int >= min_moves, not {shown(max_moves)}")
    _check_flag(molodka, "molodka")
    return _game_states(min_moves, max_moves, molodka, False)


def finished_games(*, molodka: bool = False) -> st.SearchStrategy[GameState]:
    """A game played to its end (R17) with drawn legal moves.

    >>> from goat.testing import finished_games
    >>> finished_games().example().is_over
    True
    """
    _check_flag(molodka, "molodka")
    return _game_states(0, None, molodka, True)


def game_results(*, molodka: bool = False) -> st.SearchStrategy[GameResult]:
    """The result of a finished game (R18–R20): only results real games produce.

    >>> from goat.testing import game_results
    >>> sum(game_results().example().points)
    120
    """
    return finished_games(molodka=molodka).map(score)


def legal_moves_of(state: GameState) -> st.SearchStrategy[Move]:
    """One of the legal moves of ``state``.

    >>> import goat
    >>> from goat.testing import legal_moves_of
    >>> state = goat.new_game(seed=1)
    >>> legal_moves_of(state).example() in goat.legal_moves(state)
    True
    """
    moves = legal_moves(state)
    if not moves:
        raise InvalidArgument("legal_moves_of(state): the game is over, there is no legal move")
    return st.sampled_from(moves)


@st.composite
def _moves(draw: st.DrawFn) -> Move:
    kind = draw(st.sampled_from(tuple(MoveKind)))
    size = draw(st.integers(1, 4))
    held = _distinct(draw, DECK, 4)[:size]
    return Move(kind, draw(st.integers(0, 3)), () if kind is MoveKind.WAIT else held)


def moves() -> st.SearchStrategy[Move]:
    """A well-formed move, legal or not: any seat, any kind, 1–4 distinct cards (none for a wait).

    The space :func:`goat.play` must judge; see :func:`legal_moves_of` for legal ones.

    >>> import goat
    >>> from goat.testing import moves
    >>> isinstance(moves().example(), goat.Move)
    True
    """
    return _moves()


@st.composite
def _matches(draw: st.DrawFn, min_games: int, max_games: int) -> Match:
    # Only the games played are drawn: a match ends at 12 defeat-scores (R21), in a handful of games, so that a
    # large max_games costs nothing until games are played (drawing every game up to it, played or not, made
    # max_games=30 fail Hypothesis's health check on the size of its input).
    match = Match(first_dealer=draw(st.integers(0, 3)))
    target = draw(st.integers(min_games, max_games))
    while len(match.results) < target and not match.is_over:
        deck = draw(decks())
        trump_position = draw(st.integers(16, 35))
        picks = _move_picks(draw, CHOICES_PER_GAME)
        state = match.new_game(deck=deck, trump_card=deck[trump_position])
        match = match.record(_play_picks(draw, state, picks)[-1])
    return match


def matches(*, min_games: int = 0, max_games: int = 6) -> st.SearchStrategy[Match]:
    """A match (R21, R22) of games dealt by the match and played with drawn legal moves.

    Between ``min_games`` and ``max_games`` games are played, fewer if the
    match ends first.

    >>> from goat.testing import matches
    >>> match = matches(max_games=2).example()
    >>> len(match.results) <= 2
    True
    """
    if type(min_games) is not int or type(max_games) is not int or not 0 <= min_games <= max_games:
        raise InvalidArgument(f"need 0 <= min_games <= max_games, not {shown(min_games)}, {shown(max_games)}")
    return _matches(min_games, max_games)


# --- check_strategy --------------------------------------------------------------


class StrategyCheckError(AssertionError):
    """A bot failed :func:`check_strategy`; the message says which game, seat and move."""


def _call(where: str, what: str, call: Callable[..., Any], *args: Any) -> Any:
    """``call(*args)``, a bot's code, as the referee calls it: an ``Exception`` is a :class:`StrategyCheckError`
    saying ``where`` it was (e.g. ``"game 1, seat 2"``); ``KeyboardInterrupt`` and ``SystemExit`` go on up."""
    try:
        return call(*args)
    except Exception as error:
        raise StrategyCheckError(f"{where}: {what}() raised {describe_error(error)}") from None


def _choose(bot: Strategy, seen: PlayerView, legal: tuple[Move, ...]) -> object:
    return bot.choose(seen, legal)  # the lookup too: a property that raises is the bot's error


def _type_name(value: object) -> str:
    return type(value).__name__


def _play_checked(bots: list[Strategy], state: GameState, game: int) -> tuple[GameState, list[Move]]:
    chosen: list[Move] = []
    for seat, bot in enumerate(bots):
        _call(f"game {game}, seat {seat}", "start_game", start_game, bot, view(state, seat))
    while not state.is_over:
        decider = state.to_move
        assert decider is not None
        seat = decider
        seen = view(state, seat)
        legal = seen.legal_moves
        where = f"game {game}, move {len(chosen) + 1}, seat {seat}"
        answer = _call(where, "choose", _choose, bots[seat], seen, legal)
        if type(answer) is not Move:  # its real type: a subclass or a look-alike is no Move
            raise StrategyCheckError(f"{where}: choose() returned a {_type_name(answer)}, not a goat.Move")
        move = canonical_move(answer, legal)  # by value, as the referee looks it up
        if move is None:
            legal_text = ", ".join(map(str, legal))
            raise StrategyCheckError(
                f"{where}: choose() returned {_move_text(answer)}, which is not legal; legal: {legal_text}"
            )
        chosen.append(move)
        state = play(state, move)
    result = score(state)
    for seat, bot in enumerate(bots):
        _call(f"game {game}, seat {seat}", "end_game", end_game, bot, view(state, seat), result)
    return state, chosen


def _move_text(move: Move) -> str:
    try:
        return str(move)
    except Exception:  # a move made by hand with fields that are no card or seat
        return "a move that cannot be written down"


def _run(factory: Callable[..., Any], games: int, seed: int, options: dict[str, Any]) -> list[list[Move]]:
    bots: list[Strategy] = []
    try:
        for seat in range(4):
            bots.append(_build(factory, seed * 4 + seat, options, seat))
        match = Match()
        runs = []
        for game in range(1, games + 1):
            if match.is_over:
                match = Match(first_dealer=game % 4)
            state, chosen = _play_checked(bots, match.new_game(seed=seed * 100_003 + game), game)
            match = match.record(state)
            runs.append(chosen)
        return runs
    finally:
        _close_sealed(bots)


def _build(factory: Callable[..., Any], seed: int, options: dict[str, Any], seat: int) -> Strategy:
    try:
        bot: Strategy = factory(seed=seed, **options)
    except Exception as error:
        raise StrategyCheckError(f"the factory raised {describe_error(error)}") from None
    try:
        fits = isinstance(bot, Strategy)  # looks its attributes up: the bot's own code may run, and raise
    except Exception as error:
        raise StrategyCheckError(
            f"the factory made a {_type_name(bot)} for seat {seat}, whose attributes raise {describe_error(error)}"
        ) from None
    if not fits:
        raise StrategyCheckError(
            f"the factory made a {_type_name(bot)} for seat {seat}, which has no choose(view, legal)"
        )
    return bot


def _close_sealed(bots: list[Strategy]) -> None:
    """End the child processes of sealed bots (``exec:``), as the arena does at the end of a match.  Only a
    :class:`~goat.arena.sealed.ProcessStrategy` has one, and its module is loaded if any was made: looked up
    there, so that this module does not import the arena."""
    sealed = sys.modules.get("goat.arena.sealed")
    if sealed is None:
        return
    for bot in bots:
        if isinstance(bot, sealed.ProcessStrategy):
            bot.close()


def check_strategy(strategy_factory: Callable[..., Any], *, games: int = 10, seed: int = 0, **options: Any) -> None:
    """Check that a bot plays by the rules; raise :class:`StrategyCheckError` saying how it does not.

    Plays ``games`` games of a match with the bot in every seat (each seat its
    own instance, made by ``strategy_factory(seed=..., **options)``, kept for
    all the games as an arena would), and fails if the bot

    - returns something that is not one of the legal moves it was given,
    - raises an ``Exception`` from ``choose``, ``start_game`` or ``end_game``
      (``KeyboardInterrupt`` and ``SystemExit`` go on up, as in the arena), or
    - is not deterministic: new instances with the same seeds, shown the same
      games, must choose the same moves.

    >>> from goat.testing import check_strategy
    >>> class FirstMove:
    ...     def choose(self, view, legal):
    ...         return legal[0]
    >>> check_strategy(lambda seed=None: FirstMove(), games=2)
    """
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be a positive int, not {shown(games)}")
    if type(seed) is not int:  # it seeds the bots and the deals: a float or text seeds nothing reproducibly
        raise TypeError(f"check_strategy(): seed must be an int, not {shown(seed)}")
    if not callable(strategy_factory):
        raise TypeError(f"check_strategy() takes a strategy factory, not {shown(strategy_factory)}")
    first = _run(strategy_factory, games, seed, options)
    second = _run(strategy_factory, games, seed, options)
    for game, (a, b) in enumerate(zip(first, second, strict=True), start=1):
        for number, (move_a, move_b) in enumerate(zip(a, b, strict=False), start=1):
            if move_a != move_b:
                raise StrategyCheckError(
                    f"not deterministic under the same seed: game {game}, move {number}: "
                    f"the first run chose {move_a}, the second {move_b}"
                )
        if len(a) != len(b):  # pragma: no cover - equal moves give equal games
            raise StrategyCheckError(f"not deterministic under the same seed: game {game} differs in length")


def _register_types() -> None:
    """Make ``st.from_type`` draw goat's types with this module's strategies.  Run on import, which Hypothesis does
    at start-up through goat's ``hypothesis`` entry point, or the user's import when its plugins are off
    (``HYPOTHESIS_NO_PLUGINS``)."""
    for kind, strategy in (
        (Card, cards()),
        (Suit, suits()),
        (Move, moves()),
        (GameState, game_states()),
        (GameResult, game_results()),
        (Match, matches()),
    ):
        st.register_type_strategy(kind, strategy)

    def views(state: GameState) -> st.SearchStrategy[PlayerView]:
        return st.integers(0, 3).map(lambda seat: view(state, seat))

    st.register_type_strategy(PlayerView, game_states().flatmap(views))
    # The parts of a finished game (which has three tricks or more, R17), as the engine and the views make them:
    # without these, from_type would call the constructors with guessed arguments, which they refuse.
    finished = finished_games()
    seen = finished.flatmap(views)
    st.register_type_strategy(Trick, finished.flatmap(lambda state: st.sampled_from(state.tricks)))
    st.register_type_strategy(SeenTrick, seen.flatmap(lambda seen: st.sampled_from(seen.tricks)))
    st.register_type_strategy(SeenMove, seen.flatmap(lambda seen: st.sampled_from(seen.history)))


_register_types()
