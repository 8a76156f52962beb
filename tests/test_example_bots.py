"""The example protocol bots in examples/bots/ (Python and JavaScript): whole matches through the goat command,
and the protocol spoken to them directly, line by line, with no referee in between."""

from __future__ import annotations

import importlib
import json
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import goat
from goat import records
from goat.arena.protocol import result_to_json, view_to_json
from goat.cli import main
from tests.conftest import game, run

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "examples" / "bots"
PYTHON_BOT = BOTS / "python_bot.py"
JS_BOT = BOTS / "js_bot.js"
SCHEMAS = ROOT / "goat" / "schemas" / "protocol"
NODE = shutil.which("node")

needs_node = pytest.mark.skipif(NODE is None, reason="Node.js ('node') is not on PATH")
BOT_NAMES = [pytest.param("python", id="python"), pytest.param("js", id="js", marks=needs_node)]
HELLO = {"type": "hello", "protocol": 1, "seat": 1, "seed": 7, "time_limit": 10.0}
QUIT = {"type": "quit"}


def bot_argv(bot: str) -> list[str]:
    """The command that runs an example bot.  The Python bot runs isolated (-I -S): no site-packages, so no goat."""
    if bot == "python":
        return [sys.executable, "-I", "-S", str(PYTHON_BOT)]
    assert NODE is not None
    return [NODE, str(JS_BOT)]


def bot_spec(bot: str) -> str:
    """The bot as the goat command names it: exec: and its command line, each word quoted for the shell."""
    if bot == "python":
        return f"exec:{shlex.quote(sys.executable)} {shlex.quote(str(PYTHON_BOT))}"
    return f"exec:node {shlex.quote(str(JS_BOT))}"


def talk(bot: str, lines: list[str], *, timeout: float = 30) -> tuple[list[dict[str, Any]], int]:
    """Feed the bot these lines (then end its input); its replies, each one JSON object on a line, and its exit code."""
    done = subprocess.run(
        bot_argv(bot),
        input="".join(line + "\n" for line in lines).encode("utf-8"),
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    text = done.stdout.decode("utf-8")
    assert text == "" or text.endswith("\n"), f"a reply without its newline: {text[-80:]!r}"
    replies = [json.loads(line) for line in text.splitlines()]
    assert all(isinstance(reply, dict) for reply in replies), replies
    return replies, done.returncode


def lines_of(*messages: dict[str, Any]) -> list[str]:
    return [json.dumps(message) for message in messages]


# --- whole matches through the goat command -----------------------------------------------------


class Played:
    """One match of an example bot (seats 0 and 2) against greedy (seats 1 and 3), played by 'goat match'."""

    def __init__(self, bot: str, log: Path) -> None:
        self.spec = bot_spec(bot)
        result = CliRunner().invoke(
            main, ["match", self.spec, "greedy", "--seed", "3", "--games-log", str(log)], catch_exceptions=False
        )
        self.exit_code = result.exit_code
        self.output = result.output
        self.records = [records.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Played]:
    """Each bot's match, played once for the whole module."""
    cache: dict[str, Played] = {}

    def play(bot: str) -> Played:
        if bot not in cache:
            cache[bot] = Played(bot, tmp_path_factory.mktemp(bot) / "games.jsonl")
        return cache[bot]

    return play


@pytest.mark.parametrize("bot", BOT_NAMES)
def test_a_whole_match_against_greedy_without_a_fault(bot: str, played: Callable[[str], Played]) -> None:
    match = played(bot)
    assert match.exit_code == 0, match.output
    assert "faults:" not in match.output, match.output
    assert "is the goat" in match.output
    assert match.records, "no game records were written"
    # records.loads replayed every game and checked its moves and result; now what the records say.
    for record in match.records:
        assert record.faults == (), record.faults
        assert record.forfeit is None
        assert record.players == (match.spec, "greedy", match.spec, "greedy")
        movers = {move.seat for move in record.moves}
        assert {0, 2} <= movers, f"the bot's seats made no move in a game: {movers}"
    # Each record starts from the defeat-scores the games before it left, and the last one ends the match.
    results = tuple(record.result for record in match.records)
    for number, record in enumerate(match.records):
        assert record.defeat == goat.Match(results[:number]).defeat
    assert goat.Match(results[:-1]).goat is None
    assert goat.Match(results).goat in (0, 1)


@needs_node
def test_both_bots_play_the_same_moves(played: Callable[[str], Played]) -> None:
    """The two bots are one strategy in two languages: with the same seed they play the very same games."""
    python, js = played("python"), played("js")
    assert [r.moves for r in python.records] == [r.moves for r in js.records]


# --- the protocol, spoken directly --------------------------------------------------------------


@pytest.mark.parametrize("bot", BOT_NAMES)
def test_hello_is_answered_with_protocol_1_and_a_name(bot: str) -> None:
    replies, code = talk(bot, lines_of(HELLO, QUIT))
    assert code == 0
    assert len(replies) == 1
    assert replies[0]["type"] == "hello" and replies[0]["protocol"] == 1
    assert isinstance(replies[0]["name"], str) and replies[0]["name"]


@pytest.mark.parametrize("bot", BOT_NAMES)
def test_a_bad_line_gets_an_error_and_the_bot_goes_on(bot: str) -> None:
    lines = [
        "this is not JSON",
        json.dumps(HELLO),
        "[1, 2, 3]",  # JSON, but not an object
        json.dumps({"type": "no-such-message"}),
        json.dumps({"type": "choose", "game": 1}),  # no view, no legal moves
        json.dumps(HELLO),
        json.dumps(QUIT),
    ]
    replies, code = talk(bot, lines)
    assert code == 0
    assert [reply["type"] for reply in replies] == ["error", "hello", "error", "error", "error", "hello"]
    for reply in replies:
        if reply["type"] == "error":
            assert isinstance(reply["message"], str) and reply["message"]


@pytest.mark.parametrize("bot", BOT_NAMES)
def test_another_protocol_version_is_refused(bot: str) -> None:
    replies, code = talk(bot, lines_of({**HELLO, "protocol": 2}, QUIT))
    assert code == 0
    assert [reply["type"] for reply in replies] == ["error"]


@pytest.mark.parametrize("bot", BOT_NAMES)
def test_quit_ends_the_bot_at_once_without_a_reply(bot: str) -> None:
    """After quit the bot exits 0 by itself, with its input still open, and reads nothing more."""
    process = subprocess.Popen(bot_argv(bot), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write("".join(line + "\n" for line in lines_of(HELLO, QUIT, HELLO)).encode("utf-8"))
        process.stdin.flush()
        assert process.wait(timeout=30) == 0
        out = process.stdout.read().decode("utf-8")
    finally:
        process.kill()
        process.communicate()
    assert [json.loads(line)["type"] for line in out.splitlines()] == ["hello"]


@pytest.mark.parametrize("bot", BOT_NAMES)
def test_the_end_of_input_ends_the_bot_cleanly(bot: str) -> None:
    replies, code = talk(bot, lines_of(HELLO))
    assert code == 0
    assert [reply["type"] for reply in replies] == ["hello"]


def test_the_bots_use_nothing_but_their_language() -> None:
    """No goat, no third-party package: the Python bot imports only the standard library, the JS bot only Node's."""
    python = PYTHON_BOT.read_text(encoding="utf-8")
    imported = set(re.findall(r"^\s*(?:from|import)\s+(\w+)", python, flags=re.MULTILINE))
    assert imported <= {"__future__", "collections", "json", "sys", "typing"}, imported
    js = JS_BOT.read_text(encoding="utf-8")
    assert set(re.findall(r"require\(\s*[\"']([^\"']+)[\"']\s*\)", js)) == {"readline"}
    assert "import " not in js.replace("// ", "")


# --- the strategy, one position at a time ----------------------------------------------------------


def choose(state: goat.GameState) -> dict[str, Any]:
    """The choose message for the seat to move in this state."""
    seat = state.to_move
    assert seat is not None
    return {
        "type": "choose",
        "game": 1,
        "view": view_to_json(goat.view(state, seat)),
        "legal": [str(move) for move in goat.legal_moves(state)],
    }


# Each position, and the move the rule of thumb in the bots' comments plays there.  Spades are trump in all.
POSITIONS = [
    # Leading: the least valuable single card, a non-trump before a trump.
    (game(["6S AH 7D 10C", "6H 7H 8D 9C", "JH QD KC 6D", "8H 9H JD QC"], "KS"), "0 lead 7D"),
    # An opponent holds the trick: the cheapest beat (fewest points: the trump six before the ace).
    (run(game(["10H JC 8D KC", "AH 6S 7C QD", "6H 7H 9D JD", "8H 9H 6C 8C"], "KS"), "0 lead 10H"), "1 beat 6S"),
    # The partner holds the trick and more seats are to play: the cheapest pass (a six of trumps is worth more).
    (
        run(game(["AH JC QD KC", "6C 7C 8D 9D", "10C 7D KS 6S", "6H 7H 8H 9C"], "AS"), "0 lead AH", "1 pass 6C"),
        "2 pass 7D",
    ),
    # The partner holds the trick and this seat is last: the most valuable cards that are not trumps.
    (
        run(
            game(["6H JC QC KC", "AH 9D QD 7C", "6C 8C 9C 8D", "10C 7D KS 6S"], "AS"),
            "0 lead 6H",
            "1 beat AH",
            "2 pass 6C",
        ),
        "3 pass 10C",
    ),
    # A molodka offered out of turn (four hearts in seat 3, before seat 0 leads) is declared.
    (game(["10C JS 6D 7D", "AC 9D QS 6C", "KH AH 8S 7C", "6H 7H 8H 9H"], "AS"), "3 molodka 6H 7H 8H 9H"),
]


@pytest.mark.parametrize("bot", BOT_NAMES)
def test_the_rule_of_thumb_in_chosen_positions(bot: str) -> None:
    replies, code = talk(bot, lines_of(HELLO, *(choose(state) for state, _ in POSITIONS), QUIT))
    assert code == 0
    assert [reply.get("move") for reply in replies[1:]] == [move for _, move in POSITIONS]


# --- the replies against the protocol's JSON Schemas ------------------------------------------------


def a_whole_conversation() -> Iterator[dict[str, Any]]:
    """Every kind of message a bot answers: hello, start_game, choose (a real game), end_game, and a bad one."""
    yield HELLO
    state = goat.new_game(seed=5)
    yield {"type": "start_game", "game": 1, "view": view_to_json(goat.view(state, 1))}
    rival = goat.load_strategy("greedy", seed=5)
    while not state.is_over:
        legal = goat.legal_moves(state)
        if state.to_move == 1:
            yield choose(state)
            move = legal[0]  # whatever the bot answers, the game goes on with the first legal move
        else:
            move = rival.choose(goat.view(state, state.to_move or 0), legal)
        state = goat.play(state, move)
    yield {
        "type": "end_game",
        "game": 1,
        "view": view_to_json(goat.view(state, 1)),
        "result": result_to_json(goat.score(state)),
    }
    yield {"type": "no-such-message"}
    yield QUIT


def schema_validators(directory: Path) -> dict[str, Any]:
    """A validator for each JSON Schema in ``directory``, by file name; references between them resolve."""
    jsonschema: Any = importlib.import_module("jsonschema")
    referencing: Any = importlib.import_module("referencing")
    drafts: Any = importlib.import_module("referencing.jsonschema")
    schemas = {path.name: json.loads(path.read_text(encoding="utf-8")) for path in sorted(directory.glob("*.json"))}
    registry = referencing.Registry()
    for name, schema in schemas.items():
        resource = referencing.Resource.from_contents(schema, default_specification=drafts.DRAFT202012)
        uris = {(directory / name).as_uri(), schema.get("$id", (directory / name).as_uri())}
        registry = registry.with_resources((uri, resource) for uri in uris)
    return {
        name: jsonschema.validators.validator_for(schema)(schema, registry=registry) for name, schema in schemas.items()
    }


def schema_problems(validator: Any, message: dict[str, Any]) -> list[str]:
    return [f"{'/'.join(map(str, error.absolute_path))}: {error.message}" for error in validator.iter_errors(message)]


@pytest.mark.parametrize("bot", BOT_NAMES)
def test_the_replies_match_the_protocol_schemas(bot: str) -> None:
    """Every reply is valid against the schema of a bot's messages (bot.json), in a conversation whose requests
    (but the deliberately unknown one) are valid against the referee's (referee.json)."""
    try:
        importlib.import_module("jsonschema")
        importlib.import_module("referencing")
    except ImportError:
        pytest.skip("jsonschema (4.18 or later, with referencing) is not installed")
    if not SCHEMAS.is_dir():
        pytest.skip(f"the protocol's JSON Schemas are not there yet: no {SCHEMAS.relative_to(ROOT)}/")
    validators = schema_validators(SCHEMAS)
    if "bot.json" not in validators:
        pytest.skip(f"no schema of the bot's replies yet: no {SCHEMAS.relative_to(ROOT)}/bot.json")
    messages = list(a_whole_conversation())
    if "referee.json" in validators:
        sent = {
            json.dumps(message)[:200]: found
            for message in messages
            if message["type"] != "no-such-message" and (found := schema_problems(validators["referee.json"], message))
        }
        assert not sent, sent
    replies, code = talk(bot, lines_of(*messages))
    assert code == 0
    assert [reply["type"] for reply in replies] == ["hello", "ok", *["move"] * (len(messages) - 5), "ok", "error"]
    wrong = {json.dumps(reply): found for reply in replies if (found := schema_problems(validators["bot.json"], reply))}
    assert not wrong, wrong
