"""Strategies by name: the ``goat.strategies`` plugins, specs, and loading a bot by its name.

A strategy is named by an installed plugin's name (an entry point of the ``goat.strategies`` group), by a
name given to :func:`register_strategy` in this process, by an import path (``"package.module:factory"``),
or as ``"exec:COMMAND"``, a protocol bot in a child process.  A name may carry options:
``"ismcts[time_ms=50]"`` (:func:`parse_spec`).  Discovery imports no plugin; :func:`load_strategy` imports
the one it builds.  What a strategy is, is :mod:`goat.strategy`'s.

>>> import goat
>>> goat.load_strategy("ismcts[iterations=10]", seed=1).iterations
10
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

import attrs

from goat.errors import GoatError, describe_error, shown
from goat.strategy import Strategy

if TYPE_CHECKING:  # imported where discovery needs it: importlib.metadata costs ~30 ms to import
    from importlib import metadata

__all__ = [
    "DISABLE_ENV",
    "ENTRY_POINT_GROUP",
    "EXEC_FACTORY",
    "EXEC_PREFIX",
    "StrategyInfo",
    "StrategyLoadError",
    "StrategyNameError",
    "available_strategies",
    "entry_point",
    "format_spec",
    "import_path_spec",
    "load_strategy",
    "parse_spec",
    "plugin_description",
    "register_strategy",
    "registered_factory",
    "strategy_factory",
    "unregister_strategy",
]


def __getattr__(name: str) -> Any:
    # importlib.metadata is imported on first use, not with goat; goat.plugins.metadata still names it.
    if name == "metadata":
        from importlib import metadata

        return metadata
    raise AttributeError(f"module {shown(__name__)} has no attribute {shown(name)}")


# --- discovery: the goat.strategies entry point group --------------------------------

#: The entry point group a plugin declares its factories in: ``name = "package.module:factory"``.
ENTRY_POINT_GROUP = "goat.strategies"
#: Set to ``1`` to ignore other distributions' entry points (goat-cards' own bots stay), like pytest's switch.
DISABLE_ENV = "GOAT_DISABLE_PLUGIN_AUTOLOAD"
_OWN_DISTRIBUTION = "goat-cards"


class StrategyLoadError(GoatError):
    """A strategy could not be found or built; the message names the plugin, its distribution and the cause."""


class StrategyNameError(StrategyLoadError, ValueError):
    """A strategy name that names no strategy (the message suggests the closest), or a spec that cannot be read."""


@attrs.frozen
class StrategyInfo:
    """One discovered strategy, described without importing it."""

    name: str
    distribution: str | None  #: the distribution declaring it; ``None`` for :func:`~goat.register_strategy`
    version: str | None
    target: str  #: ``"package.module:factory"``, or the factory's qualified name when registered in-process

    def __str__(self) -> str:
        where = f"{self.distribution} {self.version}" if self.distribution else "registered in-process"
        return f"{self.name} ({where})"


_REGISTERED: dict[str, Callable[..., Any]] = {}
#: Characters a strategy name may not hold: they carry options (``ismcts[time_ms=50]``) and the ``exec:`` prefix.
_RESERVED = "[]:="


def _check_name(name: object, what: str = "a strategy name") -> str:
    if not isinstance(name, str):
        raise TypeError(f"{what} is text such as 'greedy', not {shown(name)}")
    return name


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
    _check_name(name)
    if not name.strip() or name != name.strip() or any(c in name for c in _RESERVED) or " " in name:
        raise StrategyNameError(
            f"a strategy name is a non-empty word without spaces or any of {_RESERVED!r}, not {name!r}"
        )
    if not callable(factory):
        raise TypeError(f"the factory for {shown(name)} must be callable, not {shown(factory)}")
    if not replace:
        if name in _REGISTERED:
            raise StrategyNameError(f"a strategy named {shown(name)} is already registered (pass replace=True)")
        taken = _discovered().claims.get(name)
        if taken:
            raise StrategyNameError(f"{taken[0]} already provides a strategy named {shown(name)} (pass replace=True)")
    _REGISTERED[name] = factory


def registered_factory(name: str) -> Callable[..., Any] | None:
    """The factory :func:`~goat.register_strategy` made loadable as ``name`` in this process, or ``None``.

    A tournament sends it to its worker processes, which may lack the registration.
    """
    _check_name(name)
    return _REGISTERED.get(name)


def unregister_strategy(name: str) -> None:
    """Forget a strategy made loadable by :func:`~goat.register_strategy`."""
    _check_name(name)
    if _REGISTERED.pop(name, None) is None:
        raise KeyError(f"no strategy named {shown(name)} was registered in this process")


@attrs.frozen
class _Discovery:
    """What the ``goat.strategies`` entry points declare: every claim, by name (no plugin imported)."""

    claims: dict[str, tuple[StrategyInfo, ...]]
    entries: dict[str, metadata.EntryPoint]  #: the entry point of each name claimed exactly once


_CACHE: dict[tuple[object, ...], _Discovery] = {}


def _installation_key() -> tuple[object, ...]:
    """Changes whenever the set of installed distributions may have: sys.path, each entry's mtime, the switch.

    Installing or removing a distribution adds or removes a ``*.dist-info`` directory in a sys.path
    entry, which changes that entry's modification time; a stat per entry is far cheaper than re-reading
    every distribution's metadata (measured: about 4 ms per load_strategy call before this cache).
    """
    stamps: list[tuple[str, int | None]] = []
    for entry in sys.path:
        try:
            stamps.append((entry, os.stat(entry or ".").st_mtime_ns))
        except OSError:
            stamps.append((entry, None))
    return (os.environ.get(DISABLE_ENV, ""), tuple(stamps))


def _discovered() -> _Discovery:
    key = _installation_key()
    found = _CACHE.get(key)
    if found is None:
        found = _discover()
        _CACHE.clear()
        _CACHE[key] = found
    return found


def _discover() -> _Discovery:
    from importlib import metadata

    disabled = os.environ.get(DISABLE_ENV, "").strip() not in ("", "0")
    unique: dict[tuple[str, str, str | None], metadata.EntryPoint] = {}
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        dist = entry.dist.name if entry.dist is not None else None
        if disabled and dist != _OWN_DISTRIBUTION:
            continue
        # The same distribution can be on sys.path twice (an editable install and its source).
        unique.setdefault((entry.name, entry.value, dist), entry)
    claims: dict[str, list[StrategyInfo]] = {}
    entries: dict[str, metadata.EntryPoint] = {}
    for entry in unique.values():
        claims.setdefault(entry.name, []).append(_info(entry))
        entries[entry.name] = entry
    for name, claimants in claims.items():
        if len(claimants) > 1:
            del entries[name]  # contested: only this name fails to load (see strategy_factory)
    return _Discovery({name: tuple(c) for name, c in claims.items()}, entries)


def _info(entry: metadata.EntryPoint) -> StrategyInfo:
    dist = entry.dist
    return StrategyInfo(entry.name, dist.name if dist else None, dist.version if dist else None, entry.value)


def available_strategies() -> tuple[StrategyInfo, ...]:
    """Every strategy that can be asked for by name, sorted by name, without importing any of them.

    Installed plugins come from the ``goat.strategies`` entry point group;
    in-process ones from :func:`~goat.register_strategy` (they win over an installed
    plugin of the same name only if registered with ``replace=True``).  A name
    that two distributions claim is listed once per claim; loading it raises
    :class:`StrategyLoadError` naming both, while every other name still loads.

    Discovery is cached, and found again whenever ``sys.path`` or one of its
    directories changes (a distribution installed or removed).

    >>> import goat
    >>> {"random", "greedy"} <= {info.name for info in goat.available_strategies()}
    True
    """
    infos = [info for name, claims in _discovered().claims.items() if name not in _REGISTERED for info in claims]
    for name, factory in _REGISTERED.items():
        target = f"{getattr(factory, '__module__', '?')}:{getattr(factory, '__qualname__', repr(factory))}"
        infos.append(StrategyInfo(name, None, None, target))
    return tuple(sorted(infos, key=lambda info: (info.name, info.distribution or "")))


def strategy_factory(name: str) -> Callable[..., Any]:
    """The factory of the strategy called ``name``, importing its plugin if needed.

    Besides the names of installed plugins and of :func:`~goat.register_strategy`, two forms name a
    strategy directly: ``"package.module:factory"`` imports that factory (as an entry point would),
    and ``"exec:COMMAND"`` runs ``COMMAND`` as a protocol bot in a child process: its factory is
    :data:`~goat.plugins.EXEC_FACTORY` (:class:`goat.arena.sealed.ProcessStrategy`) given the command, and takes
    ``seed``, ``time_limit``, ``memory_mb``, ``cpu_seconds`` and the class's other options.

    Raises :class:`StrategyLoadError` naming the plugin, its distribution and
    the cause if it cannot be imported or is not callable, if two
    distributions claim the name, or :class:`StrategyNameError` if no strategy
    has that name (with the closest known names).
    """
    _check_name(name)
    if name in _REGISTERED:
        return _REGISTERED[name]
    if name.startswith(EXEC_PREFIX):
        command = name[len(EXEC_PREFIX) :]
        if not command.strip():
            raise StrategyNameError("'exec:' names a command to run, e.g. 'exec:python3 my_bot.py'")
        return partial(_load_path(EXEC_FACTORY), command)
    if ":" in name:
        return _load_path(name)
    entry = entry_point(name)
    described = plugin_description(name)
    assert described is not None  # entry_point found its one claim
    return _load_factory(entry.load, described)


def _check_entry(entry: metadata.EntryPoint, name: str) -> metadata.EntryPoint:
    """``entry`` if its value is an import path (``package.module:factory``), as loading it needs."""
    if entry.pattern.match(entry.value) is None or not entry.attr:
        raise StrategyLoadError(
            f"the strategy plugin {name!r} ({entry.value!r}) is not an import path such as 'package.module:factory'"
            f" in its distribution's entry points: the plugin is broken"
        )
    return entry


def plugin_description(name: str) -> str | None:
    """How errors name the installed plugin ``name``: ``"the strategy plugin 'greedy' from goat-cards 1.0
    (goat.bots.greedy:factory)"``; ``None`` if no plugin, or more than one, claims it.  Imports nothing."""
    # The claim discovery already made: reading a distribution's name and version again parses its METADATA
    # file, which cost a tournament 70% of its time outside play when every match loaded four bots.
    claims = _discovered().claims.get(name, ())
    if len(claims) != 1:
        return None
    (info,) = claims
    return f"the strategy plugin {name!r} from {info.distribution} {info.version} ({info.target})"


def entry_point(name: str) -> metadata.EntryPoint:
    """The installed entry point that provides ``name``, found without importing anything.

    Raises what :func:`~goat.strategy_factory` raises for a name that no plugin, or two, provide.
    """
    found = _discovered()
    entry = found.entries.get(name)
    if entry is None:
        claims = found.claims.get(name, ())
        if len(claims) > 1:
            raise StrategyLoadError(
                f"two distributions claim the strategy name {name!r}: "
                + " and ".join(f"{c.distribution} {c.version} ({c.target})" for c in claims)
                + "; uninstall one of them"
            )
        known = sorted(set(found.claims) | set(_REGISTERED))
        import difflib  # only for the error message: not paid by every import goat

        by_case = {known_name.lower(): known_name for known_name in known}  # 'GREEDY' is 'greedy' mistyped
        close = [by_case[name.lower()]] if name.lower() in by_case else []
        close += [
            by_case[c] for c in difflib.get_close_matches(name.lower(), list(by_case), n=3) if by_case[c] not in close
        ]
        close = close[:3]
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        raise StrategyNameError(f"no strategy named {shown(name)}{hint} (known: {', '.join(known) or 'none'})")
    return _check_entry(entry, name)


# An import path as an entry point's value writes it, ``package.module:attr.attr`` (any identifiers, spaces
# around the colon), without extras: ``[`` starts a spec's options.  Read here without importlib.metadata, which
# costs a sealed bot's process about 30 ms to import: the arena starts a plugin's sealed bots by the import path
# its discovery found.


def _load_path(path: str) -> Callable[..., Any]:
    """The factory at ``path`` (``package.module:factory``), imported as an entry point would import it."""
    what = f"the factory {path!r}"
    module, _, attribute = (part.strip() for part in path.partition(":"))
    if not all(name.isidentifier() for name in [*module.split("."), *attribute.split(".")]):
        raise StrategyNameError(f"{what} is not an import path such as 'package.module:factory'")

    def load() -> Any:
        import importlib

        found: Any = importlib.import_module(module)
        for name in attribute.split("."):
            found = getattr(found, name)
        return found

    return _load_factory(load, what)


def _load_factory(load: Callable[[], Any], what: str) -> Callable[..., Any]:
    """What ``load()`` imports (an entry point's, or an import path's), which must be a callable factory."""
    try:
        factory = load()
    except KeyboardInterrupt:  # most likely the person's Ctrl-C while a plugin imports
        raise
    except BaseException as error:  # sys.exit() on import, GeneratorExit, a plugin's own BaseException: broken
        raise StrategyLoadError(f"{what} failed to import: {describe_error(error)}") from error
    if not callable(factory):
        raise StrategyLoadError(f"{what} is {type(factory).__name__}, not a callable factory")
    return factory  # type: ignore[no-any-return]


_SPEC = re.compile(r"(?P<name>[^\[\]]+)\[(?P<options>.*)\]", re.S)
_OPTION = re.compile(r'\s*(?P<key>[A-Za-z_][A-Za-z0-9_]*)\s*=\s*(?P<value>"(?:[^"\\]|\\.)*"|[^,]*?)\s*(?:,|$)')


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split a strategy spec ``name[key=value,...]`` into the name and its options.

    Values are read as JSON where they can be (numbers, ``true``, ``false``,
    ``null``, ``"quoted text"``), otherwise taken as text.  An ``exec:``
    command is never split.  Raises :class:`StrategyNameError` for a malformed spec.

    >>> parse_spec("ismcts[time_ms=50, exploration=0.5]")
    ('ismcts', {'time_ms': 50, 'exploration': 0.5})
    >>> parse_spec("greedy")
    ('greedy', {})
    """
    _check_name(spec, "a strategy spec")
    if spec.startswith(EXEC_PREFIX) or ("[" not in spec and "]" not in spec):
        return spec, {}
    match = _SPEC.fullmatch(spec.strip())
    if match is None:
        raise StrategyNameError(
            f"not a strategy spec: {shown(spec)} (expected name[key=value,...], e.g. 'ismcts[time_ms=50]')"
        )
    text = match["options"].strip()
    options: dict[str, Any] = {}
    import json  # imported when a spec has options: not paid by every import goat

    position = 0
    while position < len(text):
        option = _OPTION.match(text, position)
        if option is None or option.end() == position:
            raise StrategyNameError(
                f"not a strategy spec: {shown(spec)}: cannot read the options from {shown(text[position:])}"
            )
        key, raw = option["key"], option["value"]
        if key in options:
            raise StrategyNameError(f"not a strategy spec: {shown(spec)}: option {shown(key)} is given twice")
        try:
            options[key] = json.loads(raw)
        except RecursionError:  # nested deeper than any option is
            raise StrategyNameError(f"not a strategy spec: option {shown(key)} is nested too deeply") from None
        except ValueError:
            if "[" in raw or "]" in raw:  # 'ismcts[time_ms=5]]': a bracket too many, not the text '5]'
                raise StrategyNameError(
                    f"not a strategy spec: {shown(spec)}: option {shown(key)} has a bracket that does not belong"
                    ' (quote a text that holds one: key="a]b")'
                ) from None
            options[key] = raw
        position = option.end()
    return match["name"].strip(), options


#: The prefix of a protocol bot's name: ``exec:COMMAND`` runs COMMAND as a sealed bot.
EXEC_PREFIX = "exec:"
#: What builds an ``exec:`` bot, named by its import path and imported like any plugin's factory (it is called
#: with the command, then the options): the arena sits above this module, which never imports it.
EXEC_FACTORY = "goat.arena.sealed:ProcessStrategy"


def import_path_spec(spec: str) -> str:
    """``spec`` with an installed plugin's name replaced by the import path its discovery found
    (``"random[x=1]"`` -> ``"goat.bots.uniform:factory[x=1]"``); any other spec as it is.

    A sealed bot's process is started with it: it then loads exactly the plugin this process chose,
    without discovering the installed plugins again (about a third of its start-up).
    """
    try:
        name, options = parse_spec(spec)
        if name in _REGISTERED or ":" in name:
            return spec
        entry = entry_point(name)
    except GoatError:  # not a plugin's name: the bot's process says what is wrong with it
        return spec
    return format_spec(f"{entry.module}:{entry.attr}", options) if entry.attr else spec


def format_spec(name: str, options: Mapping[str, Any]) -> str:
    """The spec :func:`parse_spec` reads back as ``(name, options)``: ``format_spec("ismcts", {"time_ms": 50})``
    is ``"ismcts[time_ms=50]"``.

    >>> parse_spec(format_spec("ismcts", {"time_ms": 50, "mode": "a,b"}))
    ('ismcts', {'time_ms': 50, 'mode': 'a,b'})
    """
    if not isinstance(name, str) or not isinstance(options, Mapping):
        raise TypeError(f"format_spec() takes a name and a mapping of options, not {shown(name)} and {shown(options)}")
    if not options:
        return name
    if name.startswith(EXEC_PREFIX):
        raise StrategyNameError(f"an exec: command takes no options in brackets: {shown(name)}")
    if parse_spec(name)[1] or "[" in name or "]" in name:
        raise StrategyNameError(f"format_spec() takes a name without options in brackets, not {shown(name)}")
    import json

    for key in options:
        if not isinstance(key, str) or not key.isidentifier():
            raise StrategyNameError(f"an option's name is an identifier, not {shown(key)}")
    try:
        spec = f"{name}[{', '.join(f'{key}={json.dumps(value)}' for key, value in options.items())}]"
        same = parse_spec(spec) == (name, dict(options))
    except (TypeError, ValueError):  # a value JSON cannot write, or whose text the spec's reading refuses
        same = False
    if not same:  # a list or an object of more than one item would be split at its commas, for one
        raise StrategyNameError(
            f"options {shown(dict(options))} cannot be written in a spec that reads back as they are: give each as"
            " text, a number, true, false or null"
        )
    return spec


def load_strategy(name: str, **options: Any) -> Strategy:
    """Build the strategy called ``name``: ``factory(**options)`` (``seed=`` among them).

    ``name`` may carry options, as in ``"ismcts[time_ms=50]"`` (see
    :func:`~goat.plugins.parse_spec`); they are passed with ``options``.  Raises
    :class:`StrategyLoadError` if the plugin cannot be loaded, its factory
    raises, or what it builds has no ``choose(view, legal)``.
    """
    name, given = parse_spec(name)
    clash = sorted(set(given) & set(options))
    if clash:
        raise StrategyNameError(f"strategy {name!r}: option {clash[0]!r} is given both in the spec and as an argument")
    options = {**given, **options}
    seed = options.get("seed")
    if seed is not None and type(seed) is not int:  # as new_game's: a float or text seeds nothing reproducibly
        raise TypeError(f"load_strategy(): seed must be an int or None, not {shown(seed)}")
    factory = strategy_factory(name)
    try:
        strategy = factory(**options)
    except KeyboardInterrupt:  # the person's Ctrl-C, as in any Python code
        raise
    except BaseException as error:  # a plugin's failure, whatever it raised (GeneratorExit, its own BaseException)
        raise StrategyLoadError(f"the factory of strategy {name!r} raised {describe_error(error)}") from error
    try:
        usable = isinstance(strategy, Strategy)  # looks its methods up: a __getattr__ of the bot's may raise
    except KeyboardInterrupt:
        raise
    except BaseException as error:
        raise StrategyLoadError(
            f"the factory of strategy {name!r} built a {_type_name(strategy)}, whose attributes raise"
            f" {describe_error(error)}"
        ) from error
    if not usable:
        raise StrategyLoadError(
            f"the factory of strategy {name!r} built {shown(strategy)}, which has no choose(view, legal) method"
        )
    return strategy  # type: ignore[no-any-return]


def _type_name(value: object) -> str:
    """The name of ``value``'s real type (not what its ``__class__`` says), safely."""
    name = type(value).__name__
    return name if isinstance(name, str) else "object"
