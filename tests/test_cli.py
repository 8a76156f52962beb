"""The goat command: every command and every error path through click's CliRunner."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import attrs
import pytest
from click.testing import CliRunner

import goat
from goat import records
from goat.cli import main


def invoke(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


@pytest.mark.parametrize("command", ["play", "match", "tournament", "strategies", "replay", "sandbox"])
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
    assert result.exit_code == 1  # a broken plugin is a failed check
    line = next(line for line in result.output.splitlines() if "broken" in line and "goat-bot" in line)
    assert "error" in line and "no numpy here" in result.output
    assert "greedy" in result.output and "1 strategy plugin failed to load" in result.output


def test_strategies_without_the_check_imports_nothing(fake_distribution: Any) -> None:
    root = fake_distribution(
        "goat-bot-broken", {"broken": "broken_bot:factory"}, code={"broken_bot.py": "raise SystemExit"}
    )
    code = (
        "import sys\nfrom click.testing import CliRunner\nfrom goat.cli import main\n"
        "result = CliRunner().invoke(main, ['strategies', '--no-check'])\n"
        "print(result.exit_code, 'goat.bots.greedy' in sys.modules, 'broken' in result.output)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert done.stdout.split() == ["0", "False", "True"], done.stderr


def test_a_name_claimed_twice_fails_alone_in_the_listing(fake_distribution: Any) -> None:
    fake_distribution("goat-bot-impostor", {"greedy": "impostor:factory"})
    result = invoke("strategies")
    assert result.exit_code == 1
    greedy = [line for line in result.output.splitlines() if line.startswith("│ greedy")]
    assert len(greedy) >= 2 and all("error" in line for line in greedy[:1])
    assert any(line.startswith("│ random") and "ok" in line for line in result.output.splitlines())


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
        # Found by a review: NaN passed click's range check and ended in the library's traceback.
        (("tournament", "greedy", "random", "--time-limit", "nan"), 2, "nan is not a number of seconds"),
        (("match", "greedy", "random", "--time-limit", "NaN"), 2, "nan is not a number of seconds"),
        (("match", "greedy", "random", "--time-limit", "0.0005"), 2, "--time-limit"),  # every game a forfeit
        (("tournament", "greedy", "random", "--matches", "2000000"), 2, "--matches"),  # jobs no memory holds
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


@pytest.mark.parametrize(
    "args",
    [
        ("match", "greedy", "random", "--games-log"),
        ("tournament", "greedy", "random", "--matches", "2", "--jobs", "1", "--json"),
    ],
)
def test_an_unwritable_output_file_is_refused_before_the_run(tmp_path: Path, args: tuple[str, ...]) -> None:
    result = invoke(*args, str(tmp_path / "missing" / "out.json"))
    assert result.exit_code == 2 and "out.json" in result.output and "No such file or directory" in result.output
    assert "game  1" not in result.output and "Duplicate round-robin" not in result.output  # nothing was played


def test_tournament_refuses_an_odd_number_of_matches() -> None:
    result = invoke("tournament", "greedy", "random", "--matches", "3")
    assert result.exit_code == 2 and "3 is odd" in result.output and "use 2 or 4" in result.output
    with pytest.raises(ValueError, match="even"):
        goat.arena.run_tournament(["greedy", "random"], matches=3, seed=1)


def test_tournament_progress_can_be_switched_on_and_off() -> None:
    on = CliRunner().invoke(main, ["tournament", "random", "greedy", "--matches", "2", "--jobs", "1", "--progress"])
    off = CliRunner().invoke(main, ["tournament", "random", "greedy", "--matches", "2", "--jobs", "1", "--no-progress"])
    assert on.exit_code == off.exit_code == 0
    assert "matches" in on.stderr and "2/2" in on.stderr
    assert off.stderr == ""


def test_strategy_options_from_the_command_line() -> None:
    result = invoke(
        "tournament", "greedy", "ismcts[iterations=5]", "ismcts[iterations=10]", "--matches", "2", "--jobs", "1"
    )
    assert result.exit_code == 0, result.output
    assert "ismcts[iterations=5]" in result.output and "ismcts[iterations=10]" in result.output
    bad = invoke("match", "ismcts[iterations]", "greedy")
    assert bad.exit_code == 2 and "not a strategy spec" in bad.output
    wrong = invoke("match", "ismcts[depth=3]", "greedy")
    assert wrong.exit_code == 2 and "depth" in wrong.output  # options the strategy refuses: bad usage


def test_replay_step_stops_at_q(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    invoke("match", "greedy", "random", "--seed", "4", "--games-log", str(log))
    result = invoke("replay", str(log), "--step", input="\nq\n")
    assert result.exit_code == 0
    assert result.output.count("Enter for the next trick, q to stop") == 2
    assert "→ trick 3 to seat" not in result.output and "Points" not in result.output


def test_the_command_list_shows_every_summary_whole() -> None:
    result = CliRunner().invoke(main, ["--help"], terminal_width=80)
    commands = result.output.split("Commands:", 1)[1]
    assert "..." not in commands
    for command in ("play", "match", "tournament", "strategies", "replay", "sandbox"):
        assert f"  {command} " in commands


def test_tournament_seed_has_help() -> None:
    assert "Seed of the tournament" in invoke("tournament", "--help").output


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
    # a command that works however goat-cards was installed: the extra's requirements (goat.errors.install_command)
    assert done.stderr.startswith("goat: the goat command needs click and rich: pip install 'click>=8.1' 'rich>=13'")
    assert "(goat-cards[cli])" in done.stderr
    assert missing in done.stderr


def test_importing_the_cli_module_without_its_extra_is_an_import_error_naming_it() -> None:
    code = "import sys; sys.modules['rich'] = None; import goat.cli"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode != 0 and "pip install 'click>=8.1' 'rich>=13' (goat-cards[cli])" in done.stderr
    assert "During handling" not in done.stderr  # not chained: the useful line is the only message


def test_python_dash_m_goat_runs_the_command() -> None:
    done = subprocess.run([sys.executable, "-m", "goat", "--version"], capture_output=True, text=True, check=True)
    assert done.stdout.startswith(f"goat {goat.__version__} (core: {goat.build_info()}; Python ")


def test_the_version_says_which_core_runs() -> None:
    """With GOAT_PURE_PYTHON=1 at import time the pure core runs, and --version says so (issue 13)."""
    environment = {**os.environ, "GOAT_PURE_PYTHON": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "goat", "--version"], capture_output=True, text=True, check=True, env=environment
    )
    assert "(core: pure (GOAT_PURE_PYTHON=1); Python " in done.stdout


def test_play_shows_names_in_brackets_literally_and_speaks_to_the_person() -> None:
    result = invoke("play", "--seed", "5", input="pass qc\nquit\n")
    out = result.output
    assert "  you pass QC" not in out  # the person's own pass is shown with its card, in the second person
    assert "  you pass Q♣" in out
    assert "→ seat 1 [greedy] takes the trick." in out  # "[greedy]" is a name, not rich markup


def test_play_saves_the_match_and_takes_it_up_again(tmp_path: Path) -> None:
    saved = tmp_path / "match.json"
    first = invoke("play", "--seed", "5", "--seat", "0", "--save", str(saved), input="pass qc\nquit\ny\n")
    assert first.exit_code == 0 and f"Saved to {saved}" in first.output
    match = records.loads(saved.read_text())
    assert isinstance(match, records.MatchRecord) and match.header("seat") == "0" and match.header("seed") == "5"
    (game,) = match.games
    assert game.result is None and game.moves  # unfinished, with the person's pass in it
    assert goat.Move.from_str("0 pass QC") in game.moves
    again = invoke("play", "--resume", str(saved), input="quit\ny\n")
    assert again.exit_code == 0 and "Game 1 goes on" in again.output
    (resumed,) = records.loads(saved.read_text()).games  # type: ignore[union-attr]
    assert resumed.moves[: len(game.moves)] == game.moves
    replayed = invoke("replay", str(saved))
    assert replayed.exit_code == 0 and "unfinished after" in replayed.output


def test_resume_refuses_a_file_that_is_not_a_saved_match(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    invoke("match", "greedy", "random", "--games-log", str(log))
    one = tmp_path / "one.json"
    one.write_text(log.read_text().splitlines()[0])
    result = invoke("play", "--resume", str(one))
    assert result.exit_code == 2 and "not a match saved by 'goat play --save'" in result.output


def _saved_with(tmp_path: Path, **headers: str) -> Path:
    """A match saved by goat play, with some of its headers changed as a hostile or broken file would."""
    saved = tmp_path / "match.json"
    invoke("play", "--seed", "5", "--save", str(saved), input="pass qc\nquit\ny\n")
    data = json.loads(saved.read_text())
    data["headers"].update(headers)
    saved.write_text(json.dumps(data))
    return saved


def test_resume_does_not_run_a_command_the_file_names(tmp_path: Path) -> None:
    # Found by a review: the file's bot names were loaded as given, and an 'exec:' name ran its command.
    touched = tmp_path / "PWNED"
    command = f"exec:{sys.executable} -c 'open({json.dumps(str(touched))}, \"w\")'"
    for header, name in (("opponents", command), ("partner", "os:system")):
        saved = _saved_with(tmp_path, **{header: name})
        result = invoke("play", "--resume", str(saved), input="quit\ny\n")
        assert result.exit_code == 2, result.output
        assert "a saved file is not trusted to do that" in result.output and f"--{header}" in result.output
    assert not touched.exists()
    # named again by the person, it is theirs to run (here a bot that does not speak the protocol)
    saved = _saved_with(tmp_path, opponents=command)
    # (--sandbox none: a sandboxed bot could not write where the test looks)
    result = invoke("play", "--resume", str(saved), "--opponents", command, "--sandbox", "none", input="quit\ny\n")
    assert touched.exists() and "does not start" in result.output


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ({"seat": "x"}, "its seat is 0, 1, 2 or 3, not 'x'"),
        ({"seat": "7"}, "its seat is 0, 1, 2 or 3, not '7'"),
        ({"seat": "\uff12"}, "its seat is 0, 1, 2 or 3"),  # a fullwidth 2 is no seat
        ({"seed": "1e3"}, "not a seed"),
        ({"seed": "9" * 80}, "not a seed"),
    ],
)
def test_resume_reads_the_files_headers_as_strictly_as_options(
    tmp_path: Path, headers: dict[str, str], message: str
) -> None:
    # Found by a review: int() of the headers raised a traceback, or read a fullwidth digit as a seat.
    result = CliRunner().invoke(main, ["play", "--resume", str(_saved_with(tmp_path, **headers))], input="quit\ny\n")
    assert result.exit_code == 2 and message in result.output and result.exception.__class__ is SystemExit


def test_a_save_file_that_cannot_be_written_is_refused_at_once(tmp_path: Path) -> None:
    # Found by a review: the match was played, the save failed, and "Saved to ..." was printed anyway.
    result = invoke("play", "--seed", "5", "--save", str(tmp_path / "missing" / "x.json"), input="quit\ny\n")
    assert result.exit_code == 2 and "cannot write" in result.output and "Saved to" not in result.output
    fresh = tmp_path / "new.json"
    assert invoke("play", "--seed", "5", "--save", str(fresh), input="quit\ny\n").exit_code == 0
    assert records.loads(fresh.read_text())  # written once there was something to keep


@pytest.mark.parametrize("command", ["match", "tournament", "play"])
def test_a_seed_too_long_for_a_record_is_bad_usage(command: str) -> None:
    # Found by a review: goat match raised a traceback from the arena, goat tournament took the seed.
    names = [] if command == "play" else ["greedy", "random"]
    result = CliRunner().invoke(main, [command, *names, "--seed", "9" * 80], input="quit\ny\n")
    assert result.exit_code == 2 and "not a seed: an integer of at most 79 digits" in result.output
    assert invoke("match", "greedy", "random", "--seed", "-" + "9" * 79).exit_code == 0


def test_tournament_jobs_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    # Found by a review: --jobs 100000 started that many interpreters for two matches.
    result = CliRunner().invoke(main, ["tournament", "random", "greedy", "--matches", "2", "--jobs", "100000"])
    assert result.exit_code == 2 and "100000 is not in the range 1<=x<=256" in result.output
    pools: list[int] = []

    class Pool(ThreadPoolExecutor):  # the matches run in threads here; the test reads how many workers were asked
        def __init__(self, max_workers: int) -> None:
            pools.append(max_workers)
            super().__init__(max_workers)

    monkeypatch.setattr("goat.cli.ProcessPoolExecutor", Pool)
    assert invoke("tournament", "random", "greedy", "--matches", "2", "--jobs", "256", "--no-progress").exit_code == 0
    assert pools == [2]  # one pairing, two matches: two workers, not 256


def test_resume_refuses_options_that_contradict_the_saved_match(tmp_path: Path) -> None:
    # Found by a review: --seat, --seed and --opponents given with --resume were silently ignored.
    saved = _saved_with(tmp_path)
    for option, value in (("--seat", "2"), ("--seed", "9"), ("--opponents", "random")):
        result = invoke("play", "--resume", str(saved), option, value, input="quit\ny\n")
        assert result.exit_code == 2 and "a resumed match keeps its seat, bots and seed" in result.output
    same = invoke("play", "--resume", str(saved), "--seat", "0", "--seed", "5", input="quit\ny\n")
    assert same.exit_code == 0 and "Game 1 goes on" in same.output


@pytest.mark.parametrize("spec", ["ismcts[foo=1]", "ismcts[time_ms=0]"])
def test_options_a_strategy_refuses_are_bad_usage(spec: str) -> None:
    # Found by a review: they failed the run (exit 1) where a bad name is bad usage (exit 2), as docs/cli.md says.
    result = CliRunner().invoke(main, ["match", "greedy", spec])
    assert result.exit_code == 2 and "Invalid value for TEAM_B" in result.output


def test_replay_of_a_match_with_no_games_says_so_in_one_line(tmp_path: Path) -> None:
    # Found by a review: --html gave a traceback and left an empty page behind; without it, nothing was said.
    empty = tmp_path / "empty.json"
    empty.write_text(records.dumps(records.from_match([])))
    page = tmp_path / "page.html"
    for extra in ([], ["--html", str(page)]):
        result = CliRunner().invoke(main, ["replay", str(empty), *extra])
        assert result.exit_code == 1 and "holds no game to show" in result.output, result.output
    assert not page.exists()


def test_replay_reads_a_pretty_record_with_any_line_endings(tmp_path: Path) -> None:
    # Found by a review: a pretty record with CRLF line endings, or opening with "{ " and a newline, was read as
    # JSON Lines and refused.
    log = tmp_path / "games.jsonl"
    invoke("match", "greedy", "random", "--seed", "4", "--games-log", str(log))
    record = records.loads(log.read_text().splitlines()[0])
    pretty = tmp_path / "pretty.json"
    pretty.write_bytes(records.dumps(record, indent=2).replace("{\n", "{ \n").replace("\n", "\r\n").encode())
    assert invoke("replay", str(pretty)).exit_code == 0


def test_replay_shows_no_control_characters_from_a_record(tmp_path: Path) -> None:
    # Found by a review: players' names reached the terminal with their escape sequences and bidi overrides.
    log = tmp_path / "games.jsonl"
    invoke("match", "greedy", "random", "--seed", "4", "--games-log", str(log))
    record = records.loads(log.read_text().splitlines()[0])
    named = tmp_path / "named.json"
    named.write_text(records.dumps(attrs.evolve(record, players=("\x1b[31mred", "\u202eevil", "b", "c"))))
    result = invoke("replay", str(named))
    assert result.exit_code == 0 and "\x1b" not in result.output and "\u202e" not in result.output
    assert "\\x1b[31mred" in result.output


def test_replay_step_stops_at_the_end_of_input(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"  # found by a review: the end of input gave click's "Aborted!" and exit 1
    invoke("match", "greedy", "random", "--seed", "4", "--games-log", str(log))
    result = CliRunner().invoke(main, ["replay", str(log), "--step"], input="")
    assert result.exit_code == 0 and "Aborted" not in result.output


# --- what a bot or a file says reaches the terminal escaped ---------------------------------------------

BOTS = Path(__file__).parent / "protocol_bots"
#: What tests/protocol_bots/screen.py puts in every text it controls.
PAYLOAD = "\x1b[2J\x1b[Hgreedy wins\r\b\u202e\x9b31m[bold red]fake[/bold red]"


def screen_bot(mode: str) -> str:
    return f"exec:{sys.executable} {BOTS / 'screen.py'} {mode}"


def assert_escaped(output: str) -> None:
    """No control character of the payload reached the output raw, and its text was shown, escaped, not as markup."""
    for raw in ("\x1b", "\r", "\b", "\u202e", "\x9b"):
        assert raw not in output
    assert "\\x1b[2J\\x1b[Hgreedy wins\\r\\x08\\u202e\\x9b31m[bold red]fake[/bold red]" in output


def test_match_shows_a_hostile_bots_texts_escaped() -> None:
    # Found by a review: a bot's stderr cleared the organiser's screen and printed a fake result.
    refused = CliRunner().invoke(main, ["match", screen_bot("hello-error"), "greedy", "--seed", "3"])
    assert refused.exit_code == 1 and "does not start" in refused.output and "standard error ends" in refused.output
    assert_escaped(refused.output)
    played = invoke("match", screen_bot("play"), "greedy", "--seed", "3")  # its name in hello, its error at move 3
    assert played.exit_code == 0 and "fault: seat" in played.output
    assert_escaped(played.output)


def test_tournament_shows_a_hostile_bots_texts_escaped() -> None:
    refused = CliRunner().invoke(main, ["tournament", screen_bot("hello-error"), "greedy", "--matches", "2"])
    assert refused.exit_code == 1
    assert_escaped(refused.output)
    played = invoke("tournament", screen_bot("play"), "greedy", "--matches", "2", "--no-progress")
    assert played.exit_code == 0 and "\x1b" not in played.output and "Sealed bots ran under:" in played.output


class _Raiser:
    def choose(self, view: goat.PlayerView, legal: tuple[goat.Move, ...]) -> goat.Move:
        raise ValueError(PAYLOAD)


def test_replay_shows_a_records_texts_escaped(tmp_path: Path) -> None:
    bots = [_Raiser(), *(goat.load_strategy("random", seed=s) for s in (1, 2, 3))]
    played = goat.arena.play_game(bots, seed=3, names=(PAYLOAD, "b", "c", "d"))
    assert played.forfeit == 0
    record = attrs.evolve(
        played,
        faults=[attrs.evolve(played.faults[0], stderr=PAYLOAD)],
        comments={0: PAYLOAD},
        headers={"event": PAYLOAD},
    )
    saved = tmp_path / "hostile.json"
    saved.write_text(records.dumps(record), encoding="utf-8")
    for options in ((), ("--open",)):
        result = invoke("replay", str(saved), *options)
        assert result.exit_code == 0 and "forfeited" in result.output
        assert_escaped(result.output)


def test_error_messages_of_every_command_are_escaped(tmp_path: Path) -> None:
    # a record that fails to load quotes its text; a strategy's name is the user's, but still text
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": PAYLOAD}), encoding="utf-8")
    for args in (("replay", str(bad)), ("match", "greedy", PAYLOAD), ("play", "--partner", PAYLOAD)):
        result = CliRunner().invoke(main, list(args), input="quit\ny\n")
        assert result.exit_code in (1, 2) and "\x1b" not in result.output and "\u202e" not in result.output


# --- seeds ------------------------------------------------------------------------------------------------


def recorder(log: Path) -> str:
    return f"exec:{sys.executable} {BOTS / 'recorder.py'} {log}"


def hello_seeds(log: Path) -> list[int]:
    return [json.loads(line)["seed"] for line in log.read_text().splitlines() if '"hello"' in line]


def test_a_sealed_bot_gets_no_seed_derived_from_the_deals(tmp_path: Path) -> None:
    # Found by a review: a sealed bot greeted with seed S*4+s recovered S, and with it every hand.
    log = tmp_path / "match.log"  # --sandbox none: a sandboxed bot could not write where the test reads
    assert invoke("match", recorder(log), "greedy", "--seed", "5", "--sandbox", "none").exit_code == 0
    seeds = hello_seeds(log)
    assert len(seeds) == 2 and not {5 * 4, 5 * 4 + 2} & set(seeds) and seeds[0] != seeds[1]
    log = tmp_path / "play.log"
    result = invoke("play", "--seed", "5", "--partner", recorder(log), "--sandbox", "none", input="quit\ny\n")
    assert result.exit_code == 0 and hello_seeds(log) and 5 * 4 + 2 not in hello_seeds(log)


def test_the_default_seed_is_a_large_random_one_shown_to_play_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # A small default seed (1, or below a million) lets a bot search for the one that dealt its hand.
    drawn = []

    def randbits(bits: int) -> int:
        drawn.append(bits)
        return 2**64 - 12345

    monkeypatch.setattr("goat.cli.secrets.randbits", randbits)
    first = invoke("match", "greedy", "random")
    assert drawn == [64] and f"Seed {2**64 - 12345}: --seed {2**64 - 12345}" in first.output
    again = invoke("match", "greedy", "random", "--seed", str(2**64 - 12345))
    assert again.output == first.output
    greeted = invoke("play", input="quit\ny\n")
    assert f"seed {2**64 - 12345}." in greeted.output and drawn == [64, 64]
    ran = invoke("tournament", "greedy", "random", "--matches", "2", "--no-progress")
    assert f"(seed {2**64 - 12345})" in ran.output


# --- the sandbox ------------------------------------------------------------------------------------------


@pytest.fixture
def missing_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    """This machine's sandbox report, less one protection."""
    from goat.arena import sandbox

    real = sandbox.probe

    def probe(mode: sandbox.Sandbox = "auto") -> sandbox.SandboxReport:
        report = real(mode)
        changed = tuple(
            attrs.evolve(p, holds=False, how="unbounded: a test says so") if p.name == "one cpu per bot" else p
            for p in report.protections
        )
        return attrs.evolve(report, protections=changed)

    monkeypatch.setattr(sandbox, "probe", probe)


def test_sandbox_lists_each_protection_in_80_columns() -> None:
    from goat.arena import sandbox

    result = CliRunner().invoke(main, ["sandbox"], terminal_width=80)
    assert result.exit_code == 0
    for protection in sandbox.probe().protections:
        assert protection.name in result.output
    assert all(len(line) <= 80 for line in result.output.splitlines())


@pytest.mark.usefixtures("missing_cpu")
def test_sandbox_says_what_is_missing_and_required_fails_then() -> None:
    told = CliRunner().invoke(main, ["sandbox"])
    assert told.exit_code == 0 and "one cpu per bot    NO    unbounded: a test says so" in told.output
    required = CliRunner().invoke(main, ["sandbox", "--required"])
    assert required.exit_code == 1 and "1 protection missing: one cpu per bot" in required.output


@pytest.mark.usefixtures("missing_cpu")
def test_sandbox_option_reaches_the_sealed_bots() -> None:
    bot = f"exec:{sys.executable} -m goat.arena greedy"
    for command in (
        ["match", bot, "random"],
        ["tournament", bot, "random", "--matches", "2"],
        ["play", "--partner", bot],
    ):
        result = CliRunner().invoke(main, [*command, "--sandbox", "required"], input="quit\ny\n")
        assert result.exit_code == 1 and "one cpu per bot does not hold" in result.output, command
    # in-process bots need no sandbox: required is no obstacle to them
    assert invoke("match", "greedy", "random", "--seed", "2", "--sandbox", "required").exit_code == 0
    assert CliRunner().invoke(main, ["match", "greedy", "random", "--sandbox", "strict"]).exit_code == 2


@pytest.mark.usefixtures("missing_cpu")
def test_every_command_that_plays_sealed_bots_says_first_what_they_run_without() -> None:
    # Found by a review: with --sandbox auto, a machine without a protection played sealed bots without a word.
    bot = f"exec:{sys.executable} -m goat.arena greedy"
    told = "Sealed bots run without: one cpu per bot (see 'goat sandbox')"
    for command, first in (
        (["match", bot, "random", "--seed", "2"], "game  1"),
        (["tournament", bot, "random", "--matches", "2", "--no-progress"], "Duplicate round-robin"),
        (["play", "--partner", bot, "--seed", "2"], "Goat — you sit"),
    ):
        result = CliRunner().invoke(main, command, input="quit\ny\n")
        assert result.exit_code == 0, result.output
        assert result.stderr.splitlines().count(told) == 1, command
        assert result.output.index(told) < result.output.index(first), command
        assert told not in result.stdout
    tournament = CliRunner().invoke(main, ["tournament", bot, "random", "--matches", "2", "--no-progress"])
    assert "Sealed bots ran under: " in tournament.stdout  # and what they ran under, after
    # in-process bots are not sealed: nothing to say
    for command in (["match", "greedy", "random"], ["tournament", "greedy", "random", "--matches", "2"], ["play"]):
        assert "Sealed bots" not in CliRunner().invoke(main, command, input="quit\ny\n").output, command


def test_sealed_bots_without_namespaces_are_told_without_each_protection(monkeypatch: pytest.MonkeyPatch) -> None:
    from goat.arena import sandbox

    monkeypatch.setattr(sandbox, "_bubblewrap", lambda: (None, "bwrap not found"))
    sandbox.probe.cache_clear()
    try:
        result = CliRunner().invoke(main, ["match", f"exec:{sys.executable} -m goat.arena greedy", "random"])
        missing = [p.name for p in sandbox.probe().missing()]
    finally:
        sandbox.probe.cache_clear()
    assert result.exit_code == 0, result.output
    assert "namespaces" in missing and "filesystem" in missing
    assert f"Sealed bots run without: {', '.join(missing)} (see 'goat sandbox')" in result.stderr.splitlines()
    unsandboxed = CliRunner().invoke(
        main, ["match", f"exec:{sys.executable} -m goat.arena greedy", "random", "--sandbox", "none"]
    )
    assert "Sealed bots run without: namespaces" in unsandboxed.stderr and "(--sandbox none; see" in unsandboxed.stderr


# --- the organiser's records, kept from sealed bots ---------------------------------------------------------

#: A protocol bot that looks, before it answers anything, for files whose paths are written in its source (not on
#: its command line: the paths a bot's command names are shown to it on purpose): it crashes (exit 3) if it can
#: read one, and plays its first legal move otherwise.
PRYING_BOT = """\
import json
import sys

for path in {paths!r}:
    try:
        with open(path, "rb") as file:
            file.read(1)
    except OSError:
        continue
    sys.stderr.write("I read " + path + "\\n")
    sys.exit(3)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "quit":
        break
    if message["type"] == "hello":
        reply = {{"type": "hello", "protocol": 1, "name": "prying"}}
    elif message["type"] == "choose":
        reply = {{"type": "move", "move": message["legal"][0]}}
    else:
        reply = {{"type": "ok"}}
    sys.stdout.write(json.dumps(reply) + "\\n")
    sys.stdout.flush()
"""


def test_the_directories_hidden_are_those_of_record_files_not_of_streams_or_devices(tmp_path: Path) -> None:
    from goat.cli import _record_directories

    log = tmp_path / "logs" / "games.jsonl"
    log.parent.mkdir()
    log.touch()
    with log.open("w") as opened:
        found = _record_directories(None, Path("x.json"), opened, tmp_path / "new" / "t.json", log)
    assert found == (os.getcwd(), str(log.parent), str(tmp_path / "new"))  # each once, absolute
    with open(os.devnull, "w") as null:
        assert _record_directories(Path("/dev/null"), null, sys.stdout, sys.stderr) == ()


@pytest.mark.parametrize("command", ["match", "tournament", "play --save", "play --resume"])
def test_a_sealed_bot_cannot_read_the_directories_the_command_keeps_records_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    # Found by a review: 'goat play --save /root/goat-saves/t.json' against an exec: bot, which read the seed from
    # the save file (outside the working directory, which alone was hidden), dealt every game again and knew all
    # hands; as could one against 'goat match --games-log' or 'goat tournament --json' anywhere else.
    from goat.arena import sandbox

    if not all(p.holds for p in sandbox.probe().protections if p.name in ("namespaces", "filesystem")):
        pytest.skip("no sandbox hides directories on this machine")
    # /tmp is hidden from every sealed bot anyway: as if the records were kept where nothing hides them but the command
    monkeypatch.setattr(sandbox, "_SHARED", tuple(d for d in sandbox._SHARED if d != "/tmp"))
    kept = tmp_path / "records"
    kept.mkdir()
    secret = kept / "earlier.json"
    secret.write_text('{"seed": "5"}\n')
    other = tmp_path / "other"
    other.mkdir()
    (tmp_path / "bot").mkdir()
    script = tmp_path / "bot" / "prying.py"
    script.write_text(PRYING_BOT.format(paths=[str(secret), str(other / "later.json")]))
    bot = f"exec:{sys.executable} {script}"
    args = {
        "match": ["match", bot, "greedy", "--seed", "3", "--games-log", str(kept / "games.jsonl")],
        "tournament": ["tournament", bot, "greedy", "--matches", "2", "--no-progress", "--json", str(kept / "r.json")],
        "play --save": ["play", "--partner", bot, "--save", str(kept / "match.json")],
        "play --resume": [
            "play",
            "--partner",
            bot,
            "--resume",
            str(_saved_with(kept, partner=bot)),
            "--save",
            str(other / "later.json"),
        ],
    }[command]
    if command == "play --resume":
        (other / "later.json").write_text("{}")
    result = CliRunner().invoke(main, args, input="quit\ny\n")
    assert result.exit_code == 0, result.output
    assert "fault:" not in result.output and "I read" not in result.output
    if command == "tournament":  # its faults are counted in the table (a column 'faults') and the results
        assert all(entrant["faults"] == 0 for entrant in json.loads((kept / "r.json").read_text())["entrants"])
