"""`goat play` in a real pseudo-terminal: a whole game typed in, bad input included, the screen checked.

The test sits at the same table as the command: it rebuilds the same bots and deals from the same
seed (goat.cli.table_bots, goat.cli.game_seeds), so it knows every state and types a legal move at
each prompt, after trying some that the rules refuse.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import goat
from goat import MoveKind, tui
from goat.cli import game_seeds, table_bots
from goat.tui import typed

pexpect = pytest.importorskip("pexpect")

SEED = 11
SEAT = 2
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def screen(child: pexpect.spawn) -> str:
    return ANSI.sub("", child.before or "")


@pytest.fixture
def child() -> pexpect.spawn:
    goat_cmd = shutil.which("goat") or f"{sys.executable} -m goat"
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "50"}
    spawned = pexpect.spawn(
        f"{goat_cmd} play --seat {SEAT} --partner greedy --opponents random --seed {SEED}",
        encoding="utf-8",
        dimensions=(50, 120),
        env=env,
        timeout=20,
    )
    yield spawned
    spawned.close(force=True)


def test_a_whole_game_typed_in_a_terminal(child: pexpect.spawn) -> None:
    bots = table_bots(SEAT, "greedy", "random", SEED)
    match = goat.Match()
    state = match.new_game(seed=game_seeds(SEED).randrange(2**63))
    for seat, bot in bots.items():
        goat.strategy.start_game(bot, goat.view(state, seat))
    prompts = 0
    bad_input_tried = False
    while not state.is_over:
        if state.to_move != SEAT:
            seen = goat.view(state, state.to_move)  # type: ignore[arg-type]
            state = goat.play(state, bots[state.to_move].choose(seen, seen.legal_moves))  # type: ignore[index]
            continue
        child.expect(r"> $")
        shown = screen(child)
        prompts += 1
        seen = goat.view(state, SEAT)
        # The screen shows our hand with suit symbols, the trump card and the stock size.
        hand_line = next(line for line in shown.splitlines() if line.startswith(f"Your hand (seat {SEAT}):"))
        for card in seen.hand:
            assert card.symbol in hand_line
        trumps = [c for c in seen.hand if c.suit is seen.trump]
        if trumps:  # trumps are marked, after the side suits
            marked = hand_line.split("trumps:")[1]
            assert all(c.symbol in marked for c in trumps)
        assert f"trump card {seen.trump_card.symbol}" in shown and f"stock {seen.stock_size}" in shown
        if any(play.hidden for play in seen.table):
            assert "▒▒" in shown  # others' passes are face down
        if any(m.kind is MoveKind.WAIT for m in seen.legal_moves):
            assert "You hold a molodka" in shown
        if not bad_input_tried and seen.table:
            # Bad input first: nonsense, a card we do not hold, then a lead out of turn.
            missing = next(c for c in goat.DECK if c not in seen.hand)
            child.sendline("hello")
            child.expect(r"> $")
            assert "not a card: 'hello'" in screen(child)
            child.sendline(f"pass {missing}" if seen.table[0].size == 1 else f"pass {missing} {missing}")
            child.expect(r"> $")
            assert ("not in hand" in screen(child)) or ("appears twice" in screen(child))
            child.sendline("molodka" if not any(m.kind is MoveKind.MOLODKA for m in seen.legal_moves) else "hello")
            child.expect(r"> $")
            assert "cannot declare a molodka" in screen(child) or "not a card" in screen(child)
            bad_input_tried = True
        move = seen.legal_moves[-1] if prompts % 2 else seen.legal_moves[0]
        child.sendline(typed(move))
        state = goat.play(state, move)
    result = goat.score(state)
    assert bad_input_tried and prompts >= 4
    child.expect(r"Match: your team \d+, theirs \d+ defeat-scores\.")
    shown = screen(child) + child.after
    us, them = SEAT % 2, 1 - SEAT % 2
    assert f"Game over. Points: your team {result.points[us]}, theirs {result.points[them]}." in shown
    if result.balls:
        assert "Balls!" in shown
    elif result.winner == us:
        assert f"they gain {result.defeat[them]} defeat-scores" in shown
    else:
        assert f"your team gains {result.defeat[us]} defeat-scores" in shown
    # The next game begins.  'quit' asks first: 'n' goes back to the game, 'y' leaves the match.
    child.expect(r"> $")
    child.sendline("quit")
    child.expect(r"Leave the match\? It ends here, unfinished \[y/N\] $")
    child.sendline("n")
    child.expect(r"> $")
    assert "Bye." not in screen(child)
    child.sendline("q h")  # 'q' is the queen's letter, not 'quit': this is the card Q♥
    child.expect(r"> $")
    assert "Leave the match" not in screen(child)
    child.sendline("quit")
    child.expect(r"\[y/N\] $")
    child.sendline("y")
    child.expect("Bye.")
    child.expect(pexpect.EOF)


def test_long_lines_wrap_between_words_in_a_narrow_terminal() -> None:
    goat_cmd = shutil.which("goat") or f"{sys.executable} -m goat"
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "40", "LINES": "30"}
    spawned = pexpect.spawn(
        f"{goat_cmd} play --seat 0 --seed 3", encoding="utf-8", dimensions=(30, 40), env=env, timeout=20
    )
    try:
        spawned.expect(r"> $")
        lines = [line.rstrip() for line in ANSI.sub("", spawned.before or "").replace("\r", "").splitlines()]
    finally:
        spawned.close(force=True)
    sentence = "Goat — you sit at seat 0; partner: greedy; opponents: greedy; seed 3."
    start = next(i for i, line in enumerate(lines) if line.startswith("Goat — "))
    wrapped = []
    for line in lines[start:]:
        wrapped.append(line)
        if line.endswith("seed 3."):
            break
    assert len(wrapped) > 1 and all(len(line) <= 40 for line in wrapped)
    assert " ".join(wrapped) == sentence  # every break falls between two words


def _spawn(command: str, columns: int = 80, **options: object) -> pexpect.spawn:
    """``goat`` with ``command`` in a pseudo-terminal of ``columns`` columns."""
    goat_cmd = shutil.which("goat") or f"{sys.executable} -m goat"
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(columns), "LINES": "40"}
    return pexpect.spawn(
        f"{goat_cmd} {command}", encoding="utf-8", dimensions=(40, columns), env=env, timeout=120, **options
    )


def _lines(text: str) -> list[str]:
    """What a terminal shows of ``text``, line by line: a carriage return starts the line again (a progress bar)."""
    return [part for line in ANSI.sub("", text).split("\n") for part in line.split("\r")]


def _whole_output(command: str, columns: int = 80) -> list[str]:
    child = _spawn(command, columns)
    try:
        child.expect(pexpect.EOF)
        return _lines(child.before or "")
    finally:
        child.close(force=True)


HELPS = ["--help", *(f"{name} --help" for name in ("play", "match", "tournament", "strategies", "bot", "replay"))]


@pytest.mark.parametrize("command", [*HELPS, "sandbox --help", "strategies", "sandbox"])
def test_every_help_and_table_fits_80_columns(command: str) -> None:
    lines = _whole_output(command)
    assert len(lines) > 3 and max(map(len, lines)) <= 80, max(lines, key=len)


def test_help_fits_80_columns_in_a_wider_terminal_too() -> None:
    lines = _whole_output("play --help", columns=200)
    assert max(map(len, lines)) <= 80, max(lines, key=len)


def test_the_readmes_first_tournament_fits_80_columns_with_every_header_whole() -> None:
    # Found by a review: in 80 columns the README's first command printed 'entr…', 'gree…' and 'faul…'.
    lines = _whole_output("tournament random greedy --matches 100 --seed 1")
    assert max(map(len, lines)) <= 80, max(lines, key=len)
    table = "\n".join(lines[lines.index("Duplicate round-robin") :])
    assert "…" not in table and "95% CI" in table
    for word in ("entrant", "matches", "games", "defeat", "faults"):
        assert word in table
    assert re.search(r"^greedy +\d+/100 ", table, re.M) and re.search(r"^random +\d+/100 ", table, re.M)


EXEC_BOT = f"exec:{sys.executable} examples/bots/python_bot.py"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROW = re.compile(r"^(?P<name>.+?)\s+(?P<numbers>\d+/\d+ .*)$")


def _table_rows(lines: list[str]) -> dict[str, list[str]]:
    """The tournament table's rows: each entrant's name (as shown) and its cells."""
    rows = {}
    for line in lines[next(i for i, line in enumerate(lines) if line.startswith("entrant")) :]:
        found = ROW.match(line)
        if found:
            rows[found["name"]] = found["numbers"].split()
        elif rows and line:
            return rows
    return rows


def test_a_long_entrant_name_fits_a_terminal_and_is_whole_in_a_pipe() -> None:
    # Found by a review: piped output was 120 columns wide and cut the last column when an entrant's name was
    # long.  In a terminal, the intervals go and the name is shortened; to a pipe, nothing is cut.
    command = f"tournament greedy random '{EXEC_BOT}' --matches 2 --seed 1 --jobs 1"
    child = _spawn(command, cwd=ROOT)
    try:
        child.expect(pexpect.EOF)
        terminal = _lines(child.before or "")
    finally:
        child.close(force=True)
    assert max(map(len, terminal)) <= 80, max(terminal, key=len)
    shown = _table_rows(terminal)
    assert len(shown) == 3 and all("…" not in cell for cells in shown.values() for cell in cells)
    assert any(name.endswith("…") for name in shown) and "(95% CI left out to fit 80 columns)" in terminal
    goat_cmd = shutil.which("goat") or f"{sys.executable} -m goat"
    piped = subprocess.run(
        f"{goat_cmd} {command}", shell=True, cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    assert "…" not in piped.stdout and "matches/s" not in piped.stderr  # no progress bar where nobody watches
    rows = _table_rows(piped.stdout.splitlines())
    assert set(rows) == {"greedy", "random", EXEC_BOT} and all(len(cells) == 8 for cells in rows.values())
    for name, cells in shown.items():  # the terminal shows the same numbers, fewer of them
        whole = next(cells_ for full, cells_ in rows.items() if full.startswith(name.rstrip("…")))
        assert [whole[i] for i in (0, 1, 3, 4, 6, 7)] == cells


def test_the_help_typed_in_a_game_fits_80_columns() -> None:
    child = _spawn("play --seat 0 --seed 3")
    try:
        child.expect(r"> $")
        child.sendline("help")
        child.expect(r"> $")
        lines = _lines(child.before or "")
        child.sendline("quit")
        child.expect(r"\[y/N\] $")
        child.sendline("y")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert max(map(len, lines)) <= 80, max(lines, key=len)
    for line in tui.HELP.splitlines():  # each line whole: the help is written for 80 columns, not wrapped into them
        assert line in lines


def test_ctrl_c_in_a_saved_game_keeps_the_game_so_far(tmp_path: Path) -> None:
    # Found by a review: Ctrl-C in 'goat play --save' left a file with "moves": [], where 'quit' and Ctrl-D keep
    # the game so far.
    save = tmp_path / "match.json"
    bots = table_bots(SEAT, "greedy", "random", SEED)
    state = goat.Match().new_game(seed=game_seeds(SEED).randrange(2**63))
    child = _spawn(f"play --seat {SEAT} --partner greedy --opponents random --seed {SEED} --save {save}", 120)
    try:
        for seat, bot in bots.items():
            goat.strategy.start_game(bot, goat.view(state, seat))
        typed_moves = 0
        while typed_moves < 2:
            if state.to_move != SEAT:
                seen = goat.view(state, state.to_move)  # type: ignore[arg-type]
                state = goat.play(state, bots[state.to_move].choose(seen, seen.legal_moves))  # type: ignore[index]
                continue
            child.expect(r"> $")
            move = goat.legal_moves(state)[0]
            child.sendline(typed(move))
            state = goat.play(state, move)
            typed_moves += 1
        while state.to_move != SEAT:  # the bots play on to the next prompt
            seen = goat.view(state, state.to_move)  # type: ignore[arg-type]
            state = goat.play(state, bots[state.to_move].choose(seen, seen.legal_moves))  # type: ignore[index]
        child.expect(r"> $")
        child.sendintr()  # Ctrl-C at the prompt: SIGINT to the command
        child.expect("Interrupted.")
        child.expect(f"Saved to {save}")
        child.expect(pexpect.EOF)
        child.close()
    finally:
        child.close(force=True)
    assert child.exitstatus == 130
    (game,) = goat.records.loads(save.read_bytes()).games  # type: ignore[union-attr]
    assert game.result is None and list(game.moves) == list(state.history)
