"""A match: defeat-scores across games, the goat, balls, and the lead carried over (R21, R22)."""

from __future__ import annotations

import random

import pytest

import goat
from goat import GameNotOverError, GameResult, Match
from tests.conftest import finish

# A loser's points and tricks for each number of defeat-scores it gains (R19).
LOSER = {2: (40, 4), 4: (20, 1), 6: (0, 0)}


def result(defeat: tuple[int, int], *, balls: bool = False, last: int = 0) -> GameResult:
    if balls:
        return GameResult((60, 60), (4, 5), (0, 0), True, None, last)
    winner = 0 if defeat[0] == 0 else 1
    points, tricks = LOSER[max(defeat)]
    if winner == 0:
        return GameResult((120 - points, points), (9 - tricks, tricks), defeat, False, 0, last)
    return GameResult((points, 120 - points), (tricks, 9 - tricks), defeat, False, 1, last)


def test_a_new_match_starts_at_zero_with_seat_0_dealing() -> None:
    match = Match()
    assert match.defeat == (0, 0) and match.results == ()
    assert not match.is_over and match.goat is None and not match.with_balls
    state = match.new_game(seed=1)
    assert state.dealer == 0 and state.leader == 1 and state.defeat == (0, 0)


def test_r21_defeat_scores_add_up_and_the_match_ends_at_12() -> None:
    match = Match(results=[result((0, 4)), result((2, 0)), result((0, 6))])
    assert match.defeat == (2, 10) and not match.is_over and match.goat is None
    match = Match(results=(*match.results, result((0, 2))))
    assert match.defeat == (2, 12) and match.is_over and match.goat == 1


def test_r21_goat_with_balls() -> None:
    plain = Match(results=[result((0, 6)), result((0, 6))])
    assert plain.goat == 1 and not plain.with_balls
    balls = Match(results=[result((0, 6)), result((0, 0), balls=True), result((0, 6))])
    assert balls.goat == 1 and balls.with_balls
    assert balls.defeat == (0, 12)  # R20: balls give nothing


def test_r21_r22_a_whole_match_with_the_lead_carried_over() -> None:
    rng = random.Random(2024)
    match = Match()
    games = 0
    while not match.is_over:
        state = match.new_game(seed=rng.randrange(2**32))
        if match.results:
            last = match.results[-1].last_trick_winner
            assert state.leader == last  # R22: the winner of the last trick leads
            assert state.dealer == (last - 1) % 4  # R9: the dealer sits before them
        assert state.defeat == match.defeat  # every player sees the match score (R23)
        before = match.defeat
        match = match.record(finish(state, rng))
        games += 1
        gained = match.results[-1].defeat
        assert match.defeat == (before[0] + gained[0], before[1] + gained[1])
        assert match.is_over == (max(match.defeat) >= 12)
    assert games == len(match.results) >= 2
    assert match.goat == (0 if match.defeat[0] >= 12 else 1)
    assert match.with_balls == any(r.balls for r in match.results)
    with pytest.raises(ValueError, match="the match is over"):
        match.new_game(seed=1)


def test_record_refuses_unfinished_foreign_and_late_games() -> None:
    rng = random.Random(5)
    match = Match()
    with pytest.raises(GameNotOverError):
        match.record(match.new_game(seed=1))
    finished = finish(match.new_game(seed=1), rng)
    match = match.record(finished)
    with pytest.raises(goat.ScoringError, match="already recorded"):
        match.record(finished)  # the same game again
    with pytest.raises(goat.ScoringError, match="not the match's next game"):
        Match(results=match.results).record(finished)  # a match that did not deal it: wrong defeat-scores
    over = Match(results=[result((0, 6)), result((0, 6))])
    with pytest.raises(ValueError, match="the match is over"):
        over.record(finished)


def test_r21_a_balls_game_cannot_be_recorded_twice() -> None:
    # Seed 201 played at random ends 60 : 60 with its leader (seat 1) taking the last trick: recording it again
    # would change neither the defeat-scores nor the next dealer, so only the game itself tells it apart.
    state = finish(goat.new_game(seed=201), random.Random(201))
    result = goat.score(state)
    assert result.balls and result.last_trick_winner == state.leader == 1
    match = Match().record(state)
    assert match.next_dealer == state.dealer and match.defeat == state.defeat
    with pytest.raises(goat.ScoringError, match="already recorded"):
        match.record(state)
    assert match.record(finish(match.new_game(seed=201), random.Random(202))).results[1] is not None


def test_matches_are_values() -> None:
    a = Match(results=[result((0, 4))])
    assert a == Match(results=(result((0, 4)),)) and hash(a) == hash(Match(results=[result((0, 4))]))
    with pytest.raises(ValueError, match="first_dealer"):
        Match(first_dealer=4)
    with pytest.raises(TypeError):
        Match(results=[(0, 4)])  # type: ignore[list-item]
    assert Match(first_dealer=2).new_game(seed=3).leader == 3


def test_match_new_game_takes_a_fixed_deal() -> None:
    state = Match().new_game(deck=goat.DECK, trump_card="AS")
    assert state.dealer == 0 and state.trump_card == goat.Card.from_str("AS")
