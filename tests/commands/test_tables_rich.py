"""defuser.commands.tables: the tables on a colour terminal, the serial's own marked.

``mittens tables`` draws them with rich only on a terminal (the golden files hold the
plain text a pipe gets), so :func:`render_rich` is called here on a captured stdout.
"""

from __future__ import annotations

import io
import sys

import pytest

from defuser.commands.tables import render_rich
from defuser.terminal.app import Application
from edgework import RULE_TEXTS, SerialNumber


def drawn(monkeypatch: pytest.MonkeyPatch, serial: str | None) -> str:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setenv("COLUMNS", "120")
    render_rich(Application(), SerialNumber.parse(serial) if serial else None)
    return out.getvalue()


def test_the_serials_table_and_column_are_marked(monkeypatch: pytest.MonkeyPatch) -> None:
    text = drawn(monkeypatch, "5M3ES3")
    lines = text.splitlines()
    assert lines[0] == "Serial 5M3ES3: Table A is active, Table E column 3."
    assert [line.split(":")[0] for line in lines if "Table " in line and ":" in line][1:6] == [
        ">> Table A", "Table B", "Table C", "Table D", "Table E"]
    header = next(line for line in lines if "Card in discard" in line)
    assert "[3]" in header and "[2]" not in header
    assert lines[-1] == "Active table marked >>, active Table E column in [brackets]."
    assert all(words in text for words in RULE_TEXTS.values())


def test_without_a_serial_nothing_is_marked(monkeypatch: pytest.MonkeyPatch) -> None:
    text = drawn(monkeypatch, None)
    assert ">>" not in text and "[" not in text and "Serial" not in text
    assert text.count("Table A:") == 1 and "Table F: can only play a card if..." in text
