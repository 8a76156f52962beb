"""The bot protocol: the JSON forms round-trip exactly, every message the referee sends and every reply of
goat's own protocol bot validates against the shipped JSON Schemas, and malformed input is a ProtocolError."""

from __future__ import annotations

import contextlib
import io
import json
import math
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import goat
import goat.testing as gt
from goat import arena
from goat.arena import protocol
from goat.arena.protocol import ProtocolError
from goat.arena.sealed import ProcessStrategy
from goat.errors import InvalidMoveError
from tests.conftest import random_game

jsonschema = pytest.importorskip("jsonschema")

RECORDER = Path(__file__).resolve().parent / "protocol_bots" / "recorder.py"


def validator(name: str) -> Any:
    schema = protocol.schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)  # no registry: each schema carries what it refers to


@given(st.from_type(goat.PlayerView))
def test_a_view_round_trips_exactly_and_validates(seen: goat.PlayerView) -> None:
    data = protocol.view_to_json(seen)
    validator("view.json").validate(data)
    assert protocol.view_from_json(json.loads(json.dumps(data))) == seen
    # the text the referee sends is compact JSON, exactly as json.dumps writes what it holds
    assert protocol.view_text(seen) == json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def read_back(view: goat.PlayerView) -> goat.PlayerView:
    """The view that the text written of ``view`` stands for, as the protocol's reader reads it."""
    return protocol.view_from_json(json.loads(protocol.view_text(view)))


def as_made(view: goat.PlayerView) -> goat.PlayerView:
    """``view`` with its lists as tuples, as the constructor makes a view (one made by hand may hold lists)."""
    import attrs

    fields = {field.name: getattr(view, field.name) for field in attrs.fields(goat.PlayerView)}
    return goat.PlayerView(**{name: tuple(v) if type(v) is list else v for name, v in fields.items()})


def lists_of(view: goat.PlayerView) -> dict[str, Any]:
    """The lists of ``view`` (tricks, history, legal moves) as JSON holds them, written afresh."""
    tricks = [{"plays": [str(play) for play in trick.plays], "winner": trick.winner} for trick in view.tricks]
    return {
        "tricks": tricks,
        "history": [str(m) for m in view.history],
        "legal_moves": list(map(str, view.legal_moves)),
    }


def written_lists(view: goat.PlayerView) -> dict[str, Any]:
    """The lists of ``view`` as the referee writes them (a view made by hand may be one no game shows, which the
    reader would refuse: the writer writes it all the same)."""
    data = json.loads(protocol.view_text(view))
    return {name: data[name] for name in ("tricks", "history", "legal_moves")}


def test_views_written_one_after_another_are_each_written_whole() -> None:
    # The writer extends the last history it wrote for a seat: along games, interleaved, and going back to
    # earlier positions or to another game, every text must still be the view's own.
    games = []
    for seed in (1, 2):
        state, states = goat.new_game(seed=seed), []
        while not state.is_over:
            states.append(state)
            state = goat.play(state, goat.legal_moves(state)[seed % len(goat.legal_moves(state))])
        games.append([*states, state])
    order = [s for pair in zip(games[0], games[1], strict=False) for s in pair]  # two games, interleaved
    order += games[0][::-3] + games[1][5:9] + games[0][:4]  # back to earlier positions
    for state in order:
        for seat in range(4):
            seen = goat.view(state, seat)
            assert read_back(seen) == seen


def _by_hand(seen: goat.PlayerView, **fields: Any) -> goat.PlayerView:
    """A copy of ``seen`` with ``fields`` set past the constructor's checks, as a hostile caller could."""
    import copy

    made = copy.copy(seen)
    for name, value in fields.items():
        object.__setattr__(made, name, value)
    return made


def test_a_view_whose_history_is_a_list_is_written_as_it_is_now() -> None:
    # A view made by hand (past its constructor, which refuses a list) may hold a list, which can change after it
    # was written: each text is the view's own.
    import attrs

    state = goat.new_game(seed=1)
    for _ in range(6):
        state = goat.play(state, goat.legal_moves(state)[0])
    seen = goat.view(state, 0)
    history = list(seen.history[:3])
    with pytest.raises(goat.InvalidViewError, match="history are a tuple of SeenMove"):
        attrs.evolve(seen, history=history)
    by_hand = _by_hand(seen, history=history)
    protocol.view_text(by_hand)
    history.extend(seen.history[3:])
    assert json.loads(protocol.view_text(by_hand))["history"] == [str(move) for move in seen.history]
    assert read_back(by_hand) == seen


def test_a_view_of_new_tuples_of_the_same_plays_and_tricks_is_written_whole() -> None:
    # The referee continues the history, tricks and legal moves it wrote last for a seat when the view's tuples
    # begin with the same objects: a view with fresh tuples of the same objects, or hand-made lists that change
    # after they were written, or a mixed order of seats and states, is written whole: it reads back as it is now.
    import attrs

    state = goat.new_game(seed=4)
    rng = random.Random(4)
    while len(state.tricks) < 3:
        state = goat.play(state, rng.choice(goat.legal_moves(state)))
    seen = goat.view(state, state.to_move)
    copies = attrs.evolve(
        seen, history=(*seen.history,), tricks=(*seen.tricks,), legal_moves=(*seen.legal_moves,)
    )  # new tuples of the same objects
    assert copies.history is not seen.history and copies.tricks is not seen.tricks
    tricks = list(seen.tricks[:1])
    by_hand = _by_hand(seen, tricks=tricks, legal_moves=list(seen.legal_moves[:1]))
    for view in (seen, copies, seen, by_hand):
        assert written_lists(view) == lists_of(view)
    assert read_back(copies) == seen
    tricks.extend(seen.tricks[1:])
    assert written_lists(by_hand) == lists_of(by_hand)
    legal = list(seen.legal_moves)
    assert protocol.notation_list(legal) == json.dumps([str(m) for m in legal], separators=(",", ":"))
    legal.pop()
    assert protocol.notation_list(legal) == json.dumps([str(m) for m in legal], separators=(",", ":"))
    assert protocol.notation_list(seen.legal_moves) == protocol.notation_list((*seen.legal_moves,))


def test_a_view_made_by_hand_is_written_as_json_would_write_it() -> None:
    # Found by a hostile review: True as a seat or a winner was written "True" (not JSON), a trick whose plays are
    # a list was written as it was the first time, and a hand was found by equality (so a card that lies in its
    # __eq__ got another hand's text).
    import attrs

    state = goat.new_game(seed=4)
    rng = random.Random(4)
    while len(state.tricks) < 2:
        state = goat.play(state, rng.choice(goat.legal_moves(state)))
    seen = goat.view(state, 1)
    plays = list(seen.tricks[0].plays)

    def forged(plays: object, winner: object) -> goat.SeenTrick:  # past the constructor's checks, as a hostile user
        made = object.__new__(goat.SeenTrick)
        object.__setattr__(made, "plays", plays)
        object.__setattr__(made, "winner", winner)
        return made

    trick = forged(plays, seen.tricks[0].winner)

    class Liar(goat.Card):
        def __eq__(self, other: object) -> bool:
            return True

        def __hash__(self) -> int:
            return hash(goat.DECK[0])

    written = json.loads(protocol.view_text(seen))
    texts = [str(move) for move in seen.tricks[0].plays]
    # each view made by hand, and the fields it is written with (every other field as the real view's)
    views: list[tuple[goat.PlayerView, dict[str, Any]]] = [
        (_by_hand(seen, seat=True), {"seat": True}),
        (
            _by_hand(seen, to_play=True, hand_sizes=[1, 2, 3, 4], defeat=(0, 1.0)),
            {"to_play": True, "hand_sizes": [1, 2, 3, 4], "defeat": [0, 1.0]},
        ),
        (_by_hand(seen, tricks=(forged(seen.tricks[0].plays, True),)), {"tricks": [{"plays": texts, "winner": True}]}),
        (_by_hand(seen, tricks=(trick,)), {"tricks": [{"plays": texts, "winner": seen.tricks[0].winner}]}),
        (_by_hand(seen, hand=frozenset({goat.DECK[0]})), {"hand": [str(goat.DECK[0])]}),
        (_by_hand(seen, hand=frozenset({Liar(goat.Rank.ACE, goat.Suit.SPADES)})), {"hand": ["AS"]}),
    ]

    class Two(int):  # an int that says it is one, and writes itself otherwise
        @property  # type: ignore[misc]
        def __class__(self) -> type:
            return int

        def __str__(self) -> str:
            return "oops"

        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = int.__hash__

    class Quoted(goat.SeenMove):
        def __str__(self) -> str:
            return 'a "quoted" play'

    odd = Quoted(seen.history[0].kind, seen.history[0].seat, seen.history[0].size, seen.history[0].cards)
    views += [
        (_by_hand(seen, seat=Two(2), stock_size=Two(3), to_play=Two(2)), {"seat": 2, "stock_size": 3, "to_play": 2}),
        (
            _by_hand(seen, tricks=(forged(seen.tricks[0].plays, Two(1)),)),
            {"tricks": [{"plays": texts, "winner": 1}]},
        ),
        (
            _by_hand(seen, table=(odd,), history=(*seen.history, odd)),
            {"table": ['a "quoted" play'], "history": [*written["history"], 'a "quoted" play']},
        ),
    ]

    def as_json(value: object) -> str:  # tells true from 1 and 1.0 from 1, which == does not
        return json.dumps(value, sort_keys=True)

    for view, changed in views:
        assert as_json(json.loads(protocol.view_text(view))) == as_json({**written, **changed}), changed
    for refused in ({"seat": True}, {"hand_sizes": [1, 2, 3, 4]}, {"seat": Two(2)}, {"hand": frozenset()}):
        with pytest.raises(goat.InvalidViewError):  # the constructor refuses them: these views are made past it
            attrs.evolve(seen, **refused)
    plays.pop()  # the list of the trick's plays changes after it was written: the next text is the trick's now
    assert json.loads(protocol.view_text(views[3][0]))["tricks"] == [{"plays": texts[:-1], "winner": trick.winner}]


# The edges of every range a view has (seats 0-3, sizes 0-4, stock 0-20), the look-alikes of an int, and text
# that is a card, a play, or neither.
_EDGES: list[object] = [None, True, False, -1, 0, 1, 3, 4, 5, 19, 20, 21, 1.0, "1", "6C", "10H", "1 lead 6C"]
_EDGES.append("2 pass ??")
_JSON_VALUES = st.recursive(
    st.sampled_from(_EDGES),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.sampled_from(["plays", "winner"]), inner),
    max_leaves=8,
)


def _refused_or_sound(view: dict[str, Any], field: str) -> None:
    """The reader refuses ``view`` with a ProtocolError, or reads it as a view the constructor accepts too (it
    makes the views it has checked past the constructor's check) and that reads back as itself."""
    try:
        read = protocol.view_from_json(view)
    except ProtocolError:
        return
    assert as_made(read) == read, field  # the constructor's check, which the reader skips: InvalidViewError
    assert read_back(read) == read, field


@given(st.from_type(goat.PlayerView), st.data())
def test_a_damaged_view_is_refused_or_read_as_a_sound_view(seen: goat.PlayerView, data: st.DataObject) -> None:
    # A bot reads what the referee sends; a damaged view must be a ProtocolError (no other error, no view the
    # constructor would refuse), never a wrong view.
    written = json.loads(protocol.view_text(seen))
    for field, value in written.items():  # every field in turn: each edge value, then a drawn one
        for edge in [*_EDGES, data.draw(_JSON_VALUES)]:
            _refused_or_sound({**written, field: edge}, field)
        if isinstance(value, list) and value:  # one item of a list damaged in place, the same way
            where = data.draw(st.integers(0, len(value) - 1))
            for edge in [*_EDGES, data.draw(_JSON_VALUES)]:
                _refused_or_sound({**written, field: [*value[:where], edge, *value[where + 1 :]]}, field)


@given(gt.game_results())
def test_a_result_round_trips_exactly_and_validates(result: goat.GameResult) -> None:
    for forfeit in (None, 0, 1):
        data = protocol.result_to_json(result, forfeit=forfeit)
        validator("result.json").validate(data)
        assert protocol.result_from_json(json.loads(json.dumps(data))) == (result, forfeit)


def recorded_match(tmp_path: Path, *, on_fault: str = "forfeit", seed: int = 6) -> list[dict[str, Any]]:
    log = tmp_path / "received.jsonl"
    recorder = ProcessStrategy(
        [sys.executable, str(RECORDER), str(log)], seed=5, sandbox="none"
    )  # it writes its log where the test reads
    players = [recorder, *(goat.load_strategy("greedy", seed=s) for s in (1, 2, 3))]
    arena.play_match(players, seed=seed, on_fault=on_fault)  # type: ignore[arg-type]
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def test_every_message_the_referee_sends_validates(tmp_path: Path) -> None:
    received = recorded_match(tmp_path)
    kinds = [m["type"] for m in received]
    assert kinds[0] == "hello" and kinds[-1] == "quit"
    assert {"start_game", "choose", "end_game"} <= set(kinds)
    check = validator("referee.json")
    for message in received:
        check.validate(message)
    hello = received[0]
    assert (hello["protocol"], hello["seat"], hello["seed"]) == (1, 0, 5)
    chooses = [m for m in received if m["type"] == "choose"]
    assert all(m["legal"] == m["view"]["legal_moves"] for m in chooses)


def test_the_messages_of_a_forfeited_game_validate(tmp_path: Path) -> None:
    class Cheat:
        def choose(self, view: goat.PlayerView, legal: tuple[goat.Move, ...]) -> goat.Move:
            return goat.Move(goat.MoveKind.WAIT, view.seat, ())

    log = tmp_path / "received.jsonl"
    recorder = ProcessStrategy(
        [sys.executable, str(RECORDER), str(log)], seed=5, sandbox="none"
    )  # it writes its log where the test reads
    arena.play_game([recorder, Cheat(), goat.load_strategy("random"), goat.load_strategy("random")], seed=3)
    received = [json.loads(line) for line in log.read_text().splitlines()]
    end = next(m for m in received if m["type"] == "end_game")
    assert end["result"]["forfeit"] == 1 and end["view"]["to_play"] is not None  # the game stopped early
    for message in received:
        validator("referee.json").validate(message)


def test_every_reply_of_goats_own_protocol_bot_validates(tmp_path: Path) -> None:
    received = recorded_match(tmp_path)
    for name in ("greedy", "random", "ismcts[iterations=20]"):
        replies = io.BytesIO()
        lines = b"".join(protocol.encode(m) for m in received)
        status = protocol.serve(
            lambda seed, n=name: goat.load_strategy(n, seed=seed), name=name, stdin=io.BytesIO(lines), stdout=replies
        )
        assert status == 0
        answers = [json.loads(line) for line in replies.getvalue().splitlines()]
        assert len(answers) == len(received) - 1  # one reply for every message but quit
        check = validator("bot.json")
        for message, answer in zip(received, answers, strict=False):
            check.validate(answer)
            if message["type"] == "choose":
                assert answer["type"] == "move" and answer["move"] in message["legal"]


def test_the_bot_side_answers_a_bad_line_with_an_error_and_goes_on() -> None:
    lines = (
        b'{"type":"hello","protocol":1,"seat":0,"seed":1,"time_limit":1}\nnot json\n{"type":"dance"}\n{"type":"quit"}\n'
    )
    replies = io.BytesIO()
    protocol.serve(
        lambda seed: goat.load_strategy("random", seed=seed), name="random", stdin=io.BytesIO(lines), stdout=replies
    )
    answers = [json.loads(line) for line in replies.getvalue().splitlines()]
    assert [a["type"] for a in answers] == ["hello", "error", "error"]
    assert "not JSON" in answers[1]["message"] and "unknown message type 'dance'" in answers[2]["message"]


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (b"[1, 2]\n", "not a JSON object"),
        (b'{"move": 3}\n', 'a text "type"'),
        (b"\xff\n", "not UTF-8"),
        (b"{oops}\n", "not JSON"),
        (b"[" * 100_000 + b"\n", "not JSON"),
        (b'{"type": "ok", "pad": "' + b"x" * (1 << 20) + b'"}\n', "more than"),
    ],
)
def test_malformed_lines_are_protocol_errors(line: bytes, why: str) -> None:
    with pytest.raises(ProtocolError, match=why):
        protocol.decode(line)


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"seat": 4}, "seat"),
        ({"hand": ["ZZ"]}, "not a card"),
        ({"hand": ["6C", "6C"]}, "twice"),
        ({"trump_card": 5}, "trump_card"),
        ({"hand_sizes": [4, 4, 4]}, "hand_sizes"),
        ({"table": [{"seat": 1, "kind": "pass", "size": 2, "cards": ["6C"], "hidden": True}]}, "a play is text"),
        ({"table": ["1 pass ?? 6C"]}, "shows no card"),
        ({"table": ["1 lead ??"]}, "only a pass"),
        ({"table": ["1 pass ?? ?? ?? ?? ??"]}, "only a pass"),
        ({"table": ["5 lead 6C"]}, "not a move"),
        ({"history": ["1 lead 6C 6C"]}, "twice"),
        ({"history": ["1 lead 6H 7H 8H 9H 10H"]}, "at most four"),
        ({"legal_moves": ["1 pass 6H 7H 8H 9H 10H"]}, "at most four"),
        ({"table": [[[[[]]]]]}, "a play is text"),
        ({"tricks": [{"plays": ["0 lead 6C", "1 pass ??", "2 pass ??"], "winner": 0}]}, "four plays"),
        ({"tricks": [{"plays": ["0 lead 6C", "1 pass ??", "2 pass ??", "3 pass ??"], "winner": 7}]}, "winner"),
        ({"legal_moves": ["1 jump 6C"]}, "not a move"),
        ({"defeat": [0, True]}, "defeat"),
    ],
)
def test_a_malformed_view_is_a_protocol_error_naming_the_field(change: dict[str, Any], why: str) -> None:
    data = {**protocol.view_to_json(goat.view(goat.new_game(seed=1), 1)), **change}
    with pytest.raises(ProtocolError, match=why):
        protocol.view_from_json(data)


def test_the_schemas_ship_in_the_package() -> None:
    for name in protocol.SCHEMA_FILES:
        assert protocol.schema(name)["$id"] == f"urn:goat-cards:protocol:1:{name}"  # a name, not an address
    with pytest.raises(ValueError, match="schemas"):
        protocol.schema("other.json")


TEE = Path(__file__).resolve().parent / "protocol_bots" / "tee.py"
PAGE = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"


def test_the_documented_session_is_real_and_valid(tmp_path: Path) -> None:
    # The page's example lines come from this very game: goat bot greedy in seat 0, bot seed 7, game seed 12.
    log = tmp_path / "session.log"
    bot = ProcessStrategy([sys.executable, str(TEE), str(log), "greedy"], seed=7, time_limit=2.0, sandbox="none")
    players = [bot, *(goat.load_strategy("greedy", seed=s) for s in (1, 2, 3))]
    arena.play_game(players, seed=12, time_limit=2.0)
    lines = log.read_text(encoding="utf-8").splitlines()
    blocks = re.findall(
        r"```\{code-block\} json\n:caption: line (\d+) of (\d+), (.+?)\n\n(.*?)\n```",
        PAGE.read_text(encoding="utf-8"),
        flags=re.S,
    )
    assert len(blocks) >= 8
    for number, total, who, body in blocks:
        assert int(total) == len(lines)
        direction, text = lines[int(number) - 1][0], lines[int(number) - 1][2:]
        assert who == ("referee → bot" if direction == ">" else "bot → referee")
        assert json.loads(body) == json.loads(text), f"line {number} of the page is not the session's"
        validator("referee.json" if direction == ">" else "bot.json").validate(json.loads(body))


def _padded_views(count: int) -> list[dict[str, Any]]:
    """Valid views late in a game, each with one play of a finished trick padded with spaces (which parse)."""
    state = goat.new_game(seed=3)
    rng = random.Random(3)
    while len(state.tricks) < 2:
        state = goat.play(state, rng.choice(goat.legal_moves(state)))
    written = protocol.view_to_json(goat.view(state, 0))
    views = []
    for number in range(count):
        trick = dict(written["tricks"][0])
        trick["plays"] = [trick["plays"][0] + " " * (1000 + number), *trick["plays"][1:]]
        views.append({**written, "tricks": [trick, *written["tricks"][1:]]})
    return views


def test_padded_text_in_a_view_is_read_but_not_kept() -> None:
    # A 1 MB line may hold one play padded to 1 MB: kept as a cache key, 100,000 of them would be 100 GB.
    views = _padded_views(50)
    protocol.view_from_json(views[0])  # what is kept of it: the plays and moves written the usual way
    before = (len(protocol._SEEN_CACHE), len(protocol._TRICK_CACHE), len(protocol._MOVE_CACHE))
    read = [protocol.view_from_json(view) for view in views]
    assert all(seen == read[0] for seen in read)
    assert (len(protocol._SEEN_CACHE), len(protocol._TRICK_CACHE), len(protocol._MOVE_CACHE)) == before


def test_text_that_only_pretends_to_be_a_play_cannot_change_how_later_views_are_read() -> None:
    state = goat.new_game(seed=1)
    lead = goat.legal_moves(state)[0]
    text = str(lead)

    class Liar(str):  # from a caller in this process: equal to every text, with the hash of the lead's text
        def __eq__(self, other: object) -> bool:
            return True

        def __hash__(self) -> int:
            return hash(text)

    data = protocol.view_to_json(goat.view(goat.play(state, lead), lead.seat))
    assert data["table"] == data["history"] == [text]
    with contextlib.suppress(ProtocolError):
        protocol.view_from_json({**data, "table": [Liar("2 lead KS")], "history": [Liar("2 lead KS")]})
    with contextlib.suppress(ProtocolError, InvalidMoveError):
        protocol.parse_move(Liar(text))
    assert protocol.view_from_json(data).table == (goat.SeenMove.from_str(text),)
    assert protocol.parse_move(text) == lead


def test_the_arenas_modules_are_its_attributes_as_soon_as_it_is_imported() -> None:
    # goat.arena imports its parts on first use; its modules are still reachable as attributes
    code = "import goat.arena; print(goat.arena.protocol.PROTOCOL_VERSION, goat.arena.tournament.__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["1", "goat.arena.tournament"]


def test_a_view_nested_too_deep_for_repr_is_still_a_protocol_error() -> None:
    # JSON from a bot cannot nest this deep (json.loads stops first), a caller in this process can: the error
    # message quotes the value, and quoting it must not fail.
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    data = protocol.view_to_json(goat.view(goat.new_game(seed=1), 0))
    for field, said in [("table", "a play is text"), ("hand", "hand"), ("legal_moves", "legal_moves"),
                        ("seat", "seat"), ("tricks", "trick 1")]:  # fmt: skip
        with pytest.raises(ProtocolError, match=said):
            protocol.view_from_json({**data, field: deep if field == "seat" else [deep]})


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b'{"type": "move", "move": NaN}\n', "NaN is no JSON number"),
        (b'{"type": "move", "move": Infinity}\n', "Infinity is no JSON number"),
        (b'{"type": "move", "move": "0 lead 6C", "move": "0 lead 7C"}\n', "a key appears twice"),
    ],
)
def test_a_reply_that_is_not_strict_json_is_refused(line: bytes, message: str) -> None:
    # Found by a review: NaN and Infinity, which are no JSON, were read, and of two equal keys the last won.
    with pytest.raises(protocol.ProtocolError, match=message):
        protocol.decode(line, each_key_once=True)
    with pytest.raises(ValueError, match="not JSON compliant"):
        protocol.encode({"type": "move", "value": math.nan})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"defeat": [-1, 0]}, "two non-negative ints"),
        ({"defeat": [12, 0]}, "a match ends at 12"),
        ({"hand": ["AS", "KS", "QS", "JS", "9S"]}, "the hand holds 5 cards"),
        ({"trump": "X"}, "field 'trump' is not the suit of the trump card"),
        ({"table": ["1 lead 10D"] * 5}, "at most the four plays"),
        ({"legal_moves": ["2 lead AS", "2 lead AS"]}, "the seat's own, each once"),
        # Found when the bot protocol kept one reader: the quick one took these, as views the constructor refuses.
        ({"tricks": [{"plays": ["0 lead 6C", "1 pass ??", "2 pass ??", "3 pass ??"], "winner": 0}] * 10}, "nine"),
        ({"history": ["1 lead 10D"] * 1001}, "at most 1000"),
    ],
)
def test_a_view_that_contradicts_itself_is_refused(change: dict[str, Any], message: str) -> None:
    # Found by a review: the reader took views the protocol's schema refuses, or that contradict themselves.
    state = goat.new_game(seed=5)
    data = protocol.view_to_json(goat.view(state, state.to_move))
    with pytest.raises(ProtocolError, match=message):
        protocol.view_from_json({**data, **change})


# --- the schema says what the referee takes ----------------------------------------------------------------

PARROT = Path(__file__).resolve().parent / "protocol_bots" / "parrot.py"


def referee_takes(request: str, reply: str) -> bool:
    """Whether the referee takes ``reply`` to ``request`` as a well-formed answer: played on, or, for an
    ``error`` reply, recorded as the bot giving up (kind ``error``) rather than as a broken reply."""
    from goat.arena.sealed import BotFault

    state = goat.new_game(seed=3)
    seat = state.to_move
    assert seat is not None
    seen = goat.view(state, seat)
    with ProcessStrategy([sys.executable, str(PARROT), request, reply], sandbox="none") as bot:
        try:
            bot.hello(seat)
            bot.start_game(seen)
            bot.choose(seen, seen.legal_moves)
            bot.end_game(seen, goat.score(random_game(3)))
        except BotFault as fault:
            return fault.kind == "error"
    return True


def schema_takes(request: str, reply: str) -> bool:
    which = {"hello": "reply_to_hello", "choose": "reply_to_choose"}.get(request, "reply_to_game_hook")
    check = validator("bot.json")
    schema = {"$ref": f"{protocol.schema('bot.json')['$id']}#/$defs/{which}"}
    return bool(check.evolve(schema=schema).is_valid(json.loads(reply)))


#: Replies at the edges of what the referee takes, each with the request it answers; the first legal move of
#: seed 3's deal is filled in for MOVE.
EDGE_REPLIES = [
    ("hello", '{"type": "hello", "protocol": 1, "name": "x"}'),
    ("hello", '{"type": "hello", "protocol": true, "name": "x"}'),
    ("hello", '{"type": "hello", "protocol": "1", "name": "x"}'),
    ("hello", '{"type": "hello", "protocol": 2, "name": "x"}'),
    ("hello", '{"type": "hello", "name": "x"}'),
    ("hello", '{"type": "hello", "protocol": 1}'),
    ("hello", '{"type": "hello", "protocol": 1, "name": 5}'),
    ("hello", '{"type": "hello", "protocol": 1, "name": null}'),
    ("hello", '{"type": "hello", "protocol": 1, "name": "x", "extra": [1, {"a": null}]}'),
    ("hello", '{"type": "ok"}'),
    ("hello", '{"type": "Hello", "protocol": 1, "name": "x"}'),
    ("hello", '{"protocol": 1, "name": "x"}'),
    ("hello", '{"type": 1, "protocol": 1, "name": "x"}'),
    ("hello", '{"type": "error", "message": "cannot"}'),
    ("hello", '{"type": "error"}'),
    ("hello", '{"type": "error", "message": 5}'),
    ("start_game", '{"type": "ok"}'),
    ("start_game", '{"type": "ok", "note": "extra"}'),
    ("start_game", '{"type": "move", "move": "MOVE"}'),
    ("start_game", '{"type": "OK"}'),
    ("end_game", '{"type": "ok"}'),
    ("end_game", '{"type": "hello", "protocol": 1, "name": "x"}'),
    ("end_game", '{"type": "error", "message": "bye"}'),
    ("choose", '{"type": "move", "move": "MOVE"}'),
    ("choose", '{"type": "move", "move": "MOVE", "thinking": "a lot"}'),
    ("choose", '{"type": "move", "move": 1}'),
    ("choose", '{"type": "move", "move": ["MOVE"]}'),
    ("choose", '{"type": "move", "move": null}'),
    ("choose", '{"type": "move"}'),
    ("choose", '{"type": "ok"}'),
    ("choose", '{"type": "error", "message": "no idea"}'),
    ("choose", "[]"),
]


def test_the_schema_takes_exactly_the_replies_the_referee_takes() -> None:
    state = goat.new_game(seed=3)
    move = str(goat.view(state, state.to_move or 0).legal_moves[0])
    disagree = []
    for request, reply in EDGE_REPLIES:
        reply = reply.replace("MOVE", move)
        if schema_takes(request, reply) != referee_takes(request, reply):
            disagree.append((request, reply, referee_takes(request, reply)))
    assert disagree == []


def test_protocol_1_0_is_refused_by_the_referee_a_rule_the_schema_states_but_cannot_check() -> None:
    # JSON Schema compares parsed values, and 1.0 is 1 there; the referee reads the integer 1 only (as a record's
    # numbers are read): the schema's description and the documentation state the rule.
    for written in ("1.0", "1e0", "1E0"):
        reply = f'{{"type": "hello", "protocol": {written}, "name": "x"}}'
        assert not referee_takes("hello", reply)
        assert schema_takes("hello", reply)
    hello = protocol.schema("bot.json")["$defs"]["hello"]["properties"]["protocol"]
    assert "1.0" in hello["description"] and "integer" in hello["description"]
