"""Exact dynamic programming for the fewest expected clicks to the solve, never striking.

Contract: values are computed from beliefs (:class:`defuser.strategy.belief.CycleBelief`)
and the visible state only; the DP never looks at a simulator's hidden state. The same
model also solves the all-seeing problem (every belief a certainty), which gives the
``oracle`` baseline its exact lower bound. This package's ``__init__`` defines no names:
each is imported from the module that does one job with it.

The model. A *state* is a visible situation: the hand as a multiset of faces and the
discard top (:mod:`~defuser.strategy.dp.states` numbers them), inside a *phase*: one
belief about the deck (:mod:`~defuser.strategy.dp.graph` finds every reachable one by
exploring the belief itself, so the DP and the belief can never disagree). Every click
costs 1. The clicks weighed are the ones that can never strike, and what each does comes
from the rulebook (:mod:`defuser.engine.board`), asked under every answer to "is the
mitten on top?" that the phase allows (:mod:`~defuser.strategy.dp.clicks`; their
vectorised rows, generated from the same answers once per rule set, are
:mod:`~defuser.strategy.dp.arrays`'). A deal reveals a card of a kind the belief says
how likely (plain, the Defuse, the mitten), showing one of the faces the rulebook says
that deal can bring. Deals lead to later phases except the mitten, which starts a new
cycle: the values at a cycle's start are the fixed point of one sweep over the cycle
(:mod:`~defuser.strategy.dp.iteration`); every other value follows from them
(:mod:`~defuser.strategy.dp.solution`), in full with numpy or on demand without it, by
one arithmetic (:mod:`~defuser.strategy.dp.expectation`), so both give the same float.
"""
