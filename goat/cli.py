"""The ``goat`` command: play against bots, run matches and tournaments, list plugins, replay games.

Install with ``pip install 'goat-cards[cli]'``.  Exit status: 0 on success,
2 on bad usage (unknown options, an unknown strategy name), 1 when a run fails
(a one-line message).
"""

from __future__ import annotations

import datetime
import json
import math
import os
import platform
import random
import re
import secrets
import sys
import textwrap
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, TextIO

import attrs

from goat.errors import MissingExtraError, printable, shown
from goat.records.values import MAX_SEED

try:
    import click
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.table import Table
    from rich.text import Text
except ImportError as error:  # pragma: no cover - exercised in a subprocess test
    raise MissingExtraError("the goat command", "click and rich", "cli", error) from None

import goat
from goat import arena, records, tui
from goat.arena import sandbox as sandboxes
from goat.arena.sandbox import SANDBOXES, Sandbox, SandboxError
from goat.arena.tournament import MAX_MATCHES, Sealing
from goat.moves import canonical_move
from goat.plugins import EXEC_PREFIX, StrategyLoadError, parse_spec
from goat.rules import play
from goat.scoring import Match, score
from goat.state import GameState
from goat.strategy import Strategy, end_game, start_game
from goat.view import view

__all__ = ["main"]

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 80}  # help fits 80 columns


#: The width of output to a file or a pipe: no line of it is ever cut or wrapped (a table as wide as it needs).
PIPE_WIDTH = 10_000


def _console() -> Console:
    # In a terminal, rich wraps long lines between words at the terminal's width, and tables fit it.  Output to
    # a file or a pipe is never wrapped nor cut: lines stay whole for other tools, tables as wide as they need.
    # No markup: names, paths and messages are shown as they are, "[greedy]" included.
    terminal = sys.stdout.isatty()
    return Console(highlight=False, markup=False, soft_wrap=not terminal, width=None if terminal else PIPE_WIDTH)


def _load(
    spec: str,
    seed: int,
    param: str,
    *,
    seat: int = 0,
    isolation: arena.Isolation = "auto",
    time_limit: float | None = None,
    sandbox: Sandbox = "auto",
    hidden: tuple[str, ...] = (),
) -> Strategy:
    """Build a bot from a name or a spec such as ``ismcts[time_ms=50]``, in-process or sealed as a tournament would.

    ``seed`` seeds an in-process bot only: a sealed bot is told a seed the system draws for it alone, for
    one derived from the deal's seed would let it work out every hand.  A sealed bot is started and greeted
    at once (for ``seat``), confined as ``sandbox`` asks and kept from the directories in ``hidden`` (see
    :func:`_record_directories`), so that one that cannot start fails here.  A name or spec that is wrong is
    bad usage (exit 2); a bot that is broken, a failed run (exit 1).
    """
    try:
        sealing = Sealing(sandbox=sandbox, hidden=hidden, startup_limit=startup_limit(time_limit))
        bot = arena.Entrant(spec).player(seed, isolation=isolation, time_limit=time_limit, sealing=sealing)
        if isinstance(bot, arena.ProcessStrategy):
            bot.hello(seat)
        return bot
    except goat.StrategyNameError as error:
        raise click.BadParameter(printable(str(error)), param_hint=param) from None
    except arena.BotFault as fault:
        # the reason quotes the bot's replies and the tail is its own writing: escaped, or it could drive the terminal
        tail = f"; its standard error ends: {fault.stderr.strip()[-500:]}" if fault.stderr.strip() else ""
        raise click.ClickException(printable(f"the bot {shown(spec)} does not start: {fault}{tail}")) from None
    except SandboxError as error:
        raise click.ClickException(f"{error} (see 'goat sandbox')") from None
    except (StrategyLoadError, ValueError) as error:
        if isinstance(error, StrategyLoadError) and isinstance(error.__cause__, (TypeError, ValueError)):
            # the factory refused its options ('ismcts[foo=1]', 'ismcts[time_ms=0]'): bad usage, as a bad name is
            raise click.BadParameter(printable(str(error)), param_hint=param) from None
        raise click.ClickException(printable(str(error))) from None


def _record_directories(*files: Path | TextIO | None) -> tuple[str, ...]:
    """The directories of the files a command keeps records in (a save it writes or resumes, a games log, results),
    absolute: its sealed bots may not see them, as they may not see its working directory.  A record tells a bot
    the seed, and so every hand; the directory may hold others.  A stream or a device (``-``, ``/dev/stdout``) is
    no record's place: nothing is hidden for it."""
    directories: list[str] = []
    for file in files:
        if isinstance(file, Path):  # a path to write, which may not exist yet
            path = os.path.abspath(file)
            if os.path.exists(path) and not os.path.isfile(path):
                continue
        else:  # a file opened already (click opens it before the run): a file on disk, or nothing to hide
            name = getattr(file, "name", None)
            if not isinstance(name, str) or not os.path.isfile(name):
                continue
            path = os.path.abspath(name)
        directories.append(os.path.dirname(path))
    return tuple(dict.fromkeys(directories))


def _tell_what_is_missing(bots: Iterable[Strategy], sandbox: Sandbox) -> None:
    """Say on stderr, before the play, which protections the sealed bots among ``bots`` run without on this
    machine, if any: with ``--sandbox auto`` they play all the same, and the organiser should know."""
    if not any(isinstance(bot, arena.ProcessStrategy) for bot in bots):
        return
    missing = sandboxes.probe(sandbox).missing()
    if missing:
        mode = "--sandbox none; " if sandbox == "none" else ""
        names = ", ".join(protection.name for protection in missing)
        click.echo(f"Sealed bots run without: {names} ({mode}see 'goat sandbox')", err=True)


def _isolation_option(function: Any) -> Any:
    return click.option(
        "--isolation",
        type=click.Choice(["auto", "process", "none"]),
        default="auto",
        show_default=True,
        help="How bots play: 'process' seals each seat in a child process, 'none' plays in this process, "
        "'auto' seals other distributions' plugins and exec: bots only.",
    )(function)


def _sandbox_option(function: Any) -> Any:
    return click.option(
        "--sandbox",
        type=click.Choice(SANDBOXES),
        default="auto",
        show_default=True,
        help="How sealed bots are confined: 'required' refuses to play where a protection is missing, "
        "'auto' plays with what this machine has, 'none' asks for no sandbox (see 'goat sandbox').",
    )(function)


def _no_nan(context: click.Context, parameter: click.Parameter, value: float | None) -> float | None:
    if value is not None and math.isnan(value):  # FloatRange lets NaN through: it compares false with anything
        raise click.BadParameter("nan is not a number of seconds", context, parameter)
    return value


def startup_limit(time_limit: float | None) -> float:
    """The seconds a sealed bot has to start and answer hello: its time limit, and never less than the default
    one (an interpreter needs a moment to start, however short the budget for a move)."""
    return max(time_limit or 0.0, arena.sealed.DEFAULT_TIME_LIMIT)


def _time_limit_option(function: Any) -> Any:
    return click.option(
        "--time-limit",
        type=click.FloatRange(min=arena.sealed.MIN_TIME_LIMIT, max=arena.sealed.MAX_TIME_LIMIT),
        default=None,
        callback=_no_nan,
        help="Seconds each bot has for each decision and hook (default: none in-process, 10 s sealed; a sealed bot"
        " has at least 10 s to start).",
    )(function)


SPEC_HELP = "A strategy name, with options in brackets if it takes any: 'ismcts[time_ms=50]'."


class _Seed(click.ParamType):  # type: ignore[type-arg]  # generic in click 8.2, not in 8.1
    """A seed as records and the arena hold it: an integer of at most 79 digits (refused with the option named,
    not with a traceback from the arena)."""

    name = "integer"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if type(value) is int:
            number: int = value
        else:
            text = str(value).strip()
            if _SEED_TEXT.fullmatch(text) is None:
                self.fail(f"{shown(value, 60)} is not a seed: an integer of at most 79 digits", param, ctx)
            number = int(text)
        if not -MAX_SEED <= number <= MAX_SEED:
            self.fail(f"{shown(number, 60)} is not a seed: an integer of at most 79 digits", param, ctx)
        return number


SEED = _Seed()

#: The most worker processes ``goat tournament --jobs`` starts: each is an interpreter with its bots.
MAX_JOBS = 256
_SEED_TEXT = re.compile(r"[-+]?[0-9]{1,79}")


class _Group(click.Group):
    """The ``goat`` group: every command's error message is escaped before click prints it, whatever built it
    (a bot's reply, a record's text, a path), so that none can send the terminal a control sequence."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.ClickException as error:
            # click types the message Final, but it is a plain attribute that show() reads when it prints
            error.message = printable(error.message)  # type: ignore[misc]
            raise


def random_seed() -> int:
    """A seed for a run nobody gave one: 64 bits from the system's random source.  A small one (the old 1, or
    below a million) lets a bot that knows how deals follow from it search for the seed that dealt its hand,
    and then know every hand of the match."""
    return secrets.randbits(64)


@click.group(cls=_Group, context_settings=CONTEXT)
@click.version_option(
    goat.__version__,
    prog_name="goat",
    # Which core runs matters to anyone timing bots: say it with the version.
    message=f"%(prog)s %(version)s (core: {goat.build_info()}; Python {platform.python_version()})",
)
def main() -> None:
    """Goat (Kozel), the Russian trick-taking card game: play it, pit bots against each other, replay games.

    \b
    Examples:
      goat play --seat 0 --partner greedy --opponents greedy
      goat tournament random greedy --matches 100
      goat strategies
    """


# --- goat play --------------------------------------------------------------------


def table_bots(
    seat: int, partner: str, opponents: str, seed: int, sandbox: Sandbox = "auto", hidden: tuple[str, ...] = ()
) -> dict[int, Strategy]:
    """The three bots at a person's table, in-process ones seeded from ``seed`` (tests rebuild the same table);
    a sealed one gets a seed of its own from the system, and does not see the directories in ``hidden``
    (see :func:`_load`)."""
    names = {(seat + 2) % 4: partner, (seat + 1) % 4: opponents, (seat + 3) % 4: opponents}
    return {
        s: _load(
            name,
            seed * 4 + s,
            "--partner" if s == (seat + 2) % 4 else "--opponents",
            seat=s,
            sandbox=sandbox,
            hidden=hidden,
        )
        for s, name in names.items()
    }


def game_seeds(seed: int) -> random.Random:
    """The generator of the match's deal seeds."""
    return random.Random(seed)


@main.command("play", context_settings=CONTEXT, short_help="Play a match in the terminal against three bots.")
@click.option("--seat", type=click.IntRange(0, 3), default=0, show_default=True, help="Your seat (0–3).")
@click.option("--partner", default="greedy", show_default=True, help="The bot opposite you. " + SPEC_HELP)
@click.option("--opponents", default="greedy", show_default=True, help="The bot on each side of you.")
@click.option(
    "--seed",
    type=SEED,
    default=None,
    help="Seed of the deals and of the in-process bots (default: a random 64-bit one, shown, to play the same again).",
)
@click.option(
    "--save",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    default=None,
    help="Keep the match in this file (a match record), after every game and when you leave.",
)
@click.option(
    "--resume",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Take up a match saved with --save (same seat, bots and seed; it goes on being saved there).",
)
@_sandbox_option
def play_command(
    seat: int,
    partner: str,
    opponents: str,
    seed: int | None,
    save: Path | None,
    resume: Path | None,
    sandbox: Sandbox,
) -> None:
    """Play a whole match in the terminal, with three bots.

    Type your cards to lead or beat ('10h qh'), 'pass 7c 8c' to pass face down, 'molodka' (or 'm'),
    'wait' (or 'w'), 'help' (or 'h', '?') or 'quit' (asks before leaving the match).

    \b
    Example:
      goat play --seat 2 --partner greedy --opponents random --seed 7
    """
    resumed = None
    if resume is not None:
        resumed = _saved_match(resume)
        seat, partner, opponents, seed = _saved_table(resume, resumed, click.get_current_context())
        save = save or resume
    if save is not None:
        _check_writable(save)
    if seed is None:
        seed = random_seed()
    console = _console()
    # the save (and the file resumed) holds the seed: a sealed bot that read it would know every hand
    bots = table_bots(seat, partner, opponents, seed, sandbox, _record_directories(save, resume))
    _tell_what_is_missing(bots.values(), sandbox)
    # the names may come from a saved file: escaped wherever they are shown
    partner_shown, opponents_shown = printable(partner), printable(opponents)
    names = {s: partner_shown if s == (seat + 2) % 4 else opponents_shown for s in bots}
    console.print(
        f"Goat — you sit at seat {seat}; partner: {partner_shown}; opponents: {opponents_shown}; seed {seed}."
    )
    console.print("Type 'help' at any prompt for how to play.\n")
    try:
        _play_match(console, _Table(seat, partner, opponents, seed, save), bots, names, resumed)
    finally:
        for bot in bots.values():  # a sealed bot's process ends with the match
            close = getattr(bot, "close", None)
            if isinstance(bot, arena.ProcessStrategy) and close is not None:
                close()


@attrs.frozen
class _Table:
    """Who plays a person's match, and how it is kept: what a saved match records in its headers."""

    seat: int
    partner: str
    opponents: str
    seed: int
    save: Path | None

    def players(self) -> tuple[str, ...]:
        return tuple(
            "you" if s == self.seat else self.partner if s == (self.seat + 2) % 4 else self.opponents for s in range(4)
        )

    def headers(self) -> dict[str, str]:
        return {
            "event": "goat play",
            "date": datetime.date.today().isoformat(),
            "seat": str(self.seat),
            "partner": self.partner,
            "opponents": self.opponents,
            "seed": str(self.seed),
        }

    def keep(self, console: Console, games: list[records.GameRecord]) -> bool:
        """Write the match so far to the save file, if there is one; whether it was written."""
        if self.save is None:
            return False
        match = records.from_match(games, seed=self.seed, players=self.players(), headers=self.headers())
        try:
            self.save.write_text(records.dumps(match, indent=1) + "\n", encoding="utf-8")
        except OSError as error:
            console.print(f"  (cannot save to {self.save}: {error.strerror})", style="red")
            return False
        return True


def _play_match(
    console: Console,
    table: _Table,
    bots: dict[int, Strategy],
    names: dict[int, str],
    resumed: records.MatchRecord | None = None,
) -> None:
    seat = table.seat
    seeds = game_seeds(table.seed)
    match = Match()
    games: list[records.GameRecord] = []
    pending: tuple[GameState, int | None] | None = None
    for game in resumed.games if resumed is not None else ():
        seeds.randrange(2**63)  # the deals go on where the saved match stopped
        states = records.replay(game)
        if game.result is None:
            pending = (states[-1], game.seed)
        else:
            games.append(game)
            match = match.record(states[-1])
    while not match.is_over:
        if pending is not None:
            (state, game_seed), pending = pending, None
            console.print(Text(f"— Game {len(games) + 1} goes on —", style="bold"))
        else:
            game_seed = seeds.randrange(2**63)
            state = match.new_game(seed=game_seed)
            console.print(
                Text(f"— Game {len(games) + 1}: seat {state.dealer} deals, seat {state.leader} leads —", style="bold")
            )
        interrupted = False
        try:
            state, finished = _play_game(console, state, seat, bots, names, len(games) + 1)
        except _InterruptedError as stop:  # Ctrl-C: the game so far is kept, as when the person leaves
            state, finished, interrupted = stop.state, False, True
            console.print("\nInterrupted.")
        record = records.from_state(state, seed=game_seed, players=table.players())
        saved = table.keep(console, [*games, record])
        if not finished:
            if saved:
                console.print(f"Saved to {table.save}; 'goat play --resume {table.save}' takes it up again.")
            console.print("Bye.")
            if interrupted:
                raise SystemExit(130)  # a shell's status for a command ended by Ctrl-C (128 + SIGINT)
            return
        games.append(record)
        result = score(state)
        for s, bot in bots.items():
            _bot_call(console, s, names, end_game, bot, view(state, s), result)
        match = match.record(state)
        tui.print_lines(console, tui.result_lines(result, seat, match))
        console.print()
    console.print(Text(tui.goat_line(match, seat), style="bold"))


def _saved_match(path: Path) -> records.MatchRecord:
    """A match saved by ``goat play --save``, with the headers that say who played it."""
    try:
        saved = records.loads(path.read_bytes())
    except OSError as error:
        raise click.ClickException(f"cannot read {path}: {error.strerror}") from None
    except records.RecordError as error:
        raise click.ClickException(printable(f"{path}: {error}")) from None
    needed = ("seat", "partner", "opponents", "seed")
    if not isinstance(saved, records.MatchRecord) or any(saved.header(name) is None for name in needed):
        raise click.BadParameter(f"{path} is not a match saved by 'goat play --save'", param_hint="--resume")
    if saved.match.is_over:
        raise click.BadParameter(f"the match in {path} is over: {tui.goat_line(saved.match)}", param_hint="--resume")
    return saved


def _saved_table(path: Path, saved: records.MatchRecord, context: click.Context) -> tuple[int, str, str, int]:
    """The seat, bots and seed a saved match names in its headers, read as strictly as options are.

    A file is data: a bot it names that would run something other than an installed strategy — a command
    (``exec:``) or an import path (``module:factory``) — is not started unless the person names the same bot
    again with ``--partner`` or ``--opponents``."""
    seat_text, seed_text = saved.header("seat"), saved.header("seed")
    if seat_text not in ("0", "1", "2", "3"):
        raise click.BadParameter(f"{path}: its seat is 0, 1, 2 or 3, not {shown(seat_text, 40)}", param_hint="--resume")
    try:
        seed = SEED.convert(seed_text, None, context)
    except click.BadParameter as error:
        raise click.BadParameter(f"{path}: {error.message}", param_hint="--resume") from None
    bots = {}
    for option in ("partner", "opponents"):
        name = saved.header(option)
        assert name is not None  # _saved_match checked the headers are there
        given = context.get_parameter_source(option) is click.core.ParameterSource.COMMANDLINE
        if _runs_something(name) and not (given and context.params[option] == name):
            raise click.BadParameter(
                f"{path} names {shown(name, 80)} as the {option}, which runs a command or imports a module:"
                f" a saved file is not trusted to do that; if you trust it, say so with --{option} {shown(name, 80)}",
                param_hint="--resume",
            )
        bots[option] = name
    kept: dict[str, object] = {"seat": int(seat_text), "seed": seed, **bots}
    for option, value in kept.items():  # a resumed match is the saved one: an option that says otherwise is a mistake
        given = context.get_parameter_source(option) is click.core.ParameterSource.COMMANDLINE
        if given and context.params[option] != value:
            raise click.BadParameter(
                f"the match saved in {path} has {option} {shown(value, 80)}, not {shown(context.params[option], 80)}:"
                " a resumed match keeps its seat, bots and seed",
                param_hint=f"--{option}",
            )
    return int(seat_text), bots["partner"], bots["opponents"], seed


def _runs_something(spec: str) -> bool:
    """Whether the strategy ``spec`` runs a command or imports a module by its path, rather than loading an
    installed (or registered) strategy by its name."""
    try:
        name = parse_spec(spec)[0]
    except goat.GoatError:
        return False  # loading it fails with the parse error
    return name.startswith(EXEC_PREFIX) or ":" in name


def _check_writable(path: Path) -> None:
    """Refuse at once a save file that cannot be written (a missing directory, no permission), rather than
    after the first game; nothing is written or left behind."""
    existed = path.exists()
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as error:
        raise click.BadParameter(f"cannot write {path}: {error.strerror}", param_hint="--save") from None
    if not existed:
        path.unlink(missing_ok=True)


def _bot_call(console: Console, seat: int, names: dict[int, str], function: Any, *args: Any) -> Any:
    """Call a bot; a bot that fails must not stop the person's game: say so, and go on (``None``)."""
    try:
        return function(*args)
    except Exception as error:
        # a sealed bot's fault quotes its replies: escaped
        console.print(
            f"  ({tui.seat_name(seat, None, names)}'s bot failed: {printable(str(error))}; the game goes on)",
            style="yellow",
        )
        return None


def _ask(console: Console, prompt: str) -> str | None:
    """One line from the person, or ``None`` at the end of input."""
    console.print(prompt, end="")
    line = sys.stdin.readline()
    if not line:
        console.print()
        return None
    return line


class _InterruptedError(Exception):
    """Ctrl-C during a game, with the state it had reached: what ``goat play --save`` keeps."""

    def __init__(self, state: GameState) -> None:
        super().__init__("interrupted")
        self.state = state


def _play_game(
    console: Console, state: GameState, me: int, bots: dict[int, Strategy], names: dict[int, str], number: int
) -> tuple[GameState, bool]:
    """Play the game on from ``state``; the state reached, and whether the game was played to its end.

    Ctrl-C raises :class:`_InterruptedError` with the state reached (a move is played whole or not at all)."""
    try:
        for s, bot in bots.items():
            _bot_call(console, s, names, start_game, bot, view(state, s))
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            if seat == me:
                move = _human_move(console, state, me, number, names)
                if move is None:
                    return state, False
            else:
                seen = view(state, seat)
                answer = _bot_call(console, seat, names, bots[seat].choose, seen, seen.legal_moves)
                move = canonical_move(answer, seen.legal_moves)
                if move is None:  # a broken bot must not stop the person's game
                    move = seen.legal_moves[0]
            tricks = len(state.tricks)
            state = play(state, move)
            if move.kind is not goat.MoveKind.WAIT or move.seat == me:  # others' waits are private (R14, R23)
                seen_move = view(state, me).history[-1]
                console.print(Text("  ").append_text(tui.describe_play(seen_move, state.trump, me, names)))
            if len(state.tricks) > tricks:
                console.print(
                    f"  → {tui.seat_name(state.tricks[-1].winner, me, names)} "
                    f"{'take' if state.tricks[-1].winner == me else 'takes'} the trick."
                )
    except KeyboardInterrupt:
        raise _InterruptedError(state) from None
    return state, True


def _human_move(console: Console, state: GameState, me: int, number: int, names: dict[int, str]) -> goat.Move | None:
    seen = view(state, me)
    console.print()
    tui.print_lines(console, tui.render_view(seen, game=number, names=names))
    while True:
        line = _ask(console, tui.prompt_text(seen))
        if line is None:
            return None
        try:
            parsed = tui.parse_input(line, seen)
        except tui.InputError as error:
            console.print(f"  {tui.with_symbols(str(error))}", style="red")
            continue
        if parsed == "quit":
            answer = _ask(console, "Leave the match? It ends here, unfinished [y/N] ")
            if answer is None or answer.strip().lower() in ("y", "yes"):
                return None
            continue
        if parsed == "help":
            console.print(tui.HELP)
            console.print(tui.legal_moves_text(seen))
            continue
        assert isinstance(parsed, goat.Move)
        try:
            play(state, parsed)  # the engine is the one judge of the rules
        except goat.IllegalMoveError as error:
            console.print(f"  {_reason(error, parsed, seen)}", style="red")
            continue
        return parsed


def _reason(error: goat.IllegalMoveError, move: goat.Move, seen: goat.PlayerView) -> str:
    """The engine's reason, without the move it repeats, and a hint where plain cards meant a pass."""
    reason = tui.with_symbols(str(error).split(": ", 1)[-1])  # cards as the table shows them: 9♥, not 9H
    if move.kind is goat.MoveKind.BEAT and goat.Move(goat.MoveKind.PASS, move.seat, move.cards) in seen.legal_moves:
        reason += f"; to throw them face down, type: pass {' '.join(str(c).lower() for c in sorted(move.cards))}"
    return reason


# --- goat match -----------------------------------------------------------------------


@main.command("match", context_settings=CONTEXT, short_help="One match between two bots, a line per game.")
@click.argument("team_a")
@click.argument("team_b")
@click.option(
    "--seed",
    type=SEED,
    default=None,
    help="Seed of the deals and of the in-process bots (default: a random 64-bit one, shown, to play the same again).",
)
@click.option(
    "--games-log",
    type=click.File("w", encoding="utf-8", lazy=False),
    default=None,
    help="Write every game's record to this file (JSON lines), for 'goat replay'.",
)
@_isolation_option
@_time_limit_option
@_sandbox_option
def match_command(
    team_a: str,
    team_b: str,
    seed: int | None,
    games_log: TextIO | None,
    isolation: arena.Isolation,
    time_limit: float | None,
    sandbox: Sandbox,
) -> None:
    """One match: bot TEAM_A in seats 0 and 2 against bot TEAM_B in seats 1 and 3.

    TEAM_A and TEAM_B are strategy names, with options in brackets if they take any ('ismcts[time_ms=50]').
    The log file is opened before the match, so a path that cannot be written is refused at once.

    \b
    Example:
      goat match greedy random --seed 3 --games-log games.jsonl
    """
    if seed is None:
        seed = random_seed()
    players = [
        _load(
            team_a if s % 2 == 0 else team_b,
            seed * 4 + s,
            "TEAM_A" if s % 2 == 0 else "TEAM_B",
            seat=s,
            isolation=isolation,
            time_limit=time_limit,
            sandbox=sandbox,
            hidden=_record_directories(games_log),  # the log holds the seed of every game: every hand
        )
        for s in range(4)
    ]
    _tell_what_is_missing(players, sandbox)
    names = tuple(team_a if s % 2 == 0 else team_b for s in range(4))
    played = arena.play_match(players, seed=seed, names=names, on_fault="forfeit", time_limit=time_limit)
    console = _console()
    for number, record in enumerate(played.games, start=1):
        console.print(tui.game_line(number, record, Match(played.match.results[:number])))
        for fault in record.faults:  # the reason quotes the bot's replies, so it is escaped (the stderr is in the log)
            console.print(f"  fault: seat {fault.seat}, move {fault.move}: {fault.kind}: {printable(fault.reason)}")
    goat_team = played.match.goat
    winner = printable(team_b if goat_team == 0 else team_a)
    title = "goat with balls" if played.match.with_balls else "goat"
    console.print(f"{printable(names[goat_team or 0])} (team {goat_team}) is the {title}; {winner} wins the match.")
    console.print(f"Seed {seed}: --seed {seed} deals the same games again.")
    if games_log is not None:
        try:
            records.write(games_log, played.games)
            games_log.flush()
        except OSError as error:
            raise click.ClickException(f"cannot write {games_log.name}: {error.strerror}") from None
        console.print(f"{len(played.games)} game records written to {games_log.name}")


# --- goat tournament ------------------------------------------------------------------


class _RateColumn(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:.1f} matches/s" if speed else "… matches/s")


@main.command("tournament", context_settings=CONTEXT, short_help="A duplicate round-robin of bots, on all cores.")
@click.argument("names", nargs=-1, required=True)
@click.option(
    "--matches",
    type=click.IntRange(min=2, max=MAX_MATCHES),
    default=100,
    show_default=True,
    help="Matches per pairing: an even number, each deal being played twice with the teams swapped.",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1, max=MAX_JOBS),
    default=None,
    help=f"Worker processes, at most {MAX_JOBS} (default: all cores; never more than there are matches).",
)
@click.option(
    "--seed",
    type=SEED,
    default=None,
    help="Seed of the tournament: the deals and the in-process bots' seeds (default: a random 64-bit one, shown).",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show a live progress bar on stderr (default: when stderr is a terminal).",
)
@click.option(
    "--json",
    "json_file",
    type=click.File("w", encoding="utf-8", lazy=False),
    default=None,
    help="Also write the results as JSON to this file (opened before the run).",
)
@_isolation_option
@_time_limit_option
@_sandbox_option
def tournament_command(
    names: tuple[str, ...],
    matches: int,
    jobs: int | None,
    seed: int | None,
    progress: bool | None,
    json_file: TextIO | None,
    isolation: arena.Isolation,
    time_limit: float | None,
    sandbox: Sandbox,
) -> None:
    """A duplicate round-robin tournament of the named bots, on all cores, with a live progress bar.

    NAMES are strategy names, with options in brackets if they take any: 'ismcts[time_ms=50]' and
    'ismcts[time_ms=5]' are two entrants.

    \b
    Example:
      goat tournament random greedy --matches 100 --json results.json
    """
    if len(set(names)) < 2:
        raise click.UsageError("name two or more different strategies")
    if matches % 2:
        raise click.BadParameter(
            f"{matches} is odd: each deal is played twice with the teams swapped; use {matches - 1} or {matches + 1}",
            param_hint="--matches",
        )
    if seed is None:
        seed = random_seed()
    hidden = _record_directories(json_file)  # the results name the seed, and the directory may hold more
    sealed = []
    for name in names:
        bot = _load(name, 0, "NAMES", isolation=isolation, sandbox=sandbox, hidden=hidden)
        if isinstance(bot, arena.ProcessStrategy):
            bot.close()
            sealed.append(bot)
    _tell_what_is_missing(sealed, sandbox)
    console = _console()
    if progress is None:
        progress = sys.stderr.isatty()
    pairings = len(names) * (len(names) - 1) // 2
    # A worker is an interpreter of its own: never more of them than there are matches to play.
    executor = ProcessPoolExecutor(max_workers=min(jobs, pairings * matches)) if jobs else None
    columns = (TextColumn("matches"), BarColumn(), MofNCompleteColumn(), _RateColumn(), TimeRemainingColumn())
    try:
        with Progress(*columns, console=Console(stderr=True), transient=False, disable=not progress) as bar:
            task = bar.add_task("tournament", total=None)

            def advance(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            result = arena.run_tournament(
                list(names),
                matches=matches,
                seed=seed,
                executor=executor,
                progress=advance,
                isolation=isolation,
                time_limit=time_limit,
                startup_limit=startup_limit(time_limit),
                sandbox=sandbox,
                hidden=hidden,
            )
    except (goat.GoatError, SandboxError, ValueError) as error:  # an entrant that fails where the matches run
        raise click.ClickException(printable(str(error))) from None
    finally:
        if executor is not None:
            executor.shutdown()
    console.print(Text("Duplicate round-robin", style="bold"))
    # Fitted to a terminal's width; to a file or a pipe, whole (see TournamentResult.entrant_table).
    console.print(result.entrant_table(console.width if console.is_terminal else None))
    console.print(f"{result.matches} matches in {result.seconds:.1f} s (seed {seed}).")
    if result.sandbox is not None:
        console.print(f"Sealed bots ran under: {result.sandbox}.")
    for void in result.void:  # the reason may quote what a bot's worker said: escaped
        teams = " against ".join(printable(team) for team in void.teams)
        console.print(f"void: {teams} (seed {void.seed}): {printable(void.void or '')}", style="yellow")
    if json_file is not None:
        try:
            json_file.write(result.to_json() + "\n")
            json_file.flush()
        except OSError as error:
            raise click.ClickException(f"cannot write {json_file.name}: {error.strerror}") from None


# --- goat strategies --------------------------------------------------------------------


@main.command("strategies", context_settings=CONTEXT, short_help="The bots goat can find, and whether they load.")
@click.option(
    "--check/--no-check",
    default=True,
    show_default=True,
    help="Import and build every strategy to report whether it works; --no-check lists without importing.",
)
def strategies_command(check: bool) -> None:
    """The bots goat can find: built-in and installed plugins, with distribution and version.

    Each is imported and built once to check that it loads (exit status 1 if any does not, with its
    error); with --no-check they are listed from the installed metadata alone, nothing imported.

    \b
    Example:
      goat strategies
    """
    console = _console()
    table = Table()
    for column in ("name", "distribution", "version", "factory", *(("status",) if check else ())):
        table.add_column(column, overflow="fold")  # a long name or version goes on the next line, never cut
    broken = 0
    for info in goat.available_strategies():
        # a plugin's metadata and errors are another distribution's text: escaped, shown as text
        row: list[str | Text] = [
            Text(printable(text))
            for text in (info.name, info.distribution or "(in-process)", info.version or "", info.target)
        ]
        if check:
            try:
                goat.load_strategy(info.name, seed=0)
                status = Text("ok", style="green")
            except StrategyLoadError as error:
                broken += 1
                status = Text(f"error: {printable(str(error))}", style="red")
            table.add_row(*row, status)
        else:
            table.add_row(*row)
    console.print(table)
    if broken:
        raise click.ClickException(f"{broken} strategy plugin{'s' if broken > 1 else ''} failed to load")


# --- goat bot -----------------------------------------------------------------------------------


@main.command("bot", context_settings=CONTEXT, short_help="Serve a strategy as a protocol bot on stdin/stdout.")
@click.argument("name")
def bot_command(name: str) -> None:
    """Play the strategy NAME as a protocol bot on standard input and output, for any referee.

    NAME is an installed strategy (a plugin or a built-in), with options in brackets if it takes any.
    The referee's hello gives the seed.  'exec:goat bot greedy' is a sealed greedy.

    \b
    Example:
      goat tournament 'exec:goat bot greedy' random --matches 2
    """
    from goat.arena import protocol

    _load(name, 0, "NAME")  # an unknown name is bad usage, before any message
    raise SystemExit(protocol.serve(lambda seed: goat.load_strategy(name, seed=seed), name=name))


# --- goat sandbox ----------------------------------------------------------------------------


#: The widths of the columns of ``goat sandbox``: the protection, whether it holds, how (wrapped to fit 80 columns).
_SANDBOX_COLUMNS = (18, 5, 55)


@main.command("sandbox", context_settings=CONTEXT, short_help="What confines sealed bots on this machine.")
@click.option("--required", is_flag=True, help="Exit with status 1 if any protection is missing.")
def sandbox_command(required: bool) -> None:
    """Each protection of sealed play on this machine: whether it holds, and what provides it or why not.

    Sealed bots (exec: bots, other distributions' plugins) run under bubblewrap and a cgroup per bot where
    the machine allows; what does not hold here is missing for every sealed bot that 'goat match',
    'goat tournament' and 'goat play' start.  With --required, a missing protection is a failed run, as
    '--sandbox required' refuses to play then.

    \b
    Example:
      goat sandbox --required
    """
    from goat.arena import sandbox

    report = sandbox.probe()
    name_width, holds_width, how_width = _SANDBOX_COLUMNS
    lines = [f"{'protection':<{name_width}} {'holds':<{holds_width}} how, or why not", "-" * 80]
    for protection in report.protections:
        how = textwrap.wrap(protection.how, how_width) or [""]
        lines.append(f"{protection.name:<{name_width}} {'yes' if protection.holds else 'NO':<{holds_width}} {how[0]}")
        lines.extend(" " * (name_width + holds_width + 2) + rest for rest in how[1:])
    lines.append(f"In one line: {report.summary}")
    click.echo("\n".join(line.rstrip() for line in lines))
    missing = report.missing()
    if required and missing:
        raise click.ClickException(
            f"{len(missing)} protection{'s' if len(missing) > 1 else ''} missing: "
            + ", ".join(protection.name for protection in missing)
        )


# --- goat replay -------------------------------------------------------------------------


def _read_records(path: Path) -> list[records.GameRecord]:
    """The games in ``path``: one record (a game or a match, JSON, pretty or not) or a JSON Lines file of them."""
    try:
        with path.open("rb") as file:
            head = file.read(records.MAX_RECORD_BYTES + 1)
            try:  # one record, pretty-printed or not (any line endings); else a JSON Lines file
                json.loads(head)
                whole = True
            except (ValueError, RecursionError):
                whole = head.count(b"\n", 0, len(head.rstrip())) == 0  # one line: its own error says what is wrong
            if whole:
                found = [records.loads(head)]
            else:
                file.seek(0)
                found = list(records.read(file))
    except OSError as error:
        raise click.ClickException(f"cannot read {path}: {error.strerror}") from None
    except records.RecordError as error:
        raise click.ClickException(printable(f"{path}: {error}")) from None
    games: list[records.GameRecord] = []
    for record in found:
        games.extend(record.games if isinstance(record, records.MatchRecord) else [record])
    return games


@main.command("replay", context_settings=CONTEXT, short_help="Show saved games trick by trick.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--step", is_flag=True, help="Wait for Enter after each trick ('q' and Enter to stop).")
@click.option("--open", "open_cards", is_flag=True, help="Show every card, face-down passes and waits included.")
@click.option(
    "--html",
    "html_file",
    type=click.File("w", encoding="utf-8", lazy=False),
    default=None,
    help="Write the games as one HTML page that steps through them in a browser (no network needed).",
)
def replay_command(file: Path, step: bool, open_cards: bool, html_file: TextIO | None) -> None:
    """Show saved games trick by trick, as the players saw them (or with all cards open).

    FILE holds one game or match record (JSON), or one per line, as 'goat match --games-log' and
    'goat play --save' write them; an unfinished game is shown as far as it was played.

    \b
    Examples:
      goat replay games.jsonl --open --step
      goat replay games.jsonl --html games.html
    """
    console = _console()
    games = _read_records(file)
    if not games:  # a match saved before its first game
        if html_file is not None and html_file.name != "<stdout>":
            html_file.close()
            Path(html_file.name).unlink(missing_ok=True)  # opened (and made) before the run: nothing to keep
        raise click.ClickException(f"{file} holds no game to show (a match with no games)")
    if html_file is not None:
        page = records.to_html(games)
        html_file.write(page)
        console.print(
            f"{len(games)} game{'s' if len(games) > 1 else ''} written to {html_file.name} as a page to step through"
        )
        return
    for number, record in enumerate(games, start=1):
        if not _replay_one(console, record, number, step=step, open_cards=open_cards):
            return


def _replay_one(console: Console, record: records.GameRecord, number: int, *, step: bool, open_cards: bool) -> bool:
    """Show one game; ``False`` if the person asked to stop."""
    states = records.replay(record)
    trump = states[0].trump
    names = {seat: printable(name) for seat, name in enumerate(record.players)} if record.players else None
    console.print(
        Text.assemble(
            (f"Game {number}", "bold"),
            f": seat {record.dealer} deals; trump card ",
            tui.card_text(record.trump_card, trump),
        )
    )
    if open_cards:
        for seat, hand in enumerate(states[0].hands):
            console.print(Text(f"  seat {seat} holds ").append_text(tui.cards_text(hand, trump)))
    tricks = 0
    for after in states[1:]:
        move = after.history[-1]
        if move.kind is goat.MoveKind.WAIT and not open_cards:
            continue  # private (R14, R23)
        shown: goat.Move | goat.SeenMove = move if open_cards else view(after, (move.seat + 1) % 4).history[-1]
        console.print(Text("  ").append_text(tui.describe_play(shown, trump, None, names)))
        if len(after.tricks) > tricks:
            tricks = len(after.tricks)
            trick = after.tricks[-1]
            console.print(
                f"  → trick {tricks} to seat {trick.winner}" + (f" ({trick.points} points)" if open_cards else "")
            )
            if step:
                try:
                    answer = click.prompt(
                        "",
                        default="",
                        show_default=False,
                        prompt_suffix="Enter for the next trick, q to stop ",
                        err=True,
                    )
                except click.Abort:  # the end of input (or Ctrl-D): as 'q'
                    click.echo(err=True)
                    return False
                if answer.strip().lower() in ("q", "quit"):
                    return False
    result = record.result
    if result is None:
        console.print(f"  (unfinished after {len(record.moves)} moves)")
        return True
    if record.forfeit is not None:
        cause = next(f for f in record.faults if f.replacement is None)
        console.print(f"  Team {record.forfeit} forfeited: {printable(cause.reason)}")
    outcome = "balls" if result.balls else f"team {result.winner} wins"
    console.print(
        f"  Points {result.points[0]} : {result.points[1]}, {outcome}; "
        f"defeat-scores gained {result.defeat[0]} : {result.defeat[1]}"
    )
    return True
