"""`goat play` in a real pseudo-terminal: a whole game typed in, bad input included, the screen checked.

The test sits at the same table as the command: it rebuilds the same bots and deals from the same
seed (goat.cli.table_bots, goat.cli.game_seeds), so it knows every state and types a legal move at
each prompt, after trying some that the rules refuse.
"""

from __future__ import annotations

import os
import re
import shutil
import sys

import pytest

import goat
from goat import MoveKind
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
