"""Game records: JSON round trips, replays, and tampered or malformed records refused naming the step."""

from __future__ import annotations

import json

import pytest

import goat
from goat import records
from goat.records import GameRecord, RecordError
from tests.conftest import random_game


def finished(seed: int) -> goat.GameState:
    return random_game(seed, dealer=seed % 4)


@pytest.fixture
def record() -> GameRecord:
    return records.from_state(finished(6), seed=6, players=("a", "b", "c", "d"))


def test_round_trip_and_replay_for_many_games() -> None:
    for seed in range(50):
        state = finished(seed)
        record = records.from_state(state, seed=seed)
        text = records.dumps(record)
        again = records.loads(text)
        assert again == record
        states = records.replay(again)
        assert states[0] == record.start() and states[-1] == state
        assert len(states) == len(record.moves) + 1


def test_the_json_follows_the_documented_schema(record: GameRecord) -> None:
    data = json.loads(records.dumps(record, indent=2))
    assert data["format"] == "goat-game-record" and data["version"] == records.FORMAT_VERSION == 1
    assert set(data) == {
        "format",
        "version",
        "seed",
        "deck",
        "trump_card",
        "dealer",
        "defeat",
        "players",
        "moves",
        "result",
        "faults",
        "forfeit",
    }
    assert len(data["deck"].split()) == 36 and data["moves"][0] == str(record.moves[0])
    assert set(data["result"]) == {"points", "tricks", "defeat", "balls", "winner", "last_trick_winner"}


def tamper(record: GameRecord, change: object) -> str:
    data = json.loads(records.dumps(record))
    change(data)  # type: ignore[operator]
    return json.dumps(data)


def test_bad_json_is_refused() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        records.loads("{not json")
    with pytest.raises(RecordError, match="format"):
        records.loads("[1, 2]")


def test_an_unknown_version_is_refused(record: GameRecord) -> None:
    with pytest.raises(RecordError, match="unknown game record version 99"):
        records.loads(tamper(record, lambda d: d.update(version=99)))


def test_an_illegal_move_names_its_step(record: GameRecord) -> None:
    def swap_seat(data: dict) -> None:  # type: ignore[type-arg]
        seat, rest = data["moves"][4].split(" ", 1)
        data["moves"][4] = f"{(int(seat) + 1) % 4} {rest}"

    with pytest.raises(RecordError, match=r"^step 5: illegal move"):
        records.loads(tamper(record, swap_seat))


def test_a_move_that_does_not_parse_names_its_step(record: GameRecord) -> None:
    with pytest.raises(RecordError, match=r"^step 3: not a move"):
        records.loads(tamper(record, lambda d: d["moves"].__setitem__(2, "2 jump 6C")))


def test_a_changed_result_is_refused(record: GameRecord) -> None:
    def more_points(data: dict) -> None:  # type: ignore[type-arg]
        data["result"]["points"] = [data["result"]["points"][0] + 1, data["result"]["points"][1] - 1]

    with pytest.raises(RecordError, match="differs from the replayed one"):
        records.loads(tamper(record, more_points))


def test_a_truncated_game_is_refused(record: GameRecord) -> None:
    with pytest.raises(RecordError, match="not over after its"):
        records.loads(tamper(record, lambda d: d["moves"].pop()))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("moves"), "missing field 'moves'"),
        (lambda d: d.update(dealer="0"), "field 'dealer' has the wrong type"),
        (lambda d: d.update(deck="6C 7C"), "deal is not valid"),
        (lambda d: d.update(trump_card="ZZ"), "trump_card"),
        (lambda d: d.update(defeat=[0]), "two integers"),
        (lambda d: d["result"].pop("balls"), "result: missing field 'balls'"),
        (lambda d: d.update(faults=[{"seat": 1}]), "fault 1: missing field 'move'"),
        (lambda d: d.update(players="abcd"), "players"),
    ],
)
def test_malformed_fields_are_named(record: GameRecord, change: object, message: str) -> None:
    with pytest.raises(RecordError, match=message) as raised:
        records.loads(tamper(record, change))
    assert isinstance(raised.value, ValueError)


def test_loading_without_verification_skips_the_replay(record: GameRecord) -> None:
    text = tamper(record, lambda d: d["moves"].pop())
    assert len(records.loads(text, verify=False).moves) == len(record.moves) - 1
