"""``python -m goat.arena NAME``: serve the installed strategy NAME as a protocol bot (as ``goat bot NAME`` does,
without the ``cli`` extra).  The arena runs its sealed bots this way."""

from goat.arena.protocol import main

raise SystemExit(main())
