"""The rulebook's facts of a hand on every discard top at once.

:func:`~defuser.engine.board.facts_by_discard` is how the DP asks for the facts of its
hands (the 16 boards of a hand in one call); it must say exactly what
:func:`~defuser.engine.board.facts_of` says of each board, for every hand the DP knows
and in any slot order.
"""

from __future__ import annotations

import itertools

from defuser.engine.board import facts_by_discard, facts_of
from defuser.strategy.dp.states import HANDS
from edgework import Card, Ruleset, TableLetter


def test_facts_by_discard_are_the_facts_of_each_board() -> None:
    for table, digit in ((TableLetter.A, 0), (TableLetter.D, 9)):
        rules = Ruleset(table, digit)
        for hand in HANDS:
            for order in set(itertools.permutations(hand)):
                cards = tuple(Card(c) for c in order)
                want = tuple(facts_of(rules, discard, cards) for discard in Card)
                assert facts_by_discard(rules, cards) == want, (rules, cards)
