"""Helpers for hand-built deals: name the hands and the stock, get a game."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import attrs
import pytest

import goat
from goat import DECK, Card, GameState, Move, cards


def deck_for(hands: Sequence[str], stock: str | None = None, *, dealer: int = 3) -> tuple[Card, ...]:
    """The deck order that deals ``hands`` (by seat, four cards each) when ``dealer`` deals (R7).

    The stock is ``stock`` (top first) if given, else every other card in DECK order.
    """
    held = [cards(text) for text in hands]
    assert all(len(hand) == 4 for hand in held), "each hand is four cards"
    order: list[Card] = []
    for round_ in range(4):
        for offset in range(1, 5):  # one card at a time, from the dealer's left (R7)
            order.append(held[(dealer + offset) % 4][round_])
    rest = cards(stock) if stock is not None else tuple(c for c in DECK if c not in order)
    return (*order, *rest)


def game(hands: Sequence[str], trump_card: str, stock: str | None = None, *, dealer: int = 3) -> GameState:
    """A new game with these hands; with the default dealer 3, seat 0 leads (R9)."""
    return goat.new_game(deck=deck_for(hands, stock, dealer=dealer), trump_card=trump_card, dealer=dealer)


def run(state: GameState, *moves: str) -> GameState:
    """Play moves given in notation, e.g. ``run(state, "0 lead 9H", "1 beat 10H")``."""
    for text in moves:
        state = goat.play(state, Move.from_str(text))
    return state


def hand(state: GameState, seat: int) -> str:
    """A seat's hand as sorted text, for readable assertions."""
    return " ".join(str(card) for card in sorted(state.hands[seat]))


@pytest.fixture
def random_game_states() -> list[GameState]:
    """Every state of a few seeded random games."""
    import random

    rng = random.Random(99)
    states = []
    for seed in range(20):
        state = goat.new_game(seed=seed)
        states.append(state)
        while not state.is_over:
            state = goat.play(state, rng.choice(goat.legal_moves(state)))
            states.append(state)
    return states


@pytest.fixture
def fake_distribution(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    """Install a distribution's metadata (no code) on sys.path, the way flake8 tests local plugins.

    ``fake_distribution("name", {"entry": "module:attr"}, version="1.0", code={"module.py": "..."})``
    """
    monkeypatch.delenv("GOAT_DISABLE_PLUGIN_AUTOLOAD", raising=False)

    def make(name: str, entries: dict[str, str], *, version: str = "1.0", code: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
        root = tmp_path / name
        info = root / f"{name.replace('-', '_')}-{version}.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
        lines = "\n".join(f"{key} = {value}" for key, value in entries.items())
        (info / "entry_points.txt").write_text(f"[goat.strategies]\n{lines}\n")
        for filename, text in (code or {}).items():
            (root / filename).write_text(text)
        monkeypatch.syspath_prepend(str(root))
        return root

    return make


def every_card(state: GameState) -> list[Card]:
    """Every card of a state, wherever it is: hands, stock, table and tricks (R7, R13, R15)."""
    return [
        *[card for hand in state.hands for card in hand],
        *state.stock,
        *[card for move in state.table for card in move.cards],
        *[card for trick in state.tricks for card in trick.cards],
    ]


def finish(state: GameState, rng: random.Random) -> GameState:
    """Play uniformly random legal moves to the end of the game."""
    while not state.is_over:
        state = goat.play(state, rng.choice(goat.legal_moves(state)))
    return state


def random_game(seed: int, *, dealer: int = 0) -> GameState:
    """A whole game of random moves, seeded."""
    return finish(goat.new_game(seed=seed, dealer=dealer), random.Random(seed))


def reachable(value: object) -> Iterator[object]:
    """Every value reachable from ``value`` through attrs classes and containers."""
    yield value
    if attrs.has(type(value)):
        for field in attrs.fields(type(value)):
            yield from reachable(getattr(value, field.name))
    elif isinstance(value, (tuple, list, frozenset, set)):
        for item in value:
            yield from reachable(item)
