"""What each seat may see (R23), and the privacy of a molodka holder's wait (R14)."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import given

import goat
import goat.testing as gt
from goat import Card, GameState, MoveKind, PlayerView
from tests.conftest import game, reachable, run


def reachable_cards(value: object) -> Iterator[Card]:
    """Every Card reachable from a value, through attrs classes and containers."""
    return (item for item in reachable(value) if isinstance(item, Card))


def visible_to(state: GameState, seat: int) -> set[Card]:
    """The cards R23 lets ``seat`` know of: its hand, the trump card, face-up plays, its own passes."""
    known = set(state.hands[seat]) | {state.trump_card}
    for move in state.history:
        if move.kind is not MoveKind.PASS or move.seat == seat:
            known |= move.cards
    return known


def test_r23_a_view_holds_only_what_its_seat_may_see(random_game_states: list[GameState]) -> None:
    for state in random_game_states:
        for seat in range(4):
            seen = goat.view(state, seat)
            assert set(reachable_cards(seen)) <= visible_to(state, seat)
            assert seen.hand == state.hands[seat]
            assert seen.hand_sizes == tuple(len(h) for h in state.hands)
            assert seen.stock_size == len(state.stock)
            assert seen.trump_card == state.trump_card and seen.trump is state.trump
            assert seen.defeat == state.defeat


def test_r23_other_passes_show_their_size_not_their_cards() -> None:
    state = game(["9H 10C QS 7S", "10H 9D JS 6C", "KH AH 8S 6D", "7H 8D KC AC"], trump_card="AD")
    state = run(state, "0 lead QS 7S", "1 pass 10H 6C")
    for seat in (0, 2, 3):
        (lead, passed) = goat.view(state, seat).table
        assert passed.hidden and passed.size == 2 and passed.cards == frozenset()
        assert str(passed) == "1 pass ?? ??"
        assert lead.cards == frozenset(goat.cards("QS 7S")) and not lead.hidden
    mine = goat.view(state, 1)
    assert mine.table[1].cards == frozenset(goat.cards("10H 6C")) and not mine.table[1].hidden
    assert mine.passed == frozenset(goat.cards("10H 6C"))


def test_r23_which_objects_views_share_tells_nothing_of_hidden_cards() -> None:
    # Two deals that differ only in which two cards seat 1 passes face down.  Whether seat 0's views of the
    # two passes are one object or two must not depend on the hidden cards.
    hands = ["9H 10C QS 7S", "10H 9D JS 6C", "KH AH 8S 6D", "7H 8D KC AC"]
    same_a = run(game(hands, trump_card="AD"), "0 lead QS 7S", "1 pass 10H 6C")
    same_b = run(game(hands, trump_card="AD"), "0 lead QS 7S", "1 pass 10H 6C")
    other = run(game(hands, trump_card="AD"), "0 lead QS 7S", "1 pass 9D JS")
    pass_a, pass_b, pass_other = (goat.view(s, 0).table[1] for s in (same_a, same_b, other))
    assert pass_a == pass_b == pass_other
    assert (pass_a is pass_b) == (pass_a is pass_other)
    # Seat 1's own view of its pass shows the cards, and so is another value.
    assert goat.view(same_a, 1).table[1] != goat.view(other, 1).table[1]


def test_r23_tricks_and_public_history() -> None:
    state = game(["9H 10C QS 7S", "10H 9D JS 6C", "KH AH 8S 6D", "7H 8D KC AC"], trump_card="AD")
    state = run(state, "0 lead QS 7S", "1 beat 9D JS", "2 pass KH AH", "3 pass KC 7H")
    seen = goat.view(state, 0)
    assert [t.winner for t in seen.tricks] == [1]
    assert seen.tricks_won == (0, 1)
    assert [str(m) for m in seen.tricks[0].plays] == ["0 lead 7S QS", "1 beat 9D JS", "2 pass ?? ??", "3 pass ?? ??"]
    assert seen.history == seen.tricks[0].plays
    assert seen.table == () and seen.leader == 1 and seen.to_play == 1


def test_r23_legal_moves_only_for_the_seat_that_decides() -> None:
    state = goat.new_game(seed=4)
    decider = state.to_move
    assert decider is not None
    for seat in range(4):
        moves = goat.view(state, seat).legal_moves
        assert moves == (goat.legal_moves(state) if seat == decider else ())


HOLDER_HANDS = ["10C JS 6D 7D", "AC 9D QS 6C", "KH AH 8S 7C", "6H 7H 8H 9H"]


def test_r14_r23_a_wait_leaves_no_trace_in_other_views() -> None:
    asked = run(game(HOLDER_HANDS, trump_card="AS"), "3 wait", "0 lead 10C")
    assert asked.to_move == 3  # seat 3 is being asked before seat 1's play
    waited = run(asked, "3 wait")
    assert waited.to_move == 1
    for seat in (0, 1, 2):
        # Whether seat 3 is being asked, has waited, or never held a molodka cannot be told apart.
        assert goat.view(asked, seat) == goat.view(waited, seat)
        assert all(m.kind is not MoveKind.WAIT for m in goat.view(waited, seat).history)
    no_holder = run(game(["10C JS 6D 7D", "AC 9D QS 6C", "KH AH 8S 7C", "6H 7H 8H 9S"], trump_card="AS"), "0 lead 10C")
    assert goat.view(no_holder, 1).legal_moves == goat.view(waited, 1).legal_moves
    # The holder sees its own waits.
    assert [str(m) for m in goat.view(waited, 3).history] == ["3 wait", "0 lead 10C", "3 wait"]


def test_r14_r23_the_holder_being_asked_sees_its_choice() -> None:
    asked = run(game(HOLDER_HANDS, trump_card="AS"), "3 wait", "0 lead 10C")
    assert [str(m) for m in goat.view(asked, 3).legal_moves] == ["3 molodka 6H 7H 8H 9H", "3 wait"]


def test_r23_withdrawn_plays_stay_in_the_history_after_a_molodka() -> None:
    state = run(
        game(HOLDER_HANDS, trump_card="AS"), "3 wait", "0 lead 10C", "3 wait", "1 pass 6C", "3 molodka 6H 7H 8H 9H"
    )
    seen = goat.view(state, 2)
    assert [str(m) for m in seen.history] == ["0 lead 10C", "1 pass ??", "3 molodka 6H 7H 8H 9H"]
    assert [str(m) for m in seen.table] == ["3 molodka 6H 7H 8H 9H"]
    assert seen.hand_sizes == (4, 4, 4, 0)


def test_r14_a_pass_given_back_by_a_molodka_is_no_longer_passed() -> None:
    # Found by a review: PlayerView.passed read the history, so it still listed a pass that a molodka had given
    # back to the hand (R14).
    state = run(game(HOLDER_HANDS, trump_card="AS"), "3 wait", "0 lead 10C", "3 wait", "1 pass 6C")
    assert goat.view(state, 1).passed == frozenset(goat.cards("6C"))
    state = run(state, "3 molodka 6H 7H 8H 9H")
    seen = goat.view(state, 1)
    assert seen.passed == frozenset() and goat.Card.from_str("6C") in seen.hand
    state = run(state, "0 pass 10C JS 6D 7D")  # a pass that stands is passed
    assert goat.view(state, 0).passed == frozenset(goat.cards("10C JS 6D 7D"))


def test_printing_a_view_gives_a_summary_and_its_repr_makes_it_again() -> None:
    # Found by a review: print(view) printed the whole repr, hundreds of characters of constructor calls.
    state = run(game(["9H 10C QS 7S", "10H 9D JS 6C", "KH AH 8S 6D", "7H 8D KC AC"], trump_card="AD"), "0 lead QS 7S")
    state = run(state, "1 pass 10H 6C")
    assert str(goat.view(state, 3)) == (
        "seat 3 sees: trick 1, seat 2 to play; trump card AD; dealer 3, leader 0; hand KC AC 8D 7H; "
        "hand sizes 2 2 4 4; stock 20; table 0 lead 7S QS, 1 pass ?? ??; tricks won 0 : 0; defeat 0 : 0; legal moves -"
    )  # the hand in deck order; another seat's pass face down (R23)
    seen = goat.view(state, 2)
    assert str(seen).endswith("legal moves " + ", ".join(map(str, seen.legal_moves)))
    assert eval(repr(seen), vars(goat)) == seen  # repr stays Python that makes the view again


@given(gt.finished_games(molodka=True))
def test_every_view_a_game_makes_passes_the_constructors_check(state: GameState) -> None:
    # The engine makes its views past the constructor; the check a view made by hand gets (InvalidViewError for
    # one no game shows) must accept all of them, along a whole game and at its end.
    moves = state.history
    for played in sorted({*range(0, len(moves), max(1, len(moves) // 12)), len(moves)}):
        earlier = goat.new_game(
            deck=state.deck, trump_card=state.trump_card, dealer=state.dealer, defeat=state.defeat, moves=moves[:played]
        )
        for seat in range(4):
            seen = goat.view(earlier, seat)
            assert attrs.evolve(seen) == seen


def test_views_are_values_and_bad_seats_are_rejected() -> None:
    state = goat.new_game(seed=8)
    assert goat.view(state, 2) == goat.view(state, 2)
    assert hash(goat.view(state, 2)) == hash(goat.view(state, 2))
    assert isinstance(goat.view(state, 0), PlayerView)
    assert goat.view(state, 0).team == 0 and goat.view(state, 3).partner == 1
    for seat in (-1, 4, "1", None):
        with pytest.raises(ValueError, match="seat"):
            goat.view(state, seat)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        goat.view("state", 0)  # type: ignore[arg-type]


def test_a_finished_game_view() -> None:
    rng = random.Random(3)
    state = goat.new_game(seed=3)
    while not state.is_over:
        state = goat.play(state, rng.choice(goat.legal_moves(state)))
    seen = goat.view(state, 1)
    assert seen.is_over and seen.legal_moves == () and seen.hand == frozenset()
    assert sum(seen.tricks_won) == len(state.tricks)


def test_r14_r23_the_next_holder_cannot_tell_that_another_waited() -> None:
    # Dealer 0, so seat 1 leads; seats 3 and 0 hold molodkas, and seat 3 (two steps from the leader) is
    # asked before seat 0 (three steps).  After seat 3 waits, seat 0 sees exactly what it would see had
    # seat 3 never held a molodka.
    both = game(["6C 7C 8C 9C", "JD QD 6S 7S", "KH AH 8S AD", "6H 7H 8H 9H"], trump_card="AS", dealer=0)
    assert both.to_move == 3
    waited = run(both, "3 wait")
    only_seat_0 = game(["6C 7C 8C 9C", "JD QD 6S 7S", "KH AH 8S AD", "6H 7H 8H 9S"], trump_card="AS", dealer=0)
    assert waited.to_move == only_seat_0.to_move == 0
    assert goat.view(waited, 0) == goat.view(only_seat_0, 0)


def test_r14_r23_a_face_down_pass_shares_no_object_with_the_moves_that_hold_no_card() -> None:
    # Every WAIT holds the empty set of cards.  Were another seat's face-down pass to hold that very object, how
    # many refer to it would tell an in-process bot how often seats were asked about a molodka (R14).
    state = run(game(["9H 10C QS 7S", "10H 9D JS 6C", "KH AH 8S 6D", "7H 8D KC AC"], trump_card="AD"), "0 lead QS")
    state = run(state, "1 pass 10H")
    hidden = goat.view(state, 0).table[1]
    assert hidden.hidden and hidden.cards == frozenset()
    assert hidden.cards is not goat.Move.from_str("3 wait").cards
    assert hidden.cards is not goat.SeenMove.from_str("2 wait").cards


def test_the_seer_refuses_setters_for_fields_it_does_not_set_in_that_order() -> None:
    view_module = sys.modules["goat.view"]
    names = tuple(field.name for field in attrs.fields(PlayerView))
    assert len(view_module._setters(PlayerView, names)) == 13
    with pytest.raises(RuntimeError, match="PlayerView's fields"):
        view_module._setters(PlayerView, (names[1], names[0], *names[2:]))
    with pytest.raises(RuntimeError, match="SeenTrick's fields"):
        view_module._setters(goat.SeenTrick, ("plays",))


def test_views_asked_in_any_order_are_the_views_made_afresh() -> None:
    # view() builds a seat's history and tricks from those it built before (a referee asks at every decision),
    # and a finished trick for all four seats at once: views asked in any order, of interleaved games, going
    # back and forth, must equal the views made with every one of its caches empty.
    view_module = sys.modules["goat.view"]  # the module (goat.view is the function)
    seer = view_module._SEER
    rng = random.Random(7)
    states: list[GameState] = []
    for seed in range(6):
        state = goat.new_game(seed=seed)
        while not state.is_over:
            states.append(state)
            state = goat.play(state, rng.choice(goat.legal_moves(state)))
        states.append(state)
    asked = [(state, rng.randrange(4)) for state in states] + [
        (rng.choice(states), rng.randrange(4)) for _ in range(600)
    ]
    cached = [goat.view(state, seat) for state, seat in asked]
    fresh = []
    for state, seat in asked:
        seer.clear()
        fresh.append(goat.view(state, seat))
    assert cached == fresh
    for (state, seat), seen in zip(asked, cached, strict=True):  # and what R23 lets the seat see of each trick
        assert [[(m.kind, m.seat, m.size, m.cards) for m in trick.plays] for trick in seen.tricks] == [
            [seen_as(move, seat) for move in trick.plays] for trick in state.tricks
        ]


def test_a_seats_next_view_continues_its_last_one_only_along_the_same_game() -> None:
    # A seat's history is continued from its last view when that view's position is a few moves back along
    # the same game (found by identity), and from earlier views otherwise: far back, another game, or a
    # branch of this one.  Each must be the history its own game shows the seat (R23).
    view_module = sys.modules["goat.view"]
    rng = random.Random(3)
    line = [goat.new_game(seed=11)]
    while not line[-1].is_over:
        line.append(goat.play(line[-1], rng.choice(goat.legal_moves(line[-1]))))
    branch = [line[5]]
    for _ in range(12):
        branch.append(goat.play(branch[-1], goat.legal_moves(branch[-1])[-1]))
    other = goat.new_game(seed=12)
    seat = 1
    asked = [line[4], line[7], line[20], line[21], branch[3], branch[12], line[6], other, line[25], line[5]]
    cached = [goat.view(state, seat) for state in asked]
    fresh = []
    for state in asked:
        view_module._SEER.clear()
        fresh.append(goat.view(state, seat))
    assert cached == fresh
    for state, seen in zip(asked, cached, strict=True):
        assert [(m.kind, m.seat, m.size, m.cards) for m in seen.history] == [
            seen_as(move, seat) for move in state.history if move.kind is not MoveKind.WAIT or move.seat == seat
        ]


def seen_as(move: goat.Move, seat: int) -> tuple[object, ...]:
    if move.kind is MoveKind.PASS and move.seat != seat:
        return (move.kind, move.seat, len(move.cards), frozenset())
    return (move.kind, move.seat, len(move.cards), move.cards)
