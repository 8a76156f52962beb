"""``python -m goat`` and the ``goat`` console script.

The command itself lives in :mod:`goat.cli` (extra ``cli``: click and rich).  This launcher is
all the console script imports first, so that without the extra a person sees one line saying
what to install, not a traceback.
"""

from __future__ import annotations

import sys

from goat.errors import MissingExtraError

__all__ = ["main"]


def main() -> None:
    """Run the ``goat`` command; without its extra, say which one to install and exit with status 1."""
    try:
        from goat.cli import main as command
    except MissingExtraError as error:
        print(f"goat: {error}", file=sys.stderr)
        raise SystemExit(1) from None
    command(prog_name="goat")


if __name__ == "__main__":
    main()
