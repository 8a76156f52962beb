"""Game points, defeat-scores and balls (R18–R20)."""

from __future__ import annotations

import random

import pytest

import goat
from goat import GameNotOverError, GameResult
from tests.conftest import random_game as random_finished_game


@pytest.mark.parametrize(
    ("points", "tricks", "expected"),
    [
        (120, 9, 0),
        (61, 3, 0),
        (60, 4, 0),  # balls: nobody gains (R20)
        (59, 3, 2),
        (45, 2, 2),
        (31, 1, 2),
        (30, 2, 4),
        (10, 1, 4),
        (0, 1, 4),  # tricks of worthless cards still save the team from 6
        (0, 0, 6),
    ],
)
def test_r19_r20_defeat_scores(points: int, tricks: int, expected: int) -> None:
    assert goat.defeat_scores(points, tricks) == expected


@pytest.mark.parametrize(("points", "tricks"), [(-1, 1), (121, 9), (10, 0), (10, -1), (30, 10), (0, 36)])
def test_defeat_scores_rejects_impossible_totals(points: int, tricks: int) -> None:
    # A game has at most nine tricks: 36 cards, at least four to a trick (R10, R11).
    with pytest.raises(goat.ScoringError, match=r"points|tricks"):
        goat.defeat_scores(points, tricks)


def test_defeat_scores_rejects_non_ints() -> None:
    with pytest.raises(TypeError):
        goat.defeat_scores(30.0, 1)  # type: ignore[arg-type]


def test_r18_score_agrees_with_the_piles() -> None:
    for seed in range(200):
        state = random_finished_game(seed)
        result = goat.score(state)
        piles: list[list[goat.Card]] = [[], []]
        for trick in state.tricks:
            piles[trick.winner % 2].extend(trick.cards)
        assert result.points == (sum(c.points for c in piles[0]), sum(c.points for c in piles[1]))
        assert sum(result.points) == 120
        assert len(piles[0]) + len(piles[1]) == 36
        assert result.tricks == (
            sum(t.winner % 2 == 0 for t in state.tricks),
            sum(t.winner % 2 == 1 for t in state.tricks),
        )
        assert result.last_trick_winner == state.tricks[-1].winner


def test_r19_r20_every_defeat_case_occurs_in_real_games_and_is_scored_right() -> None:
    seen: dict[str, GameResult] = {}
    for seed in range(3000):
        result = goat.score(random_finished_game(seed))
        if result.balls:
            seen.setdefault("balls", result)
        else:
            loser = 1 - result.winner  # type: ignore[operator]
            seen.setdefault(f"defeat {result.defeat[loser]}", result)
        if len(seen) == 4:
            break
    assert set(seen) >= {"defeat 2", "defeat 4", "balls"}, set(seen)
    for name, result in seen.items():
        if name == "balls":
            assert result.points == (60, 60) and result.winner is None and result.defeat == (0, 0)
            continue
        winner = result.winner
        assert winner is not None
        loser = 1 - winner
        assert result.points[winner] >= 61 and result.defeat[winner] == 0
        assert result.defeat[loser] == goat.defeat_scores(result.points[loser], result.tricks[loser])
        assert not result.balls and result.loser == loser


def one_sided(moves: tuple[goat.Move, ...], rng: random.Random) -> goat.Move:
    """Team 0 beats and declares whenever it can; team 1 never does."""
    taking = {goat.MoveKind.BEAT, goat.MoveKind.MOLODKA}
    if moves[0].seat % 2 == 0:
        preferred = [m for m in moves if m.kind in taking]
    else:
        preferred = [m for m in moves if m.kind not in taking]
    return rng.choice(preferred or list(moves))


def test_r19_six_for_a_team_without_a_trick() -> None:
    for seed in range(2000):
        rng = random.Random(seed)
        state = goat.new_game(seed=seed)
        while not state.is_over:
            state = goat.play(state, one_sided(goat.legal_moves(state), rng))
        result = goat.score(state)
        if result.tricks[1] == 0:
            assert result.defeat == (0, 6)
            assert result.points == (120, 0) and result.winner == 0
            return
    pytest.fail("no game without a trick for team 1 was found")


def test_score_needs_a_finished_game() -> None:
    with pytest.raises(GameNotOverError, match="only a finished game") as raised:
        goat.score(goat.new_game(seed=1))
    assert isinstance(raised.value, ValueError)
    with pytest.raises(TypeError):
        goat.score("game")  # type: ignore[arg-type]


GOOD = {"points": (70, 50), "tricks": (5, 3), "defeat": (0, 2), "balls": False, "winner": 0, "last_trick_winner": 1}


@pytest.mark.parametrize(
    ("changes", "error", "why"),
    [
        ({"points": (1, 2, 3)}, goat.ScoringError, "points must be two numbers"),
        ({"points": None}, TypeError, "points must be a pair of ints"),
        ({"tricks": ("5", 3)}, TypeError, "tricks must be a pair of ints"),
        ({"points": (70, 40)}, goat.ScoringError, "add up to 120"),
        ({"points": (130, -10)}, goat.ScoringError, "add up to 120"),
        ({"tricks": (6, 4)}, goat.ScoringError, "at most 9 tricks"),
        ({"defeat": (0, 3)}, goat.ScoringError, "0, 2, 4 or 6"),
        ({"winner": 1}, goat.ScoringError, "the winner has more points"),
        ({"defeat": (2, 0)}, goat.ScoringError, "the loser gains"),
        ({"winner": 2}, goat.ScoringError, "winner must be a team"),
        ({"winner": True}, goat.ScoringError, "winner must be a team"),
        ({"winner": None}, goat.ScoringError, "balls is a 60 : 60 game"),
        ({"points": (60, 60), "defeat": (0, 0)}, goat.ScoringError, "balls is a 60 : 60 game"),
        ({"balls": "no"}, TypeError, "balls must be True or False"),
        ({"last_trick_winner": 4}, goat.ScoringError, "last_trick_winner must be a seat"),
    ],
)
def test_a_game_result_refuses_what_no_game_can_end_with(changes: dict[str, object], error: type, why: str) -> None:
    assert goat.GameResult(**GOOD).winner == 0  # type: ignore[arg-type]
    with pytest.raises(error, match=why):
        goat.GameResult(**{**GOOD, **changes})  # type: ignore[arg-type]


def test_a_balls_result_and_a_forfeit_are_results() -> None:
    balls = goat.GameResult((60, 60), (4, 5), (0, 0), True, None, 2)
    assert balls.loser is None
    forfeit = goat.GameResult((0, 120), (2, 1), (6, 0), False, 1, 3)  # the arena's forfeit: 120 : 0, 6 defeat
    assert forfeit.loser == 0
