"""The strategy protocol: how a bot plays (the arena and plugins build on it).

A bot is any object with a ``choose(view, legal)`` method; ``start_game`` and
``end_game`` are optional hooks.  It is made by a factory called as
``factory(seed=..., **options)``, so that whoever runs games can hand each bot
its own seed and reproduce every game.

>>> import random, goat
>>> class FirstMove:
...     def choose(self, view: goat.PlayerView, legal: tuple[goat.Move, ...]) -> goat.Move:
...         return legal[0]
>>> isinstance(FirstMove(), goat.Strategy)
True
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from importlib import metadata
from typing import Any, Protocol, runtime_checkable

import attrs

from goat.errors import GoatError
from goat.moves import Move
from goat.scoring import GameResult
from goat.view import PlayerView

__all__ = [
    "Strategy",
    "StrategyFactory",
    "StrategyInfo",
    "StrategyLoadError",
    "available_strategies",
    "load_strategy",
    "register_strategy",
    "strategy_factory",
    "unregister_strategy",
]


@runtime_checkable
class Strategy(Protocol):
    """A player: given what its seat sees and the legal moves, it picks one.

    ``choose`` is called only when the seat must decide, with
    ``legal == view.legal_moves`` (never empty), and must return one of
    ``legal``.  A bot may also define ``start_game(view)``, called once per
    game before its first decision, and ``end_game(view, result)``, called once
    when the game is over; they are optional and not part of this protocol's
    runtime check.
    """

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        """Pick one of ``legal``."""
        ...


class StrategyFactory(Protocol):
    """Makes a :class:`Strategy`: ``factory(seed=None, **options)``."""

    def __call__(self, *, seed: int | None = None, **options: Any) -> Strategy: ...


def start_game(strategy: Strategy, view: PlayerView) -> None:
    """Call the bot's optional ``start_game`` hook."""
    hook = getattr(strategy, "start_game", None)
    if hook is not None:
        hook(view)


def end_game(strategy: Strategy, view: PlayerView, result: GameResult) -> None:
    """Call the bot's optional ``end_game`` hook."""
    hook = getattr(strategy, "end_game", None)
    if hook is not None:
        hook(view, result)


# --- discovery: the goat.strategies entry point group --------------------------------

#: The entry point group a plugin declares its factories in: ``name = "package.module:factory"``.
ENTRY_POINT_GROUP = "goat.strategies"
#: Set to ``1`` to ignore other distributions' entry points (goat-cards' own bots stay), like pytest's switch.
DISABLE_ENV = "GOAT_DISABLE_PLUGIN_AUTOLOAD"
_OWN_DISTRIBUTION = "goat-cards"


class StrategyLoadError(GoatError):
    """A strategy could not be found or built; the message names the plugin, its distribution and the cause."""


@attrs.frozen
class StrategyInfo:
    """One discovered strategy, described without importing it."""

    name: str
    distribution: str | None  #: the distribution declaring it; ``None`` for :func:`register_strategy`
    version: str | None
    target: str  #: ``"package.module:factory"``, or the factory's qualified name when registered in-process

    def __str__(self) -> str:
        where = f"{self.distribution} {self.version}" if self.distribution else "registered in-process"
        return f"{self.name} ({where})"


_REGISTERED: dict[str, Callable[..., Any]] = {}


def register_strategy(name: str, factory: Callable[..., Any], *, replace: bool = False) -> None:
    """Make ``factory`` loadable by ``name`` in this process, without installing anything.

    For notebooks and tests.  Raises :class:`ValueError` if the name is taken
    (by an installed plugin or an earlier registration) unless ``replace=True``.

    >>> import goat
    >>> class Stubborn:
    ...     def choose(self, view, legal):
    ...         return legal[-1]
    >>> goat.register_strategy("stubborn-doc", lambda *, seed=None: Stubborn())
    >>> goat.load_strategy("stubborn-doc").choose(None, ("a", "b"))
    'b'
    >>> goat.unregister_strategy("stubborn-doc")
    """
    if not isinstance(name, str) or not name.strip() or name != name.strip():
        raise ValueError(f"a strategy name is a non-empty word, not {name!r}")
    if not callable(factory):
        raise TypeError(f"the factory for {name!r} must be callable, not {factory!r}")
    if not replace:
        if name in _REGISTERED:
            raise ValueError(f"a strategy named {name!r} is already registered (pass replace=True)")
        taken = [info for info in _entry_point_infos() if info.name == name]
        if taken:
            raise ValueError(f"{taken[0]} already provides a strategy named {name!r} (pass replace=True)")
    _REGISTERED[name] = factory


def unregister_strategy(name: str) -> None:
    """Forget a strategy made loadable by :func:`register_strategy`."""
    if _REGISTERED.pop(name, None) is None:
        raise KeyError(f"no strategy named {name!r} was registered in this process")


def _entry_points() -> list[metadata.EntryPoint]:
    found: dict[tuple[str, str, str | None], metadata.EntryPoint] = {}
    disabled = os.environ.get(DISABLE_ENV, "").strip() not in ("", "0")
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        dist = entry.dist.name if entry.dist is not None else None
        if disabled and dist != _OWN_DISTRIBUTION:
            continue
        # The same distribution can be on sys.path twice (an editable install and its source).
        found.setdefault((entry.name, entry.value, dist), entry)
    return list(found.values())


def _info(entry: metadata.EntryPoint) -> StrategyInfo:
    dist = entry.dist
    return StrategyInfo(entry.name, dist.name if dist else None, dist.version if dist else None, entry.value)


def _entry_point_infos() -> list[StrategyInfo]:
    infos = [_info(entry) for entry in _entry_points()]
    by_name: dict[str, list[StrategyInfo]] = {}
    for info in infos:
        by_name.setdefault(info.name, []).append(info)
    for name, claims in by_name.items():
        if len(claims) > 1:
            raise StrategyLoadError(
                f"two distributions claim the strategy name {name!r}: "
                + " and ".join(f"{c.distribution} {c.version} ({c.target})" for c in claims)
                + "; uninstall one of them"
            )
    return infos


def available_strategies() -> tuple[StrategyInfo, ...]:
    """Every strategy that can be loaded by name, sorted by name, without importing any of them.

    Installed plugins come from the ``goat.strategies`` entry point group;
    in-process ones from :func:`register_strategy` (they win over an installed
    plugin of the same name only if registered with ``replace=True``).
    Raises :class:`StrategyLoadError` if two distributions claim one name.

    >>> import goat
    >>> {"random", "greedy"} <= {info.name for info in goat.available_strategies()}
    True
    """
    infos = {info.name: info for info in _entry_point_infos()}
    for name, factory in _REGISTERED.items():
        target = f"{getattr(factory, '__module__', '?')}:{getattr(factory, '__qualname__', repr(factory))}"
        infos[name] = StrategyInfo(name, None, None, target)
    return tuple(sorted(infos.values(), key=lambda info: info.name))


def strategy_factory(name: str) -> Callable[..., Any]:
    """The factory of the strategy called ``name``, importing its plugin if needed.

    Raises :class:`StrategyLoadError` naming the plugin, its distribution and
    the cause if it cannot be imported or is not callable, or if no strategy
    has that name (with the closest known names).
    """
    if name in _REGISTERED:
        return _REGISTERED[name]
    infos = _entry_point_infos()
    entries = {entry.name: entry for entry in _entry_points()}
    if name not in entries:
        known = sorted({info.name for info in infos} | set(_REGISTERED))
        close = difflib.get_close_matches(name, known, n=3)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        raise StrategyLoadError(f"no strategy named {name!r}{hint} (known: {', '.join(known) or 'none'})")
    entry = entries[name]
    info = _info(entry)
    try:
        factory = entry.load()
    except Exception as error:
        raise StrategyLoadError(
            f"the strategy plugin {name!r} from {info.distribution} {info.version} ({info.target}) "
            f"failed to import: {type(error).__name__}: {error}"
        ) from error
    if not callable(factory):
        raise StrategyLoadError(
            f"the strategy plugin {name!r} from {info.distribution} {info.version}: "
            f"{info.target} is {type(factory).__name__}, not a callable factory"
        )
    return factory  # type: ignore[no-any-return]


def load_strategy(name: str, **options: Any) -> Strategy:
    """Build the strategy called ``name``: ``factory(**options)`` (``seed=`` among them).

    Raises :class:`StrategyLoadError` if the plugin cannot be loaded, its
    factory raises, or what it builds has no ``choose(view, legal)``.
    """
    factory = strategy_factory(name)
    try:
        strategy = factory(**options)
    except Exception as error:
        raise StrategyLoadError(f"the factory of strategy {name!r} raised {type(error).__name__}: {error}") from error
    if not isinstance(strategy, Strategy):
        raise StrategyLoadError(
            f"the factory of strategy {name!r} built {strategy!r}, which has no choose(view, legal) method"
        )
    return strategy
