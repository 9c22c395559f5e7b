"""Invariants of the built-in tables that the module's behaviour relies on.

``mittens verify`` runs :func:`run_checks` and prints each :class:`Check`. A failing
check names the cells at fault. The checks follow the spec: for instance the module's
guaranteed-legal draw needs some plain face to be legal on every discard top, and the
start-up re-roll loop ends only if a plain legal face exists for every opening discard.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from edgework import (
    ALL_CARDS,
    CARD_TABLES,
    MITTEN_FACES,
    RULE_LETTERS,
    RULE_PREDICATES,
    RULE_TEXTS,
    TABLE_E,
    TABLE_E_ROWS,
    TABLE_LETTERS,
    Card,
    CardType,
    RuleLetter,
    Ruleset,
    SerialNumber,
    TableLetter,
    interval_for,
)

#: The mitten face of each table as the spec states it.
SPEC_MITTENS: Final[dict[TableLetter, Card]] = {
    TableLetter.A: Card.BLUE_SQUARE,
    TableLetter.B: Card.RED_HEART,
    TableLetter.C: Card.GREEN_CIRCLE,
    TableLetter.D: Card.YELLOW_TRIANGLE,
}


@dataclass(frozen=True, slots=True)
class Check:
    """One invariant and whether it holds, with the details of any failure."""

    name: str
    passed: bool
    detail: str


def _faces_typed() -> Check:
    missing = [
        f"Table {t} {c.code}" for t in TABLE_LETTERS for c in ALL_CARDS
        if not isinstance(CARD_TABLES[t].get(c), CardType)
    ]
    return Check(
        "every face has a type in every table (4 tables x 16 faces)",
        not missing,
        "missing: " + ", ".join(missing) if missing else "64 cells typed",
    )


def _one_mitten() -> Check:
    counts = {
        t: [c.code for c in ALL_CARDS if CARD_TABLES[t][c] is CardType.EXPLODING_MITTEN]
        for t in TABLE_LETTERS
    }
    bad = {t: faces for t, faces in counts.items() if len(faces) != 1}
    detail = ", ".join(f"{t}: {' '.join(f) or 'none'}" for t, f in counts.items())
    return Check("exactly one Exploding Mitten face per table", not bad, detail)


def _mittens_match_spec() -> Check:
    wrong = [
        f"Table {t}: {MITTEN_FACES.get(t)} instead of {want.code}"
        for t, want in SPEC_MITTENS.items() if MITTEN_FACES.get(t) is not want
    ]
    return Check(
        "mitten faces are A blue square, B red heart, C green circle, D yellow triangle",
        not wrong,
        "; ".join(wrong) or "all four match the spec",
    )


def _defuses_exist() -> Check:
    counts = {
        t: sum(CARD_TABLES[t][c] is CardType.DEFUSE for c in ALL_CARDS) for t in TABLE_LETTERS
    }
    return Check(
        "every table has a Defuse face (each cycle deals one)",
        all(counts.values()),
        ", ".join(f"{t}: {n}" for t, n in counts.items()),
    )


def _plain_faces_exist() -> Check:
    counts = {
        t: sum(CARD_TABLES[t][c].is_plain for c in ALL_CARDS) for t in TABLE_LETTERS
    }
    return Check(
        "every table has plain faces for the deck's ordinary deals",
        all(counts.values()),
        ", ".join(f"{t}: {n}" for t, n in counts.items()),
    )


def _table_e_cells() -> Check:
    bad = [
        f"{kind.value} row: {_row_text(TABLE_E.get(kind))!r}" for kind in TABLE_E_ROWS
        if len(TABLE_E.get(kind, ())) != 10
        or any(x not in RULE_LETTERS for x in TABLE_E.get(kind, ()))
    ]
    return Check(
        "every Table E cell (6 types x 10 digits) is a rule letter A-L",
        not bad,
        "; ".join(bad) or "60 cells",
    )


def _row_text(row: tuple[RuleLetter, ...] | None) -> str | None:
    """A Table E row as the manual prints it (its letters run together)."""
    return None if row is None else "".join(row)


def _rules_defined() -> Check:
    used = set(itertools.chain.from_iterable(TABLE_E.values()))
    missing = sorted(x for x in used if x not in RULE_PREDICATES or x not in RULE_TEXTS)
    unused = sorted(set(RULE_LETTERS) - used)
    detail = "missing: " + ", ".join(missing) if missing else "all 12 rules defined"
    if unused:
        detail += "; never selected: " + ", ".join(unused)
    return Check("every rule letter of Table E has a Table F condition", not missing, detail)


def _no_plain_legal() -> list[tuple[TableLetter, int, Card]]:
    """(table, digit, discard) where no plain face is legal on that discard top."""
    return [
        (t, d, discard)
        for t, d in itertools.product(TABLE_LETTERS, range(10))
        for discard in ALL_CARDS
        if not any(Ruleset(t, d).is_legal(c, discard) for c in Ruleset(t, d).plain_faces)
    ]


def _describe(cases: list[tuple[TableLetter, int, Card]], fine: str) -> str:
    if not cases:
        return fine
    shown = [f"Table {t}, digit {d}, discard {c.code}" for t, d, c in cases[:6]]
    more = f" and {len(cases) - 6} more" if len(cases) > 6 else ""
    return "; ".join(shown) + more


def _plain_legal_everywhere() -> Check:
    bad = _no_plain_legal()
    return Check(
        "every rule admits a plain face on every discard top (the guaranteed-legal draw "
        "can always be dealt)",
        not bad,
        _describe(bad, "640 table/digit/discard combinations"),
    )


def _startup_playable() -> Check:
    bad = [(t, d, c) for t, d, c in _no_plain_legal() if c is not MITTEN_FACES[t]]
    return Check(
        "the start-up can always produce a playable hand (the re-roll loop ends)",
        not bad,
        _describe(bad, "every opening discard has a legal plain face"),
    )


def _tables_reachable() -> Check:
    samples = {
        TableLetter.A: "AB1CA2", TableLetter.B: "AB1CD2", TableLetter.C: "BB1CD2",
        TableLetter.D: "BC1DF2",
    }
    wrong = [
        f"{serial} picks {SerialNumber.parse(serial).table}, expected {t}"
        for t, serial in samples.items() if SerialNumber.parse(serial).table != t
    ]
    detail = "; ".join(wrong) or ", ".join(f"{s} -> {t}" for t, s in samples.items())
    return Check("each of Tables A-D is chosen by some vanilla serial", not wrong, detail)


def _interval_range() -> Check:
    values = sorted({interval_for(b) for b in range(100)})
    return Check(
        "N = batteries mod 5 + 9 lies in 9..13 for 0-99 batteries",
        values == [9, 10, 11, 12, 13],
        "values " + " ".join(str(v) for v in values),
    )


def _every_type_in_table_e() -> Check:
    rows = {kind for kind in TABLE_E}
    missing = [kind.value for kind in CardType if kind not in rows]
    return Check(
        "Table E has a row for every type a discard top can have (the mitten included)",
        not missing,
        "missing: " + ", ".join(missing) if missing else "6 rows",
    )


CHECKS: tuple[Callable[[], Check], ...] = (
    _faces_typed,
    _one_mitten,
    _mittens_match_spec,
    _defuses_exist,
    _plain_faces_exist,
    _table_e_cells,
    _every_type_in_table_e,
    _rules_defined,
    _plain_legal_everywhere,
    _startup_playable,
    _tables_reachable,
    _interval_range,
)


def run_checks() -> list[Check]:
    """Run every invariant check over the built-in tables."""
    return [check() for check in CHECKS]
