"""The hoarder's own tests: conformance (goat.testing.check_strategy) and one of its rules.

Run them with ``pip install -e '.[test]' && python -m pytest`` in this folder.
"""

from __future__ import annotations

from goat_plugin_example import Hoarder, factory

import goat
from goat.testing import check_strategy


def test_the_hoarder_plays_by_the_rules() -> None:
    # Illegal moves, exceptions, tampering with its view, non-determinism under a seed: all caught here.
    check_strategy(factory, games=3)
    check_strategy(factory, games=2, greed=10)  # options are passed to the factory


def test_the_hoarder_leads_its_cheapest_single_card() -> None:
    # Seat 0 leads (dealer 3, R9) holding 6C, 9C, AH and the trump 7S: the six of clubs is its cheapest card.
    hands = ["6C 9C AH 7S", "7C 8C 6D 7D", "JC QC 8D 9D", "KC 10C JD QD"]
    # One card at a time from the dealer's left (R7): deck position 4 * round + i goes to seat (3 + 1 + i) % 4.
    deck = [goat.Card.from_str(hands[(4 + i) % 4].split()[round_]) for round_ in range(4) for i in range(4)]
    deck += [card for card in goat.DECK if card not in deck]
    state = goat.new_game(deck=deck, trump_card="AS", dealer=3)
    seen = goat.view(state, 0)
    move = Hoarder(seed=1).choose(seen, seen.legal_moves)
    assert move == goat.Move.from_str("0 lead 6C")
