"""The order new skills are taught in: parts before composites, common before rare.

Contract: :func:`table_shares` is the exact share of vanilla serial numbers that pick
each of Tables A-D, counted from the serial shape :mod:`defuser.engine.generate` draws
(each position uniform over what it allows) and the manual's rule
(:func:`edgework.table_for`: a vowel and a repeated character A, a vowel B, a repeat
C, neither D). :func:`teaching_order` lists every skill once: each table with its 16
cells, the most common table first; then Table E row by row; then the kinds built from
those lookups (``legal``, ``cycle``, ``decide``) and the edgework readings. A drill
introduces new skills in this order, so a composite question comes after its parts.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Mapping
from typing import Final

from defuser.engine.generate import SERIAL_DIGITS, SERIAL_LETTERS
from defuser.trainer.skills import (
    CELL_SKILLS,
    CYCLE_SKILLS,
    DECIDE_SKILLS,
    EDGE_SKILLS,
    LEGAL_SKILLS,
    RULE_SKILLS,
    Kind,
    Skill,
    TableSkill,
)
from edgework import TABLE_LETTERS, TableLetter, table_for
from edgework.tables import VOWELS

#: The kinds that combine lookups, taught after the lookups, in this order.
COMPOSITE_ORDER: Final[tuple[Kind, ...]] = (Kind.LEGAL, Kind.CYCLE, Kind.DECIDE, Kind.EDGE)


@functools.cache
def table_shares() -> Mapping[str, float]:
    """The share of vanilla serial numbers that pick each table (exact)."""
    letters, digits = len(SERIAL_LETTERS), len(SERIAL_DIGITS)
    consonants = sum(1 for ch in SERIAL_LETTERS if ch not in VOWELS)
    counts = dict.fromkeys(TABLE_LETTERS, 0)
    # The first two places hold a letter or a digit; the rest are two digits, two letters.
    for first_two in itertools.product((True, False), repeat=2):
        n_letters = 2 + sum(first_two)
        n_digits = 4 + 2 - n_letters
        total = letters**n_letters * digits**n_digits
        no_vowel = consonants**n_letters * digits**n_digits
        unique = math.perm(letters, n_letters) * math.perm(digits, n_digits)
        unique_no_vowel = math.perm(consonants, n_letters) * math.perm(digits, n_digits)
        counts[table_for(False, False)] += unique_no_vowel
        counts[table_for(False, True)] += no_vowel - unique_no_vowel
        counts[table_for(True, False)] += unique - unique_no_vowel
        counts[table_for(True, True)] += total - no_vowel - unique + unique_no_vowel
    whole = sum(counts.values())
    return {table: counts[table] / whole for table in TABLE_LETTERS}


def tables_by_share() -> tuple[TableLetter, ...]:
    """Tables A-D, the most common first."""
    shares = table_shares()
    return tuple(sorted(TABLE_LETTERS, key=lambda t: (-shares[t], t)))


@functools.cache
def teaching_order() -> tuple[Skill, ...]:
    """Every skill once, in the order new skills are introduced."""
    order: list[Skill] = []
    for table in tables_by_share():
        order.append(TableSkill(table))
        order.extend(cell for cell in CELL_SKILLS if cell.table == table)
    order.extend(RULE_SKILLS)
    composites: dict[Kind, tuple[Skill, ...]] = {
        Kind.LEGAL: LEGAL_SKILLS, Kind.CYCLE: CYCLE_SKILLS, Kind.DECIDE: DECIDE_SKILLS,
        Kind.EDGE: EDGE_SKILLS,
    }
    for kind in COMPOSITE_ORDER:
        order.extend(composites[kind])
    return tuple(order)
