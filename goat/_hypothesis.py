"""Registers Goat's types with Hypothesis, so that ``st.from_type(goat.Card)`` and friends work.

Run by Hypothesis at start-up through the ``hypothesis`` entry point, lazily (``st.deferred``) so that
importing Hypothesis stays cheap and cannot fail because of this package; and by :mod:`goat.testing`
on import, for runs with Hypothesis's plugins off (``HYPOTHESIS_NO_PLUGINS``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hypothesis import strategies as st

#: Each public type and the :mod:`goat.testing` strategy (a function of no arguments) that builds it.
STRATEGY_NAMES = (
    ("Card", "cards"),
    ("Suit", "suits"),
    ("Move", "moves"),
    ("GameState", "game_states"),
    ("GameResult", "game_results"),
    ("Match", "matches"),
)


def register(strategy: Callable[[str], st.SearchStrategy[object]]) -> None:
    """Register ``strategy(name)`` for each type of :data:`STRATEGY_NAMES`, and views of drawn states."""
    from hypothesis import strategies as st

    import goat

    for cls, name in STRATEGY_NAMES:
        st.register_type_strategy(getattr(goat, cls), strategy(name))
    st.register_type_strategy(goat.PlayerView, strategy("game_states").flatmap(_views))
    # The parts of a finished game (which has three tricks or more, R17), as the engine and the views make them:
    # without these, from_type would call the constructors with guessed arguments, which they refuse.
    finished = strategy("finished_games")
    st.register_type_strategy(goat.Trick, finished.flatmap(lambda state: _one_of(state, "tricks")))
    seen = finished.flatmap(_views)
    st.register_type_strategy(goat.SeenTrick, seen.flatmap(lambda view: _one_of(view, "tricks")))
    st.register_type_strategy(goat.SeenMove, seen.flatmap(lambda view: _one_of(view, "history")))


def _one_of(value: object, field: str) -> st.SearchStrategy[object]:
    from hypothesis import strategies as st

    items: tuple[object, ...] = getattr(value, field)
    return st.sampled_from(items)


def _hypothesis_setup_hook() -> None:
    from hypothesis import strategies as st

    def lazy(name: str) -> st.SearchStrategy[object]:
        def build() -> st.SearchStrategy[object]:
            import goat.testing

            strategy: st.SearchStrategy[object] = getattr(goat.testing, name)()
            return strategy

        return st.deferred(build)

    register(lazy)


def _views(state: object) -> st.SearchStrategy[object]:
    from hypothesis import strategies as st

    import goat

    assert isinstance(state, goat.GameState)
    return st.integers(0, 3).map(lambda seat: goat.view(state, seat))
