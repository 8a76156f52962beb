"""Strategies: the protocol, entry-point discovery, in-process registration, loud failures."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import pytest

import goat
import goat.plugins
from goat import StrategyLoadError, arena


def test_builtins_are_listed_with_distribution_and_version() -> None:
    infos = {info.name: info for info in goat.available_strategies()}
    for name in ("random", "greedy"):
        assert infos[name].distribution == "goat-cards"
        assert infos[name].version == goat.__version__
    assert infos["greedy"].target == "goat.bots.greedy:factory"
    assert str(infos["random"]) == f"random (goat-cards {goat.__version__})"


def test_listing_does_not_import_the_plugins() -> None:
    code = "import sys, goat; goat.available_strategies(); print('goat.bots.greedy' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_the_registry_names_the_arena_but_never_imports_it() -> None:
    # goat.arena imports the registry; an exec: bot is built by goat.arena.sealed, named by its import path
    # (EXEC_FACTORY) and imported when asked for, as any plugin is: no import statement, anywhere, closes a cycle.
    import ast
    import inspect

    for module in (goat.plugins, goat.strategy):
        for node in ast.walk(ast.parse(inspect.getsource(module))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            names += [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not [n for n in names if n.startswith("goat.arena")], module.__name__
    code = "import sys, goat; goat.load_strategy('greedy'); print(sorted(m for m in sys.modules if 'arena' in m))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
    with goat.load_strategy("exec:true", seed=1) as bot:  # type: ignore[attr-defined]
        assert isinstance(bot, arena.ProcessStrategy) and bot.seed == 1
    with pytest.raises(StrategyLoadError, match="names a command"):
        goat.strategy_factory("exec: ")


def test_load_strategy_builds_a_seeded_bot() -> None:
    bot = goat.load_strategy("random", seed=3)
    assert isinstance(bot, goat.Strategy)
    seen = goat.view(goat.new_game(seed=3), 1)
    same = goat.load_strategy("random", seed=3)
    assert [bot.choose(seen, seen.legal_moves) for _ in range(5)] == [
        same.choose(seen, seen.legal_moves) for _ in range(5)
    ]


def test_an_unknown_name_suggests_the_closest() -> None:
    with pytest.raises(StrategyLoadError, match=r"no strategy named 'gredy'; did you mean 'greedy'"):
        goat.load_strategy("gredy")


def test_bad_options_are_a_load_error_naming_the_strategy() -> None:
    with pytest.raises(StrategyLoadError, match=r"'greedy' raised TypeError: .*takes no options"):
        goat.load_strategy("greedy", depth=3)


class Last:
    def choose(self, view: goat.PlayerView, legal: tuple[goat.Move, ...]) -> goat.Move:
        return legal[-1]


def last(*, seed: int | None = None) -> Last:
    return Last()


def test_register_strategy_in_process() -> None:
    goat.register_strategy("last-test", last)
    try:
        assert "last-test" in {info.name for info in goat.available_strategies()}
        (info,) = [i for i in goat.available_strategies() if i.name == "last-test"]
        assert info.distribution is None and "registered in-process" in str(info)
        assert isinstance(goat.load_strategy("last-test", seed=1), Last)
        with pytest.raises(ValueError, match="already registered"):
            goat.register_strategy("last-test", last)
        goat.register_strategy("last-test", last, replace=True)
    finally:
        goat.unregister_strategy("last-test")
    with pytest.raises(KeyError):
        goat.unregister_strategy("last-test")


def test_register_refuses_bad_names_factories_and_taken_names() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        goat.register_strategy(" ", last)
    with pytest.raises(TypeError, match="callable"):
        goat.register_strategy("x", 42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"goat-cards .* already provides a strategy named 'greedy'"):
        goat.register_strategy("greedy", last)


def test_a_factory_that_builds_no_strategy_is_refused() -> None:
    goat.register_strategy("nothing-test", lambda *, seed=None: object())
    try:
        with pytest.raises(StrategyLoadError, match="no choose"):
            goat.load_strategy("nothing-test")
    finally:
        goat.unregister_strategy("nothing-test")


def test_a_third_party_plugin_is_found_by_name(fake_distribution: Any) -> None:
    fake_distribution(
        "goat-bot-firsty",
        {"firsty": "firsty_bot:factory"},
        version="2.5",
        code={
            "firsty_bot.py": "class B:\n    def choose(self, view, legal):\n        return legal[0]\n"
            "def factory(*, seed=None):\n    return B()\n"
        },
    )
    (info,) = [i for i in goat.available_strategies() if i.name == "firsty"]
    assert (info.distribution, info.version, info.target) == ("goat-bot-firsty", "2.5", "firsty_bot:factory")
    assert goat.load_strategy("firsty").choose(None, (1, 2)) == 1  # type: ignore[arg-type]


def test_a_plugin_that_fails_to_import_is_loud_and_named(fake_distribution: Any) -> None:
    fake_distribution(
        "goat-bot-broken",
        {"broken": "broken_bot:factory"},
        version="0.3",
        code={"broken_bot.py": "raise RuntimeError('missing model file')\n"},
    )
    assert "broken" in {i.name for i in goat.available_strategies()}  # listing does not import it
    with pytest.raises(StrategyLoadError) as raised:
        goat.load_strategy("broken")
    message = str(raised.value)
    assert "'broken'" in message and "goat-bot-broken 0.3" in message
    assert "RuntimeError: missing model file" in message


class _Odd(BaseException):
    """Neither an Exception nor an interrupt."""


class _BadStrError(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no str for you")


class _Bomb:
    def __getattr__(self, name: str) -> Any:
        raise ValueError(f"no {name} here")


@pytest.mark.parametrize(
    ("factory", "said"),
    [
        (lambda *, seed=None: (_ for _ in ()).throw(_Odd("odd")), "raised _Odd: odd"),
        (lambda *, seed=None: (_ for _ in ()).throw(GeneratorExit()), "raised GeneratorExit"),
        (
            lambda *, seed=None: (_ for _ in ()).throw(_BadStrError()),
            "raised _BadStrError \\(whose message cannot be shown\\)",
        ),
        # (Python 3.12 looks the method up statically, past __getattr__: the bot then simply has no choose)
        (lambda *, seed=None: _Bomb(), "built a _Bomb, whose attributes raise ValueError: no choose here|no choose"),
    ],
)
def test_whatever_a_factory_raises_is_a_load_error(factory: Any, said: str) -> None:
    # Found by a hostile review: a BaseException, an error whose __str__ raised, or a bot whose attributes raise
    # escaped load_strategy as themselves.
    goat.register_strategy("odd-test", factory)
    try:
        with pytest.raises(StrategyLoadError, match=said):
            goat.load_strategy("odd-test")
    finally:
        goat.unregister_strategy("odd-test")


def test_a_plugin_whose_entry_point_is_no_import_path_is_refused(fake_distribution: Any) -> None:
    # Found by a hostile review: loading it raised AttributeError from importlib.metadata, and so did a tournament
    # (which reads its import path to seal it).
    fake_distribution("goat-bot-badvalue", {"badvalue": "this is not : an import path!!"})
    for attempt in (
        lambda: goat.load_strategy("badvalue"),
        lambda: arena.run_tournament(["badvalue", "random"], matches=2, seed=1),
    ):
        with pytest.raises(StrategyLoadError, match=r"'badvalue' .* is not an import path"):
            attempt()


def test_a_plugin_whose_factory_is_not_callable_is_refused(fake_distribution: Any) -> None:
    fake_distribution("goat-bot-odd", {"odd": "odd_bot:factory"}, code={"odd_bot.py": "factory = 42\n"})
    with pytest.raises(
        StrategyLoadError, match=r"'odd' from goat-bot-odd 1.0 \(odd_bot:factory\) is int, not a callable"
    ):
        goat.load_strategy("odd")


def test_two_distributions_claiming_one_name_are_both_named(fake_distribution: Any) -> None:
    fake_distribution("goat-bot-one", {"twin": "one:factory"})
    fake_distribution("goat-bot-two", {"twin": "two:factory"})
    claims = [i for i in goat.available_strategies() if i.name == "twin"]
    assert sorted(i.distribution or "" for i in claims) == ["goat-bot-one", "goat-bot-two"]
    with pytest.raises(StrategyLoadError, match=r"'twin'.*goat-bot-(one|two).*goat-bot-(one|two)"):
        goat.load_strategy("twin")
    assert isinstance(goat.load_strategy("random"), goat.Strategy)  # only the contested name fails


def test_a_plugin_claiming_a_builtin_name_makes_only_that_name_fail(fake_distribution: Any) -> None:
    fake_distribution("goat-bot-impostor", {"greedy": "impostor:factory"})
    with pytest.raises(StrategyLoadError, match=r"two distributions claim the strategy name 'greedy'.*impostor"):
        goat.load_strategy("greedy")
    for name in ("random", "ismcts"):
        assert isinstance(goat.load_strategy(name, seed=1), goat.Strategy)


def test_discovery_is_cached_and_sees_a_distribution_installed_later(fake_distribution: Any) -> None:
    goat.available_strategies()
    calls = []
    real = goat.plugins.metadata.entry_points

    def counting(**kwargs: Any) -> Any:
        calls.append(kwargs)
        return real(**kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(goat.plugins.metadata, "entry_points", counting)
        for _ in range(3):
            goat.load_strategy("random")
        assert calls == []  # nothing installed: no metadata read again
        fake_distribution("goat-bot-late", {"late": "late_bot:factory"})
        assert "late" in {i.name for i in goat.available_strategies()}
        assert len(calls) == 1


def test_strategy_specs_carry_options() -> None:
    bot = goat.load_strategy("ismcts[iterations=7, exploration=0.5]", seed=1)
    assert (bot.iterations, bot.exploration) == (7, 0.5)  # type: ignore[attr-defined]
    assert goat.plugins.parse_spec('x[mode="a,b", n=3, on=true]') == ("x", {"mode": "a,b", "n": 3, "on": True})
    for bad in ("ismcts[iterations]", "ismcts[a=1,a=2]", "ismcts[=3]", "ismcts]"):
        with pytest.raises(StrategyLoadError, match="not a strategy spec"):
            goat.load_strategy(bad)
    with pytest.raises(StrategyLoadError, match="given both"):
        goat.load_strategy("ismcts[iterations=7]", iterations=8)


def test_the_off_switch_ignores_other_distributions(fake_distribution: Any, monkeypatch: Any) -> None:
    fake_distribution("goat-bot-firsty", {"firsty": "firsty_bot:factory"})
    monkeypatch.setenv("GOAT_DISABLE_PLUGIN_AUTOLOAD", "1")
    names = {i.name for i in goat.available_strategies()}
    assert "firsty" not in names and {"random", "greedy"} <= names
    with pytest.raises(StrategyLoadError, match="no strategy named 'firsty'"):
        goat.load_strategy("firsty")


def test_loading_a_plugin_reads_no_distribution_metadata_after_discovery(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tournament loads four bots per match: naming the plugin must not parse its METADATA again (issue 13)."""
    goat.available_strategies()  # discovery, which reads every distribution's name and version once

    def no_metadata(entry: object) -> None:
        raise AssertionError("distribution metadata read again after discovery")

    monkeypatch.setattr(goat.plugins, "_info", no_metadata)
    assert callable(goat.load_strategy("random", seed=1).choose)


# --- a sealed bot's process is started by the import path the referee found --------------------------


def test_a_plugins_name_becomes_the_import_path_its_discovery_found(fake_distribution: Any) -> None:
    from goat.plugins import import_path_spec

    fake_distribution("goat-bot-firsty", {"firsty": "firsty_bot:factory"})
    assert import_path_spec("firsty[depth=2,fast=true]") == "firsty_bot:factory[depth=2, fast=true]"
    assert import_path_spec("greedy") == "goat.bots.greedy:factory"
    fake_distribution("goat-bot-one", {"twin": "one:factory"})
    fake_distribution("goat-bot-two", {"twin": "two:factory"})
    goat.register_strategy("mine-test", lambda *, seed=None: None)
    try:
        # What is not one plugin's name stays as it is: the bot's own process says what is wrong with it.
        for spec in ("twin", "mine-test", "nobody", "exec:python3 bot.py", "firsty_bot:factory", "greedy[", ""):
            assert import_path_spec(spec) == spec
    finally:
        goat.unregister_strategy("mine-test")


def test_a_factory_by_import_path_loads_without_discovering_plugins() -> None:
    # What a sealed bot's process imports (goat.arena.protocol's main): neither the plugins' discovery nor
    # the records' pictures and files, nor the schemas' reader, each tens of milliseconds at every start.
    code = (
        "import sys, goat.arena.protocol, goat\n"
        "bot = goat.load_strategy('goat.bots.greedy:factory', seed=1)\n"
        "print(isinstance(bot, goat.Strategy), sorted(m for m in ('importlib.metadata', 'importlib.resources',"
        " 'goat.records.html', 'goat.records.stream') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True []"


def test_an_import_path_may_have_any_identifiers_and_spaces_around_its_colon(fake_distribution: Any) -> None:
    # As an entry point's value may: a plugin whose module is named in Cyrillic plays, in-process and sealed.
    from goat.plugins import import_path_spec

    code = (
        "class B:\n    def choose(self, view, legal):\n        return legal[-1]\n"
        "def фабрика(*, seed=None):\n    return B()\n"
    )
    fake_distribution("goat-bot-uni", {"uni": "ботик:фабрика"}, code={"ботик.py": code})
    for name in ("uni", "ботик:фабрика", " ботик : фабрика ", import_path_spec("uni")):
        assert goat.load_strategy(name).choose(None, (1, 2)) == 2  # type: ignore[arg-type]
    assert import_path_spec("uni[x=1]") == "ботик:фабрика[x=1]"


@pytest.mark.parametrize(
    ("path", "said"),
    [
        ("goat.bots.greedy:nothing", "failed to import: AttributeError"),
        ("no_such_module_for_goat:factory", "failed to import: ModuleNotFoundError"),
        ("goat.cards:DECK", "is tuple, not a callable factory"),
        ("goat..bots:factory", "is not an import path"),
        ("goat.bots.greedy:factory.", "is not an import path"),
        ("goat.bots.greedy:", "is not an import path"),
        ("1goat:factory", "is not an import path"),
    ],
)
def test_a_bad_import_path_is_refused_naming_it(path: str, said: str) -> None:
    with pytest.raises(StrategyLoadError, match=re.escape(f"the factory {path!r}") + ".*" + re.escape(said)) as raised:
        goat.load_strategy(path)
    assert isinstance(raised.value, ValueError) == (said == "is not an import path")  # a text that cannot be read


def test_a_sealed_plugin_that_fails_says_so_by_its_name_and_distribution(fake_distribution: Any, tmp_path: Any) -> None:
    # Started by its import path, the bot's process says what failed as loading it by its name would.
    from goat.arena import protocol
    from goat.plugins import import_path_spec

    runs = tmp_path / "runs.txt"
    code = f"with open({str(runs)!r}, 'a') as runs:\n    runs.write('ran\\n')\n1/0\n"
    fake_distribution("goat-bot-broken", {"broken": "broken_bot:factory"}, version="0.3", code={"broken_bot.py": code})
    with pytest.raises(StrategyLoadError, match=r"'broken' from goat-bot-broken 0\.3.*ZeroDivisionError"):
        protocol._load(import_path_spec("broken"), "broken", 0)
    assert runs.read_text() == "ran\n"  # the plugin's code ran once: its error is told by its name, not loaded again
    fake_distribution(
        "goat-bot-raising", {"raising": "raising_bot:factory"}, code={"raising_bot.py": "def factory(**k):\n    1/0\n"}
    )
    with pytest.raises(StrategyLoadError, match=r"^the factory of strategy 'raising' raised ZeroDivisionError"):
        protocol._load(import_path_spec("raising[x=1]"), "raising[x=1]", 0)


@pytest.mark.parametrize(
    ("name", "options", "error", "said"),
    [
        ("x", {"a": [1, 2]}, goat.StrategyNameError, "cannot be written in a spec that reads back"),
        ("x", {"a": {"b": 1, "c": 2}}, goat.StrategyNameError, "cannot be written in a spec that reads back"),
        ("x", {"a": object()}, goat.StrategyNameError, "cannot be written in a spec that reads back"),
        ("x[y=1]", {"a": 1}, goat.StrategyNameError, "without options in brackets"),
        (None, {"a": 1}, TypeError, "takes a name and a mapping"),
        ("x", [("a", 1)], TypeError, "takes a name and a mapping"),
        ("x", {"not a name": 1}, goat.StrategyNameError, "an option's name is an identifier"),
    ],
)
def test_format_spec_writes_only_what_parse_spec_reads_back(name: Any, options: Any, error: type, said: str) -> None:
    # Found by a review: format_spec wrote 'x[a=[1, 2]]' (which parse_spec refuses) and 'x[y][a=1]', and raised
    # AttributeError or a bare TypeError for a name or options of the wrong kind.
    with pytest.raises(error, match=re.escape(said)):
        goat.plugins.format_spec(name, options)
    spec = goat.plugins.format_spec("x", {"a": "b,c]", "n": 1.5, "t": True, "z": None, "one": [1]})
    assert goat.plugins.parse_spec(spec) == ("x", {"a": "b,c]", "n": 1.5, "t": True, "z": None, "one": [1]})


def test_a_bracket_too_many_is_not_read_as_text() -> None:
    # Found by a review: 'ismcts[time_ms=5]]' was read as time_ms='5]', and the error then blamed the value.
    with pytest.raises(goat.StrategyNameError, match="has a bracket that does not belong"):
        goat.plugins.parse_spec("ismcts[time_ms=5]]")
    assert goat.plugins.parse_spec('x[a="5]"]') == ("x", {"a": "5]"})
