"""Dealing a game: deck, stock, trump card, dealer and leader (R7–R9)."""

from __future__ import annotations

import pytest

import goat
from goat import DECK, Card, InvalidDealError, Suit, cards
from tests.conftest import deck_for, hand


def test_r7_cards_dealt_one_at_a_time_from_the_dealers_left() -> None:
    state = goat.new_game(deck=DECK, trump_card="9S", dealer=3)
    # Dealer 3: seat 0 gets DECK[0], seat 1 DECK[1], ..., the dealer DECK[3]; four rounds.
    for seat in range(4):
        assert state.hands[seat] == frozenset(DECK[seat::4][:4])
    assert state.stock == DECK[16:]
    state = goat.new_game(deck=DECK, trump_card="9S", dealer=1)
    assert state.hands[2] == frozenset(DECK[0:16:4])  # the seat after the dealer receives first
    assert state.hands[1] == frozenset(DECK[3:16:4])  # the dealer receives last


def test_r7_every_seat_holds_four_and_the_stock_twenty() -> None:
    state = goat.new_game(seed=11)
    assert [len(h) for h in state.hands] == [4, 4, 4, 4]
    assert len(state.stock) == 20
    assert set().union(*state.hands, state.stock) == set(DECK)
    assert state.table == () and state.tricks == () and not state.is_over


def test_r8_trump_is_the_suit_of_the_named_card() -> None:
    state = goat.new_game(deck=DECK, trump_card=Card.from_str("9S"), dealer=0)
    assert state.trump_card == Card.from_str("9S") and state.trump is Suit.SPADES
    assert state.stock == DECK[16:]  # the card is shown and returned to its place


def test_r8_seeded_trump_card_lies_in_the_stock() -> None:
    for seed in range(200):
        state = goat.new_game(seed=seed)
        assert state.trump_card in state.stock
        assert state.trump is state.trump_card.suit


def test_r8_trump_card_outside_the_stock_is_rejected_naming_where_it_is() -> None:
    with pytest.raises(InvalidDealError, match=r"6C is dealt to seat 0") as raised:
        goat.new_game(deck=DECK, trump_card="6C", dealer=3)
    assert isinstance(raised.value, ValueError)


def test_r8_fixed_deck_without_trump_card_draws_it_from_the_stock_with_the_seed() -> None:
    a = goat.new_game(7, deck=DECK)
    assert a.trump_card in a.stock
    assert a == goat.new_game(7, deck=DECK)


def test_r9_seat_after_the_dealer_leads() -> None:
    for dealer in range(4):
        state = goat.new_game(deck=DECK, trump_card="AS", dealer=dealer)
        assert state.dealer == dealer
        assert state.leader == state.to_move == (dealer + 1) % 4
    assert goat.new_game(seed=7).dealer == 0 and goat.new_game(seed=7).leader == 1


def test_the_same_seed_gives_the_same_game_and_different_seeds_differ() -> None:
    assert goat.new_game(seed=5) == goat.new_game(seed=5)
    assert hash(goat.new_game(seed=5)) == hash(goat.new_game(seed=5))
    assert len({goat.new_game(seed=s).deck for s in range(50)}) == 50


def test_a_deck_may_be_given_as_text_or_strings() -> None:
    as_text = goat.new_game(deck=" ".join(str(c) for c in DECK), trump_card="9S")
    assert as_text == goat.new_game(deck=[str(c) for c in DECK], trump_card="9S")
    assert as_text == goat.new_game(deck=DECK, trump_card="9S")


@pytest.mark.parametrize(
    ("deck", "why"),
    [
        (DECK[:35], "35 cards, not 36.*missing: AS"),
        ((*DECK[:35], DECK[0]), "twice: 6C.*missing: AS"),
        ((*DECK, DECK[0]), "37 cards"),
        ((*DECK[:35], "AS?"), "not a card"),
        ((*DECK[:35], 7), "not 7"),
    ],
)
def test_a_bad_deck_is_rejected_saying_what_is_wrong(deck: tuple[object, ...], why: str) -> None:
    with pytest.raises(ValueError, match=why):
        goat.new_game(deck=deck, trump_card="9S")  # type: ignore[arg-type]


@pytest.mark.parametrize("dealer", [-1, 4, 1.0, "0", None, True])
def test_a_seat_outside_0_to_3_is_rejected(dealer: object) -> None:
    with pytest.raises(InvalidDealError, match="dealer must be a seat"):
        goat.new_game(seed=1, dealer=dealer)  # type: ignore[arg-type]


def test_other_bad_arguments_are_rejected() -> None:
    with pytest.raises(InvalidDealError, match="fixed deck"):
        goat.new_game(seed=1, trump_card="9S")
    with pytest.raises(TypeError, match="seed"):
        goat.new_game(seed="7")  # type: ignore[arg-type]
    with pytest.raises(InvalidDealError, match="defeat"):
        goat.new_game(seed=1, defeat=(0, -2))


def test_the_helper_deals_the_hands_it_is_given() -> None:
    state = goat.new_game(
        deck=deck_for(["6C 7C 8C 9C", "6D 7D 8D 9D", "6H 7H 8H 9H", "6S 7S 8S 9S"]), trump_card="AS", dealer=3
    )
    assert hand(state, 2) == "6H 7H 8H 9H"
    assert set(state.stock) == set(DECK) - set(cards("6C 7C 8C 9C 6D 7D 8D 9D 6H 7H 8H 9H 6S 7S 8S 9S"))


def test_a_deck_that_is_not_a_collection_is_named() -> None:
    with pytest.raises(goat.InvalidDealError, match="deck must be the 36 cards in order"):
        goat.new_game(deck=5)  # type: ignore[arg-type]


def test_new_game_plays_given_moves_and_names_the_step_that_fails() -> None:
    state = goat.new_game(seed=4)
    for _ in range(6):
        state = goat.play(state, goat.legal_moves(state)[-1])
    again = goat.new_game(seed=4, moves=[str(m) for m in state.history])
    assert again == state and goat.new_game(seed=4, moves=state.history) == state
    with pytest.raises(goat.IllegalMoveError, match="move 2: illegal move"):
        goat.new_game(seed=4, moves=[str(state.history[0]), str(state.history[0])])
    with pytest.raises(goat.InvalidMoveError, match="move 1: not a move"):
        goat.new_game(seed=4, moves=["1 jump 6C"])
    with pytest.raises(TypeError, match="moves must be a list"):
        goat.new_game(seed=4, moves="1 lead 6C")
