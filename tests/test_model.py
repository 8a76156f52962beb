"""The player model: P(move | what the deciding seat saw) is a distribution over the legal moves, positive, made from
the seat's view alone (R23), and follows the rules of thumb it states."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import goat
import goat.testing as gt
from goat import GameState, Move
from goat.bots.model import PlayerModel
from tests.conftest import game, run


def chances(state: GameState, model: PlayerModel | None = None) -> dict[str, float]:
    seen = goat.view(state, state.to_move)  # type: ignore[arg-type]
    return {str(m): p for m, p in zip(seen.legal_moves, (model or PlayerModel()).probabilities(seen), strict=True)}


@given(gt.game_states(molodka=True))
def test_probabilities_are_positive_and_sum_to_one_over_the_legal_moves(state: GameState) -> None:
    if state.is_over:
        return
    seen = goat.view(state, state.to_move)  # type: ignore[arg-type]
    # a temperature far below the scores' gaps with the least noise: the even share alone keeps every move possible
    for model in (PlayerModel(), PlayerModel(0.01, noise=1e-9), PlayerModel(50, noise=1e-9), PlayerModel(2, noise=1)):
        found = model.probabilities(seen)
        assert len(found) == len(seen.legal_moves)
        assert all(p > 0 for p in found)
        assert math.isclose(sum(found), 1.0)


@given(gt.game_states(min_moves=1), st.randoms(use_true_random=False))
def test_the_model_reads_only_what_the_seat_saw(state: GameState, rng: random.Random) -> None:
    # R23: another world the deciding seat cannot tell from this one (other hands, face-down passes) gets
    # the same probabilities.
    if state.is_over:
        return
    seen = goat.view(state, state.to_move)  # type: ignore[arg-type]
    other = goat.sample_world(seen, rng)
    assert PlayerModel().probabilities(goat.view(other, seen.seat)) == PlayerModel().probabilities(seen)


def test_a_cheap_beat_is_likelier_than_a_costly_one() -> None:
    # Seat 0 leads 7S (R10); seat 1 can beat with 8S, AS or the trump 6D (R5), or pass.  Of the beats, the
    # cheapest is the likeliest, then the trump (worth keeping), then the ace (that a trump may take and win);
    # the likeliest move of all is greedy's, passing the worthless 7C to a trick with no points.
    state = game(["7S 9C JC QC", "8S AS 6D 7C", "KH AH 8H 6C", "7H 9H QH 10C"], trump_card="AD")
    state = run(state, "0 lead 7S")
    found, seen = chances(state), goat.view(state, 1)
    assert found["1 beat 8S"] > found["1 beat 6D"] > found["1 beat AS"]
    assert (
        max(found, key=found.__getitem__)
        == "1 pass 7C"
        == str(goat.load_strategy("greedy").choose(seen, seen.legal_moves))
    )


def test_points_are_loaded_onto_the_partners_safe_trick() -> None:
    # Seat 0 leads AD, the master trump (R5): nobody can take the trick.  Seat 2, the partner, loads its ten
    # rather than pass a six; seat 3, the opponent, passes its least valuable card to the trick it cannot take.
    state = game(["AD 9C JC QC", "8S 7S 6D 7C", "10H 6C 8H KC", "7H 9H QH 6S"], trump_card="7D")
    state = run(state, "0 lead AD", "1 pass 7C")
    found = chances(state)
    assert found["2 pass 10H"] > found["2 pass 6C"]
    # The opponent after it passes its least valuable card to the trick it cannot take.
    state = run(state, "2 pass 10H")
    found = chances(state)
    assert found["3 pass 6S"] > found["3 pass QH"]


def test_a_lower_temperature_is_surer_of_the_best_move() -> None:
    state = run(game(["7S 9C JC QC", "8S AS 6D 7C", "KH AH 8H 6C", "7H 9H QH 10C"], trump_card="AD"), "0 lead 7S")
    cold, hot = chances(state, PlayerModel(temperature=1)), chances(state, PlayerModel(temperature=20))
    even = chances(state, PlayerModel(temperature=1, noise=1))
    assert len(set(even.values())) == 1  # all noise: every legal move alike
    best = max(cold, key=cold.__getitem__)
    assert best == max(hot, key=hot.__getitem__)
    assert cold[best] > hot[best]


@pytest.mark.parametrize("temperature", [0, -1, math.inf, math.nan, "4", None, True])
def test_a_bad_temperature_is_refused(temperature: object) -> None:
    with pytest.raises(ValueError, match="temperature"):
        PlayerModel(temperature=temperature)  # type: ignore[arg-type]


@pytest.mark.parametrize("noise", [-0.1, 1.5, math.nan, "0.3", None, True])
def test_a_bad_noise_is_refused(noise: object) -> None:
    with pytest.raises(ValueError, match="noise"):
        PlayerModel(noise=noise)  # type: ignore[arg-type]


def test_bad_arguments_are_refused_clearly() -> None:
    state = goat.new_game(seed=1)
    seen = goat.view(state, state.to_move)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="PlayerView"):
        PlayerModel().probabilities(state)  # type: ignore[arg-type]
    other = Move.from_str(f"{(seen.seat + 1) % 4} wait")
    with pytest.raises(ValueError, match="not a legal move of seat"):
        PlayerModel().probabilities(seen, [other])
    elsewhere = goat.view(goat.new_game(seed=2, dealer=(seen.seat - 1) % 4), seen.seat)  # the seat's moves, other cards
    foreign = [m for m in elsewhere.legal_moves if m not in seen.legal_moves]
    assert foreign
    with pytest.raises(ValueError, match="not a legal move of seat"):
        PlayerModel().probabilities(seen, foreign)
    with pytest.raises(ValueError, match="no moves"):
        PlayerModel().probabilities(seen, [])


def test_softmax_refuses_what_gives_no_distribution() -> None:
    # No scores, a temperature not above 0 (a negative one would invert the ranking) or a noise outside 0 to 1
    # (negative probabilities) is a clear ValueError, not a ZeroDivisionError or a wrong distribution.
    from goat.bots.model import softmax

    assert softmax([1.0, 1.0], 2.0, 0.1) == (0.5, 0.5)
    refused = [
        ([], 1.0, 0.1),
        ([1.0], 0, 0.1),
        ([1.0, 2.0], -1.0, 0.1),
        ([1.0], 10**400, 0.1),  # beyond any float
        ([1.0], True, 0.1),
        ([1.0], 1.0, 1.5),
        ([1.0, 900.0], 0.01, 0),  # no noise: the first move's probability would be 0, and a world ruled out
        ([math.nan, 0.0], 1.0, 0.1),
        ([0.0, math.inf], 1.0, 0.1),
        ([1e308, 1e308], 1.0, 0.1),  # finite, but too large to weigh
        ([10**400, 1.0], 1.0, 0.1),  # an int beyond any float
        ([10**400, -(10**400)], 1.0, 0.1),  # two that cancel out when added
    ]
    for scores, temperature, noise in refused:
        with pytest.raises(ValueError, match=r"softmax|temperature|noise"):
            softmax(scores, temperature, noise)
    for temperature, noise in ((10**400, 0.3), (1.0, 0), (math.nan, 0.3)):
        with pytest.raises(ValueError, match=r"temperature|noise"):
            PlayerModel(temperature, noise)
    # A model's temperature changed after it was made is refused when it is used, not turned into NaN weights.
    changed = PlayerModel()
    changed.temperature = math.nan
    state = goat.new_game(seed=3)
    with pytest.raises(ValueError, match="temperature"):
        changed.probabilities(goat.view(state, state.to_move))  # type: ignore[arg-type]
