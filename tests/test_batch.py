"""goat.batch against the scalar engine (R7–R23), and the batch API.

The differential tests play games in lockstep — half dealt from seeds, half from decks built to give seats
molodkas (R14), :data:`LOCKSTEP_GAMES` in each of four tests, sized by the Hypothesis profile — with policies
that wait and declare at different rates, and at every step compare, for every game: the legal mask with
``encoding.legal_actions(goat.view(state, seat))``, a fingerprint of the whole position (hands, stock, leader,
who decides, the table play by play, tricks and points per team) with the scalar state's, and the observation
with ``encoding.observation``; ``Batch.state(i)`` is compared with ``==`` for a sample of games at every step,
and every result with :func:`goat.score`.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import settings

import goat
from goat.adapters import encoding
from goat.batch import (
    Batch,
    IllegalActionError,
    SeedStream,
    from_decks,
    from_stream,
    greedy_lite_actions,
    new_games,
    random_playouts,
    uniform_actions,
)
from goat.batch.deal import deal_decks, python_deck

# --- deals ---------------------------------------------------------------------------------------------


def test_deals_match_the_scalar_engine_seed_for_seed() -> None:
    rng = random.Random(7)
    seeds = [*range(600), -1, -(2**40), 2**32 - 1, 2**32, 2**63, 2**64 + 5, 2**200 + 3, 2**300]
    seeds += [rng.getrandbits(rng.choice([8, 31, 33, 62, 64, 70])) for _ in range(600)]
    decks, trumps = deal_decks(seeds)
    for seed, deck, trump in zip(seeds, decks.tolist(), trumps.tolist(), strict=True):
        assert (deck, trump) == python_deck(seed), seed
    for dealer in range(4):
        batch = new_games(seeds[:40] + seeds[-40:], dealer=dealer)
        assert batch.seeds.tolist() == seeds[:40] + seeds[-40:]
        for i, seed in enumerate(seeds[:40] + seeds[-40:]):
            assert batch.state(i) == goat.new_game(seed=seed, dealer=dealer), (seed, dealer)


def test_a_seed_short_of_words_is_dealt_by_random_random(monkeypatch: pytest.MonkeyPatch) -> None:
    import goat.batch.deal as deal

    monkeypatch.setattr(deal, "WORDS", 40)  # most seeds need more than 40 words: the fallback deals them
    decks, trumps = deal.deal_decks(list(range(500)))
    assert [(d, t) for d, t in zip(decks.tolist(), trumps.tolist(), strict=True)] == [
        python_deck(s) for s in range(500)
    ]


def test_fixed_decks_deal_as_new_game_does() -> None:
    rng = np.random.default_rng(3)
    decks = np.array([rng.permutation(36) for _ in range(20)])
    trumps = decks[np.arange(20), rng.integers(16, 36, 20)]
    dealers = np.arange(20) % 4
    batch = from_decks(decks, trumps, dealer=dealers)
    for i in range(20):
        deck = [goat.DECK[c] for c in decks[i]]
        expected = goat.new_game(deck=deck, trump_card=goat.DECK[trumps[i]], dealer=int(dealers[i]))
        assert batch.state(i) == expected
    with pytest.raises(goat.InvalidDealError, match="trump card must lie in the stock"):
        from_decks(decks[:1], decks[:1, 3])
    with pytest.raises(goat.InvalidDealError, match="36 distinct cards"):
        from_decks(np.zeros((1, 36), dtype=int), [20])
    with pytest.raises(goat.InvalidDealError, match="dealer"):
        new_games([1], dealer=4)


# --- the differential test -------------------------------------------------------------------------------

#: Games per lockstep test: three per example of the Hypothesis profile that conftest.py loads, from 200 (the
#: "ci" profile's 60) and 300 (the default's 100) to 2,500 (the "thorough" profile's 2,000).
LOCKSTEP_GAMES = min(2_500, max(200, 3 * settings().max_examples))


def molodka_decks(count: int, seed: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Decks that deal one to three seats four cards of one suit (R14), with random trump cards and dealers."""
    rng = np.random.default_rng(seed)
    decks = np.empty((count, 36), dtype=np.int64)
    trumps = np.empty(count, dtype=np.int64)
    dealers = rng.integers(0, 4, count)
    for g in range(count):
        holders = rng.choice(4, size=rng.choice([1, 1, 2, 2, 3]), replace=False)
        suits = rng.choice(4, size=len(holders), replace=False)
        deck = np.full(36, -1)
        used: list[int] = []
        for seat, suit in zip(holders, suits, strict=True):
            cards = rng.choice(9, size=4, replace=False) + 9 * suit
            turn = (seat - dealers[g] - 1) % 4  # the seat receives deck[turn + 4r] (R7)
            deck[turn + 4 * np.arange(4)] = cards
            used += cards.tolist()
        rest = rng.permutation([c for c in range(36) if c not in used])
        deck[deck < 0] = rest
        decks[g] = deck
        trumps[g] = deck[rng.integers(16, 36)]
    return decks, trumps, dealers


Totals = dict[int, tuple[int, int, int, int]]
KINDS = {1: goat.MoveKind.LEAD, 2: goat.MoveKind.BEAT, 3: goat.MoveKind.PASS, 4: goat.MoveKind.MOLODKA}
CARDS: dict[tuple[int, ...], frozenset[goat.Card]] = {}  # card slots -> the cards (hands and plays recur)


def cards_in(slots: list[int]) -> frozenset[goat.Card]:
    key = tuple(slots)
    found = CARDS.get(key)
    if found is None:
        found = CARDS[key] = frozenset(goat.DECK[c] for c in slots if c < 36)
    return found


def fingerprint_of_state(state: goat.GameState, scores: Totals | None = None) -> tuple[Any, ...]:
    """What the scalar state is: hands, stock size, leader, who decides and plays, the table play by play,
    tricks and points by team.  ``scores`` caches the trick totals by the number of tricks."""
    tricks = state.tricks
    totals = None if scores is None else scores.get(len(tricks))
    if totals is None:
        won, points = [0, 0], [0, 0]
        for trick in tricks:
            won[trick.winner % 2] += 1
            points[trick.winner % 2] += trick.points
        totals = (won[0], won[1], points[0], points[1])
        if scores is not None:
            scores.clear()
            scores[len(tricks)] = totals
    return (
        state.hands,
        len(state.stock),
        state.leader,
        -1 if state.to_move is None else state.to_move,
        -1 if state.to_play is None else state.to_play,
        tuple((m.seat, m.kind, m.cards) for m in state.table),
        totals[:2],
        totals[2:],
    )


def fingerprints_of_batch(batch: Batch, games: list[int]) -> list[tuple[Any, ...]]:
    hands = batch.hands.tolist()
    table = batch.table.tolist()
    kinds = batch.table_kinds.tolist()
    leaders, to_move, to_play = batch.leader.tolist(), batch.to_move.tolist(), batch.to_play.tolist()
    stock, won, points = batch.stock_size.tolist(), batch.tricks_won.tolist(), batch.points.tolist()
    found = []
    for i in games:
        leader = leaders[i]
        plays = []
        for k in range(4):
            seat = (leader + k) % 4
            if kinds[i][seat] == 0:
                break
            plays.append((seat, KINDS[kinds[i][seat]], cards_in(table[i][seat])))
        found.append(
            (
                tuple(cards_in(hand) for hand in hands[i]),
                stock[i],
                leader,
                to_move[i],
                to_play[i],
                tuple(plays),
                tuple(won[i]),
                tuple(points[i]),
            )
        )
    return found


def choose(legal: list[int], declare: float, rng: random.Random) -> int:
    """A random legal action; a holder asked declares with chance ``declare``, the seat due to play with a
    molodka declares with a third of that chance (R14)."""
    if legal == [45, 46]:
        return 45 if rng.random() < declare else 46
    if 45 in legal and rng.random() < declare / 3:
        return 45
    plays = [a for a in legal if a != 45]
    return rng.choice(plays)


def play_in_lockstep(batch: Batch, states: list[goat.GameState], seed: int) -> dict[str, int]:
    """Play every game to the end with the batch and the scalar engine side by side, checking all of it."""
    rng = random.Random(seed)
    declare = [rng.choice([0.1, 0.5, 0.9]) for _ in states]
    counts = {"decisions": 0, "waits": 0, "declared": 0, "observations": 0, "states": 0}
    n = len(states)
    changed = list(range(n))  # the games the last step moved: each is compared in full
    scores: list[Totals] = [{} for _ in range(n)]
    while True:
        expected_prints = [fingerprint_of_state(states[i], scores[i]) for i in changed]
        assert fingerprints_of_batch(batch, changed) == expected_prints
        mask = batch.legal_mask()
        observations = batch.observations()
        expected_mask = np.zeros((n, 47), dtype=np.bool_)
        actions = np.full(n, -1, dtype=np.int64)
        for i, state in enumerate(states):
            if state.is_over:
                continue
            seen = goat.view(state, state.to_move)
            legal = encoding.legal_actions(seen)
            expected_mask[i, legal] = True
            if rng.random() < 0.25:  # a quarter of the observations, every step
                expected = np.asarray(encoding.observation(seen), dtype=np.float32)
                assert np.array_equal(observations[i], expected), (i, np.flatnonzero(observations[i] != expected))
                counts["observations"] += 1
            actions[i] = choose(legal, declare[i], rng)
        wrong = np.flatnonzero((mask != expected_mask).any(axis=1))
        assert wrong.size == 0, (wrong[:5], states[wrong[0]] if wrong.size else None)
        over = np.array([s.is_over for s in states])
        assert not observations[over].any()
        live = np.flatnonzero(actions >= 0)
        if live.size == 0:
            break
        seat = rng.randrange(4)  # another seat's view of a sample of games (R23)
        others = batch.observations(np.full(n, seat))
        for i in rng.sample(range(n), 10):
            expected = np.asarray(encoding.observation(goat.view(states[i], seat)), dtype=np.float32)
            assert np.array_equal(others[i], expected)
        before = batch
        batch = batch.step(actions)
        assert before.to_move.tolist() == [-1 if s.to_move is None else s.to_move for s in states]  # unchanged
        for i in live.tolist():
            states[i] = goat.play(states[i], encoding.actions_of(states[i])[int(actions[i])])
        changed = live.tolist()
        counts["decisions"] += int(live.size)
        counts["waits"] += int((actions == 46).sum())
        counts["declared"] += int((actions == 45).sum())
        for i in rng.sample(range(n), 4):
            assert batch.state(i) == states[i]
            counts["states"] += 1
    results = batch.results()
    assert results.games.tolist() == list(range(n))
    for i, state in enumerate(states):
        assert batch.result(i) == goat.score(state)
    return counts


@pytest.mark.parametrize("half", [0, 1])
def test_seeded_games_in_lockstep_equal_the_scalar_engine(half: int) -> None:
    games = LOCKSTEP_GAMES
    seeds = list(range(half * games, (half + 1) * games))
    dealers = np.arange(games) % 4
    batch = new_games(seeds, dealer=dealers)
    states = [goat.new_game(seed=s, dealer=int(d)) for s, d in zip(seeds, dealers, strict=True)]
    counts = play_in_lockstep(batch, states, seed=half)
    assert counts["decisions"] > games * 28
    # Molodkas dealt and drawn occur by themselves: about one declaration and two waits in ten games.
    assert counts["declared"] > games // 25 and counts["waits"] > games // 25


@pytest.mark.parametrize("half", [0, 1])
def test_molodka_deals_in_lockstep_equal_the_scalar_engine(half: int) -> None:
    games = LOCKSTEP_GAMES
    decks, trumps, dealers = molodka_decks(games, seed=10 + half)
    batch = from_decks(decks, trumps, dealer=dealers)
    states = [
        goat.new_game(deck=[goat.DECK[c] for c in deck], trump_card=goat.DECK[t], dealer=int(d))
        for deck, t, d in zip(decks, trumps, dealers, strict=True)
    ]
    assert all(goat.legal_moves(s)[0].kind is not goat.MoveKind.LEAD or s.to_move == s.leader for s in states)
    counts = play_in_lockstep(batch, states, seed=20 + half)
    assert counts["declared"] > games * 0.5  # most of these games see a molodka declared, many see waits
    assert counts["waits"] > games * 0.5


# --- the API -----------------------------------------------------------------------------------------------


def test_shapes_and_dtypes() -> None:
    batch = new_games(range(5))
    assert len(batch) == batch.n == 5
    assert batch.legal_mask().shape == (5, 47) and batch.legal_mask().dtype == np.bool_
    assert batch.observations().shape == (5, 310) and batch.observations().dtype == np.float32
    assert batch.to_move.shape == (5,) and batch.to_move.dtype == np.int8
    assert batch.hands.shape == (5, 4, 4) and batch.hands.dtype == np.uint8
    assert batch.table.shape == (5, 4, 4) and batch.table_kinds.shape == (5, 4)
    assert batch.tricks_won.shape == batch.points.shape == (5, 2)
    assert batch.legal_bits().dtype == np.uint64
    assert batch.decks.shape == (5, 36) and batch.seeds.tolist() == [0, 1, 2, 3, 4]
    assert batch.results().points.shape == (0, 2)
    assert not batch.is_over.any() and not batch.all_over
    assert batch.nbytes > 0 and "5 games" in repr(batch)


def test_arrays_are_read_only() -> None:
    batch = new_games(range(3))
    for array in (batch.to_move, batch.hands, batch.legal_bits(), batch.decks, batch.points, batch.leader):
        with pytest.raises(ValueError, match="read-only"):
            array.flat[0] = 0


def test_an_illegal_action_names_the_game_and_the_action_and_changes_nothing() -> None:
    batch = new_games(range(4))
    rng = np.random.default_rng(0)
    actions = batch.sample(rng)
    legal = batch.legal_mask()
    wrong = actions.copy()
    wrong[2] = int(np.flatnonzero(~legal[2])[0])
    snapshot = (batch.hands.copy(), batch.to_move.copy(), batch.legal_mask().copy(), batch.steps)
    with pytest.raises(IllegalActionError, match=rf"game 2: action {wrong[2]} .* not legal for seat") as caught:
        batch.step(wrong)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, goat.IllegalMoveError)
    assert "legal actions are" in str(caught.value)
    with pytest.raises(IllegalActionError, match="game 0: action 47"):
        batch.step(np.array([47, 0, 0, 0]))
    with pytest.raises(ValueError, match="one action per game"):
        batch.step(actions[:3])
    with pytest.raises(TypeError, match="integers"):
        batch.step(actions.astype(float))
    assert np.array_equal(batch.hands, snapshot[0]) and np.array_equal(batch.to_move, snapshot[1])
    assert np.array_equal(batch.legal_mask(), snapshot[2]) and batch.steps == snapshot[3]
    batch.step(actions)  # the batch still works


def test_step_is_pure_and_branches_replay_apart() -> None:
    batch = new_games(range(50))
    rng = np.random.default_rng(1)
    for _ in range(10):
        batch = batch.step(batch.sample(rng))
    arrays = [batch.hands.copy(), batch.table.copy(), batch.observations(), batch.legal_mask()]
    states = [batch.state(i) for i in range(50)]
    one, two = batch.sample(rng), batch.sample(rng)
    first = batch.step(one)
    second = batch.step(two)  # a second branch from the same batch: it copies the log instead of sharing it
    first_on = first.step(first.sample(rng))  # and the first branch goes on
    for old, now in zip(arrays, [batch.hands, batch.table, batch.observations(), batch.legal_mask()], strict=True):
        assert np.array_equal(old, now)
    for i in range(50):
        assert batch.state(i) == states[i]
        assert first.state(i) == goat.play(states[i], encoding.actions_of(states[i])[int(one[i])])
        assert second.state(i) == goat.play(states[i], encoding.actions_of(states[i])[int(two[i])])
        assert first_on.state(i).history[: len(first.state(i).history)] == first.state(i).history


def test_minus_one_leaves_a_game_alone() -> None:
    batch = new_games(range(6))
    actions = batch.sample(np.random.default_rng(2))
    actions[[1, 4]] = -1
    after = batch.step(actions)
    for i in (1, 4):
        assert after.state(i) == batch.state(i)
    assert after.state(0) != batch.state(0)


def test_auto_reset_runs_forever_and_keeps_every_result() -> None:
    stream = SeedStream(1000)
    batch = new_games(range(20))
    rng = np.random.default_rng(3)
    seen = 0
    for _ in range(300):
        batch = batch.step(batch.sample(rng), redeal=stream)
        if batch.redealt is not None:
            seen += len(batch.redealt)
            assert (batch.redealt.points.sum(axis=1) == 120).all()
        assert not batch.is_over.any()
    assert seen == stream.taken > 100
    assert sorted(batch.numbers.tolist()) == sorted(range(20 + seen))[-20:] or batch.numbers.max() < 20 + seen
    slot = int(np.argmax(batch.numbers))
    seed = int(batch.seeds[slot])
    assert seed >= 1000 and batch.state(slot).deck == goat.new_game(seed=seed).deck
    # redeal() does the same in two calls
    game = new_games([5])
    while not game.all_over:
        game = game.step(game.sample(rng))
    again = game.redeal([9], dealer=2)
    assert again.state(0) == goat.new_game(seed=9, dealer=2) and again.redealt is not None
    assert again.redealt.points.tolist() == [list(game.result(0).points)]
    with pytest.raises(ValueError, match="one seed per finished game"):
        game.redeal([1, 2])
    huge = game.redeal([2**70 + 1])
    assert huge.seeds.tolist() == [2**70 + 1] and huge.state(0) == goat.new_game(seed=2**70 + 1)
    assert from_decks([list(range(36))], [20]).seeds.tolist() == [None]


def test_redeal_deals_only_the_games_it_is_given() -> None:
    batch = new_games(range(12), dealer=np.arange(12) % 4)
    rng = np.random.default_rng(6)
    while batch.is_over.sum() < 4:
        batch = batch.step(batch.sample(rng))
    over = np.flatnonzero(batch.is_over)
    chosen = over[[0, 2]]
    again = batch.redeal([500, 501], games=chosen[::-1])  # in game order, whatever order they are named in
    assert again.redealt is not None and again.redealt.games.tolist() == chosen.tolist()
    assert again.is_over.tolist() == [bool(i in over and i not in chosen) for i in range(12)]
    for i, seed in zip(chosen.tolist(), (500, 501), strict=True):
        assert again.state(i) == goat.new_game(seed=seed, dealer=i % 4)
    for i in set(range(12)) - set(chosen.tolist()):
        assert again.state(i) == batch.state(i)
    stream = SeedStream(900, dealer=1)
    streamed = batch.redeal(stream, games=over[:1])
    assert stream.taken == 1 and streamed.state(int(over[0])) == goat.new_game(seed=900, dealer=1)
    going = int(np.flatnonzero(~batch.is_over)[0])
    with pytest.raises(goat.GameNotOverError, match=f"game {going} is not over"):
        batch.redeal([1], games=[going])
    with pytest.raises(ValueError, match="each game once"):
        batch.redeal([1, 2], games=[over[0], over[0]])
    with pytest.raises(IndexError, match="out of range"):
        batch.redeal([1], games=[12])
    with pytest.raises(TypeError, match="game indices"):
        batch.redeal([1], games=[0.5])
    assert batch.redeal([], games=[]).is_over.tolist() == batch.is_over.tolist()


def test_from_stream_deals_the_streams_next_seeds() -> None:
    stream = SeedStream(70, dealer="rotate")
    batch = from_stream(stream, 6)
    assert batch.seeds.tolist() == list(range(70, 76)) and batch.dealer.tolist() == [0, 1, 2, 3, 0, 1]
    assert from_stream(stream, 2).seeds.tolist() == [76, 77] and stream.taken == 8
    fixed = from_stream(SeedStream(5), 3, dealer=2)
    assert all(fixed.state(i) == goat.new_game(seed=5 + i, dealer=2) for i in range(3))
    with pytest.raises(goat.InvalidSeatError, match="dealer"):
        from_stream(SeedStream(0), 2, dealer=4)
    with pytest.raises(TypeError, match="SeedStream"):
        from_stream(range(3), 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="games held at once"):
        from_stream(SeedStream(0), 0)


def test_the_engine_surface_other_modules_build_on() -> None:
    batch = new_games(range(40), dealer=np.arange(40) % 4)
    suits = list(goat.Suit)
    assert [suits[t] for t in batch.trump.tolist()] == [batch.state(i).trump for i in range(40)]
    legal = batch.legal_blocks()
    assert legal is batch.legal_blocks()  # found once per batch
    assert np.array_equal(legal.due, batch.to_play) and legal.blocks.shape == (4, 40)
    assert np.array_equal(batch.position.to_move, batch.to_move)
    for array in (batch.trump, legal.blocks, legal.due, batch.position.hands):
        with pytest.raises(ValueError, match="read-only"):
            array.flat[0] = 0
    rng = np.random.default_rng(8)
    while not batch.all_over:
        batch = batch.step(batch.sample(rng))
    results = batch.results()
    assert results.dealer.tolist() == [i % 4 for i in range(40)]
    assert results.first_leader.tolist() == [(i + 1) % 4 for i in range(40)]  # the dealer's left leads (R9)


def test_the_encodings_layout_is_what_the_batch_reads() -> None:
    parts = [encoding.action_parts(a) for a in range(encoding.NUM_ACTIONS)]
    assert parts[encoding.MOLODKA_ACTION] == (goat.MoveKind.MOLODKA, 0)
    assert parts[encoding.WAIT_ACTION] == (goat.MoveKind.WAIT, 0)
    state = goat.new_game(seed=4)
    for _ in range(60):
        if state.is_over:
            break
        seen = goat.view(state, state.to_move)
        for move in seen.legal_moves:
            action = encoding.encode(move, seen)
            subset = 0 if move.kind in (goat.MoveKind.MOLODKA, goat.MoveKind.WAIT) else None
            if subset is None:
                subset = encoding.subset_of(move.cards, sorted(seen.hand))
            assert parts[action] == (move.kind, subset)
        state = goat.play(state, seen.legal_moves[-1])
    for wrong in (-1, encoding.NUM_ACTIONS, 3.0, True):
        with pytest.raises(ValueError, match="an action number"):
            encoding.action_parts(wrong)  # type: ignore[arg-type]
    # The observation's parts, in order, tile it exactly.
    layout = [
        (encoding.OBS_HAND, 36),
        (encoding.OBS_TRUMP_CARD, 36),
        (encoding.OBS_TABLE, 4 * 36),
        (encoding.OBS_FACE_DOWN, 4),
        (encoding.OBS_LEADER, 4),
        (encoding.OBS_TO_PLAY, 4),
        (encoding.OBS_SEEN, 36),
        (encoding.OBS_PASSED, 36),
        (encoding.OBS_HAND_SIZES, 4),
        (encoding.OBS_STOCK, 1),
        (encoding.OBS_TRICKS, 2),
        (encoding.OBS_DEFEAT, 2),
        (encoding.OBS_MOLODKA, 1),
    ]
    ends = [start + size for start, size in layout]
    assert [start for start, _ in layout] == [0, *ends[:-1]] and ends[-1] == encoding.OBSERVATION_SIZE


def test_state_replays_after_log_trimming() -> None:
    stream = SeedStream(0)
    batch = new_games(range(10))
    rng = np.random.default_rng(4)
    for _ in range(900):  # far past the log slack: old steps are dropped, living games still replay
        batch = batch.step(batch.sample(rng), redeal=stream)
    for i in range(10):
        state = batch.state(i)
        assert state.deck == goat.new_game(seed=int(batch.seeds[i])).deck
        assert fingerprint_of_state(state) == fingerprints_of_batch(batch, [i])[0]


def test_results_and_game_results() -> None:
    batch = new_games(range(30))
    rng = np.random.default_rng(5)
    with pytest.raises(goat.GameNotOverError):
        batch.result(0)
    while not batch.all_over:
        batch = batch.step(batch.sample(rng))
    results = batch.results()
    for i in range(30):
        result = batch.result(i)
        assert result == goat.score(batch.state(i))
        assert tuple(results.points[i].tolist()) == result.points
        assert tuple(results.defeat[i].tolist()) == result.defeat
        assert results.winner[i] == (-1 if result.winner is None else result.winner)
        assert results.last_trick_winner[i] == result.last_trick_winner
        assert results.first_leader[i] == 1
    with pytest.raises(IndexError):
        batch.state(30)


def test_seed_streams() -> None:
    stream = SeedStream([5, 6, 7], dealer="rotate", chunk=2)
    seeds, decks, trumps, dealers, hands, holders = stream.take(2)
    assert seeds == [5, 6] and dealers is not None and dealers.tolist() == [0, 1]
    assert decks.shape == (2, 36) and list(decks[1]) == python_deck(6)[0] and trumps[1] == python_deck(6)[1]
    assert hands.shape == (4, 2) and holders.shape == (2,)
    with pytest.raises(ValueError, match="ran out"):
        stream.take(2)
    with pytest.raises(TypeError):
        SeedStream("12")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="dealer"):
        SeedStream(0, dealer=5)  # type: ignore[arg-type]


def test_random_playouts_are_reproducible_and_sound() -> None:
    games = random_playouts(500, seed=2, batch_size=120)
    again = random_playouts(500, seed=2, batch_size=120)
    assert np.array_equal(games.points, again.points) and np.array_equal(games.decisions, again.decisions)
    assert len(games) == 500 and (games.points.sum(axis=1) == 120).all()
    assert games.seeds[7] == 2 * 2**32 + 7 and games.dealer[7] == 3 and games.first_leader[7] == 0
    assert ((games.winner == -1) == (games.points[:, 0] == 60)).all()
    assert (games.tricks.sum(axis=1) <= 9).all() and (games.decisions >= 12).all()
    for j in (0, 123, 499):  # each game's deal is the seed's
        batch = new_games([int(games.seeds[j])], dealer=int(games.dealer[j]))
        assert batch.state(0) == goat.new_game(seed=int(games.seeds[j]), dealer=int(games.dealer[j]))
    one = random_playouts(3, seed=1, batch_size=10)
    assert len(one) == 3


def test_uniform_actions_are_uniform_over_the_legal_ones() -> None:
    batch = new_games([3] * 4000)  # one position, many times: each legal lead equally often
    legal = np.flatnonzero(batch.legal_mask()[0])
    drawn = uniform_actions(batch, np.random.default_rng(9))
    counts = np.bincount(drawn, minlength=47)
    assert set(np.flatnonzero(counts)) == set(legal.tolist())
    expected = 4000 / len(legal)
    assert ((counts[legal] - expected) ** 2 / expected).sum() < 3 * len(legal)  # chi-square, far inside


def test_greedy_lite_is_legal_deterministic_and_beats_random() -> None:
    n = 1200
    batch = new_games(range(n), dealer=np.arange(n) % 4)
    rng = np.random.default_rng(2)
    while not batch.all_over:
        greedy = greedy_lite_actions(batch)
        assert np.array_equal(greedy, greedy_lite_actions(batch))
        mask = batch.legal_mask()
        live = greedy >= 0
        assert mask[np.flatnonzero(live), greedy[live]].all() and (live == ~batch.is_over).all()
        asked = mask[:, 45] & mask[:, 46]
        assert (greedy[asked] == 45).all()  # a holder asked declares (R14)
        batch = batch.step(np.where(batch.to_move % 2 == 0, greedy, uniform_actions(batch, rng)))
    assert (batch.results().winner == 0).mean() > 0.75


# --- the package's structure -----------------------------------------------------------------------------


def test_the_batch_modules_import_without_cycles_and_read_no_other_modules_private_names() -> None:
    """Imports inside functions count; no module imports the package root (``goat`` or ``goat.batch``); each
    reads only the private names (``_x``) that it defines itself."""
    import ast
    from pathlib import Path

    import goat.batch

    trees = {path.stem: ast.parse(path.read_text()) for path in Path(goat.batch.__file__).parent.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, tree in trees.items():
        graph[name] = set()
        nodes = list(ast.walk(tree))
        defined = {n.name for n in nodes if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        defined |= {n.attr for n in nodes if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)}
        defined |= {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        defined |= {n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)}  # slots
        for node in nodes:
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                assert node.attr in defined, f"{name} reads another module's private {ast.unparse(node)}"
            if isinstance(node, ast.ImportFrom):
                assert not any(a.name.startswith("_") for a in node.names), f"{name}: {ast.unparse(node)}"
            if isinstance(node, (ast.Import, ast.ImportFrom)) and name != "__init__":
                targets = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                for target in targets:
                    assert target not in ("goat", "goat.batch"), f"{name} imports the package root: {ast.unparse(node)}"
                    if target.startswith("goat.batch."):
                        graph[name].add(target.removeprefix("goat.batch."))
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, f"an import cycle: {' -> '.join((*path, name))}"
        if name not in done:
            for imported in graph[name]:
                visit(imported, (*path, name))
            done.add(name)

    for name in graph:
        visit(name, ())


# --- the vector environment -----------------------------------------------------------------------------

gymnasium = pytest.importorskip("gymnasium")


def legal_sample(env: Any, mask: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """A legal action for each game; 0 for a game whose episode has just ended (its action is ignored)."""
    return np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])


@pytest.mark.parametrize("dealer", [None, 4, "left", 1.0])
def test_the_vector_envs_reset_refuses_a_dealer_that_is_no_seat(dealer: Any) -> None:
    from goat.batch import vector_env

    env = vector_env(2, seat=0)
    with pytest.raises(ValueError, match="a seat 0–3 or 'rotate'"):  # found by a review: None gave a raw TypeError
        env.reset(seed=1, options={"dealer": dealer})


def test_the_vector_env_passes_gymnasiums_checks() -> None:
    from gymnasium.utils import env_checker, passive_env_checker
    from gymnasium.vector import AutoresetMode, VectorEnv

    from goat.batch import vector_env

    env = vector_env(8, seat=2, opponents="greedy-lite")
    assert isinstance(env, VectorEnv) and env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert env.autoreset_mode is AutoresetMode.NEXT_STEP
    assert env.single_action_space == gymnasium.spaces.Discrete(47)
    assert env.single_observation_space.shape == (310,) and env.observation_space.shape == (8, 310)
    passive_env_checker.check_observation_space(env.single_observation_space)
    passive_env_checker.check_action_space(env.single_action_space)
    env_checker.check_space_limit(env.single_observation_space, "observation")
    env_checker.check_reset_return_type(env)
    env_checker.check_reset_options(env)
    env_checker.check_reset_seed_determinism(env)
    # Gymnasium's data-reuse check steps with action_space.sample(), mostly illegal actions, and reads one
    # environment's flags (`if terminated`): one sub-environment.  It raised IllegalActionError before.
    env_checker.check_returned_data_not_reused(vector_env(1, seat=0))
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=5)
    for _ in range(30):
        passive_env_checker.check_obs(obs, env.observation_space, "step")
        obs, rewards, terminated, truncated, info = env.step(legal_sample(env, info["action_mask"], rng))
        assert rewards.dtype == np.float64 and terminated.dtype == truncated.dtype == np.bool_
    env.close()


def test_the_vector_env_is_deterministic_and_its_episodes_add_up() -> None:
    from gymnasium.utils.env_checker import data_equivalence

    from goat.batch import vector_env

    runs = []
    for _ in range(2):
        env = vector_env(16, seat=1, opponents="random", reward="win", autoreset_mode="SameStep")
        rng = np.random.default_rng(7)
        obs, info = env.reset(seed=11)
        trace = [(obs, info["action_mask"])]
        finished = 0
        for _ in range(60):
            actions = legal_sample(env, info["action_mask"], rng)
            obs, rewards, terminated, truncated, info = env.step(actions)
            trace.append((obs, rewards, terminated, info["action_mask"]))
            assert not truncated.any()
            if terminated.any():
                finished += int(terminated.sum())
                final = info["final_info"]
                assert (info["_final_obs"] == terminated).all() and (info["_final_info"] == terminated).all()
                assert (rewards[terminated] == final["winner"][terminated]).all()
                assert (final["points"][terminated].sum(axis=1) == 120).all()
                assert (rewards[~terminated] == 0).all()
                for i in np.flatnonzero(terminated):
                    assert info["final_obs"][i].shape == (310,) and not info["final_obs"][i][224:228].any()
            for i in range(0, 16, 5):  # the agent's observation is its view (R23)
                state = env.batch.state(i)
                assert state.to_move == 1
                seen = goat.view(state, 1)
                assert np.array_equal(obs[i], np.asarray(encoding.observation(seen), dtype=np.float32))
                assert np.flatnonzero(info["action_mask"][i]).tolist() == encoding.legal_actions(seen)
        assert finished > 16
        runs.append(trace)
    assert data_equivalence(runs[0], runs[1], exact=True)


def test_the_vector_env_refuses_bad_input() -> None:
    from goat.batch import vector_env

    with pytest.raises(ValueError, match="opponents"):
        vector_env(2, opponents="ismcts")
    with pytest.raises(ValueError, match="seat"):
        vector_env(2, seat=4)
    env = vector_env(2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(2, dtype=int))
    _, info = env.reset(seed=1)
    with pytest.raises(ValueError, match="no match score"):  # goat/Goat-v0's option, which these games lack
        env.reset(options={"defeat": (1, 2)})
    for wrong in (-1, 1.5, "1", True, [1]):  # [1]: a list of seeds has one per sub-environment
        with pytest.raises(ValueError, match="seed"):
            env.reset(seed=wrong)  # type: ignore[arg-type]
    for mode in ("NEXT_STEP", "next", None):
        with pytest.raises(ValueError, match="autoreset_mode must be one of"):
            vector_env(2, autoreset_mode=mode)
    for illegal in ("ignore", None):
        with pytest.raises(ValueError, match="illegal must be one of"):
            vector_env(2, illegal=illegal)
    for reward in ("-7", math.nan, -math.inf, 10**400, True):  # a NaN reward would poison every return
        with pytest.raises(ValueError, match="illegal_reward must be a finite number"):
            vector_env(2, illegal_reward=reward)
    assert vector_env(2, illegal_reward=np.float64(-3)).illegal_reward == -3.0  # numpy's numbers are numbers
    with pytest.raises(TypeError, match="numpy Generator"):
        new_games([1, 2]).sample(0)  # type: ignore[arg-type]
    strict = vector_env(2, illegal="raise")
    _, info = strict.reset(seed=1)
    bad = np.array([int(np.flatnonzero(~info["action_mask"][0])[0]), 0])
    before = strict.batch
    with pytest.raises(IllegalActionError, match="game 0"):
        strict.step(bad)
    assert strict.batch is before  # nothing changed
    for outside in (np.array([47, 0]), np.array([-1, 0]), np.array([0.5, 0.0]), np.zeros(3, dtype=int)):
        with pytest.raises(ValueError, match="action"):  # not an action at all, whatever `illegal` says
            env.step(outside)


def test_the_vector_env_registers_with_gymnasium() -> None:
    env_id = "goat_cards_test/Goat-v0"
    gymnasium.register(id=env_id, vector_entry_point="goat.batch.env:GoatVectorEnv")
    try:
        env = gymnasium.make_vec(env_id, num_envs=3, vectorization_mode="vector_entry_point")
        obs, info = env.reset(seed=2)
        assert obs.shape == (3, 310) and info["action_mask"].shape == (3, 47)
        wrapped = gymnasium.wrappers.vector.RecordEpisodeStatistics(env)
        wrapped.reset(seed=2)
        rng = np.random.default_rng(0)
        mask = info["action_mask"]
        for _ in range(40):
            _, _, _, _, info = wrapped.step(legal_sample(env, wrapped.unwrapped.batch.legal_mask(), rng))
        del mask
    finally:
        del gymnasium.registry[env_id]


def test_without_gymnasium_the_env_names_its_extra() -> None:
    import subprocess
    import sys

    code = "import sys; sys.modules['gymnasium'] = None\nimport goat.batch\ngoat.batch.vector_env(2)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert (
        "pip install 'numpy>=1.24' 'gymnasium>=1.0' " in done.stderr and "(goat-cards[batch,gymnasium])" in done.stderr
    )
    assert "MissingExtraError" in done.stderr
    assert "import goat.batch" in code  # goat.batch itself imports without Gymnasium


def test_without_numpy_goat_batch_names_its_extra() -> None:
    # Found by a review: import goat.batch without numpy failed with numpy's own ModuleNotFoundError, where every
    # other extra's module names the extra to install.
    import subprocess
    import sys

    code = "import sys; sys.modules['numpy'] = None\nimport goat.batch"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("goat.errors.MissingExtraError: goat.batch needs numpy: pip install ")
    assert "goat-cards[batch]" in last


def test_counts_no_memory_could_hold_are_refused_before_anything_is_made() -> None:
    # Found by a review: each of these went on to allocate until the machine ran out of memory.
    from goat.batch import vector_env

    for make in (
        lambda: SeedStream(0, chunk=10**12),
        lambda: SeedStream(0).take(10**12),
        lambda: random_playouts(10**12, batch_size=10**12),
        lambda: new_games(iter(range(10**12))),
        lambda: vector_env(10**9),
    ):
        with pytest.raises(ValueError, match=r"games held at once|at most"):
            make()
