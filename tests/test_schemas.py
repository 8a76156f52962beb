"""The shipped JSON Schemas work as they are: plain ``jsonschema.validate`` and the ``check-jsonschema`` command.

Each schema file is a bundle (JSON Schema 2020-12, "compound schema document"): it refers to another schema by its
``$id`` -- a ``urn:goat-cards:...`` name, which no host pretends to serve -- and carries a copy of that schema in its
own ``$defs``, under that ``$id``; so no registry, no network and no neighbouring file is needed.  A schema is
written once, in its own file; the copies are made from it by this module:

    python tests/test_schemas.py    # after editing a schema: bundle the copies again

and :func:`test_each_schema_carries_what_it_refers_to_as_shipped` fails while a copy differs from its schema.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import goat
from goat import arena, records
from goat.arena import protocol

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "goat" / "schemas"
ID = re.compile(r"urn:goat-cards:[a-z]+:[0-9]+:[a-z]+\.json")


def shipped() -> dict[str, dict[str, Any]]:
    """Every shipped schema by its ``$id``."""
    found = {}
    for path in sorted(SCHEMAS.glob("*/*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        found[schema["$id"]] = schema
    return found


def own_part(schema: dict[str, Any]) -> dict[str, Any]:
    """A schema without the copies of other schemas it carries."""
    mine = copy.deepcopy(schema)
    own = {key: value for key, value in mine.pop("$defs", {}).items() if not ID.fullmatch(key)}
    return mine | {"$defs": own} if own else mine


def references(node: object) -> Iterator[str]:
    """The ``$id`` of every other schema that ``node`` refers to."""
    if isinstance(node, dict):
        reference = node.get("$ref")
        if isinstance(reference, str) and reference.startswith("urn:"):
            yield reference.partition("#")[0]
        for value in node.values():
            yield from references(value)
    elif isinstance(node, list):
        for value in node:
            yield from references(value)


def needed(schema_id: str, schemas: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The own parts of the schemas that ``schema_id`` refers to, directly or through another, by ``$id``."""
    found: dict[str, dict[str, Any]] = {}
    waiting = [schema_id]
    while waiting:
        for other in references(own_part(schemas[waiting.pop()])):
            if other != schema_id and other not in found:
                found[other] = own_part(schemas[other])
                waiting.append(other)
    return dict(sorted(found.items()))


def bundle() -> None:
    """Rewrite every shipped schema with fresh copies of the schemas it refers to."""
    schemas = shipped()
    for path in sorted(SCHEMAS.glob("*/*.json")):
        schema = own_part(json.loads(path.read_text(encoding="utf-8")))
        carried = needed(schema["$id"], schemas)
        if carried:
            schema["$defs"] = schema.get("$defs", {}) | carried
        path.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


# --- tests -------------------------------------------------------------------------------------------------------

jsonschema = pytest.importorskip("jsonschema")


def test_each_schema_carries_what_it_refers_to_as_shipped() -> None:
    schemas = shipped()
    for schema_id, schema in schemas.items():
        carried = {key: value for key, value in schema.get("$defs", {}).items() if ID.fullmatch(key)}
        assert carried == needed(schema_id, schemas), f"{schema_id}: run python tests/test_schemas.py"


def test_the_ids_name_no_host() -> None:
    for schema_id, schema in shipped().items():
        assert ID.fullmatch(schema_id), schema_id
        text = json.dumps(schema)
        assert "goat-cards.readthedocs.io" not in text and "http://" not in text
        assert re.findall(r"https://[^\"#]+", text) == ["https://json-schema.org/draft/2020-12/schema"] * text.count(
            "https://"
        )  # only the meta-schema, which its host does serve


def game_and_match() -> tuple[dict[str, Any], dict[str, Any]]:
    """A game record and a match record as goat writes them."""

    def bots() -> list[Any]:
        return [goat.load_strategy("random", seed=seat) for seat in range(4)]

    game = json.loads(records.dumps(arena.play_game(bots(), seed=3)))
    match = json.loads(records.dumps(arena.play_match(bots(), seed=3)))
    return game, match


@pytest.mark.parametrize("name", records.SCHEMA_FILES)
def test_plain_jsonschema_validate_takes_each_records_schema_as_it_is(name: str) -> None:
    game, match = game_and_match()
    schema = records.schema(name)
    instance = game if name == "game.json" else match
    jsonschema.validate(instance, schema)  # no registry: this raised Unresolvable for match.json before
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(instance | {"headers": [["event"]]}, schema)  # a header is a [name, text] pair


def test_plain_jsonschema_validate_takes_each_protocol_schema_as_it_is() -> None:
    state = goat.new_game(seed=4)
    view = protocol.view_to_json(goat.view(state, state.to_move))
    legal = [str(move) for move in goat.legal_moves(state)]  # move notation
    message = {"type": "choose", "game": 1, "view": view, "legal": legal}
    jsonschema.validate(message, protocol.schema("referee.json"))  # which carries view.json and result.json
    jsonschema.validate(view, protocol.schema("view.json"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(message | {"view": {}}, protocol.schema("referee.json"))
    for defeat in ([12, 0], [3, 0], [-2, 0]):  # a match ends at 12 (R21); a game adds 0, 2, 4 or 6 (R19)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(view | {"defeat": defeat}, protocol.schema("view.json"))
    while not state.is_over:
        state = goat.play(state, goat.legal_moves(state)[0])
    jsonschema.validate(protocol.result_to_json(goat.score(state)), protocol.schema("result.json"))


def test_the_records_validator_checks_records() -> None:
    game, match = game_and_match()
    records.validator("game.json").validate(game)
    assert not records.validator("game.json").is_valid(game | {"defeat": [12, 0]})  # R21: no game is dealt there
    records.validator("match.json").validate(match)
    assert not records.validator("match.json").is_valid(game)
    with pytest.raises(records.RecordError, match=r"game\.json, match\.json"):
        records.validator("view.json")


def check_jsonschema() -> list[str]:
    """The ``check-jsonschema`` command, as this interpreter runs it (its console script is the same entry)."""
    pytest.importorskip("check_jsonschema", reason="the check-jsonschema command is not installed (the test extra is)")
    return [sys.executable, "-m", "check_jsonschema", "--no-cache"]


@pytest.mark.parametrize("name", records.SCHEMA_FILES)
def test_check_jsonschema_takes_each_records_schema_as_it_is(name: str, tmp_path: Path) -> None:
    game, match = game_and_match()
    good, bad = tmp_path / "record.json", tmp_path / "bad.json"
    good.write_text(json.dumps(game if name == "game.json" else match), encoding="utf-8")
    bad.write_text(json.dumps((game if name == "game.json" else match) | {"version": 3}), encoding="utf-8")
    # a copy of the schema alone in a folder: it needs no neighbour
    schema = tmp_path / "alone" / name
    schema.parent.mkdir()
    shutil.copy(SCHEMAS / "records" / name, schema)
    done = subprocess.run([*check_jsonschema(), "--schemafile", str(schema), str(good)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    done = subprocess.run([*check_jsonschema(), "--schemafile", str(schema), str(bad)], capture_output=True, text=True)
    assert done.returncode == 1 and "version" in done.stdout + done.stderr, done.stdout + done.stderr


if __name__ == "__main__":
    bundle()
    print(f"bundled {len(shipped())} schemas in {SCHEMAS}", file=sys.stderr)
