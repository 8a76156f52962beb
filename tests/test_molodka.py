"""Molodka: four cards of one suit played out of turn (R14)."""

from __future__ import annotations

import pytest

import goat
from goat import IllegalMoveError, Move, MoveKind, cards
from tests.conftest import game, hand, run


def texts(moves: tuple[Move, ...]) -> list[str]:
    return [str(m) for m in moves]


class TestDeclaredBeforeTheLead:
    # Dealer 3, seat 0 leads; seat 2 holds a molodka of hearts; spades are trump.
    HANDS = ("JH QH 6S 7S", "10C 9D JS 6C", "6H 7H 8H 9H", "7C 8D KC AC")

    def test_the_holder_is_asked_before_the_lead(self) -> None:
        state = game(self.HANDS, trump_card="AS")
        assert state.to_play == 0
        assert state.to_move == 2
        assert texts(goat.legal_moves(state)) == ["2 molodka 6H 7H 8H 9H", "2 wait"]

    def test_declaring_makes_the_holder_leader_with_k_4(self) -> None:
        state = run(game(self.HANDS, trump_card="AS"), "2 molodka 6H 7H 8H 9H")
        assert state.leader == 2
        assert texts(state.table) == ["2 molodka 6H 7H 8H 9H"]
        assert state.to_move == state.to_play == 3  # the trick goes on from the seat after them
        assert state.molodka_made
        assert len(state.hands[2]) == 0 and [len(h) for h in state.hands] == [4, 4, 0, 4]
        assert all(len(m.cards) == 4 for m in goat.legal_moves(state))

    def test_a_molodka_can_be_beaten(self) -> None:
        state = run(game(self.HANDS, trump_card="AS"), "2 molodka 6H 7H 8H 9H", "3 pass 7C 8D KC AC")
        # JH, QH beat two of the hearts, the trumps 6S and 7S the other two (R6).
        assert Move.from_str("0 beat JH QH 6S 7S") in goat.legal_moves(state)
        state = run(state, "0 beat JH QH 6S 7S", "1 pass 10C 9D JS 6C")
        assert state.tricks[0].winner == 0
        assert len(state.tricks[0].cards) == 16

    def test_waiting_lets_the_leader_lead(self) -> None:
        state = run(game(self.HANDS, trump_card="AS"), "2 wait")
        assert state.to_move == 0
        assert {m.kind for m in goat.legal_moves(state)} == {MoveKind.LEAD}


class TestDeclaredMidTrick:
    # Seat 3 holds a molodka of hearts; seat 0 leads; spades are trump.
    HANDS = ("10C JS 6D 7D", "AC 9D QS 6C", "KH AH 8S 7C", "6H 7H 8H 9H")

    def test_holder_is_asked_before_every_play(self) -> None:
        state = game(self.HANDS, trump_card="AS")
        assert state.to_move == 3
        state = run(state, "3 wait", "0 lead 10C")
        assert state.to_move == 3 and state.to_play == 1
        state = run(state, "3 wait", "1 beat AC")
        assert state.to_move == 3 and state.to_play == 2

    def test_cards_on_the_table_go_back_to_their_owners(self) -> None:
        state = run(game(self.HANDS, trump_card="AS"), "3 wait", "0 lead 10C", "3 wait", "1 beat AC")
        assert hand(state, 0) == "6D 7D JS" and hand(state, 1) == "6C 9D QS"
        state = run(state, "3 molodka 6H 7H 8H 9H")
        assert hand(state, 0) == "10C 6D 7D JS"
        assert hand(state, 1) == "6C AC 9D QS"
        assert texts(state.table) == ["3 molodka 6H 7H 8H 9H"]
        assert state.leader == 3 and state.to_move == 0
        # The withdrawn plays stay in the history; the trick will not hold them.
        assert texts(state.history) == [
            "3 wait",
            "0 lead 10C",
            "3 wait",
            "1 beat AC",
            "3 molodka 6H 7H 8H 9H",
        ]
        state = run(state, "0 pass 10C 6D 7D JS", "1 pass 6C AC 9D QS", "2 pass 7C KH AH 8S")
        assert str(state.tricks[0].plays[0]) == "3 molodka 6H 7H 8H 9H"
        assert state.tricks[0].winner == 3

    def test_nobody_is_asked_after_the_fourth_play(self) -> None:
        state = run(
            game(self.HANDS, trump_card="AS"),
            "3 wait",
            "0 lead 10C",
            "3 wait",
            "1 beat AC",
            "3 wait",
            "2 pass 7C",
        )
        # Seat 3 is due for the fourth play: its molodka is among its own moves, nobody else is asked.
        assert state.to_move == 3
        assert Move.from_str("3 molodka 6H 7H 8H 9H") in goat.legal_moves(state)
        state = run(state, "3 pass 6H")
        assert len(state.tricks) == 1 and state.tricks[0].winner == 1
        assert state.to_move == 1  # the winner leads; seat 3 holds 3 hearts and a drawn card


class TestPriority:
    def test_two_holders_are_asked_closest_clockwise_to_the_leader_first(self) -> None:
        # Dealer 1, so seat 2 leads; seats 1 and 3 hold molodkas. Seat 3 is one step from
        # the leader, seat 1 three steps: seat 3 has the right first.
        hands = ["10C JS 6D 7D", "6C 7C 8C 9C", "KH AH 8S AC", "6H 7H 8H 9H"]
        state = game(hands, trump_card="AS", dealer=1)
        assert state.leader == 2
        assert state.to_move == 3
        waited = run(state, "3 wait")
        assert waited.to_move == 1
        assert run(waited, "1 wait").to_move == 2

    def test_when_both_would_declare_the_first_in_priority_gets_it(self) -> None:
        hands = ["10C JS 6D 7D", "6C 7C 8C 9C", "KH AH 8S AC", "6H 7H 8H 9H"]
        state = run(game(hands, trump_card="AS", dealer=1), "3 molodka 6H 7H 8H 9H")
        assert state.leader == 3 and state.to_move == 0
        state = run(state, "0 pass 10C JS 6D 7D")
        # Seat 1 is due: its molodka is no longer a move (one molodka per trick).
        assert MoveKind.MOLODKA not in {m.kind for m in goat.legal_moves(state)}
        with pytest.raises(IllegalMoveError, match="already has its molodka"):
            run(state, "1 molodka 6C 7C 8C 9C")

    def test_the_leader_after_its_lead_comes_first(self) -> None:
        # Seat 0 leads and holds hearts; seat 3 holds clubs.  Before the lead only seat 3 is
        # asked; after a one-card lead, seat 0 (distance 0) is asked before seat 3.
        hands = ["6H 7H 8H 9H", "10C JS 6D 7D", "KH AH 8S AD", "6C 7C 8C 9C"]
        state = game(hands, trump_card="AS")
        assert state.to_move == 3
        state = run(state, "3 wait", "0 lead 6H")
        assert state.to_move == 0
        assert texts(goat.legal_moves(state)) == ["0 molodka 6H 7H 8H 9H", "0 wait"]
        state = run(state, "0 wait")
        assert state.to_move == 3
        state = run(state, "3 wait")
        assert state.to_move == 1
        declared = run(run(state, "1 pass 6D"), "0 molodka 6H 7H 8H 9H")
        assert declared.leader == 0 and hand(declared, 1) == "10C 6D 7D JS"


class TestOneMolodkaPerTrick:
    def test_the_leaders_four_card_lead_counts_as_the_molodka(self) -> None:
        hands = ["6H 7H 8H 9H", "10C JS 6D 7D", "6C 7C 8C 9C", "KH AH 8S AD"]
        state = game(hands, trump_card="AS")
        assert state.to_move == 2  # seat 2 is asked before the lead
        state = run(state, "2 wait")
        assert Move.from_str("0 lead 6H 7H 8H 9H") in goat.legal_moves(state)
        state = run(state, "0 lead 6H 7H 8H 9H")
        assert state.molodka_made
        assert state.to_move == 1  # seat 2 is not asked again
        state = run(state, "1 pass 10C JS 6D 7D")
        assert state.to_move == 2
        assert MoveKind.MOLODKA not in {m.kind for m in goat.legal_moves(state)}
        with pytest.raises(IllegalMoveError, match="already has its molodka"):
            run(state, "2 molodka 6C 7C 8C 9C")

    def test_the_leader_has_no_separate_molodka_move(self) -> None:
        hands = ["6H 7H 8H 9H", "10C JS 6D 7D", "KC AC 8S AD", "KH AH 7S 6S"]
        state = game(hands, trump_card="AS")
        assert state.to_move == 0
        assert MoveKind.MOLODKA not in {m.kind for m in goat.legal_moves(state)}
        with pytest.raises(IllegalMoveError, match="leader has no separate molodka"):
            run(state, "0 molodka 6H 7H 8H 9H")


class TestHolderThatHasPlayed:
    HANDS = ("10C JS 6D 7D", "6H 7H 8H 9H", "KC AC 8S AD", "KH AH 7S 6S")

    def test_the_due_holder_finds_the_molodka_among_its_moves(self) -> None:
        state = run(game(self.HANDS, trump_card="AS"), "1 wait", "0 lead 10C")
        assert state.to_move == 1  # nobody else holds one: seat 1 simply decides
        assert texts(goat.legal_moves(state))[-1] == "1 molodka 6H 7H 8H 9H"
        state = run(state, "1 molodka 6H 7H 8H 9H")
        assert state.leader == 1 and hand(state, 0) == "10C 6D 7D JS"

    def test_a_holder_is_asked_again_after_playing_and_gets_its_cards_back(self) -> None:
        state = run(game(self.HANDS, trump_card="AS"), "1 wait", "0 lead 10C", "1 pass 7H")
        assert state.to_move == 1 and state.to_play == 2
        assert texts(goat.legal_moves(state)) == ["1 molodka 6H 7H 8H 9H", "1 wait"]
        with pytest.raises(IllegalMoveError, match="held at the start of the trick: 6H 7H 8H 9H"):
            run(state, "1 molodka 6H 8H 9H")
        state = run(state, "1 molodka 6H 7H 8H 9H")
        assert state.table == (Move.from_str("1 molodka 6H 7H 8H 9H"),)
        assert hand(state, 0) == "10C 6D 7D JS" and hand(state, 1) == ""

    def test_waits_are_counted_per_play(self) -> None:
        state = run(
            game(self.HANDS, trump_card="AS"),
            "1 wait",
            "0 lead 10C",
            "1 pass 7H",
            "1 wait",
            "2 beat AC",
            "1 wait",
            "3 pass 6S",
        )
        assert len(state.tricks) == 1
        assert [m.kind for m in state.history].count(MoveKind.WAIT) == 3

    def test_a_wait_holds_no_cards_and_only_a_holder_being_asked_may_wait(self) -> None:
        state = game(self.HANDS, trump_card="AS")
        with pytest.raises(IllegalMoveError, match="it is seat 1's turn"):
            run(state, "0 wait")
        with pytest.raises(goat.InvalidMoveError, match="holds no cards"):
            Move(MoveKind.WAIT, 1, cards("6H"))  # not even a move: it could not be written down
        with pytest.raises(goat.InvalidMoveError, match="a wait holds no cards"):
            Move.from_str("1 wait 6H")
        with pytest.raises(IllegalMoveError, match="may only declare it or wait"):
            goat.play(state, Move.from_str("1 pass 6H"))


def test_no_molodka_when_no_hand_is_four_of_a_suit() -> None:
    state = game(["10C JS 6D 7D", "6H 7H 8H 9C", "KC AC 8S AD", "KH AH 7S 6S"], trump_card="AS")
    assert state.to_move == 0
    state = run(state, "0 lead 10C")
    assert MoveKind.MOLODKA not in {m.kind for m in goat.legal_moves(state)}
    with pytest.raises(IllegalMoveError, match="held no molodka"):
        run(state, "1 molodka 6H 7H 8H 9C")
