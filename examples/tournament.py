"""Run a duplicate round-robin tournament of installed bots on all local cores and print the table.

    python examples/tournament.py [--matches N] [--seed S] [NAME ...]

With no names, every bot `goat.available_strategies()` lists takes part.
"""

from __future__ import annotations

import argparse
import shutil
import sys

import goat
from goat import arena


def main(argv: list[str] | None = None) -> arena.TournamentResult:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="strategy names (default: all available)")
    parser.add_argument("--matches", type=int, default=200, help="matches per pairing (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    names = args.names or [info.name for info in goat.available_strategies()]

    terminal = sys.stderr.isatty()  # progress is for a person watching: none in a log

    def progress(done: int, total: int) -> None:
        print(f"\r{done}/{total} matches", end="", file=sys.stderr, flush=True)

    try:
        result = arena.run_tournament(
            names, matches=args.matches, seed=args.seed, progress=progress if terminal else None
        )
    except (ValueError, TypeError) as error:  # a bad --matches, --seed or name: said in one line, as argparse does
        parser.error(str(error))
    if terminal:
        print(file=sys.stderr)
    print(result.table(shutil.get_terminal_size().columns if sys.stdout.isatty() else None))
    print(f"\n{result.matches} matches in {result.seconds:.1f} s")
    return result


if __name__ == "__main__":
    main()
