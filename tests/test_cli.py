"""The goat command: every command and every error path through click's CliRunner."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import goat
from goat import records
from goat.cli import main


def invoke(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


@pytest.mark.parametrize("command", ["play", "match", "tournament", "strategies", "replay"])
def test_every_command_has_help_with_an_example(command: str) -> None:
    result = invoke(command, "--help")
    assert result.exit_code == 0
    assert "Example" in result.output and f"goat {command}" in result.output


def test_the_group_help_and_version() -> None:
    assert "goat tournament random greedy" in invoke("--help").output
    assert goat.__version__ in invoke("--version").output


def test_strategies_lists_the_builtins() -> None:
    result = invoke("strategies")
    assert result.exit_code == 0
    for name in ("random", "greedy", "goat-cards", "goat.bots.greedy:factory"):
        assert name in result.output


def test_strategies_lists_a_broken_plugin_with_its_error(fake_distribution: Any) -> None:
    fake_distribution(
        "goat-bot-broken",
        {"broken": "broken_bot:factory"},
        version="0.3",
        code={"broken_bot.py": "raise ImportError('no numpy here')\n"},
    )
    result = invoke("strategies")
    assert result.exit_code == 0
    line = next(line for line in result.output.splitlines() if "broken" in line and "goat-bot" in line)
    assert "error" in line and "no numpy here" in result.output
    assert "greedy" in result.output


def test_match_prints_a_line_per_game_and_logs_records(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    result = invoke("match", "greedy", "random", "--seed", "2", "--games-log", str(log))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    games = [line for line in lines if line.startswith("game ")]
    assert games and games[0].startswith("game  1: dealer 0")
    assert "is the goat" in result.output and "wins the match" in result.output
    logged = [records.loads(line) for line in log.read_text().splitlines()]
    assert len(logged) == len(games)
    assert logged[0].players == ("greedy", "random", "greedy", "random")


def test_replay_shows_tricks_as_seen_or_open(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    invoke("match", "greedy", "random", "--seed", "4", "--games-log", str(log))
    seen = invoke("replay", str(log))
    assert seen.exit_code == 0
    assert "Game 1" in seen.output and "→ trick 1 to seat" in seen.output and "▒▒" in seen.output
    assert " waits" not in seen.output
    opened = invoke("replay", str(log), "--open")
    assert "seat 0 holds" in opened.output and "points)" in opened.output and "▒▒" not in opened.output
    stepped = invoke("replay", str(log), "--step", input="\n" * 200)
    assert stepped.exit_code == 0 and "Enter for the next trick" in stepped.output


def test_replay_reads_a_single_pretty_printed_record(tmp_path: Path) -> None:
    record = goat.arena.play_game([goat.load_strategy("random", seed=s) for s in range(4)], seed=3)
    path = tmp_path / "one.json"
    path.write_text(records.dumps(record, indent=2))
    result = invoke("replay", str(path))
    assert result.exit_code == 0 and "Game 1" in result.output


def test_tournament_prints_the_table_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    result = invoke("tournament", "random", "greedy", "--matches", "4", "--jobs", "1", "--json", str(out))
    assert result.exit_code == 0, result.output
    assert "Duplicate round-robin" in result.output and "95% CI" in result.output
    data = json.loads(out.read_text())
    assert {e["name"] for e in data["entrants"]} == {"random", "greedy"}


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("match", "greedy", "gredy"), 2, "did you mean 'greedy'"),
        (("tournament", "greedy", "randon"), 2, "did you mean 'random'"),
        (("tournament", "greedy"), 2, "two or more"),
        (("tournament", "greedy", "random", "--matches", "0"), 2, "--matches"),
        (("play", "--seat", "5"), 2, "--seat"),
        (("play", "--partner", "nobody"), 2, "no strategy named 'nobody'"),
        (("replay", "no-such-file.json"), 2, "does not exist"),
        (("frobnicate",), 2, "No such command"),
    ],
)
def test_bad_usage_exits_2_with_a_message(args: tuple[str, ...], code: int, message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == code
    assert message in result.output


def test_a_bad_record_file_fails_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    result = invoke("replay", str(bad))
    assert result.exit_code == 1
    assert result.output.startswith("Error: ") and "not valid JSON" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_tampered_record_names_the_step(tmp_path: Path) -> None:
    record = goat.arena.play_game([goat.load_strategy("random", seed=s) for s in range(4)], seed=3)
    data = json.loads(records.dumps(record))
    data["moves"][0] = "3 lead 6C"
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    result = invoke("replay", str(path))
    assert result.exit_code == 1 and "step 1:" in result.output


def test_a_broken_plugin_is_a_failed_run(fake_distribution: Any) -> None:
    fake_distribution(
        "goat-bot-broken",
        {"broken": "broken_bot:factory"},
        code={"broken_bot.py": "raise ImportError('no numpy here')\n"},
    )
    result = invoke("match", "broken", "random")
    assert result.exit_code == 1
    assert "broken" in result.output and "no numpy here" in result.output


def test_an_unwritable_log_is_a_failed_run(tmp_path: Path) -> None:
    result = invoke("match", "greedy", "random", "--games-log", str(tmp_path / "missing" / "log.jsonl"))
    assert result.exit_code == 1 and "cannot write" in result.output


def test_play_help_bad_input_and_quit() -> None:
    result = invoke("play", "--seed", "5", input="help\nzz\n10h 10h\nquit\n")
    assert result.exit_code == 0
    out = result.output
    assert "Your hand (seat 0):" in out and "trump card" in out and "Legal now:" in out
    assert "not a card: 'zz'" in out and "appears twice" in out
    assert out.rstrip().endswith("Bye.")


def test_play_ends_quietly_at_the_end_of_input() -> None:
    result = invoke("play", "--seed", "5", input="")
    assert result.exit_code == 0 and result.output.rstrip().endswith("Bye.")


@pytest.mark.parametrize("missing", ["click", "rich"])
def test_the_command_without_its_extra_says_what_to_install_in_one_line(missing: str) -> None:
    # What the console script runs (goat.__main__:main), with the extra's package not installed.
    code = f"import sys; sys.modules[{missing!r}] = None; from goat.__main__ import main; main()"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines() == [done.stderr.strip()]  # one line, no traceback
    assert done.stderr.startswith("goat: the goat command needs click and rich: pip install 'goat-cards[cli]'")
    assert missing in done.stderr


def test_importing_the_cli_module_without_its_extra_is_an_import_error_naming_it() -> None:
    code = "import sys; sys.modules['rich'] = None; import goat.cli"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode != 0 and "pip install 'goat-cards[cli]'" in done.stderr
    assert "During handling" not in done.stderr  # not chained: the useful line is the only message


def test_python_dash_m_goat_runs_the_command() -> None:
    done = subprocess.run([sys.executable, "-m", "goat", "--version"], capture_output=True, text=True, check=True)
    assert done.stdout.startswith("goat, version ")


def test_play_shows_names_in_brackets_literally_and_speaks_to_the_person() -> None:
    result = invoke("play", "--seed", "5", input="pass qc\nquit\n")
    out = result.output
    assert "  you pass QC" not in out  # the person's own pass is shown with its card, in the second person
    assert "  you pass Q♣" in out
    assert "→ seat 1 [greedy] takes the trick." in out  # "[greedy]" is a name, not rich markup
