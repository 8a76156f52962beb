"""The kernel (goat/_kernel.py): the seed-compatible shuffle, its tables and fast paths against plain
definitions, and its two builds against each other, move by move."""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from itertools import combinations, permutations
from types import ModuleType

import pytest

import goat
import goat._kernel as pure
from goat import _core
from goat.moves import MOVES, make_move, move_by_key


def kernels() -> list[ModuleType]:
    """The pure kernel, and the compiled one when it is built and current."""
    found = [pure]
    if _core.COMPILED:
        found.append(importlib.import_module("goat._ckernel"))
    return found


@pytest.fixture(params=kernels(), ids=lambda kernel: kernel.__name__)
def kernel(request: pytest.FixtureRequest) -> ModuleType:
    module: ModuleType = request.param
    return module


class Words(random.Random):
    """A generator that returns the 32-bit words it is given, as the Mersenne Twister's getrandbits does."""

    def __init__(self, words: list[int]) -> None:
        self.words = iter(words)
        super().__init__(0)

    def getrandbits(self, k: int) -> int:
        value = 0
        for i in range((k + 31) // 32):  # words from the least significant; a last partial one keeps its top bits
            rest = k - 32 * i
            word = next(self.words)
            value |= (word >> (32 - rest) if rest < 32 else word) << (32 * i)
        return value


def reference_deal(rng: random.Random) -> tuple[tuple[int, ...], int]:
    order = list(range(36))
    rng.shuffle(order)
    return tuple(order), rng.randrange(20)


def test_the_shuffle_draws_what_random_shuffle_draws(kernel: ModuleType) -> None:
    for seed in [*range(500), 2**40 + 7, 10**30]:
        assert kernel.shuffled(random.Random(seed).getrandbits) == reference_deal(random.Random(seed)), seed


def test_the_shuffle_takes_more_words_when_draws_are_thrown_away(kernel: ModuleType) -> None:
    # Mostly words whose top bits are too large for any draw: far more than one batch of 64 is needed.
    rng = random.Random(5)
    words = [0xFFFFFFFF if rng.random() < 0.8 else rng.getrandbits(32) for _ in range(4000)]
    assert kernel.shuffled(Words(words).getrandbits) == reference_deal(Words(words))


def test_seeds_deal_the_games_they_always_dealt() -> None:
    # The README's and the documentation's games rest on these.
    for seed, deck, trump_card in ((1, "10S JH 8C 9S 7H 6S QH AD", "10C"), (2026, "JS 7D 9D AH AC 10D 6D 9H", "6S")):
        state = goat.new_game(seed=seed)
        assert (" ".join(str(card) for card in state.deck[:8]), str(state.trump_card)) == (deck, trump_card)


def brute_force_beats(new: int, top: int, trump: int) -> bool:
    news = pure.bits(new)
    tops = pure.bits(top)
    if len(news) != len(tops):
        return False
    return any(
        all(pure.BEATERS[trump][t] >> n & 1 for n, t in zip(pairing, tops, strict=True))
        for pairing in permutations(news)
    )


def test_set_beats_is_a_perfect_matching(kernel: ModuleType) -> None:
    rng = random.Random(3)
    for _ in range(3000):
        size = rng.randint(1, 4)
        cards = rng.sample(range(36), 2 * size)
        new = sum(1 << c for c in cards[:size])
        top = sum(1 << c for c in cards[size:])
        trump = rng.randrange(4)
        assert kernel.set_beats(new, top, trump) == brute_force_beats(new, top, trump)
    assert not kernel.set_beats(1, 3, 0)  # sizes differ


def test_the_tables() -> None:
    assert len(pure.MOLODKAS) == 4 * 126
    assert all(m.bit_count() == 4 and any(m & s == m for s in pure.SUIT_MASK) for m in pure.MOLODKAS)
    for mask in (0, pure.FULL, 0b101 << 9, 1 << 35):
        assert pure.mask_points(mask) == sum(pure.POINTS[c] for c in pure.bits(mask))
    assert pure.mask_points(pure.FULL) == 120
    for hand in (0b1111, 0b10110001, 1 << 35 | 1):
        for size in range(1, hand.bit_count() + 1):
            expected = [sum(c) for c in combinations([1 << i for i in pure.bits(hand)], size)]
            assert pure.subsets(hand, size) == expected


def games(count: int, seed: int) -> Iterator[tuple[goat.GameState, goat.Move]]:
    """(state, move) pairs of random games in which holders declare their molodkas half the time."""
    rng = random.Random(seed)
    for game in range(count):
        state = goat.new_game(seed=seed * 1000 + game)
        while not state.is_over:
            move = rng.choice(goat.legal_moves(state))
            yield state, move
            state = goat.play(state, move)


def test_legal_moves_is_legal_as_move_objects(kernel: ModuleType) -> None:
    for state, _ in games(150, 1):
        core = state.core
        keys = kernel.legal(core)
        assert [m.key for m in kernel.legal_moves(core, MOVES, make_move)] == keys
        assert keys == pure.legal(core)
        due = (core[pure.LEADER] + len(core[pure.TABLE])) % 4
        assert kernel.plays(core, due) == pure.plays(core, due)


def test_numbered_gives_each_legal_move_its_framework_action(kernel: ModuleType) -> None:
    from goat.adapters import encoding

    numbers = (0, 15, 30, encoding.MOLODKA_ACTION, encoding.WAIT_ACTION)
    for state, _ in games(150, 3):
        core = state.core
        found = kernel.numbered(core, *numbers)
        # the adapters' own encoding, move by move from the seat's view: the same numbers, ascending
        if state.to_move is None:
            assert found == []
            continue
        seen = goat.view(state, state.to_move)
        expected = sorted((encoding.encode(move, seen), move.key) for move in goat.legal_moves(state))
        assert found == expected
        assert list(encoding.actions_of(state).items()) == [(action, move_by_key(key)) for action, key in expected]
        hand = core[pure.HANDS][state.to_move]
        assert [(kernel.number(key, hand, *numbers), key) for _, key in expected] == expected


def test_step_accepts_exactly_the_legal_moves(kernel: ModuleType) -> None:
    rng = random.Random(2)
    for state, move in games(100, 2):
        core = state.core
        legal = set(pure.legal(core))
        assert kernel.step(core, move.key) == pure.step(core, move.key) == goat.play(state, move).core
        hand = core[pure.HANDS][move.seat]
        for _ in range(3):  # other keys of the same seat: legal exactly when listed
            mask = sum(1 << c for c in rng.sample(pure.bits(hand), rng.randint(1, hand.bit_count()))) if hand else 0
            key = mask << 5 | rng.randrange(5) << 2 | move.seat
            assert (kernel.step(core, key) is not None) == (key in legal), move_by_key(key)
