"""``mittens tables --serial S --compact``: the active table and its Table E column only
(issue 24, item 12), each rule with its Table F words."""

from __future__ import annotations

import pytest
from cli_helpers import run_cli

from edgework import ALL_CARDS, RULE_TEXTS, TABLE_E_ROWS, TABLE_LETTERS, Ruleset, SerialNumber


@pytest.mark.parametrize("serial", ["5M3ES3", "AB3CD4", "BB1CD7", "BC1DF2", "AE5BX0"])
def test_compact_is_the_active_table_and_column(
    serial: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_cli(["tables", "--serial", serial, "--compact"], monkeypatch)
    assert run.code == 0, run.err
    parsed = SerialNumber.parse(serial)
    table, digit = parsed.table, parsed.last_digit
    lines = run.out.splitlines()
    assert lines[0] == f"Serial {serial}: Table {table} is active, Table E column {digit}."
    assert len(lines) == 17
    assert [t for t in TABLE_LETTERS if f"Table {t}: " in run.out] == [table]
    rules = Ruleset(table, digit)
    for kind, line in zip(TABLE_E_ROWS, lines[-len(TABLE_E_ROWS):], strict=True):
        # The rule in force on a discard top of this type, as the engine finds it.
        letter = rules.rule(next(c for c in ALL_CARDS if rules.type_of(c) is kind))
        assert line.split()[: len(kind.value.split())] == kind.value.upper().split()
        assert line.endswith(f"  {letter}  {RULE_TEXTS[letter]}")


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        ([], "it shows one serial number's tables, expected --serial too"),
        (["--serial", "AB3CD4", "--json"], "it is plain text, expected no --format json"),
    ],
)
def test_compact_needs_a_serial_and_text(
    args: list[str], reason: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_cli(["tables", "--compact", *args], monkeypatch)
    assert run.code == 2
    assert run.err == f"mittens tables: error: Invalid value for '--compact': {reason}\n"
