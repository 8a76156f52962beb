"""How strong one strategy is against another: duplicate matches, with 95% intervals and the time each side took.

    python benchmarks/strength.py A B [--boards N] [--seed S] [--workers W] [--out JSON]
    python benchmarks/strength.py A B --equal-time REF ...          # A gets REF's median time per decision
    python benchmarks/strength.py A B --sweep OPTION V1 V2 ... [--plot [PNG]]   # A at each value of OPTION
    python benchmarks/strength.py --plot-only [--out JSON] [--plot PNG]         # redraw a sweep's plot, no games

``A`` and ``B`` are strategy specs as ``goat match`` takes them (``greedy``, ``ismcts[iterations=1000]``,
``ismcts[worlds=weighted]``), or the cheats ``cheat-true-world[...]`` and ``cheat-true-hands[...]`` (below). Every
board (a match seed, drawn from ``--seed``) is played twice, A's team in seats 0 and 2 and then in seats 1 and 3,
so the luck of the deal cancels (duplicate format): ``--boards 200`` (the default) is 400 matches, on ``--workers``
processes (default: every core) through :func:`goat.arena.play_match`.  It prints, per row: the matches A won with
their 95% Wilson interval (:func:`goat.arena.wilson_interval`); the games A won of the decided ones (balls, R20,
decide nothing); A's net defeat-scores per game (those A's team inflicted minus those it gained, R19, over all
games: positive is good for A); and each side's median milliseconds per decision, decisions with one legal move
left out.  The figures go to ``--out`` as JSON (default ``benchmarks/results/strength-A-vs-B.json``).

``--equal-time REF`` first measures here, before any match, REF's median time per decision (two games of four
REF bots), and gives A that ``time_ms``.  ``--sweep OPTION V1 V2 ...`` plays a row per value, A with
``OPTION=V``; ``--plot`` draws the match win rate against the values (matplotlib, extra ``goat-cards[bench]``),
by default to docs/_static/strength.png, the one copy the documentation shows; ``--plot-only`` redraws it from
the JSON.  The documentation's curve is ``ismcts greedy --sweep time_ms 5 20 50 200 --boards 100 --out
benchmarks/results/strength.json --plot``.

**The cheat, for research only.**  ``cheat-true-world`` is ``ismcts`` (same options) whose every iteration plays
in the *true* world — the referee's own state, every hand and the stock's order — instead of a sampled one: the
very same search (:class:`goat.bots.ismcts.ISMCTSBot` with its :meth:`~goat.bots.ismcts.ISMCTSBot.world_source`
overridden), told what no player may know.  It is the ceiling that no honest bot reaches.  It lives here only,
is never registered as a strategy (:func:`goat.load_strategy` does not know it) and can only play through this
tool, which hands it the referee's state by :func:`goat.arena.play_match`'s ``watch``.

``cheat-true-hands`` is the same search told less: the other seats' true hands, with the cards it cannot see
otherwise (the stock, the others' face-down passes) dealt afresh into their places each iteration.  It is the
ceiling of what reading the other hands (:mod:`goat.bots.inference`) can buy, the stock's order left unknown.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shlex
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import attrs

import goat
from goat import arena
from goat._core import FIXED, LOG, PASS, STOCK, TABLE, TRICKS, TRUMP_CARD, bits
from goat.arena.stats import EntrantResult, MatchOutcome, totals
from goat.bots.ismcts import ISMCTSBot
from goat.errors import GoatError
from goat.moves import Move
from goat.plugins import format_spec, parse_spec
from goat.scoring import GameResult
from goat.state import GameState
from goat.view import PlayerView

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
PLOT = HERE.parent / "docs" / "_static" / "strength.png"

#: The options the cheats take: ismcts's own that do not choose worlds (they play in the true one).
CHEAT_OPTIONS = ("iterations", "time_ms", "exploration")


class StrengthError(GoatError, ValueError):
    """A spec or setting this tool cannot play."""


# --- the cheat (research only) ---------------------------------------------------------------------------------


class Referee:
    """The referee's current state, as :func:`goat.arena.play_match`'s ``watch`` shows it: the cheat's window."""

    def __init__(self) -> None:
        self.state: GameState | None = None

    def watch(self, state: GameState) -> None:
        self.state = state


class TrueWorldCheat(ISMCTSBot):
    """RESEARCH ONLY — CHEATS: ``ismcts``'s search with every iteration in the referee's true state.

    Only the worlds differ from ``ismcts``: the tree, the walk, the rollouts, the budget and the choice of the
    move are :class:`~goat.bots.ismcts.ISMCTSBot`'s own.  The state must be the one the decision is asked in:
    a view of it that is not the bot's view is refused, so the cheat never searches a stale state.
    """

    def __init__(self, referee: Referee, seed: int | None = None, **options: Any) -> None:
        super().__init__(seed, **options)
        self.referee = referee

    def world_source(self, view: PlayerView, start: float) -> Callable[[], Any]:
        state = self.referee.state
        if state is None or goat.view(state, view.seat) != view:
            raise RuntimeError("the cheat was not shown the state it is asked to decide in")
        core = state.core
        return lambda: core


class TrueHandsCheat(TrueWorldCheat):
    """RESEARCH ONLY — CHEATS: ``ismcts``'s search knowing the other seats' true hands.

    Each iteration plays in the true state with the cards the bot cannot see otherwise — the stock and the
    other seats' face-down passes — dealt again uniformly into the same places (the trump card, when in the
    stock, stays in it, R8).
    """

    def world_source(self, view: PlayerView, start: float) -> Callable[[], Any]:
        true_world = super().world_source(view, start)()
        trump_card = true_world[FIXED][TRUMP_CARD]
        me = view.seat

        def hidden(key: int) -> bool:  # another seat's face-down pass
            return (key >> 2) & 7 == PASS and key & 3 != me

        stock = list(true_world[STOCK])
        pinned = trump_card in stock  # R8: the trump card lies in the stock until drawn
        pool = [card for card in stock if card != trump_card]
        for key in [*true_world[TABLE], *(k for trick in true_world[TRICKS] for k in trick[0])]:
            if hidden(key):
                pool += bits(key >> 5)
        shuffle = self._rng.shuffle
        randrange = self._rng.randrange

        def deal(keys: tuple[int, ...], cards: list[int]) -> tuple[int, ...]:
            out = []
            for key in keys:
                if hidden(key):
                    mask = 0
                    for _ in range((key >> 5).bit_count()):
                        mask |= 1 << cards.pop()
                    key = mask << 5 | (key & 31)
                out.append(key)
            return tuple(out)

        def world() -> Any:
            cards = pool[:]
            shuffle(cards)
            core = list(true_world)
            core[TABLE] = deal(true_world[TABLE], cards)
            core[TRICKS] = tuple((deal(keys, cards), winner) for keys, winner in true_world[TRICKS])
            if pinned:
                cards.insert(randrange(len(cards) + 1), trump_card)
            core[STOCK] = tuple(cards)
            core[LOG] = None  # the search never reads the history
            return tuple(core)

        return world


#: The research-only cheats by name: specs of this tool, never registered strategies.
CHEATS: dict[str, type[TrueWorldCheat]] = {"cheat-true-world": TrueWorldCheat, "cheat-true-hands": TrueHandsCheat}


def cheat_options(spec: str) -> dict[str, Any] | None:
    """A cheat's options if ``spec`` names one, else ``None`` (an unknown option is a :class:`StrengthError`)."""
    name, options = parse_spec(spec)
    if name not in CHEATS:
        return None
    unknown = sorted(set(options) - set(CHEAT_OPTIONS))
    if unknown:
        raise StrengthError(f"{name} takes {', '.join(CHEAT_OPTIONS)}, not {', '.join(unknown)}")
    return options


def build(spec: str, seed: int, referee: Referee) -> Any:
    """The bot a spec names: a cheat (shown ``referee``'s state), or whatever :func:`goat.load_strategy` loads."""
    options = cheat_options(spec)
    if options is not None:
        return CHEATS[parse_spec(spec)[0]](referee, seed, **options)
    return goat.load_strategy(spec, seed=seed)


# --- one match ---------------------------------------------------------------------------------------------------


class Timed:
    """A bot whose decisions are timed (those with more than one legal move); its hooks are passed on."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.ms: list[float] = []

    def choose(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        started = time.perf_counter()
        move: Move = self.bot.choose(view, legal)
        if len(legal) > 1:
            self.ms.append((time.perf_counter() - started) * 1000)
        return move

    def start_game(self, view: PlayerView) -> None:
        hook = getattr(self.bot, "start_game", None)
        if hook is not None:
            hook(view)

    def end_game(self, view: PlayerView, result: GameResult) -> None:
        hook = getattr(self.bot, "end_game", None)
        if hook is not None:
            hook(view, result)


@attrs.frozen
class Job:
    """One match: ``teams[0]`` sits in seats 0 and 2."""

    teams: tuple[str, str]  #: the two specs
    titles: tuple[str, str]  #: how the results name them
    seed: int


@attrs.frozen
class Played:
    outcome: MatchOutcome
    ms: tuple[tuple[float, ...], tuple[float, ...]]  #: each team's decision times


def play(job: Job) -> Played:
    """Play one match of the job, each bot timed; the referee's state is watched for the cheat."""
    base = random.Random(f"bots {job.seed}").randrange(2**32)  # the bots' seeds, apart from the deals'
    referee = Referee()
    bots = [Timed(build(job.teams[seat % 2], base + seat, referee)) for seat in range(4)]
    record = arena.play_match(
        bots, seed=job.seed, names=[job.titles[seat % 2] for seat in range(4)], watch=referee.watch
    )
    wins = [0, 0]
    for game in record.games:
        assert game.result is not None  # the arena plays every game to its end
        if game.result.winner is not None:
            wins[game.result.winner] += 1
    faults = [0, 0]
    for fault in record.faults:
        faults[fault.seat % 2] += 1
    outcome = MatchOutcome(
        job.titles, job.seed, record.match.goat, len(record.games), (wins[0], wins[1]), record.match.defeat,
        (faults[0], faults[1]),
    )  # fmt: skip
    return Played(outcome, (tuple(bots[0].ms + bots[2].ms), tuple(bots[1].ms + bots[3].ms)))


def jobs(a: str, b: str, boards: int, seed: int) -> list[Job]:
    """Every board twice, A's team first in seats 0 and 2, then in seats 1 and 3."""
    seeds = random.Random(seed)
    titles = (f"A: {a}", f"B: {b}")
    out = []
    for _ in range(boards):
        board = seeds.randrange(2**63)
        out.append(Job((a, b), titles, board))
        out.append(Job((b, a), (titles[1], titles[0]), board))
    return out


# --- a row: A against B over the boards ------------------------------------------------------------------------


def median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def row(a: str, b: str, played: Sequence[Played], seconds: float) -> dict[str, Any]:
    """The figures of A against B from their matches (A's titles start with ``A:``)."""
    title_a, title_b = f"A: {a}", f"B: {b}"
    results: dict[str, EntrantResult] = {r.name: r for r in totals([title_a, title_b], [p.outcome for p in played])}
    first, second = results[title_a], results[title_b]
    ms: dict[str, list[float]] = {title_a: [], title_b: []}
    for p in played:
        for team, title in enumerate(p.outcome.teams):
            ms[title] += p.ms[team]
    decided = first.game_wins + second.game_wins
    games = first.games
    return {
        "a": a,
        "b": b,
        "matches": first.matches,
        "match_wins": first.match_wins,
        "match_win_rate": first.match_win_rate,
        "match_win_interval": list(first.match_win_interval),
        "games": games,
        "decided_games": decided,
        "game_wins": first.game_wins,
        "game_win_rate": first.game_wins / decided if decided else 0.0,
        "game_win_interval": list(arena.wilson_interval(first.game_wins, decided)),
        # defeat-scores are gained by the team that loses a game (R19): A's net is what B gained minus what A did
        "defeat_a": first.defeat,
        "defeat_b": second.defeat,
        "defeat_per_game": (second.defeat - first.defeat) / games if games else 0.0,
        "faults": [first.faults, second.faults],
        "void": first.void,
        "decisions": [len(ms[title_a]), len(ms[title_b])],
        "ms_per_decision": [median(ms[title_a]), median(ms[title_b])],
        "mean_ms_per_decision": [
            statistics.fmean(ms[title_a]) if ms[title_a] else None,
            statistics.fmean(ms[title_b]) if ms[title_b] else None,
        ],
        "seconds": round(seconds, 1),
    }


def run(a: str, b: str, boards: int, seed: int, workers: int) -> dict[str, Any]:
    """Play A against B on ``boards`` boards (twice each) on ``workers`` processes; return the row."""
    todo = jobs(a, b, boards, seed)
    started = time.perf_counter()
    played: list[Played] = []
    with ProcessPoolExecutor(max_workers=max(1, min(workers, len(todo)))) as pool:
        futures = [pool.submit(play, job) for job in todo]
        step = max(1, len(todo) // 10)
        for future in as_completed(futures):
            played.append(future.result())
            if len(played) % step == 0 or len(played) == len(todo):
                print(f"  {a} vs {b}: {len(played)}/{len(todo)} matches, {time.perf_counter() - started:.0f} s",
                      file=sys.stderr, flush=True)  # fmt: skip
    return row(a, b, played, time.perf_counter() - started)


def equal_time_ms(reference: str, seed: int) -> float:
    """The median milliseconds per decision (of more than one legal move) of ``reference``, here and now: two games
    of four of its bots."""
    ms: list[float] = []
    for game in range(2):
        referee = Referee()
        bots = [Timed(build(reference, seed + 4 * game + seat, referee)) for seat in range(4)]
        arena.play_game(bots, seed=seed + game, watch=referee.watch)
        for bot in bots:
            ms += bot.ms
    return statistics.median(ms)


# --- output ----------------------------------------------------------------------------------------------------


def percent(interval: Sequence[float]) -> str:
    return f"{interval[0]:.1%}–{interval[1]:.1%}"


def table(rows: Sequence[dict[str, Any]]) -> str:
    """A Markdown table, a line per row: readable in a terminal, ready for the documentation."""

    def ms(value: float | None) -> str:
        if value is None:
            return "–"
        return f"{value:.1f}" if value >= 1 else f"{value:.2f}"  # greedy's hundredths, not a bare 0.0

    lines = [
        "| A | B | matches won by A | games won by A (of decided) | defeat-scores per game (A's net) "
        "| ms per decision, A / B |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| `{r['a']}` | `{r['b']}` "
            f"| {r['match_wins']}/{r['matches']} = {r['match_win_rate']:.1%} ({percent(r['match_win_interval'])}) "
            f"| {r['game_wins']}/{r['decided_games']} = {r['game_win_rate']:.1%} ({percent(r['game_win_interval'])}) "
            f"| {r['defeat_per_game']:+.2f} | {ms(r['ms_per_decision'][0])} / {ms(r['ms_per_decision'][1])} |"
        )
    return "\n".join(lines)


def plot(data: dict[str, Any], path: Path) -> None:
    """The match win rate of A against B at each value of the sweep, with its 95% interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    option = data["sweep"]["option"]
    rows = data["rows"]
    x = data["sweep"]["values"]
    y = [100 * r["match_win_rate"] for r in rows]
    low = [100 * (r["match_win_rate"] - r["match_win_interval"][0]) for r in rows]
    high = [100 * (r["match_win_interval"][1] - r["match_win_rate"]) for r in rows]
    name, b = parse_spec(data["a"])[0], data["b"]
    figure, axes = plt.subplots(figsize=(6, 4), dpi=120)
    axes.errorbar(x, y, yerr=[low, high], marker="o", capsize=4, label=f"{name} vs {b} (95% Wilson)")
    axes.axhline(50, color="grey", linewidth=0.8, linestyle=":")  # an even match
    axes.set_xscale("log")
    axes.set_xticks(x, [f"{v:g}" for v in x])
    axes.set_xlabel("thinking time per decision (ms, one core)" if option == "time_ms" else option)
    axes.set_ylabel("matches won (%)")
    axes.set_ylim(0, 100)
    axes.set_title(f"{name} strength against {b} ({rows[0]['matches']} matches per point)")
    axes.legend(loc="lower right")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, metadata={"Software": None})  # no matplotlib version in the file: redrawing is stable
    plt.close(figure)


def slug(spec: str) -> str:
    """A spec as part of a file name: ``ismcts[iterations=1000]`` is ``ismcts-iterations-1000``."""
    return re.sub(r"[^A-Za-z0-9._]+", "-", spec).strip("-")


def number(text: str) -> int | float:
    value = float(text)
    return int(value) if value.is_integer() and "." not in text else value


# --- the command -----------------------------------------------------------------------------------------------


def check(spec: str, what: str) -> None:
    """Build the spec's bot once, here: a bad name or option fails before any match, with goat's own message."""
    try:
        build(spec, 0, Referee())
    except (GoatError, ValueError, TypeError) as error:
        raise StrengthError(f"{what} {spec!r}: {error}") from None


def with_option(spec: str, option: str, value: Any) -> str:
    name, options = parse_spec(spec)
    return format_spec(name, {**options, option: value})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", nargs="?", help="the strategy measured (a spec, or a cheat)")
    parser.add_argument("b", nargs="?", help="its opponent")
    parser.add_argument("--boards", type=int, default=200, help="boards, each played twice (default %(default)s)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: every core)")
    parser.add_argument("--equal-time", metavar="REF", help="give A the median time per decision REF takes here")
    parser.add_argument("--sweep", nargs="+", metavar=("OPTION", "VALUE"), help="a row per value of A's OPTION")
    parser.add_argument("--out", type=Path, help="the JSON file (default: benchmarks/results/strength-A-vs-B.json)")
    parser.add_argument("--plot", type=Path, nargs="?", const=PLOT, help=f"draw the sweep (default file: {PLOT})")
    parser.add_argument("--plot-only", action="store_true", help="play no games: redraw the plot from --out")
    args = parser.parse_args(argv)
    args.argv = sys.argv[1:] if argv is None else argv
    if args.plot_only:
        source = args.out or RESULTS / "strength.json"
        target = args.plot or PLOT
        plot(json.loads(source.read_text(encoding="utf-8")), target)
        print(f"plotted {source} to {target}")
        return 0
    try:
        data = measure(args)
    except StrengthError as error:
        parser.error(str(error))
    out = args.out or RESULTS / f"strength-{slug(args.a)}-vs-{slug(args.b)}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(table(data["rows"]))
    workers = f"{data['workers']} worker" + ("s" if data["workers"] != 1 else "")
    print(f"({data['boards']} boards, seed {data['seed']}, {workers}, {data['seconds']} s; {out})")
    if args.plot is not None:
        plot(data, args.plot)
    return 0


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Check the settings, play every row, and return the JSON's data."""
    if args.a is None or args.b is None:
        raise StrengthError("name two strategies, A and B (or --plot-only)")
    if args.boards < 1 or args.workers < 1:
        raise StrengthError("--boards and --workers are positive")
    if args.equal_time and args.sweep:
        raise StrengthError("--equal-time gives A one budget; --sweep gives it several: choose one")
    if args.plot is not None and not args.sweep:
        raise StrengthError("--plot draws a sweep: give --sweep OPTION VALUES")
    check(args.a, "A")
    check(args.b, "B")
    started = time.perf_counter()
    a = args.a
    equal: dict[str, Any] | None = None
    if args.equal_time:
        check(args.equal_time, "--equal-time")
        budget = round(equal_time_ms(args.equal_time, args.seed), 1)
        equal = {"reference": args.equal_time, "time_ms": budget}
        print(f"equal time: {args.equal_time} takes {budget} ms per decision here (median); A gets it", flush=True)
        a = with_option(a, "time_ms", budget)
        check(a, "A at equal time")
    sweep: dict[str, Any] | None = None
    specs = [a]
    if args.sweep:
        if len(args.sweep) < 2:
            raise StrengthError("--sweep takes an option and one or more values")
        try:
            values = [number(v) for v in args.sweep[1:]]
        except ValueError:
            raise StrengthError(f"--sweep's values are numbers, not {args.sweep[1:]}") from None
        sweep = {"option": args.sweep[0], "values": values}
        specs = [with_option(a, args.sweep[0], v) for v in values]
        for spec in specs:
            check(spec, "A in the sweep")
    rows = []
    for spec in specs:
        rows.append(run(spec, args.b, args.boards, args.seed, args.workers))
        print(table(rows[-1:]).splitlines()[-1], flush=True)
    return {
        "command": shlex.join(["python", "benchmarks/strength.py", *args.argv]),
        "machine": f"{sys.platform}, {os.cpu_count()} cores, python {sys.version.split()[0]}, "
        f"goat {goat.__version__}, {goat.build_info()}",
        "a": args.a,
        "b": args.b,
        "boards": args.boards,
        "seed": args.seed,
        "workers": args.workers,
        "equal_time": equal,
        "sweep": sweep,
        "rows": rows,
        "seconds": round(time.perf_counter() - started),
    }


if __name__ == "__main__":
    raise SystemExit(main())
