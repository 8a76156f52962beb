"""The built-in bots: random and greedy play by the rules, and greedy follows its documented rules."""

from __future__ import annotations

import pytest

import goat
from goat.bots.greedy import GreedyBot
from goat.testing import check_strategy
from tests.conftest import game, run


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_builtin_bots_pass_the_conformance_check(name: str) -> None:
    check_strategy(goat.strategy_factory(name), games=4)


def greedy_move(state: goat.GameState) -> str:
    seat = state.to_move
    assert seat is not None
    seen = goat.view(state, seat)
    return str(GreedyBot(seed=0).choose(seen, seen.legal_moves))


def test_greedy_loads_points_onto_the_partners_safe_trick() -> None:
    # Spades are trump.  Seat 1 took the lead with AC; seat 3 plays last, so the trick is safe.
    state = game(["6C 9H JD QS", "AC 7H 8H KD", "7D 9D 6H 8C", "10H 6S 7S 8D"], trump_card="AS")
    state = run(state, "0 lead 6C", "1 beat AC", "2 pass 7D")
    assert greedy_move(state) == "3 pass 10H"  # the ten, not a trump


def test_greedy_passes_worthless_cards_onto_an_opponents_trick() -> None:
    state = game(["AH 9H JD QS", "KC 6D 9C QD", "7D 9D 6H 8C", "10H 6S 7S 8D"], trump_card="AS")
    state = run(state, "0 lead AH")
    assert greedy_move(state) == "1 pass 6D"


def test_greedy_beats_as_cheaply_as_possible() -> None:
    # Dealer 1, so seat 2 leads and seat 1 plays last.
    state = game(["8C 9D 7C QS", "10H JH 6S KD", "9H 6C JC 7D", "8H 10C 6D 8S"], trump_card="AS", dealer=1)
    state = run(state, "2 lead 9H", "3 pass 6D", "0 pass 7C")
    assert greedy_move(state) == "1 beat JH"  # not the ten, not the trump


def test_greedy_keeps_trumps_for_tricks_worth_them() -> None:
    hands = ["8C 9D 7C QS", "6S 8D 9C QC", "{lead} 6C JC 7D", "8H 10C 6D 8S"]
    cheap = game([h.format(lead="7H") for h in hands], trump_card="AS", dealer=1)
    cheap = run(cheap, "2 lead 7H", "3 pass 6D", "0 pass 7C")
    assert greedy_move(cheap) == "1 pass 8D"
    rich = game([h.format(lead="AH") for h in hands], trump_card="AS", dealer=1)
    rich = run(rich, "2 lead AH", "3 pass 6D", "0 pass 7C")
    assert greedy_move(rich) == "1 beat 6S"


def test_greedy_declares_a_winning_molodka() -> None:
    state = game(["JH QH 6D 7C", "10C 9D JS 6C", "6S 7S 8S 9S", "7H 8D KC AC"], trump_card="AS")
    assert state.to_move == 2
    assert greedy_move(state) == "2 molodka 6S 7S 8S 9S"


def test_greedy_leads_its_molodka() -> None:
    state = game(["6H 7H 8H 9H", "10C 9D JS 6C", "JH QH 6D 7C", "7S 8D KC AC"], trump_card="AS")
    assert greedy_move(state) == "0 lead 6H 7H 8H 9H"


def test_greedy_beats_random_clearly() -> None:
    from goat import arena
    from tests.test_arena import InlineExecutor

    result = arena.run_tournament(["greedy", "random"], matches=20, seed=5, executor=InlineExecutor())
    assert result["greedy"].match_wins >= 17
