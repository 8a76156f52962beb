"""Adapters for the field's frameworks: :mod:`goat.adapters.pettingzoo` and :mod:`goat.adapters.openspiel`.

Both share one action and observation encoding, :mod:`goat.adapters.encoding`.  Each adapter needs its own
extra (``goat-cards[pettingzoo]``, ``goat-cards[openspiel]``) and adds nothing to the core's dependencies.
"""
