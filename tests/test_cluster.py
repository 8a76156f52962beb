"""A tournament on a real cluster: the docs' recipes (docs/cli.md, "On a cluster") run as written, on worker
processes, and give the table one process gives."""

from __future__ import annotations

import contextlib
import io
import re
import socket
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from goat import arena

CLI_PAGE = Path(__file__).resolve().parent.parent / "docs" / "cli.md"


def recipe(marker: str) -> str:
    """The Python block of the docs' cluster section that mentions ``marker``."""
    blocks = re.findall(r"```python\n(.*?)```", CLI_PAGE.read_text(encoding="utf-8"), flags=re.S)
    (found,) = [block for block in blocks if marker in block]
    return str(found)


def run_recipe(marker: str) -> tuple[arena.TournamentResult, str]:
    """The recipe run as written: its result, and what it printed."""
    namespace: dict[str, Any] = {"__name__": "cluster_recipe"}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(recipe(marker), str(CLI_PAGE), "exec"), namespace)
    result = namespace["result"]
    assert isinstance(result, arena.TournamentResult)
    return result, printed.getvalue()


def one_process() -> arena.TournamentResult:
    with ThreadPoolExecutor(max_workers=1) as pool:  # the same tournament, played in this process
        return arena.run_tournament(["greedy", "random"], matches=4, seed=1, executor=pool)


def test_a_tournament_on_a_dask_cluster_of_worker_processes_gives_one_process_table() -> None:
    pytest.importorskip("distributed", reason="the cluster test needs dask.distributed (the test extra has it)")
    assert "processes=True" in recipe("LocalCluster") and "n_workers=2" in recipe("LocalCluster")
    with contextlib.ExitStack() as held:  # Dask's usual dashboard port taken, as by another cluster or test run
        with contextlib.suppress(OSError):
            taken = held.enter_context(socket.socket())
            taken.bind(("", 8787))
            taken.listen()
        result, printed = run_recipe("LocalCluster")
    alone = one_process()
    assert result.entrants == alone.entrants and result.matches == alone.matches == 4
    assert printed.strip() == alone.table()


def test_a_tournament_on_a_ray_cluster_gives_one_process_table() -> None:
    pytest.importorskip("ray", reason="the Ray recipe's test needs Ray (the test extra has it)")
    result, printed = run_recipe("RayExecutor")
    alone = one_process()
    assert result.entrants == alone.entrants and result.matches == alone.matches == 4
    assert printed.strip() == alone.table()
