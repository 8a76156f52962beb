"""Cards, ranks, suits, parsing, points and beating (R1–R6)."""

from __future__ import annotations

import itertools
import random

import pytest

import goat
from goat import DECK, Card, InvalidCardError, Rank, Suit, beats, beats_set, cards


def test_r2_deck_has_36_distinct_cards_in_canonical_order() -> None:
    assert len(DECK) == 36
    assert len(set(DECK)) == 36
    assert [c.suit for c in DECK[::9]] == [Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES]
    assert [str(c) for c in DECK[:9]] == ["6C", "7C", "8C", "9C", "JC", "QC", "KC", "10C", "AC"]
    assert all(card.index == i for i, card in enumerate(DECK))
    assert [Card.from_index(i) for i in range(36)] == list(DECK)


def test_r3_rank_priority_puts_ten_above_king() -> None:
    order = [Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.TEN, Rank.ACE]
    assert sorted(Rank) == order
    assert Rank.KING < Rank.TEN < Rank.ACE
    assert [str(r) for r in order] == ["6", "7", "8", "9", "J", "Q", "K", "10", "A"]


def test_r4_points_per_rank_and_deck_total() -> None:
    assert {str(r): r.points for r in Rank} == {
        "6": 0,
        "7": 0,
        "8": 0,
        "9": 0,
        "J": 2,
        "Q": 3,
        "K": 4,
        "10": 10,
        "A": 11,
    }
    assert sum(card.points for card in DECK) == 120
    assert Card.from_str("10C").points == 10


def test_suit_strings_and_symbols() -> None:
    assert [str(s) for s in Suit] == ["C", "D", "H", "S"]
    assert [s.symbol for s in Suit] == ["♣", "♦", "♥", "♠"]
    assert Suit.from_str("♥") is Suit.HEARTS
    assert Suit.from_str("s") is Suit.SPADES
    with pytest.raises(InvalidCardError, match="'X'"):
        Suit.from_str("X")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10H", Card(Rank.TEN, Suit.HEARTS)),
        ("TH", Card(Rank.TEN, Suit.HEARTS)),
        ("10♥", Card(Rank.TEN, Suit.HEARTS)),
        ("th", Card(Rank.TEN, Suit.HEARTS)),
        ("q♠", Card(Rank.QUEEN, Suit.SPADES)),
        (" 6c ", Card(Rank.SIX, Suit.CLUBS)),
        ("A♢", Card(Rank.ACE, Suit.DIAMONDS)),
    ],
)
def test_parsing_accepts_the_usual_spellings(text: str, expected: Card) -> None:
    assert Card.from_str(text) == expected


@pytest.mark.parametrize("text", ["", "1H", "11H", "10", "H", "10X", "5S", "10HH", "QS QH", "♥10"])
def test_parsing_rejects_anything_else_quoting_the_text(text: str) -> None:
    with pytest.raises(InvalidCardError) as raised:
        Card.from_str(text)
    assert repr(text) in str(raised.value)
    assert isinstance(raised.value, ValueError)


def test_parsing_a_non_string_is_a_clear_error() -> None:
    with pytest.raises(InvalidCardError, match="42"):
        Card.from_str(42)  # type: ignore[arg-type]


def test_str_and_from_str_are_a_matched_pair_and_repr_pastes_back() -> None:
    for card in DECK:
        assert Card.from_str(str(card)) == card
        assert eval(repr(card), {"Card": Card}) == card
    assert str(Card(Rank.TEN, Suit.HEARTS)) == "10H"
    assert Card(Rank.TEN, Suit.HEARTS).symbol == "10♥"
    assert repr(Suit.HEARTS) == "Suit.HEARTS" and repr(Rank.TEN) == "Rank.TEN"


def test_cards_parses_in_the_given_order() -> None:
    assert cards("10H QS 6C") == (Card.from_str("10H"), Card.from_str("QS"), Card.from_str("6C"))
    assert cards("") == ()
    with pytest.raises(InvalidCardError, match="'ZZ'"):
        cards("10H ZZ")


def test_cards_are_values_hashable_and_ordered_like_the_deck() -> None:
    a, b = Card(Rank.ACE, Suit.CLUBS), Card.from_str("AC")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    shuffled = list(DECK)
    random.Random(1).shuffle(shuffled)
    assert sorted(shuffled) == list(DECK)
    assert Card.from_str("AC") < Card.from_str("6D")
    assert Card.from_str("AC") != "AC"


def test_card_validates_its_fields() -> None:
    with pytest.raises(TypeError):
        Card("10", Suit.HEARTS)  # type: ignore[arg-type]
    with pytest.raises(AttributeError):
        Card.from_str("6C").rank = Rank.ACE  # type: ignore[misc]
    with pytest.raises(InvalidCardError):
        Card.from_index(36)


def test_r5_same_suit_higher_priority_beats() -> None:
    trump = Suit.SPADES
    assert beats(Card.from_str("9H"), Card.from_str("7H"), trump)
    assert beats(Card.from_str("10C"), Card.from_str("QC"), trump)
    assert beats(Card.from_str("10C"), Card.from_str("KC"), trump)
    assert not beats(Card.from_str("KC"), Card.from_str("10C"), trump)
    assert not beats(Card.from_str("7H"), Card.from_str("7H"), trump)


def test_r5_trump_beats_any_non_trump_and_higher_trump_beats_trump() -> None:
    assert beats(Card.from_str("6H"), Card.from_str("AS"), Suit.HEARTS)
    assert not beats(Card.from_str("AS"), Card.from_str("6H"), Suit.HEARTS)
    assert beats(Card.from_str("7H"), Card.from_str("6H"), Suit.HEARTS)
    assert not beats(Card.from_str("6H"), Card.from_str("7H"), Suit.HEARTS)


def test_r5_different_non_trump_suits_cannot_be_compared() -> None:
    a, b = Card.from_str("AS"), Card.from_str("10D")
    assert not beats(a, b, Suit.HEARTS) and not beats(b, a, Suit.HEARTS)


def test_r5_beats_agrees_with_the_definition_for_every_pair() -> None:
    for trump in Suit:
        for a, b in itertools.product(DECK, DECK):
            expected = (a.suit == b.suit and a.rank > b.rank) or (a.suit == trump and b.suit != trump)
            assert beats(a, b, trump) == expected, (a, b, trump)


def test_r6_mixed_suit_set_beats_by_one_to_one_pairing() -> None:
    # The example of R6 in docs/rules.md: spades led, diamonds trump; 9D + JS beats QS + 7S.
    assert beats_set(cards("9D JS"), cards("QS 7S"), Suit.DIAMONDS)
    # JS beats 7S but not QS, and 8S beats 7S only: no pairing covers QS.
    assert not beats_set(cards("JS 8S"), cards("QS 7S"), Suit.DIAMONDS)


def test_r6_pairing_must_be_one_to_one() -> None:
    # AS beats both QS and 7S, but one card cannot cover two.
    assert not beats_set(cards("AS 6C"), cards("QS 7S"), Suit.DIAMONDS)
    # A greedy pairing (AS with 7S first) would fail; the matching must search.
    assert beats_set(cards("AS 8S"), cards("QS 7S"), Suit.DIAMONDS)


def test_r6_sizes_must_match() -> None:
    assert not beats_set(cards("AS KS"), cards("6S"), Suit.HEARTS)
    assert not beats_set((), cards("6S"), Suit.HEARTS)


def test_r6_four_card_beat_with_trumps() -> None:
    top = cards("6H 7H 8H 9H")
    assert beats_set(cards("JH QH 6S 7S"), top, Suit.SPADES)
    assert not beats_set(cards("JH QH 6S 7C"), top, Suit.SPADES)


def test_r6_beats_set_agrees_with_brute_force_on_all_two_card_sets_of_two_suits() -> None:
    pool = [c for c in DECK if c.suit in (Suit.HEARTS, Suit.SPADES)][::2]
    pairs = list(itertools.combinations(pool, 2))
    for new, top in itertools.product(pairs, pairs):
        expected = any(
            all(beats(a, b, Suit.SPADES) for a, b in zip(perm, top, strict=True))
            for perm in itertools.permutations(new)
        )
        assert beats_set(new, top, Suit.SPADES) == expected


def test_beats_set_rejects_duplicates_and_non_cards() -> None:
    with pytest.raises(ValueError, match="twice"):
        beats_set([Card.from_str("AS"), Card.from_str("AS")], cards("6S 7S"), Suit.HEARTS)
    with pytest.raises(TypeError):
        beats_set(["AS"], cards("6S"), Suit.HEARTS)  # type: ignore[list-item]


def test_public_names_are_exported() -> None:
    for name in ("Card", "Rank", "Suit", "DECK", "cards", "beats", "beats_set", "InvalidCardError"):
        assert name in goat.__all__


def test_beats_rejects_what_is_not_a_card_or_a_suit() -> None:
    with pytest.raises(TypeError, match="two Card objects"):
        beats("AS", Card.from_str("KS"), Suit.SPADES)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="trump must be a Suit"):
        beats(Card.from_str("AS"), Card.from_str("KS"), "S")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="trump must be a Suit"):
        beats_set(cards("AS"), cards("KS"), None)  # type: ignore[arg-type]
