"""Pictures: every drawing is well-formed SVG 1.1 and shows exactly the cards its state or view holds (R23)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

import goat
import goat.testing as gt
from goat import MoveKind, svg

SVG = "{http://www.w3.org/2000/svg}"


def parse(drawing: str) -> ET.Element:
    root = ET.fromstring(drawing.encode("utf-8"))  # well-formed XML, the SVG namespace, version 1.1
    assert root.tag == f"{SVG}svg" and root.get("version") == "1.1"
    assert root.get("width") and root.get("height") and root.find(f"{SVG}title") is not None
    return root


def cards_drawn(drawing: str) -> Counter[str]:
    return Counter(g.get("data-card") for g in parse(drawing).iter(f"{SVG}g") if g.get("data-card"))  # type: ignore[misc]


@given(gt.game_states(molodka=True))
def test_the_table_shows_every_card_of_the_state_once(state: goat.GameState) -> None:
    drawn = cards_drawn(svg.table(state))
    expected = Counter(str(c) for hand in state.hands for c in hand)
    expected.update(str(c) for play in state.table for c in play.cards)
    expected[str(state.trump_card)] += 1  # the card shown (R8), beside the stock
    if state.stock:
        expected["back"] += 1  # the stock, face down
    assert drawn == expected


@given(gt.game_states(molodka=True), st.integers(0, 3))
def test_a_views_drawing_never_holds_a_hidden_card(state: goat.GameState, seat: int) -> None:
    seen = goat.view(state, seat)
    drawn = cards_drawn(svg.view(seen))
    visible = Counter(str(c) for c in seen.hand)
    visible.update(str(c) for play in seen.table for c in play.cards)
    visible[str(seen.trump_card)] += 1
    backs = sum(size for s, size in enumerate(seen.hand_sizes) if s != seat)
    backs += sum(play.size for play in seen.table if play.hidden) + (1 if seen.stock_size else 0)
    visible["back"] += backs
    assert drawn == +visible
    # Another seat's cards never show, but for the trump card, which everyone knows (R8), wherever it went.
    others = {str(c) for s, h in enumerate(state.hands) if s != seat for c in h} - {str(state.trump_card)}
    assert not others & set(drawn)


def test_cards_hands_and_tricks() -> None:
    ace = goat.Card.from_str("AH")
    assert cards_drawn(svg.card(ace)) == Counter({"AH": 1})
    assert 'class="card trump"' in svg.card(ace, trump=goat.Suit.HEARTS)
    assert "#c62828" in svg.card(ace) and "#c62828" not in svg.card(goat.Card.from_str("AS"))  # red hearts
    held = goat.cards("6C AH 9S 10H")
    fanned = parse(svg.hand(held, trump=goat.Suit.SPADES))
    order = [g.get("data-card") for g in fanned.iter(f"{SVG}g") if g.get("data-card")]
    assert order == ["6C", "10H", "AH", "9S"]  # side suits first, the trump last
    plays = [goat.Move.from_str(t) for t in ("0 lead 9H", "1 beat 10H", "2 pass 6C", "3 beat 6S")]
    finished = goat.Trick(tuple(plays), goat.trick_winner(plays, goat.Suit.SPADES))
    drawing = svg.trick(finished, goat.Suit.SPADES)
    assert cards_drawn(drawing) == Counter({"9H": 1, "10H": 1, "6C": 1, "6S": 1}) and "won by seat 3" in drawing
    top = [g.get("data-card") for g in parse(drawing).iter(f"{SVG}g") if "top" in (g.get("class") or "").split()]
    assert top == ["6S"]  # the top play (R12) is marked


def test_another_seats_pass_is_drawn_face_down_in_a_view() -> None:
    state = goat.new_game(seed=1)
    while not any(m.kind is MoveKind.PASS for m in state.table):
        state = goat.play(state, next(m for m in goat.legal_moves(state) if m.kind is not MoveKind.BEAT))
    passer = next(m for m in state.table if m.kind is MoveKind.PASS)
    other = (passer.seat + 1) % 4
    assert not {str(c) for c in passer.cards} & set(cards_drawn(svg.view(goat.view(state, other))))
    assert {str(c) for c in passer.cards} <= set(cards_drawn(svg.view(goat.view(state, passer.seat))))


def test_notebooks_show_cards_tricks_tables_and_views_as_pictures() -> None:
    """IPython's own display formatter (what Jupyter calls) finds an SVG picture for each value, and each
    picture is the one goat.svg draws: the table of ``new_game(seed=1)`` holds its 16 cards, a view hides."""
    from IPython.core.formatters import DisplayFormatter

    state = goat.new_game(seed=1)
    for _ in range(4):
        state = goat.play(state, goat.legal_moves(state)[0])
    seen = goat.view(state, 1)
    formatter = DisplayFormatter()
    values = (goat.Card.from_str("10H"), state.tricks[0], state, seen)
    for value in values:
        shown, _ = formatter.format(value)
        assert shown["image/svg+xml"] == value._repr_svg_()  # type: ignore[attr-defined]
        assert shown["text/plain"] == repr(value)  # the text stays the pasteable repr
        parse(shown["image/svg+xml"])
    assert cards_drawn(goat.Card.from_str("10H")._repr_svg_()) == Counter({"10H": 1})
    assert cards_drawn(state.tricks[0]._repr_svg_()) == Counter(str(c) for p in state.tricks[0].plays for c in p.cards)
    table = cards_drawn(goat.new_game(seed=1)._repr_svg_())
    assert sum(n for name, n in table.items() if name != "back") == 16 + 1  # four hands and the trump card
    hidden = {str(c) for other in (0, 2, 3) for c in state.hands[other]} - {str(state.trump_card)}
    assert not hidden & set(cards_drawn(seen._repr_svg_()))
    assert {str(c) for c in state.hands[1]} <= set(cards_drawn(seen._repr_svg_()))
