"""``mittens solve``, ``tables`` and ``verify`` through the command line."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from cli_helpers import check_golden, run_cli

from defuser.commands.solve import summary_line
from defuser.commands.verify import read_text
from defuser.strategy.answer import solve_batch_line
from edgework import CARD_TABLES, TABLE_E, Card, CardType, SerialNumber, Shape

SOLVE_CASES = {
    "readme": ["--serial", "AB3CD4", "--batteries", "3", "--discard", "RC", "--hand", "BH GS YT"],
    "sample01_start": [
        "--serial", "5M3ES3", "--batteries", "3", "--discard", "green circle",
        "--hand", "red heart, blue heart", "--hand", "BC",
    ],
    "lone_defuse": ["--serial", "AB3CD4", "--discard", "RC", "--hand", "YH BC"],
    "empty_hand": ["--edgework", "2B 1H // *FRK // [Serial] // KZ5LG5", "--discard", "YT"],
}


@pytest.mark.parametrize("name", sorted(SOLVE_CASES))
def test_solve_human_output_is_golden(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["solve", *SOLVE_CASES[name]], monkeypatch)
    assert run.code == 0, run.err
    check_golden(f"solve/{name}.txt", run.out)


@pytest.mark.parametrize("name", sorted(SOLVE_CASES))
def test_solve_json_is_golden(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["solve", *SOLVE_CASES[name], "--json"], monkeypatch)
    assert run.code == 0, run.err
    assert run.out.count("\n") == 1
    check_golden(f"solve/{name}.json", run.out)


def test_solve_json_keys_and_values(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["solve", *SOLVE_CASES["readme"], "--json"], monkeypatch)
    data = json.loads(run.out)
    assert data["serial"] == "AB3CD4"
    assert data["table"] == "B"
    assert data["last_digit"] == 4
    assert data["interval"] == 12
    assert data["mitten"] == "RH"
    assert data["discard"] == {"card": "RC", "name": "red circle", "type": "Yep"}
    assert data["rule"]["letter"] == "I"
    assert [h["card"] for h in data["hand"]] == ["BH", "GS", "YT"]
    assert data["legal_slots"] == [1]
    assert data["discard_allowed"] is False
    assert data["draw_allowed"] is False


def test_lone_legal_defuse_allows_discard(monkeypatch: pytest.MonkeyPatch) -> None:
    data = json.loads(run_cli(["solve", *SOLVE_CASES["lone_defuse"], "--json"], monkeypatch).out)
    # Table B, rule I on RC: the shape must match the mitten (red heart), so YH, a Defuse,
    # is the only legal card, and a lone legal Defuse never blocks a discard.
    assert data["legal_slots"] == [1]
    assert data["hand"][0]["type"] == "Defuse"
    assert data["discard_allowed"] is True


def test_interval_is_null_without_batteries(monkeypatch: pytest.MonkeyPatch) -> None:
    data = json.loads(
        run_cli(["solve", "--serial", "AB3CD4", "--discard", "RC", "--json"], monkeypatch).out
    )
    assert data["batteries"] is None
    assert data["interval"] is None


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--serial", "AB3CD", "--discard", "RC"], "serial number 'AB3CD' has 5 characters"),
        (["--serial", "AB3OD4", "--discard", "RC"], "contains O, which vanilla serials never use"),
        (["--serial", "AB3CD4", "--discard", "XX"], "card 'XX' is not a card face"),
        (["--serial", "AB3CD4", "--batteries", "-1", "--discard", "RC"], "batteries '-1'"),
        (["--serial", "AB3CD4", "--discard", "RC", "--hand", "RC RC RC RC"], "has 4 cards"),
        (["--serial", "AB3CD4"], "the discard top is needed"),
        (["--discard", "RC"], "a serial number is needed"),
        (["--serial", "AB3CD4", "--edgework", "AB3CD4", "--discard", "RC"], "not both"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    args: list[str], needle: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_cli(["solve", *args], monkeypatch)
    assert run.code == 2
    assert run.out == ""
    assert run.err.count("\n") == 1, run.err
    assert needle in run.err
    assert "Traceback" not in run.err


def test_lenient_serial_accepts_modded(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(
        ["solve", "--serial", "ao3xy4", "--lenient-serial", "--discard", "RC", "--json"],
        monkeypatch,
    )
    assert run.code == 0, run.err
    assert json.loads(run.out)["serial"] == "AO3XY4"


def test_batch_json_one_object_per_line_and_errors_continue(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stdin = "AB3CD4 3 RC BH GS\nnonsense\n\n5M3ES3 3 GC RH BH BC\nAB3CD4 3 RC RC RC RC RC\n"
    run = run_cli(["solve", "--batch", "--json"], monkeypatch, stdin)
    assert run.code == 1
    rows = [json.loads(line) for line in run.out.splitlines()]
    assert len(rows) == 4
    assert rows[0]["legal_slots"] == [1]
    assert rows[1]["line"] == 2 and "fields" in rows[1]["error"]
    assert rows[2]["serial"] == "5M3ES3" and rows[2]["rule"]["letter"] == "J"
    assert rows[3]["line"] == 5 and "has 4 cards" in rows[3]["error"]


def test_batch_plain_agrees_with_single(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["solve", "--batch"], monkeypatch, "5M3ES3 3 GC RH BH BC\n")
    assert run.code == 0
    assert run.out == (
        "5M3ES3: table A, rule J, legal slots 1 2 3, discard blocked, draw hand full\n"
    )


def test_batch_reads_a_file_saved_with_a_bom(monkeypatch: pytest.MonkeyPatch) -> None:
    # Editors that save "UTF-8 with BOM" put U+FEFF before the first serial number.
    stdin = "\ufeff5M3ES3 3 GC RH BH BC\n5M3ES3 3 GC RH BH BC\n"
    run = run_cli(["solve", "--batch", "--json"], monkeypatch, stdin)
    assert run.code == 0, run.out
    rows = [json.loads(line) for line in run.out.splitlines()]
    assert [row["serial"] for row in rows] == ["5M3ES3", "5M3ES3"]
    assert rows[0] == rows[1]


def test_the_batch_line_says_each_fact_of_the_state() -> None:
    def line(state: str) -> str:
        return summary_line(solve_batch_line(state, strict=True))

    assert line("AB3CD4 3 YT") == (
        "AB3CD4: table B, rule F, legal slots none, discard allowed, draw has room")
    assert line("AB3CD4 3 RC YH BC").endswith(
        "legal slots 1, discard allowed, draw has room")  # a lone legal Defuse
    assert line("5M3ES3 3 GC RH BH BC").endswith(
        "legal slots 1 2 3, discard blocked, draw hand full")
    assert line("5M3ES3 3 GC RH BH").endswith("legal slots 1 2, discard blocked, draw has room")


def test_batch_rejects_state_options(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["solve", "--batch", "--serial", "AB3CD4"], monkeypatch)
    assert run.code == 2
    assert "--batch" in run.err


@pytest.mark.parametrize("fmt", ["text", "markdown", "json", "csv"])
def test_tables_render_golden(fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["tables", "--format", fmt, "--serial", "5M3ES3"], monkeypatch)
    assert run.code == 0
    check_golden(f"solve/tables_5M3ES3.{ 'md' if fmt == 'markdown' else fmt}", run.out)


def test_tables_json_matches_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    data = json.loads(run_cli(["tables", "--json"], monkeypatch).out)
    for t, rows in data["card_tables"].items():
        for shape, cols in rows.items():
            for colour, value in cols.items():
                card = Card.parse(f"{colour} {shape}")
                assert CARD_TABLES[t][card].value == value
    for row, letters in data["table_e"].items():
        assert tuple(letters) == TABLE_E[CardType(row)]
    assert data["active"] is None


def test_verify_builtin_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["verify", "--json"], monkeypatch)
    data = json.loads(run.out)
    assert run.code == 0
    assert data["ok"] is True
    assert len(data["checks"]) >= 10
    assert all(c["passed"] for c in data["checks"])


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_verify_round_trip_export_is_clean(
    fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    export = run_cli(["tables", "--format", fmt], monkeypatch).out
    path = tmp_path / f"tables.{fmt}"
    path.write_text(export, encoding="utf-8")
    run = run_cli(["verify", str(path)], monkeypatch)
    assert run.code == 0, run.out + run.err
    assert "matches" in run.out


def test_verify_reports_each_changed_cell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = json.loads(run_cli(["tables", "--json"], monkeypatch).out)
    data["card_tables"]["C"]["heart"]["green"] = "Nope"
    data["table_e"]["Attack"][7] = "A"
    data["table_f"]["G"] = "La carte est jaune."
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    run = run_cli(["verify", str(path), "--json", "--language", "fr"], monkeypatch)
    assert run.code == 1
    report = json.loads(run.out)
    failing = {d["where"] for d in report["differences"] if d["fails"]}
    assert failing == {"Table C, heart green", "Table E, Attack row, digit 7"}
    notes = [d for d in report["differences"] if not d["fails"]]
    assert [n["where"] for n in notes] == ["Table F, rule G"]
    # Undeclared, the French condition cannot be read as English: it fails too.
    run = run_cli(["verify", str(path), "--json"], monkeypatch)
    report = json.loads(run.out)
    failing = {d["where"] for d in report["differences"] if d["fails"]}
    assert failing == {"Table C, heart green", "Table E, Attack row, digit 7", "Table F, rule G"}
    why = next(d["why"] for d in report["differences"] if d["where"] == "Table F, rule G")
    assert "--language" in why


def test_verify_compares_english_conditions_by_meaning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = json.loads(run_cli(["tables", "--json"], monkeypatch).out)
    data["table_f"]["B"] = "Same shape."  # rule B is about colour: a transcription error
    data["table_f"]["C"] = "Same shape as the discard pile's top card."  # reworded only
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    run = run_cli(["verify", str(path)], monkeypatch)
    assert run.code == 1
    assert (
        "DIFF  Table F, rule B: expected 'Its color matches the card in the discard pile.', "
        "found 'Same shape.' (it says shape matches the discard top, but rule B is: colour "
        "matches the discard top)"
    ) in run.out
    assert "NOTE  Table F, rule C:" in run.out and "(reworded, same meaning)" in run.out
    del data["table_f"]["B"]
    path.write_text(json.dumps(data), encoding="utf-8")
    run = run_cli(["verify", str(path)], monkeypatch)
    assert run.code == 0, run.out


def test_verify_missing_and_malformed_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_cli(["verify", str(tmp_path / "nope.json")], monkeypatch)
    assert run.code == 2 and run.err.count("\n") == 1
    bad = tmp_path / "bad.csv"
    bad.write_text("table,row,column,value\nA,blob,red,Nope\n", encoding="utf-8")
    run = run_cli(["verify", str(bad)], monkeypatch)
    assert run.code == 2
    assert "shape 'blob' is not a shape" in run.err
    assert run.err.count("\n") == 1


def test_a_transcription_is_read_as_utf_8_without_its_bom(tmp_path: Path) -> None:
    saved = tmp_path / "tables.csv"
    saved.write_bytes("\ufefftable,row\n".encode())
    assert read_text(str(saved)) == ("table,row\n", str(saved))
    saved.write_bytes(b"table,\xffrow\n")
    with pytest.raises(click.BadParameter, match=r"tables.csv is not UTF-8 text \(byte 6\)"):
        read_text(str(saved))


def test_every_shape_row_in_text_render(monkeypatch: pytest.MonkeyPatch) -> None:
    out = run_cli(["tables"], monkeypatch).out
    for shape in Shape:
        assert out.count(shape.name) >= 4
    assert SerialNumber.parse("5M3ES3").table == "A"
