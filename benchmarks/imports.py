"""What ``import goat`` costs: fresh interpreters, side by side, medians.

    python benchmarks/imports.py [--runs N]

Starts N (default 31) fresh interpreters for each of: nothing (``pass``), ``import attrs`` (the core's one
dependency), ``import goat``, and ``import goat`` on the pure-Python core (``GOAT_PURE_PYTHON=1``), taking turns so
that a slow phase of the machine falls on all of them alike.  For each it reports the median CPU time of the child
(user and system, from the operating system's accounting of that child, ``os.wait4``) over the bare interpreter's, and
the median of what ``python -X importtime`` says the top-level import took.  ``goat over attrs`` is what goat's own
modules add to the dependency it cannot do without (the public values are frozen attrs classes).

The interpreters run with ``-X frozen_modules=on`` as usual and with the bytecode caches already written (run
``python -m compileall -q goat`` first where ``PYTHONDONTWRITEBYTECODE`` is set).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys

CASES = {
    "bare": ("pass", {}),
    "attrs": ("import attrs", {}),
    "goat": ("import goat", {}),
    "goat, pure core": ("import goat", {"GOAT_PURE_PYTHON": "1"}),
}
TOP = re.compile(rb"import time:\s+\d+ \|\s+(\d+) \| (\S+)\n")


def child_cpu(code: str, env: dict[str, str]) -> float:
    """Seconds of CPU a fresh interpreter running ``code`` took, itself and nothing else."""
    child = subprocess.Popen([sys.executable, "-c", code], env={**os.environ, **env})
    _, status, usage = os.wait4(child.pid, 0)  # this child's own rusage, to the microsecond
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise SystemExit(f"{code!r} failed with status {child.returncode}")
    return usage.ru_utime + usage.ru_stime


def importtime(code: str, env: dict[str, str]) -> float:
    """Seconds ``-X importtime`` gives the top-level imports of ``code`` (0 for ``pass``)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code], env={**os.environ, **env}, capture_output=True, check=True
    )
    name = code.split()[-1].encode() if code.startswith("import") else b""
    return sum(int(total) for total, module in TOP.findall(done.stderr) if module == name) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=31)
    args = parser.parse_args()
    cpu: dict[str, list[float]] = {name: [] for name in CASES}
    told: dict[str, list[float]] = {name: [] for name in CASES}
    for _ in range(args.runs):
        for name, (code, env) in CASES.items():
            cpu[name].append(child_cpu(code, env))
            told[name].append(importtime(code, env))
    bare = statistics.median(cpu["bare"])
    print(f"python {sys.version.split()[0]}, {args.runs} fresh interpreters each, medians")
    print(f"bare interpreter   {bare * 1e3:6.1f} ms of CPU")
    for name in list(CASES)[1:]:
        over, by_python = statistics.median(cpu[name]) - bare, statistics.median(told[name])
        print(f"{name:<18} {over * 1e3:6.1f} ms over bare ({by_python * 1e3:.1f} ms by -X importtime)")
    goat_over_attrs = statistics.median(a - b for a, b in zip(cpu["goat"], cpu["attrs"], strict=True))
    print(f"goat over attrs    {goat_over_attrs * 1e3:6.1f} ms (median of the runs' differences)")


if __name__ == "__main__":
    main()
