"""``defuser.apps.table_checks``: the built-in tables pass every invariant, and a damaged
table fails the check that guards it, with the cells at fault named (``mittens verify``
prints these checks)."""

from __future__ import annotations

import pytest

from defuser.apps import table_checks
from defuser.apps.table_checks import Check, run_checks
from edgework import CARD_TABLES, MITTEN_FACES, TABLE_E, Card, CardType, TableLetter


def failed(checks: list[Check]) -> dict[str, str]:
    """The failing checks' names and details."""
    return {check.name: check.detail for check in checks if not check.passed}


def test_the_built_in_tables_pass_every_check() -> None:
    checks = run_checks()
    assert failed(checks) == {}
    assert len({check.name for check in checks}) == len(checks) == 12
    details = {check.name: check.detail for check in checks}
    assert details["exactly one Exploding Mitten face per table"] == "A: BS, B: RH, C: GC, D: YT"
    assert details["every Table E cell (6 types x 10 digits) is a rule letter A-L"] == "60 cells"


def test_a_second_mitten_face_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    tables = {letter: dict(table) for letter, table in CARD_TABLES.items()}
    tables[TableLetter.C][Card.RED_CIRCLE] = CardType.EXPLODING_MITTEN
    monkeypatch.setattr(table_checks, "CARD_TABLES", tables)
    assert failed(run_checks()) == {
        "exactly one Exploding Mitten face per table": "A: BS, B: RH, C: RC GC, D: YT",
    }


def test_a_mitten_face_against_the_spec_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    wrong = {**MITTEN_FACES, TableLetter.B: Card.RED_CIRCLE}
    monkeypatch.setattr(table_checks, "MITTEN_FACES", wrong)
    [(name, detail)] = failed(run_checks()).items()
    assert name.startswith("mitten faces are A blue square")
    assert detail == "Table B: RC instead of RH"


def test_a_short_table_e_row_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    row = TABLE_E[CardType.NOPE]
    monkeypatch.setattr(table_checks, "TABLE_E", {**TABLE_E, CardType.NOPE: row[:9]})
    problems = failed(run_checks())
    assert problems["every Table E cell (6 types x 10 digits) is a rule letter A-L"] == (
        f"{CardType.NOPE.value} row: {''.join(row[:9])!r}"
    )
