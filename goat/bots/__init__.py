"""The built-in bots, registered through goat-cards' own ``goat.strategies`` entry points.

- ``random`` (:mod:`goat.bots.uniform`): a uniformly random legal move.
- ``greedy`` (:mod:`goat.bots.greedy`): a rule-of-thumb player.

Load them by name like any plugin: ``goat.load_strategy("greedy", seed=1)``.
"""
