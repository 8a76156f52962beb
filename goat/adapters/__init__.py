"""Adapters for the field's frameworks: :mod:`goat.adapters.pettingzoo`, :mod:`goat.adapters.gymnasium` and
:mod:`goat.adapters.openspiel`.

All share one action and observation encoding, :mod:`goat.adapters.encoding`.  Each adapter needs its own
extra (``goat-cards[pettingzoo]``, ``goat-cards[gymnasium]``, ``goat-cards[openspiel]``) and adds nothing to
the core's dependencies.
"""
