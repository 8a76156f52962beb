"""Tournaments: a duplicate round-robin, each match a job on any :class:`concurrent.futures.Executor`.

Every entrant plays either in the worker's own process (``isolation="none"``) or sealed, each seat
a child process speaking the bot protocol (``isolation="process"``).  The default, ``"auto"``, is
what a careful organiser does: goat-cards' own bots and the strategies of this very process play
in-process, every other distribution's plugin and every ``exec:`` bot plays sealed.

A worker process that dies (a bot calling ``os._exit``, a segfault, the OOM killer) costs at most
the match it was playing: the matches lost with it are played again, each in a fresh worker, and a
match that kills its worker a second time is recorded as void, with the reason.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pickle
import random
import signal
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any, Literal

import attrs

from goat.arena.game import FaultPolicy, SeatFault, build_bot, check_policy, check_seed, play_match
from goat.arena.sandbox import DEFAULT_MEMORY_MB, DEFAULT_PROCESSES, Limits, Sandbox, check_mode, require
from goat.arena.sealed import BotFault, ProcessStrategy, bot_command, check_seconds, import_path_env, split_command
from goat.arena.stats import MatchOutcome, TournamentResult, totals
from goat.bots import OWN_MODULES
from goat.errors import GoatError, describe_error, shown
from goat.plugins import (
    EXEC_PREFIX,
    StrategyLoadError,
    entry_point,
    format_spec,
    load_strategy,
    parse_spec,
    register_strategy,
    registered_factory,
)
from goat.strategy import Strategy

__all__ = ["Entrant", "Isolation", "run_tournament"]

Isolation = Literal["auto", "process", "none"]
_ISOLATIONS = ("auto", "process", "none")
#: The most matches a pairing may be given (its jobs are listed before the first game).
MAX_MATCHES = 1_000_000


@attrs.frozen
class Entrant:
    """A tournament entrant: a strategy (as :func:`goat.load_strategy` names it), its options, how it plays.

    ``name`` may be a spec with options (``"ismcts[time_ms=50]"``), an import path
    (``"package.module:factory"``) or ``"exec:COMMAND"``.  ``isolation`` overrides the tournament's
    for this entrant.
    """

    name: str
    options: tuple[tuple[str, Any], ...] = ()
    label: str | None = None  #: how the entrant is shown; defaults to its spec
    isolation: Isolation | None = None

    @property
    def title(self) -> str:
        """How the entrant is shown: its label, or its name with its options."""
        return self.label or format_spec(self.name, dict(self.options))

    @property
    def spec(self) -> str:
        """The name with every option, as one spec."""
        name, given = parse_spec(self.name)
        return format_spec(name, {**given, **dict(self.options)})

    def build(self, seed: int) -> Strategy:
        """The entrant's bot, in this process."""
        return load_strategy(self.name, seed=seed, **dict(self.options))

    def player(
        self,
        seed: int,
        *,
        isolation: Isolation = "auto",
        time_limit: float | None = None,
        sealing: Sealing | None = None,
    ) -> Strategy:
        """The entrant's bot as a tournament plays it: in this process, or sealed in a child process
        (a :class:`~goat.arena.sealed.ProcessStrategy`), as ``isolation`` (or the entrant's own) decides."""
        return _plan(_entrant(self), isolation).build(seed, time_limit, sealing or Sealing())


def _entrant(value: str | Entrant) -> Entrant:
    if isinstance(value, Entrant):
        if value.isolation is not None and value.isolation not in _ISOLATIONS:
            raise ValueError(f"an entrant's isolation is one of {_ISOLATIONS}, not {shown(value.isolation)}")
        return value
    if isinstance(value, str):
        return Entrant(value)
    raise TypeError(f"an entrant is a strategy name or an Entrant, not {shown(value)}")


@attrs.frozen
class Sealing:
    """How sealed entrants are confined and bounded (see :mod:`goat.arena.sandbox`)."""

    limits: Limits = attrs.field(factory=Limits)
    sandbox: Sandbox = "auto"
    #: more directories the bots may not see: where the organiser writes records, logs and saves
    hidden: tuple[str, ...] = ()
    #: seconds a bot has to start and answer ``hello`` (``None``: its ``time_limit``, as every other wait)
    startup_limit: float | None = None


@attrs.frozen
class _Plan:
    """How one entrant plays, decided in the referee's process before the tournament starts."""

    entrant: Entrant
    sealed: tuple[str, ...] | None  #: the command of its sealed bot; ``None``: in-process
    factory: Callable[..., Any] | None = None  #: a factory registered in this process, sent to the workers

    @property
    def title(self) -> str:
        return self.entrant.title

    def build(self, seed: int, time_limit: float | None, sealing: Sealing) -> Strategy:
        if self.sealed is not None:
            return ProcessStrategy(
                self.sealed,
                seed=None,  # drawn by the system for the bot alone: nothing a sealed bot learns may lead to a deal
                time_limit=time_limit,
                memory_mb=sealing.limits.memory_mb,
                cpu_seconds=sealing.limits.cpu_seconds,
                processes=sealing.limits.processes,
                sandbox=sealing.sandbox,
                hidden=sealing.hidden,
                startup_limit=sealing.startup_limit,
                name=self.title,
                # a bot served by this interpreter finds the plugins this process finds
                env=import_path_env() if self.sealed[:3] == tuple(bot_command(""))[:3] else None,
            )
        name = parse_spec(self.entrant.name)[0]
        if self.factory is not None and registered_factory(name) is not self.factory:
            register_strategy(name, self.factory, replace=True)  # in a worker process that lacks it
        return self.entrant.build(seed)


def _importable(factory: Callable[..., Any]) -> str | None:
    """``"module:qualname"`` if that path imports back to ``factory`` in another process, else ``None``."""
    module = getattr(factory, "__module__", None)
    qualname = getattr(factory, "__qualname__", None)
    if not module or not qualname or module == "__main__" or "<" in qualname:
        return None
    try:
        found: Any = importlib.import_module(module)
        for part in qualname.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError):
        return None
    return f"{module}:{qualname}" if found is factory else None


def _plan(entrant: Entrant, isolation: Isolation) -> _Plan:
    name, options = parse_spec(entrant.name)
    options = {**options, **dict(entrant.options)}
    chosen = entrant.isolation or isolation
    if name.startswith(EXEC_PREFIX):  # a protocol bot is a process whatever the isolation
        if options:
            raise ValueError(f"entrant {shown(entrant.title)}: an exec: bot takes no options")
        return _Plan(entrant, tuple(split_command(name[len(EXEC_PREFIX) :])))
    registered = registered_factory(name)
    if registered is not None:
        if chosen != "process":
            return _Plan(entrant, None, registered)
        path = _importable(registered)
        if path is None:
            raise ValueError(
                f"entrant {entrant.title!r} is registered in this process with a factory that a sealed bot cannot "
                f"import ({getattr(registered, '__module__', '?')}:{getattr(registered, '__qualname__', '?')}); "
                "define the factory at the top level of an importable module, install it as a plugin, "
                "or play it with isolation='none'"
            )
        return _Plan(entrant, tuple(bot_command(format_spec(path, options))))
    if ":" not in name:
        entry = entry_point(name)  # an unknown or contested name fails here, and nothing is imported
        if chosen == "auto":
            chosen = "none" if entry.module in OWN_MODULES else "process"  # goat's own code, by name
    elif chosen == "auto":
        chosen = "none"  # an import path is this user's own code
    if chosen == "none":
        return _Plan(entrant, None)
    return _Plan(entrant, tuple(bot_command(format_spec(name, options))))


@attrs.frozen
class _Job:
    """One match of a tournament, small and picklable so that any executor can run it."""

    team0: _Plan
    team1: _Plan
    seed: int
    on_fault: FaultPolicy
    time_limit: float | None
    sealing: Sealing


def _run_job(job: _Job) -> MatchOutcome:
    base = random.Random(f"bots {job.seed}").randrange(2**32)  # in-process bots' seeds: apart from the deals
    plans = [job.team0 if seat % 2 == 0 else job.team1 for seat in range(4)]
    bots = []
    for seat, plan in enumerate(plans):
        try:  # a factory is a bot's code too: what it raises here is its team's fault, not the tournament's end

            def build(plan: _Plan = plan, seed: int = base + seat) -> Strategy:
                return plan.build(seed, job.time_limit, job.sealing)

            # a factory that raises, or returns after the match's budget, forfeits its team's match, and no more
            bots.append(build() if plan.sealed is not None else build_bot(build, job.time_limit, "its factory"))
        except BaseException as error:
            for bot in bots:
                if isinstance(bot, ProcessStrategy):
                    bot.close()
            if not isinstance(error, Exception):  # KeyboardInterrupt, SystemExit: they go on up, as in any code
                raise
            return _forfeited(job, seat % 2)
    names = tuple(plan.title for plan in plans)
    record = play_match(bots, seed=job.seed, on_fault=job.on_fault, time_limit=job.time_limit, names=names)
    wins = [0, 0]
    for game in record.games:
        if game.result is not None and game.result.winner is not None:
            wins[game.result.winner] += 1
    faults = [0, 0]
    for fault in record.faults:
        faults[fault.seat % 2] += 1
    return MatchOutcome(
        (job.team0.title, job.team1.title),
        job.seed,
        record.match.goat,
        len(record.games),
        (wins[0], wins[1]),
        record.match.defeat,
        (faults[0], faults[1]),
    )


def _forfeited(job: _Job, team: int) -> MatchOutcome:
    """A match that ``team`` loses before it starts, its bot having failed to be built."""
    faults = (1, 0) if team == 0 else (0, 1)
    return MatchOutcome((job.team0.title, job.team1.title), job.seed, team, 0, (0, 0), (0, 0), faults, None)


def _become_worker() -> None:
    """The initializer of the tournament's own worker processes: the operator's Ctrl-C is the referee's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _probe(plans: Sequence[_Plan], time_limit: float | None, sealing: Sealing) -> None:
    """Build every entrant once where the matches will run, a sealed one up to its ``hello``: a name that
    fails there fails the tournament before its first match (an in-process factory also if it overruns
    ``time_limit``)."""
    for plan in plans:

        def build(plan: _Plan = plan) -> Strategy:
            return plan.build(0, time_limit, sealing)

        bot = build() if plan.sealed is not None else build_bot(build, time_limit, f"the factory of {plan.title!r}")
        if isinstance(bot, ProcessStrategy):
            try:
                bot.hello(seat=0)
            except BotFault as fault:
                said = f"; its standard error ends: {fault.stderr.strip()[-500:]}" if fault.stderr.strip() else ""
                raise StrategyLoadError(f"the sealed bot {shown(plan.title)} does not start: {fault}{said}") from None
            finally:
                bot.close()


def _jobs(
    plans: list[_Plan],
    boards: int,
    seed: int,
    on_fault: FaultPolicy,
    time_limit: float | None,
    sealing: Sealing,
) -> list[_Job]:
    """Every pairing, every board played twice with the teams swapped (duplicate format)."""
    seeds = random.Random(seed)
    jobs = []
    for i, first in enumerate(plans):
        for second in plans[i + 1 :]:
            for _ in range(boards):
                board = seeds.randrange(2**63)
                jobs.append(_Job(first, second, board, on_fault, time_limit, sealing))
                jobs.append(_Job(second, first, board, on_fault, time_limit, sealing))
    return jobs


def _check_travel(plans: Sequence[_Plan], executor: Executor | None) -> None:
    """Factories registered in this process must reach the workers; say what to do if they cannot."""
    if isinstance(executor, ThreadPoolExecutor):
        return  # one process: the registry is shared
    for plan in plans:
        if plan.factory is None:
            continue
        try:
            pickle.loads(pickle.dumps(plan.factory))
        except Exception as error:
            raise ValueError(
                f"entrant {plan.title!r} is registered in this process with a factory that cannot be sent to "
                f"worker processes ({type(error).__name__}: {error}); define it at the top level of an importable "
                "module, install it as a plugin, or pass executor=concurrent.futures.ThreadPoolExecutor()"
            ) from None


def run_tournament(
    entrants: Iterable[str | Entrant],
    *,
    matches: int,
    seed: int,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_fault: FaultPolicy = "forfeit",
    time_limit: float | None = None,
    isolation: Isolation = "auto",
    memory_mb: int | None = DEFAULT_MEMORY_MB,
    cpu_seconds: int | None = None,
    processes: int | None = DEFAULT_PROCESSES,
    sandbox: Sandbox = "auto",
    hidden: Iterable[str] = (),
    startup_limit: float | None = None,
) -> TournamentResult:
    """A duplicate round-robin: every pairing plays ``matches`` matches, half with each team side.

    Matches come in pairs that share a seed: the same sequence of deals is played once with each
    entrant as team 0, to cut the luck of the deal (as in duplicate bridge), so ``matches`` is even.
    Each match is a job on ``executor`` (default: a process pool over the local cores; pass any
    :class:`concurrent.futures.Executor`, such as a ``dask.distributed`` client's
    ``get_executor()``); ``progress(done, total)`` is called as matches finish.  Bots are built
    where the match runs.  The deals come from ``seed``: a tournament is reproducible whatever runs it,
    and a seed that a bot could guess (a small one) lets it search for the one that dealt its hand, so
    give strangers' bots a large random one.  In-process bots' seeds are derived from it too; a sealed
    bot's seed is drawn from the system's random source, and says nothing about any deal or bot.

    ``isolation`` is how entrants play (each :class:`Entrant` may override it): ``"process"`` seals
    every seat in a child process (killed when it overruns ``time_limit``), confined as ``sandbox``
    asks (see :mod:`goat.arena.sandbox`) and bounded, all its processes together, by ``memory_mb``,
    ``cpu_seconds`` and ``processes``, and kept from the directories named in ``hidden`` (where you write
    records) as from the working directory; every wait for a sealed bot honours ``time_limit``, its start and
    ``hello`` too unless ``startup_limit`` gives it longer; ``"none"`` plays in the worker's process; ``"auto"`` (the
    default) seals every strategy whose code is not goat's own (other distributions' plugins, whatever
    their name, and ``exec:`` bots), and plays goat's own bots, import paths and this process's
    registered strategies (the user's own code) in-process.  :attr:`TournamentResult.sandbox` says what
    confined the sealed bots.  Everything that can fail — an unknown name, a
    registered factory that cannot reach the workers, a plugin that does not load there — fails
    before the first match.
    """
    if isinstance(entrants, (str, bytes)) or not isinstance(entrants, Iterable):  # "greedy" is one, not six
        raise TypeError(f"run_tournament() takes a list of entrants, not {shown(entrants)}")
    field = [_entrant(e) for e in entrants]
    titles = [e.title for e in field]
    if len(field) < 2 or len(set(titles)) != len(titles):
        raise ValueError(f"a tournament needs two or more distinct entrants, not {titles}")
    if type(matches) is not int or not 2 <= matches <= MAX_MATCHES or matches % 2:
        raise ValueError(
            f"matches must be an even int from 2 to {MAX_MATCHES:,} (each deal is played twice, teams swapped), "
            f"not {shown(matches)}"
        )
    check_seed(seed, "run_tournament()")  # as play_match's: a record holds it
    if isolation not in _ISOLATIONS:
        raise ValueError(f"isolation is one of {_ISOLATIONS}, not {shown(isolation)}")
    check_policy(on_fault, time_limit)
    if startup_limit is not None:
        check_seconds(startup_limit, "startup_limit")
    sealing = Sealing(
        Limits(memory_mb, cpu_seconds, processes),
        check_mode(sandbox),
        tuple(os.fspath(path) for path in hidden),
        startup_limit,
    )
    plans = [_plan(entrant, isolation) for entrant in field]
    # what confines the sealed bots, said in the result; refused here, before anything runs, if "required" fails
    confined = require(sandbox).summary if any(plan.sealed is not None for plan in plans) else None
    for plan in plans:  # fail early, in this process, on a name that cannot be loaded
        if plan.sealed is None:
            try:
                build_bot(partial(plan.entrant.build, 0), time_limit, f"the factory of {plan.title!r}")
            except SeatFault as fault:
                if isinstance(fault.__cause__, GoatError):  # load_strategy's own: the name or its options
                    raise fault.__cause__ from None
                raise StrategyLoadError(f"entrant {shown(plan.title)}: {fault.reason}") from None
    _check_travel(plans, executor)
    jobs = _jobs(plans, matches // 2, seed, on_fault, time_limit, sealing)
    started = time.perf_counter()
    own = executor is None
    # a worker per core, and never more workers than matches: each is an interpreter of its own
    pool: Executor = _own_pool(max(1, min(os.cpu_count() or 1, len(jobs)))) if executor is None else executor
    outcomes: list[MatchOutcome] = []
    stopped = True
    try:
        try:
            pool.submit(_probe, plans, time_limit, sealing).result()
        except Exception as error:  # what the entrants' code raised where they are built
            said = error.reason if isinstance(error, SeatFault) else describe_error(error)
            raise StrategyLoadError(f"the entrants cannot be built where the matches run: {said}") from None
        lost = _play_jobs(pool, jobs, outcomes, progress)
        stopped = False
    finally:
        if own:
            _shut_down(pool, at_once=stopped)
    if lost:
        _replay_lost(lost, outcomes, progress, len(jobs), threads=isinstance(pool, ThreadPoolExecutor))
    played = [o for o in outcomes if o.void is None]
    void = tuple(o for o in outcomes if o.void is not None)
    return TournamentResult(
        totals(titles, outcomes), len(played), seed, time.perf_counter() - started, void, sandbox=confined
    )


def _own_pool(workers: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=workers, initializer=_become_worker)


def _shut_down(pool: Executor, *, at_once: bool) -> None:
    """Shut our pool down; after a Ctrl-C or an error, at once: its workers are stopped, not waited for."""
    if at_once and isinstance(pool, ProcessPoolExecutor):
        for process in list(getattr(pool, "_processes", {}).values()):  # sealed bots die with their worker
            with contextlib.suppress(Exception):
                process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
    else:
        pool.shutdown(cancel_futures=True)


def _play_jobs(
    pool: Executor,
    jobs: Sequence[_Job],
    outcomes: list[MatchOutcome],
    progress: Callable[[int, int], None] | None,
) -> list[tuple[_Job, BaseException]]:
    """Run the jobs; return those whose worker died (or that failed), with the error."""
    lost: list[tuple[_Job, BaseException]] = []
    futures: dict[Future[MatchOutcome], _Job] = {}
    for job in jobs:
        try:
            futures[pool.submit(_run_job, job)] = job
        except Exception as error:  # a pool broken by an earlier job refuses new ones
            lost.append((job, error))
    try:
        for future in as_completed(futures):
            try:
                outcomes.append(future.result())
            except Exception as error:  # the worker died (BrokenProcessPool, a cluster's lost worker, …)
                lost.append((futures[future], error))
                continue
            if progress is not None:
                progress(len(outcomes), len(jobs))
    except BaseException:
        # A Ctrl-C (or anything else) ends the tournament: the matches not started are withdrawn, also from an
        # executor the caller passed in, whose workers would otherwise go on playing every queued match.
        for future in futures:
            future.cancel()
        raise
    return lost


def _replay_lost(
    lost: Sequence[tuple[_Job, BaseException]],
    outcomes: list[MatchOutcome],
    progress: Callable[[int, int], None] | None,
    total: int,
    *,
    threads: bool,
) -> None:
    """Play each lost match again, alone in a fresh worker (a pool of one); one lost again is void.

    A dying worker breaks a whole process pool, so every match in flight or waiting is lost with the
    one that killed it; alone, each innocent match is played out and only the culprit is lost twice.
    """

    def void(job: _Job, reason: str) -> MatchOutcome:
        return MatchOutcome((job.team0.title, job.team1.title), job.seed, None, 0, (0, 0), (0, 0), (0, 0), reason)

    def again(item: tuple[_Job, BaseException]) -> MatchOutcome:
        job, first = item
        if threads:  # no process died: the job itself failed, and would again
            return void(job, f"the match could not be played: {describe_error(first)}")
        with _own_pool(1) as fresh:
            try:
                return fresh.submit(_run_job, job).result()
            except Exception as error:
                died = "died" if isinstance(error, BrokenProcessPool) else f"failed ({describe_error(error)})"
                return void(job, f"the worker process playing it {died}, twice (first: {describe_error(first)})")

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as driver:
        for outcome in driver.map(again, lost):
            outcomes.append(outcome)
            if progress is not None:
                progress(len(outcomes), total)
