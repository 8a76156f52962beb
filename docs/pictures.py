"""The documentation's pictures, drawn by goat itself when the docs are built (docs/conf.py runs this).

Each picture is an SVG of a position from the rules page's worked examples (the same deals and moves as
its doctests), and ``replay.html`` is the step-by-step replay of a real game between bots.  They are made
afresh at every build, into ``_build/pictures`` (served as ``_static/pictures/``), so they can never
drift from what the engine does.
"""

from __future__ import annotations

from pathlib import Path

import goat
from goat import Move, arena, records, svg


def deal(hands: list[str], trump_card: str, dealer: int = 3) -> goat.GameState:
    """The rules page's helper: a game whose deal gives these hands (by seat)."""
    held = [goat.cards(hand) for hand in hands]
    order = [held[(dealer + 1 + i) % 4][r] for r in range(4) for i in range(4)]
    rest = [c for c in goat.DECK if c not in order]
    return goat.new_game(deck=order + rest, trump_card=trump_card, dealer=dealer)


def run(state: goat.GameState, *moves: str) -> goat.GameState:
    for text in moves:
        state = goat.play(state, Move.from_str(text))
    return state


def pictures() -> dict[str, str]:
    """File name → contents."""
    r13 = deal(["9H 10C QS 7S", "10H 9D JS 6C", "KH AH 8S 6D", "7H 8D KC AC"], trump_card="AD")
    beaten = run(r13, "0 lead QS 7S", "1 beat 9D JS")
    won = run(beaten, "2 pass KH AH", "3 pass KC 7H")
    molodka = deal(["10C JS 6D 7D", "AC 9D QS 6C", "KH AH 8S 7C", "6H 7H 8H 9H"], trump_card="AS")
    before = run(molodka, "3 wait", "0 lead 10C", "3 wait", "1 beat AC")
    declared = run(before, "3 molodka 6H 7H 8H 9H")
    priority = deal(["10C JS 6D 7D", "6C 7C 8C 9C", "KH AH 8S AC", "6H 7H 8H 9H"], trump_card="AS", dealer=1)
    bots = [goat.load_strategy(name, seed=seat) for seat, name in enumerate(["greedy", "random"] * 2)]
    game = arena.play_game(bots, seed=5, names=["greedy", "random"] * 2)
    start = goat.new_game(seed=1)
    return {
        "new-game.svg": svg.table(start),
        "new-game-view.svg": svg.view(goat.view(start, 0)),
        "card.svg": svg.card(goat.Card.from_str("10H"), trump=goat.Suit.HEARTS),
        "hand.svg": svg.hand(start.hands[0], trump=start.trump),
        "r6-beat.svg": svg.trick(beaten.table, goat.Suit.DIAMONDS),
        "r13-table.svg": svg.table(beaten),
        "r13-trick.svg": svg.trick(won.tricks[0], goat.Suit.DIAMONDS),
        "r13-view.svg": svg.view(goat.view(won, 0)),
        "r14-before.svg": svg.table(before),
        "r14-declared.svg": svg.table(declared),
        "r14-priority.svg": svg.table(priority),
        "replay.html": records.to_html(game, title="A game between bots: greedy (seats 0, 2) and random (1, 3)"),
    }


def write(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in pictures().items():
        (folder / name).write_text(text, encoding="utf-8")
