"""goat.testing itself: its strategies keep their promises, and check_strategy catches bad bots."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

import goat
import goat.testing as gt
from goat import Card, GameState, Move, MoveKind, PlayerView
from goat.testing import StrategyCheckError, check_strategy

NO_SHRINK = settings(phases=[Phase.generate], database=None, max_examples=300)


def first(strategy: st.SearchStrategy[Any], condition: Any = lambda value: True) -> Any:
    """The first generated value that satisfies ``condition`` (no shrinking: it is slow for whole games)."""
    return find(strategy, condition, settings=NO_SHRINK)


def test_importing_goat_does_not_need_hypothesis() -> None:
    code = "import sys; sys.modules['hypothesis'] = None; import goat; print(goat.new_game(seed=1).leader)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "1"


def test_goat_testing_does_not_import_the_arena() -> None:
    # It builds on the core and the strategy protocol only: checking a bot needs no referee, tournaments or pools.
    code = "import sys, goat.testing; print(sorted(m for m in sys.modules if m.startswith('goat.arena')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@given(gt.hands(size=3), gt.hands())
def test_hands_have_the_asked_size(three: frozenset[Card], any_size: frozenset[Card]) -> None:
    assert len(three) == 3 and 0 <= len(any_size) <= 4


@given(gt.decks())
def test_decks_are_permutations(deck: tuple[Card, ...]) -> None:
    assert sorted(deck) == list(goat.DECK)


@given(gt.deals(molodka=True))
def test_molodka_deals_give_someone_four_of_a_suit(state: GameState) -> None:
    assert any(len(h) == 4 and len({c.suit for c in h}) == 1 for h in state.hands)
    assert state.trump_card in state.stock


@given(gt.deals(dealer=1))
def test_deals_honour_the_dealer(state: GameState) -> None:
    assert state.dealer == 1 and state.leader == 2 and state.history == ()


@given(st.integers(0, 36), st.data())
def test_game_states_make_exactly_the_moves_asked(count: int, data: st.DataObject) -> None:
    state = data.draw(gt.game_states(min_moves=count, max_moves=count, molodka=data.draw(st.booleans())))
    assert len(state.history) == count


def test_game_states_reach_molodkas_and_waits() -> None:
    declared = first(gt.game_states(molodka=True), lambda s: any(m.kind is MoveKind.MOLODKA for m in s.history))
    assert declared.molodka_made or declared.tricks
    first(gt.game_states(molodka=True), lambda s: any(m.kind is MoveKind.WAIT for m in s.history))


@given(gt.finished_games())
def test_finished_games_are_over(state: GameState) -> None:
    assert state.is_over


def test_bad_arguments_are_invalid() -> None:
    for make in (
        lambda: gt.hands(size=5),
        lambda: gt.game_states(min_moves=37),
        lambda: gt.game_states(min_moves=5, max_moves=4),
        lambda: gt.deals(dealer=4),
        lambda: gt.matches(min_games=3, max_games=2),
        lambda: gt.cards(suits=[]),
    ):
        with pytest.raises(InvalidArgument):
            make().example()
    over = first(gt.finished_games())
    with pytest.raises(InvalidArgument, match="over"):
        gt.legal_moves_of(over)


@pytest.mark.parametrize("cls", [Card, goat.Suit, Move, GameState, goat.GameResult, goat.Match, PlayerView])
def test_types_resolve_through_the_entry_point(cls: type) -> None:
    value = first(st.from_type(cls))
    assert isinstance(value, cls)


def test_hypothesis_registers_the_types_at_start_up_through_the_entry_point() -> None:
    from importlib.metadata import entry_points

    (hook,) = [e for e in entry_points(group="hypothesis") if e.value.startswith("goat.")]
    assert hook.value == "goat.testing"
    code = (
        "import sys\n"
        "from hypothesis import strategies as st\n"  # no import of goat.testing here: Hypothesis's start-up does it
        "import goat\n"
        "print('goat.testing' in sys.modules, isinstance(st.from_type(goat.Move).example(), goat.Move))\n"
    )
    env = {key: value for key, value in os.environ.items() if key != "HYPOTHESIS_NO_PLUGINS"}
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", code], capture_output=True, text=True, env=env)
    assert done.stdout.split() == ["True", "True"], done.stderr


# --- check_strategy --------------------------------------------------------------------


class RandomBot:
    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        return self.rng.choice(legal)


def random_bot(*, seed: int | None = None) -> RandomBot:
    return RandomBot(seed)


def test_a_good_bot_passes() -> None:
    check_strategy(random_bot, games=3)


class Hooked(RandomBot):
    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.started = self.ended = 0

    def start_game(self, view: PlayerView) -> None:
        self.started += 1

    def end_game(self, view: PlayerView, result: goat.GameResult) -> None:
        self.ended += 1
        assert self.ended == self.started


def test_hooks_are_called_once_per_game() -> None:
    made: list[Hooked] = []

    def factory(*, seed: int | None = None) -> Hooked:
        made.append(Hooked(seed))
        return made[-1]

    check_strategy(factory, games=3)
    assert [bot.started for bot in made] == [3] * 8 and [bot.ended for bot in made] == [3] * 8


def bot(choose: Any) -> Any:
    def factory(*, seed: int | None = None) -> Any:
        rng = random.Random(seed)
        return type("Bot", (), {"choose": lambda self, view, legal: choose(rng, view, legal)})()

    return factory


@pytest.mark.parametrize(
    ("factory", "message"),
    [
        (bot(lambda rng, view, legal: Move(MoveKind.WAIT, view.seat, ())), "which is not legal"),
        (bot(lambda rng, view, legal: str(legal[0])), "not a goat.Move"),
        (bot(lambda rng, view, legal: 1 / 0), "raised ZeroDivisionError"),
        (bot(lambda rng, view, legal: random.choice(legal)), "not deterministic under the same seed"),
        (lambda *, seed=None: object(), "has no choose"),
        (lambda: RandomBot(), "the factory raised TypeError"),
    ],
)
def test_bad_bots_fail_with_a_clear_message(factory: Any, message: str) -> None:
    with pytest.raises(StrategyCheckError, match=message):
        check_strategy(factory, games=2)


def test_a_stale_move_from_an_earlier_call_is_caught() -> None:
    class Stale:
        def __init__(self) -> None:
            self.first: Move | None = None

        def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
            self.first = self.first or legal[0]
            return self.first

    with pytest.raises(StrategyCheckError, match="not legal"):
        check_strategy(lambda *, seed=None: Stale(), games=1)


def test_check_strategy_rejects_a_bad_game_count() -> None:
    with pytest.raises(ValueError, match="games"):
        check_strategy(random_bot, games=0)


@pytest.mark.parametrize("hook", ["start_game", "end_game"])
def test_a_raising_hook_is_reported(hook: str) -> None:
    def boom(self: object, *args: object) -> None:
        raise RuntimeError("hook broke")

    cls = type("Hooky", (RandomBot,), {hook: boom})
    with pytest.raises(StrategyCheckError, match=f"{hook}\\(\\) raised RuntimeError"):
        check_strategy(lambda *, seed=None: cls(seed), games=1)


def test_goat_testing_without_hypothesis_is_one_short_error_naming_the_extra() -> None:
    code = "import sys; sys.modules['hypothesis'] = None; import goat.testing"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("goat.errors.MissingExtraError: goat.testing needs Hypothesis")
    assert "pip install 'hypothesis>=6.100' (goat-cards[testing])" in last
    assert "During handling" not in done.stderr  # not chained
    assert len(done.stderr.strip().splitlines()) <= 8  # the traceback of the import alone (3.13 adds carets)


def test_from_type_works_after_import_even_with_hypothesis_plugins_off() -> None:
    code = (
        "import goat, goat.testing\n"
        "from hypothesis import strategies as st\n"
        "print(isinstance(st.from_type(goat.GameState).example(), goat.GameState),"
        " isinstance(st.from_type(goat.Card).example(), goat.Card))\n"
    )
    env = {**os.environ, "HYPOTHESIS_NO_PLUGINS": "1"}
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", code], capture_output=True, text=True, env=env)
    assert done.stdout.split() == ["True", "True"], done.stderr


def test_game_states_throw_away_almost_no_draws_and_are_rarely_finished() -> None:
    # Hypothesis replays mutated examples within their old length; draws whose number depends on the moves
    # made overran that and were thrown away (a quarter of them), and a third of the states were finished.
    started, made, finished = [0], [0], [0]

    @st.composite
    def counted(draw: st.DrawFn) -> GameState:
        started[0] += 1
        state = draw(gt.game_states())
        made[0] += 1
        finished[0] += state.is_over
        return state

    @settings(max_examples=300, database=None, phases=[Phase.generate], derandomize=True)
    @given(counted())
    def run(state: GameState) -> None:
        pass

    run()
    assert made[0] >= 300
    assert started[0] - made[0] <= 0.02 * started[0], (started, made)
    assert finished[0] <= 0.1 * made[0], (finished, made)


def test_a_falsifying_game_state_prints_as_code_that_makes_it_again() -> None:
    @settings(max_examples=200, database=None, derandomize=True)
    @given(gt.game_states(min_moves=3))
    def fails(state: GameState) -> None:
        assert len(state.history) < 3

    with pytest.raises(AssertionError) as raised:
        fails()
    notes = "\n".join(getattr(raised.value, "__notes__", []))
    assert "_hands" not in notes  # not the private bit masks
    shown = notes.split("state=", 1)[1].split("\n", 1)[0].split("  # ", 1)[0].strip().rstrip(",")
    state = eval(shown, vars(goat))
    assert isinstance(state, GameState) and len(state.history) == 3


class ForgedMove(Move):
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


@pytest.mark.parametrize(
    ("choose", "message"),
    [
        (lambda view, legal: ForgedMove(MoveKind.WAIT, view.seat, ()), "a ForgedMove.*not a goat.Move"),
        (lambda view, legal: type("Fake", (), {"__class__": property(lambda self: Move)})(), "not a goat.Move"),
        (lambda view, legal: (_ for _ in ()).throw(LookupError("a bug")), "choose\\(\\) raised LookupError: a bug"),
    ],
)
def test_every_bot_failure_is_a_strategy_check_error(choose: Any, message: str) -> None:
    factory = bot(lambda rng, view, legal: choose(view, legal))
    with pytest.raises(StrategyCheckError, match=message):
        check_strategy(factory, games=1)


class _RaisingRepr:
    def __repr__(self) -> str:
        raise RuntimeError("my repr raises")


class _LyingKey(int):
    """A move's key that equals everything, or raises when compared."""

    raises = False

    def __eq__(self, other: object) -> bool:
        if self.raises:
            raise ValueError("my __eq__ raises")
        return True

    __hash__ = int.__hash__


def _with_key(key: int, *, raises: bool) -> Move:
    """A fresh, real Move (not the engine's shared one) whose key is an int subclass."""
    move = Move(MoveKind.WAIT, 0, ())
    lying = _LyingKey(key)
    lying.raises = raises
    object.__setattr__(move, "key", lying)
    return move


@pytest.mark.parametrize(
    ("choose", "message"),
    [
        (lambda view, legal: _RaisingRepr(), "returned a _RaisingRepr, not a goat.Move"),
        # Found by a review: canonical_move compared the bot's key with ==, which an int subclass answers.
        (lambda view, legal: _with_key(12345, raises=False), "which is not legal"),
        (lambda view, legal: _with_key(12345, raises=True), "which is not legal"),
    ],
)
def test_check_strategy_catches_what_a_hostile_review_found(choose: Any, message: str) -> None:
    with pytest.raises(StrategyCheckError, match=message):
        check_strategy(bot(lambda rng, view, legal: choose(view, legal)), games=1)


def test_a_choose_that_cannot_be_looked_up_is_reported() -> None:
    class LookupRaises:
        choose_calls = 0

        @property
        def choose(self) -> Any:
            LookupRaises.choose_calls += 1
            if LookupRaises.choose_calls > 4:  # past the check that it is a bot at all
                raise KeyError("no choose today")
            return lambda view, legal: legal[0]

    with pytest.raises(StrategyCheckError, match=r"choose\(\) raised KeyError"):
        check_strategy(lambda seed=None: LookupRaises(), games=1)


@pytest.mark.parametrize("error", [KeyboardInterrupt(), SystemExit(2)])
@pytest.mark.parametrize("where", ["factory", "choose", "end_game"])
def test_a_keyboard_interrupt_or_system_exit_goes_on_up(error: BaseException, where: str) -> None:
    # As in the arena: a Ctrl-C stops the check, and SystemExit exits; neither is the bot's failure to report.
    class Stopper(RandomBot):
        def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
            if where == "choose":
                raise error
            return legal[0]

        def end_game(self, view: PlayerView, result: goat.GameResult) -> None:
            if where == "end_game":
                raise error

    def factory(*, seed: int | None = None) -> Stopper:
        if where == "factory":
            raise error
        return Stopper(seed)

    with pytest.raises(type(error)):
        check_strategy(factory, games=1)


def test_a_sealed_bot_is_checked_and_its_processes_are_closed() -> None:
    # An exec: bot is a ProcessStrategy, a Strategy like any other: checked through its methods, and its child
    # process ended after each run, as the arena ends it after a match.
    made: list[Any] = []
    sealed = goat.strategy_factory(f"exec:{sys.executable} -m goat.arena greedy")

    def factory(*, seed: int | None = None) -> Any:
        made.append(sealed(seed=seed))
        return made[-1]

    check_strategy(factory, games=1)
    assert len(made) == 8 and not any(bot.process.alive for bot in made)


class _NotABotWithoutRepr:
    def __repr__(self) -> str:
        raise ZeroDivisionError("no repr")


class _AttributesRaise:
    def __getattribute__(self, name: str) -> Any:
        raise ZeroDivisionError(f"no {name}")


@pytest.mark.parametrize(
    ("made", "message"),
    [
        (_NotABotWithoutRepr, "made a _NotABotWithoutRepr for seat 0, which has no choose"),
        (_AttributesRaise, "whose attributes raise ZeroDivisionError"),
    ],
)
def test_check_strategy_says_what_the_factory_made_that_is_no_bot(made: type, message: str) -> None:
    # Found by a review: the message for a non-bot ran its __repr__, and the check that it is a bot its
    # __getattribute__: each raised its own error, not StrategyCheckError.
    with pytest.raises(StrategyCheckError, match=message):
        check_strategy(lambda seed=None: made(), games=1)


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda: gt.deals(molodka="no"), "molodka must be True or False"),
        (lambda: gt.game_states(molodka=1), "molodka must be True or False"),
        (lambda: gt.finished_games(molodka="yes"), "molodka must be True or False"),
        (lambda: gt.deals(defeat=(3, 0)), "defeat must be two even ints"),
        (lambda: gt.cards(suits="HEARTS"), "takes a collection of Suit values"),
        (lambda: gt.cards(suits=goat.Suit.HEARTS), "takes a collection of Suit values"),
        (lambda: gt.cards(suits=[goat.Suit.HEARTS, "x"]), "takes Suit values only"),
    ],
)
def test_strategies_refuse_options_of_the_wrong_kind(make: Any, said: str) -> None:
    # Found by a review: molodka="no" dealt a molodka, suits="HEARTS" said it needs a suit, a Suit alone raised
    # a bare TypeError, a stray "x" among suits was ignored, and odd defeat-scores (which no match reaches) were taken.
    with pytest.raises(InvalidArgument, match=re.escape(said)):
        make()


@pytest.mark.parametrize("seed", ["a", None, 1.0])
def test_check_strategy_refuses_a_seed_that_is_not_an_int(seed: Any) -> None:
    with pytest.raises(TypeError, match="seed must be an int"):  # found by a review: a TypeError from deep inside
        check_strategy(bot(lambda rng, view, legal: legal[0]), games=1, seed=seed)


@settings(max_examples=25, deadline=None)
@given(gt.matches(max_games=40))
def test_a_match_of_many_games_is_drawn_without_a_health_check_failing(match: goat.Match) -> None:
    # Found by a review: every game up to max_games was drawn, played or not, so max_games=30 failed Hypothesis's
    # health check on the size of its input, and max_games=100 found no example at all.
    assert len(match.results) <= 40 and all(sum(result.points) == 120 for result in match.results)


@pytest.mark.parametrize("cls", [goat.Trick, goat.SeenTrick, goat.SeenMove])
def test_from_type_builds_the_parts_of_a_game_too(cls: type) -> None:
    # Found by a review: with no strategy registered, from_type called the constructors with guessed arguments,
    # which they refuse (InvalidTrickError, an ExceptionGroup).
    @settings(max_examples=10, deadline=None)
    @given(st.from_type(cls))
    def check(value: object) -> None:
        assert type(value) is cls

    check()
