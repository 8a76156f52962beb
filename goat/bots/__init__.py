"""The built-in bots, registered through goat-cards' own ``goat.strategies`` entry points.

- ``random`` (:mod:`goat.bots.uniform`): a uniformly random legal move.
- ``greedy`` (:mod:`goat.bots.greedy`): a rule-of-thumb player.
- ``ismcts`` (:mod:`goat.bots.ismcts`): information-set Monte Carlo tree search.
  ``ismcts[worlds=weighted]`` searches worlds weighted by how likely the others were to play as they did
  (:mod:`goat.bots.inference`, with a player model: the learned one of :mod:`goat.bots.learned` by default, or
  the hand-written one of :mod:`goat.bots.model`).
- ``learned`` (:mod:`goat.bots.learned`): the learned player model's likeliest move, no search.

Load them by name like any plugin: ``goat.load_strategy("greedy", seed=1)``.
"""

from typing import Final

#: The modules of goat's own strategies: the plugins a tournament trusts to play in-process unless told otherwise.
#: A name, not a place: another distribution may install files under ``goat/``, and they are not goat's.
OWN_MODULES: Final = frozenset({"goat.bots.uniform", "goat.bots.greedy", "goat.bots.ismcts", "goat.bots.learned"})
