"""Policy-based inference: weighted_worlds returns only worlds consistent with the view, weighted by the likelihood
of the others' moves (R23), and on a small position its weighted draws match the exact posterior by enumeration."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

import goat
import goat.testing as gt
from goat import Card, GameState, Move, MoveKind
from goat.bots.inference import WeightedWorld, log_likelihood, weighted_worlds
from goat.bots.model import PlayerModel
from tests.conftest import game


def likelihood_by_views(world: GameState, seat: int, model: PlayerModel) -> float:
    """log L of ``world`` for ``seat``, from the definition through the public API: replay the history with
    goat.play from the deal, and at every decision of another seat ask the model from goat.view of that seat."""
    state = goat.new_game(deck=world.deck, trump_card=world.trump_card, dealer=world.dealer, defeat=world.defeat)
    total = 0.0
    for move in world.history:
        if move.seat != seat:
            seen = goat.view(state, move.seat)
            total += math.log(model.probabilities(seen)[seen.legal_moves.index(move)])
        state = goat.play(state, move)
    return total


@given(gt.game_states(molodka=True), st.integers(0, 3), st.randoms(use_true_random=False))
def test_weighted_worlds_agree_with_the_view_and_weigh_the_others_moves(
    state: GameState, seat: int, rng: random.Random
) -> None:
    seen = goat.view(state, seat)
    model = PlayerModel(temperature=rng.choice([1.0, 4.0]))
    drawn = weighted_worlds(seen, 3, rng, model=model)
    assert len(drawn) == 3 and all(isinstance(w, WeightedWorld) for w in drawn)
    assert math.isclose(sum(w.weight for w in drawn), 1.0)
    logs = [likelihood_by_views(w.world, seat, model) for w in drawn]
    for w, value in zip(drawn, logs, strict=True):
        assert goat.view(w.world, seat) == seen
        assert math.isclose(log_likelihood(w.world, seat, model), value, abs_tol=1e-9)
        # The weights are the likelihoods, normalised over the draw.
        assert math.isclose(w.weight, math.exp(value) / sum(math.exp(v) for v in logs), rel_tol=1e-9)


def test_the_real_game_is_likelier_when_greedy_played_it() -> None:
    # A game greedy played itself: its true world is at least as likely as the median uniform world of the view.
    greedy = goat.load_strategy("greedy")
    state = goat.new_game(seed=11)
    for _ in range(14):
        seen = goat.view(state, state.to_move)  # type: ignore[arg-type]
        state = goat.play(state, greedy.choose(seen, seen.legal_moves))
    seen = goat.view(state, state.to_move)  # type: ignore[arg-type]
    rng = random.Random(5)
    others = sorted(log_likelihood(goat.sample_world(seen, rng), seen.seat) for _ in range(41))
    assert log_likelihood(state, seen.seat) > others[20]


# --- the exact posterior of a small position -------------------------------------------------------------------
#
# Seat 1's view after seat 0 led 6C (seed 0, trump card 9D, no molodka dealt).  A world is a deal (every deal equally
# likely, R7-R8: the trump card lies in the stock) and, for another seat holding a molodka (R14), its waits: before
# the lead and before seat 1's play.  So the posterior of seat 0's other three cards H0 is proportional to
#
#     f0(H0) * S(R),   S(R) = sum over disjoint hands H2, H3 of R of f2(H2) * f3(H3),   R = U - H0,
#
# with U the cards seat 1 has not seen but the trump card, f0(H0) the chance that seat 0 led 6C (and waited before
# seat 1's play if its hand was four clubs), f_s(H) the chance that seat s waited at both asks if H is a molodka
# (four of a suit), else 1.  S is summed exactly by inclusion-exclusion over the molodkas (few).

SEED = 0
LEAD = "0 lead 6C"


def seat1_view() -> goat.PlayerView:
    state = goat.play(goat.new_game(seed=SEED, dealer=3), Move.from_str(LEAD))
    assert not state.core[5] and state.to_move == 1  # HOLDERS: nobody holds a molodka in the real deal
    return goat.view(state, 1)


def text(hand: Iterable[Card]) -> str:
    return " ".join(str(card) for card in hand)


def deal_with(seen: goat.PlayerView, hands: dict[int, list[Card]]) -> GameState:
    """A deal giving ``hands`` (by seat) and seat 1 its hand, the other hands from the rest without a molodka."""
    (led,) = Move.from_str(LEAD).cards
    taken = {card for hand in hands.values() for card in hand} | set(seen.hand) | {led, seen.trump_card}
    rest = sorted((c for c in goat.DECK if c not in taken), key=lambda c: (int(c.rank), c.suit.index))  # mixed suits
    full = {0: [led], 1: sorted(seen.hand), 2: [], 3: []}
    for seat, hand in hands.items():
        full[seat] = full[seat] + list(hand)
    for seat in range(4):
        while len(full[seat]) < 4:
            full[seat].append(rest.pop(0))
    return game([text(full[seat]) for seat in range(4)], trump_card=str(seen.trump_card))


def exact_posterior(seen: goat.PlayerView, model: PlayerModel) -> dict[frozenset[Card], float]:
    (led,) = Move.from_str(LEAD).cards
    unseen = [c for c in goat.DECK if c not in seen.hand and c != led and c != seen.trump_card]

    def chance(seat: int, cards: Iterable[Card]) -> float:
        """The chance that ``seat``, dealt these cards (and seat 0 the lead), made its moves of the history."""
        state = deal_with(seen, {seat: list(cards)})
        result = 1.0
        for before in (LEAD, None):  # holders are asked before the lead and before seat 1's play (R14)
            while state.to_move != state.to_play:
                asked = goat.view(state, state.to_move)  # type: ignore[arg-type]
                wait = Move(MoveKind.WAIT, asked.seat, ())
                if asked.seat == seat:
                    result *= model.probabilities(asked)[asked.legal_moves.index(wait)]
                state = goat.play(state, wait)
            if before is not None:
                if seat == 0:
                    mine = goat.view(state, 0)
                    result *= model.probabilities(mine)[mine.legal_moves.index(Move.from_str(before))]
                state = goat.play(state, Move.from_str(before))
        return result

    molodkas = [m for suit in goat.Suit for m in itertools.combinations([c for c in unseen if c.suit is suit], 4)]
    excess = {seat: {frozenset(m): chance(seat, m) - 1 for m in molodkas} for seat in (2, 3)}

    @cache
    def by_suit(suit: goat.Suit, removed: frozenset[Card]) -> tuple[float, float, float]:
        """Over the molodkas of ``suit`` in U - removed: the sums of f2 - 1 and f3 - 1, and of (f2 - 1)(f3 - 1)
        over disjoint pairs of them."""
        inside = [m for m in excess[2] if next(iter(m)).suit is suit and not m & removed]
        within = sum(excess[2][a] * excess[3][b] for a in inside for b in inside if not a & b)
        return sum(excess[2][m] for m in inside), sum(excess[3][m] for m in inside), within

    def correction(removed: frozenset[Card]) -> tuple[float, float, float]:
        """Over the molodkas of U - removed: the sums of f2 - 1, of f3 - 1, and of (f2 - 1)(f3 - 1) over disjoint
        pairs (molodkas of two suits are always disjoint)."""
        parts = [by_suit(suit, frozenset(c for c in removed if c.suit is suit)) for suit in goat.Suit]
        g2, g3 = sum(p[0] for p in parts), sum(p[1] for p in parts)
        cross = sum(p[2] for p in parts) + g2 * g3 - sum(p[0] * p[1] for p in parts)
        return g2, g3, cross

    posterior = {}
    for h0 in itertools.combinations(unseen, 3):
        n = len(unseen) - 3
        g2, g3, cross = correction(frozenset(h0))
        rest = math.comb(n, 4) * math.comb(n - 4, 4) + math.comb(n - 4, 4) * (g2 + g3) + cross
        posterior[frozenset(h0)] = chance(0, h0) * rest
    total = sum(posterior.values())
    return {h0: weight / total for h0, weight in posterior.items()}


def test_weighted_draws_match_the_exact_posterior_of_a_small_position() -> None:
    seen = seat1_view()
    model = PlayerModel(temperature=2, noise=0.05)  # sharper than the default: a posterior further from uniform
    exact = exact_posterior(seen, model)
    (led,) = Move.from_str(LEAD).cards
    cards = sorted({card for h0 in exact for card in h0})
    truth = {card: sum(p for h0, p in exact.items() if card in h0) for card in cards}
    uniform = 3 / len(cards)
    drawn = weighted_worlds(seen, 3000, random.Random(3), model=model)
    ess = 1 / sum(w.weight**2 for w in drawn)
    estimate = dict.fromkeys(cards, 0.0)
    for w in drawn:
        for card in w.world.hands[0]:
            estimate[card] += w.weight
    # Each card's chance to be in seat 0's hand: within 4.5 standard errors of the exact posterior (of the
    # effective sample size), and the posterior far from uniform for some card, so the test can fail.
    errors = {c: (estimate[c] - truth[c]) / math.sqrt(truth[c] * (1 - truth[c]) / ess) for c in cards}
    assert max(abs(z) for z in errors.values()) < 4.5, errors
    assert max(abs(truth[c] - uniform) / math.sqrt(uniform * (1 - uniform) / ess) for c in cards) > 10
    assert led not in estimate


def test_bad_input_is_refused_clearly() -> None:
    seen = seat1_view()
    rng = random.Random(1)
    with pytest.raises(TypeError, match="PlayerView"):
        weighted_worlds(goat.new_game(seed=1), 2, rng)  # type: ignore[arg-type]
    for n in (0, -1, 2.0, True, 10**9):
        with pytest.raises(ValueError, match="n must be"):
            weighted_worlds(seen, n, rng)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"random\.Random"):
        weighted_worlds(seen, 2, 7)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="deadline"):
        weighted_worlds(seen, 2, rng, deadline="soon")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="deadline"):
        weighted_worlds(seen, 2, rng, deadline=math.nan)
    assert len(weighted_worlds(seen, 5, rng, deadline=0.0)) == 1  # long passed: one world, no more
    with pytest.raises(TypeError, match="PlayerModel"):
        weighted_worlds(seen, 2, rng, model="greedy")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="GameState"):
        log_likelihood(seen, 1)  # type: ignore[arg-type]
    with pytest.raises(goat.InvalidSeatError):
        log_likelihood(goat.new_game(seed=1), 4)
