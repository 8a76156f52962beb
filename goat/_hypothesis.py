"""Registers Goat's types with Hypothesis; run by Hypothesis through the ``hypothesis`` entry point.

Kept apart from :mod:`goat.testing` and lazy (``st.deferred``) so that
importing Hypothesis stays cheap and cannot fail because of this package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hypothesis import strategies as st


def _hypothesis_setup_hook() -> None:
    from hypothesis import strategies as st

    import goat

    def lazy(name: str) -> st.SearchStrategy[object]:
        def build() -> st.SearchStrategy[object]:
            import goat.testing

            strategy: st.SearchStrategy[object] = getattr(goat.testing, name)()
            return strategy

        return st.deferred(build)

    for cls, name in (
        (goat.Card, "cards"),
        (goat.Suit, "suits"),
        (goat.Move, "moves"),
        (goat.GameState, "game_states"),
        (goat.GameResult, "game_results"),
        (goat.Match, "matches"),
    ):
        st.register_type_strategy(cls, lazy(name))
    st.register_type_strategy(goat.PlayerView, lazy("game_states").flatmap(_views))


def _views(state: object) -> st.SearchStrategy[object]:
    from hypothesis import strategies as st

    import goat

    assert isinstance(state, goat.GameState)
    return st.integers(0, 3).map(lambda seat: goat.view(state, seat))
