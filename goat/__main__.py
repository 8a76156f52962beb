"""``python -m goat``: the ``goat`` command (needs the ``cli`` extra)."""

from goat.cli import main

main(prog_name="goat")
