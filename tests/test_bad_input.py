"""Bad input to any public function gets a clear error that names what was wrong, never a traceback from deep
inside: every argument of every public entry point, replaced in turn by values of the wrong type or shape."""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from typing import Any

import attrs
import pytest

import goat
import goat.plugins
from goat import Card, GameResult, Match, Move, MoveKind, Suit, arena, records, svg
from goat.adapters import encoding

STATE = goat.new_game(seed=1)
FINISHED = goat.new_game(seed=1)
while not FINISHED.is_over:
    FINISHED = goat.play(FINISHED, goat.legal_moves(FINISHED)[0])
RESULT = goat.score(FINISHED)
RECORD = records.from_state(FINISHED, seed=1)
LEAD = goat.legal_moves(STATE)[0]
TRICK = (
    Move.from_str("0 lead 9H"),
    Move.from_str("1 beat 10H"),
    Move.from_str("2 pass 6C"),
    Move.from_str("3 beat 6S"),
)
RANDOM = goat.load_strategy("random", seed=1)

# Python's own messages for a wrong type met deep inside: none of them says which argument was wrong.
GENERIC = (
    "object is not iterable",
    "unsupported operand",
    "values to unpack",
    "not subscriptable",
    "has no attribute",
    "object is not callable",
    "not supported between",
    "argument of type",
    "object cannot be interpreted",
    "unhashable type",
    "can't multiply",
    "must be real number",
    "object of type",
    "Attribute(name=",  # attrs' own validators: a printed tuple
)

# (name, function, valid keyword arguments)
CALLS: list[tuple[str, Callable[..., Any], dict[str, Any]]] = [
    ("Card", Card, {"rank": goat.Rank.TEN, "suit": Suit.HEARTS}),
    ("Card.from_str", Card.from_str, {"text": "10H"}),
    ("Card.from_index", Card.from_index, {"index": 3}),
    ("Suit.from_str", Suit.from_str, {"text": "H"}),
    ("Rank.from_str", goat.Rank.from_str, {"text": "10"}),
    ("cards", goat.cards, {"text": "10H QS"}),
    ("beats", goat.beats, {"a": Card.from_str("10H"), "b": Card.from_str("9H"), "trump": Suit.CLUBS}),
    ("beats_set", goat.beats_set, {"new": goat.cards("10H"), "top": goat.cards("9H"), "trump": Suit.CLUBS}),
    ("Move", Move, {"kind": MoveKind.LEAD, "seat": 1, "cards": goat.cards("10H")}),
    ("Move.from_str", Move.from_str, {"text": "1 lead 10H"}),
    ("new_game", goat.new_game, {"seed": 1, "dealer": 0, "defeat": (0, 0)}),
    ("new_game(deck)", goat.new_game, {"deck": goat.DECK, "trump_card": "9S", "dealer": 0}),
    ("legal_moves", goat.legal_moves, {"state": STATE}),
    ("play", goat.play, {"state": STATE, "move": LEAD}),
    ("trick_winner", goat.trick_winner, {"plays": TRICK, "trump": Suit.SPADES}),
    ("score", goat.score, {"state": FINISHED}),
    ("defeat_scores", goat.defeat_scores, {"points": 30, "tricks": 2}),
    (
        "GameResult",
        GameResult,
        {
            "points": RESULT.points,
            "tricks": RESULT.tricks,
            "defeat": RESULT.defeat,
            "balls": RESULT.balls,
            "winner": RESULT.winner,
            "last_trick_winner": RESULT.last_trick_winner,
        },
    ),
    ("Match", Match, {"results": (), "first_dealer": 0}),
    ("Match.new_game", Match().new_game, {"seed": 1}),
    ("Match.record", Match().record, {"state": FINISHED}),
    ("view", goat.view, {"state": STATE, "seat": 1}),
    ("load_strategy", goat.load_strategy, {"name": "random"}),
    ("strategy_factory", goat.strategy_factory, {"name": "random"}),
    ("register_strategy", goat.register_strategy, {"name": "bad-input-check", "factory": lambda **_: RANDOM}),
    ("unregister_strategy", goat.unregister_strategy, {"name": "bad-input-never-registered"}),
    ("arena.play_game", arena.play_game, {"strategies": [RANDOM] * 4, "seed": 1}),
    ("arena.play_match", arena.play_match, {"strategies": [RANDOM] * 4, "seed": 1}),
    ("records.dumps", records.dumps, {"record": RECORD}),
    ("records.loads", records.loads, {"text": records.dumps(RECORD)}),
    ("records.replay", records.replay, {"record": RECORD}),
    ("records.from_state", records.from_state, {"state": FINISHED}),
    ("sample_world", goat.sample_world, {"view": goat.view(STATE, 1), "rng": __import__("random").Random(1)}),
    # Found by a second review: entry points beyond the core that had no checks of their own.
    ("svg.card", svg.card, {"value": Card.from_str("AS"), "trump": Suit.SPADES}),
    ("svg.hand", svg.hand, {"cards": goat.cards("AS KS"), "trump": Suit.SPADES}),
    ("svg.table", svg.table, {"state": STATE, "bottom": 1}),
    ("svg.view", svg.view, {"seen": goat.view(STATE, 1)}),
    ("svg.trick", svg.trick, {"plays": TRICK, "trump": Suit.SPADES, "viewer": 1}),
    ("records.write", records.write, {"fp": io.StringIO(), "records": [RECORD]}),
    ("records.read", lambda fp: list(records.read(fp)), {"fp": io.StringIO(records.dumps(RECORD))}),
    ("records.read_headers", lambda fp: list(records.read_headers(fp)), {"fp": io.StringIO(records.dumps(RECORD))}),
    ("records.result_to_json", records.result_to_json, {"result": RESULT}),
    ("records.from_state(forfeit_by)", records.from_state, {"state": STATE, "forfeit_by": None}),
    ("arena.wilson_interval", arena.wilson_interval, {"successes": 3, "trials": 5, "z": 1.96}),
    ("encoding.observation_of", encoding.observation_of, {"state": STATE, "seat": 1}),
    (
        "records.GameRecord",
        records.GameRecord,
        {
            "deck": RECORD.deck,
            "trump_card": RECORD.trump_card,
            "dealer": RECORD.dealer,
            "moves": RECORD.moves,
            "result": RECORD.result,
            "seed": 1,
            "defeat": (0, 0),
        },
    ),
]

HOSTILE: list[object] = [
    None, 5, -1, 10**30, 10**5000, 2.5, math.nan, math.inf, "", "zz", [], (1, 2, 3), {}, object(), True, b"10H",
    "X" * 100_000,
    [Card.from_str("6C")] * 2,
]  # fmt: skip


def _cases() -> list[Any]:
    cases = []
    for name, function, valid in CALLS:
        for argument in valid:
            for bad in HOSTILE:
                shown = "object()" if type(bad) is object else goat.errors.shown(bad, 24)  # no address: ids stay fixed
                cases.append(pytest.param(function, valid, argument, bad, id=f"{name}-{argument}={shown}"))
    return cases


def _error_of(function: Callable[..., Any], arguments: dict[str, Any]) -> BaseException | None:
    try:
        function(**arguments)
    except (TypeError, ValueError, KeyError, goat.GoatError) as error:
        return error
    finally:
        if goat.plugins.registered_factory("bad-input-check") is not None:
            goat.unregister_strategy("bad-input-check")
    return None


@pytest.mark.parametrize(("function", "valid", "argument", "bad"), _cases())
def test_a_bad_argument_is_named_in_a_clear_error(
    function: Callable[..., Any], valid: dict[str, Any], argument: str, bad: object
) -> None:
    # Any other exception (AttributeError, IndexError, RecursionError …) fails the test by itself.
    error = _error_of(function, {**valid, argument: bad})
    if error is not None:
        message = str(error)
        assert not any(generic in message for generic in GENERIC), f"{type(error).__name__}: {message}"
        assert message.strip(), f"an empty {type(error).__name__}"
        # Short whatever it was given (found by a review: a megabyte of text came back whole in the message) …
        assert len(message) < 1000, f"{type(error).__name__} of {len(message)} characters"
        # … and a value error of the rules, a parse or a seat is goat's own, so that ``except goat.GoatError``
        # catches every one (the arena's settings, on_fault and time_limit, are plain ValueErrors).
        if isinstance(error, ValueError) and not function.__module__.startswith("goat.arena"):
            assert isinstance(error, goat.GoatError), f"{type(error)}: {message}"


# --- values no game can have: refused, not only values of the wrong type (found by a review) ---------------


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (((0, 120), (0, 9), (4, 0), False, 1, 3), "0 points and 0 tricks gains 6"),  # R19: no trick, 6
        (((20, 100), (0, 9), (4, 0), False, 1, 1), "20 points without a trick"),
        (((0, 120), (3, 6), (6, 0), False, 1, 3), "0 points and 3 tricks gains 4"),  # 9 tricks: played out
        (((50, 70), (3, 6), (4, 0), False, 1, 3), "50 points and 3 tricks gains 2"),
        (((60, 60), (0, 9), (0, 0), True, None, 1), "60 points without a trick"),
        (((40, 80), (1, 1), (2, 0), False, 1, 1), "3–9 tricks"),  # 36 cards need three tricks at least
    ],
)
def test_a_game_result_no_game_or_forfeit_can_have_is_refused(fields: tuple[Any, ...], message: str) -> None:
    with pytest.raises(goat.ScoringError, match=message):
        GameResult(*fields)


def test_results_of_played_and_forfeited_games_are_accepted() -> None:
    GameResult((0, 120), (0, 0), (6, 0), False, 1, 1)  # forfeited before any trick
    GameResult((0, 120), (2, 3), (6, 0), False, 1, 1)  # forfeited after five tricks: 0 : 120 all the same
    GameResult((0, 120), (3, 6), (4, 0), False, 1, 3)  # played out: three tricks of no points
    assert records.forfeit_result(STATE, 2).defeat == (records.FORFEIT_DEFEAT, 0)


def test_a_match_cannot_hold_games_after_its_end() -> None:
    six = GameResult((0, 120), (0, 9), (6, 0), False, 1, 3)
    assert Match(results=[six, six]).is_over
    with pytest.raises(goat.ScoringError, match="game 3 follows the end of the match"):
        Match(results=[six, six, six])


def test_no_game_is_dealt_once_the_match_is_over() -> None:
    with pytest.raises(goat.InvalidDealError, match="a match ends at 12"):
        goat.new_game(seed=1, defeat=(13, 4))
    assert goat.new_game(seed=1, defeat=(10, 10)).defeat == (10, 10)


def test_a_move_given_a_card_twice_is_refused_as_its_text_is() -> None:
    six = Card.from_str("6C")
    with pytest.raises(goat.InvalidMoveError, match="each card once"):
        Move(MoveKind.LEAD, 1, [six, six])
    with pytest.raises(goat.InvalidMoveError, match="a card appears twice"):
        Move.from_str("1 lead 6C 6C")
    assert Move(MoveKind.LEAD, 1, "6C") == Move(MoveKind.LEAD, 1, frozenset({six}))


def test_a_deck_without_an_order_of_its_own_is_refused() -> None:
    # Found by a review: a set (or a dict) of the 36 cards dealt in the order of the cards' hashes.
    with pytest.raises(goat.InvalidDealError, match="in order"):
        goat.new_game(deck=set(goat.DECK), trump_card="9S")
    with pytest.raises(goat.InvalidDealError, match="in order"):
        goat.new_game(deck=dict.fromkeys(goat.DECK), trump_card="9S")


def test_a_record_is_measured_in_bytes() -> None:
    # Found by a review: the limit counted characters, so a text of four-byte characters could be four times it.
    with pytest.raises(records.RecordError, match="bytes, more than"):
        records.loads('"' + "😀" * (records.MAX_RECORD_BYTES // 4 + 1) + '"')


def test_tricks_and_seen_moves_refuse_what_no_game_has_and_a_tricks_repr_pastes_back() -> None:
    # Found by a review: Trick([m], "x") was made (and unhashable), SeenMove("lead", 9, -1, [1]) too, whose str()
    # then failed; a trick's repr dropped the comma of a one-tuple, so it did not paste back.
    state = FINISHED
    trick = state.tricks[0]
    assert eval(repr(trick), vars(goat)) == trick
    with pytest.raises(TypeError, match="a tuple of Move objects"):
        goat.Trick(list(trick.plays), trick.winner)  # type: ignore[arg-type]
    with pytest.raises(goat.InvalidTrickError, match="four plays"):
        goat.Trick(trick.plays[:1], trick.winner)
    with pytest.raises(goat.InvalidTrickError, match="winner"):
        goat.Trick(trick.plays, "x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="kind is a MoveKind"):
        goat.SeenMove("lead", 1, 1, frozenset())  # type: ignore[arg-type]
    with pytest.raises(goat.InvalidMoveError, match="seat"):
        goat.SeenMove(MoveKind.LEAD, 9, 1, frozenset(goat.cards("6C")))
    with pytest.raises(goat.InvalidMoveError, match="1-4 cards"):
        goat.SeenMove(MoveKind.LEAD, 1, -1, frozenset())
    with pytest.raises(goat.InvalidMoveError, match="shows all its 2 cards"):
        goat.SeenMove(MoveKind.LEAD, 1, 2, frozenset(goat.cards("6C")))
    assert goat.SeenMove(MoveKind.PASS, 2, 2, frozenset()).hidden  # another seat's face-down pass


def test_a_text_where_a_list_is_expected_is_not_split_into_its_characters() -> None:
    # Found by a review: run_tournament("greedy") entered six one-letter strategies, names="abcd" four names.
    with pytest.raises(TypeError, match="a list of entrants"):
        arena.run_tournament("greedy", matches=2, seed=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="four names"):
        arena.play_game([RANDOM] * 4, seed=1, names="abcd")
    with pytest.raises(TypeError, match="four names"):
        records.from_state(STATE, seed=1, players="abcd")


def test_a_seed_is_what_a_record_can_hold_and_an_option_nested_too_deeply_is_a_clear_error() -> None:
    # Found by a review: a seed of 80 digits or more made records that loads refused (or dumps could not write),
    # and an option nested 100,000 deep raised a RecursionError from inside the spec's reading.
    with pytest.raises(ValueError, match="at most 79 digits"):
        arena.play_game([RANDOM] * 4, seed=10**79)
    with pytest.raises(records.RecordError, match="at most 79 digits"):
        records.from_state(STATE, seed=10**79)
    with pytest.raises(goat.StrategyNameError, match="nested too deeply"):
        goat.load_strategy("ismcts[iterations=" + "[" * 100_000 + "]")


def test_a_state_made_by_hand_must_be_a_position_of_a_game() -> None:
    # Found by a review: GameState((1, 2, 3)) and attrs.evolve(state, core=None) were made, and legal_moves, score
    # and view of them failed deep inside (IndexError, TypeError).  The engine's own states are made past
    # __init__ (goat.state.state_of), so this costs play nothing.
    state = goat.play(goat.new_game(seed=3), goat.legal_moves(goat.new_game(seed=3))[0])
    assert attrs.evolve(state) == state  # a real position is taken
    core = state.core
    for bad in [(1, 2, 3), None, (*core[:-1], (1,)), (*core[:3], True, *core[4:]), (*core[:2], 9, *core[3:])]:
        with pytest.raises(goat.InvalidDealError, match="a GameState holds a position of a game"):
            goat.GameState(bad)  # type: ignore[arg-type]
    with pytest.raises(goat.InvalidDealError):
        attrs.evolve(state, core=None)


class _LooksLikeAnInt(int):
    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return int

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = int.__hash__


def test_a_view_made_by_hand_must_have_fields_a_view_has() -> None:
    # Found by a review: PlayerView(*["x"] * 13) was made; an evolved view with hand=[1, 2] was unhashable and
    # sample_world and svg.view failed on it with AttributeError; one with seat=9 failed with IndexError.
    seen = goat.view(goat.new_game(seed=3), 1)
    assert attrs.evolve(seen) == seen
    for change, said in [
        ({"hand": [1, 2]}, "hand is a frozenset of Card"),
        ({"seat": 9}, "seat must be a seat"),
        ({"seat": _LooksLikeAnInt(2)}, "seat must be a seat"),  # its __class__ says int; its type does not
        ({"hand": frozenset()}, "holds 0 cards, but its hand_sizes say 4"),
        ({"legal_moves": list(seen.legal_moves)}, "legal_moves are a tuple of seat 1's Move"),
        ({"stock_size": 99}, "stock_size is an int 0-20"),
        ({"defeat": (0, -1)}, "defeat must be two non-negative ints"),
        ({"defeat": (10**400, 0)}, "no game is dealt at"),  # R21: a match ends at 12
        ({"defeat": (3, 0)}, "even"),  # R19: a game adds 0, 2, 4 or 6
    ]:
        with pytest.raises(goat.InvalidViewError, match=said):
            attrs.evolve(seen, **change)
    with pytest.raises(goat.InvalidViewError):
        goat.PlayerView(*["x"] * 13)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["10\u041d", "10\u0421", "\u0410S"])  # Cyrillic En, Es, A: as a Russian keyboard types
def test_a_cyrillic_look_alike_is_named_in_the_error(text: str) -> None:
    # Found by a review: "not a card: '10Н'" read exactly like valid text.
    with pytest.raises(goat.InvalidCardError, match=r"letters that are not Latin: .* \(cyrillic capital letter"):
        goat.Card.from_str(text)
    with pytest.raises(goat.InvalidMoveError, match="cyrillic capital letter"):
        goat.Move.from_str(f"1 lead {text}")


def test_a_name_in_the_wrong_case_is_suggested() -> None:
    # Found by a review: 'Greedy' got "did you mean 'greedy'?", 'GREEDY' nothing.
    with pytest.raises(goat.StrategyNameError, match="did you mean 'greedy'"):
        goat.load_strategy("GREEDY")


def test_a_state_of_a_deeply_nested_tuple_is_refused_without_recursing() -> None:
    nested: object = None  # found by a review: a RecursionError, before the check's own bound
    for _ in range(5000):
        nested = (nested,)
    with pytest.raises(goat.InvalidDealError):
        goat.GameState(nested)  # type: ignore[arg-type]


def test_an_observation_from_no_seat_is_refused_not_taken_from_another() -> None:
    # -1 indexed the hands from the end: seat 3's observation came back as seat -1's.
    for bad in (-1, 4, True, 2**63, 1.0):
        with pytest.raises(goat.InvalidSeatError, match="observing seat"):
            encoding.observation_of(STATE, bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="GameState"):
        encoding.observation_of(goat.view(STATE, 1), 1)  # type: ignore[arg-type]


def test_bounds_beyond_what_can_run_are_refused_before_any_work() -> None:
    # Each of these used to start and then fail deep inside, hang, or blame the bot for every game.
    from goat.arena.sandbox import Limits
    from goat.batch import random_playouts

    for field in ("memory_mb", "cpu_seconds", "processes"):
        for bad in (0, 2**31, 2**63, 1.5, True):
            with pytest.raises(ValueError, match=field):
                Limits(**{field: bad})  # type: ignore[arg-type]
        too_many: dict[str, Any] = {field: 2**44}
        with pytest.raises(ValueError, match=field):
            arena.ProcessStrategy(["true"], **too_many)
    with pytest.raises(ValueError, match="matches must be an even int from 2 to"):
        arena.run_tournament(["random", "greedy"], matches=2**40, seed=1, isolation="none")
    with pytest.raises(goat.plugins.StrategyLoadError, match="iterations must be an int from 1 to"):
        goat.load_strategy("ismcts[iterations=9223372036854775808]")
    with pytest.raises(ValueError, match=r"time_limit must be a number of seconds from 0\.001"):
        arena.play_game([goat.load_strategy("random") for _ in range(4)], seed=1, time_limit=1e-320)
    beyond: list[dict[str, Any]] = [{"n": 2, "seed": 2**31}, {"n": 2**33}]
    for arguments in beyond:
        with pytest.raises(ValueError, match="at most"):
            random_playouts(**arguments)


def test_numpy_numbers_are_numbers_through_to_the_search() -> None:
    numpy = pytest.importorskip("numpy")
    bot = goat.load_strategy("ismcts", seed=1, worlds="weighted", time_ms=numpy.float64(5))
    state = goat.new_game(seed=1)
    seen = goat.view(state, state.to_move)  # type: ignore[arg-type]
    assert bot.choose(seen, seen.legal_moves) in seen.legal_moves  # the deadline was an np.float64: TypeError


def test_records_hold_only_defeat_scores_a_game_is_dealt_at() -> None:
    record = records.from_state(goat.new_game(seed=1))
    for defeat in ((12, 0), (3, 0), (10**400, 0)):
        with pytest.raises(records.RecordError, match="defeat-scores"):
            attrs.evolve(record, defeat=defeat)
    for seat in (-1, 7, 1.0):  # seat % 2 made any number a team
        with pytest.raises(goat.InvalidSeatError, match="forfeit_result"):
            records.forfeit_result(STATE, seat)  # type: ignore[arg-type]
