"""``mittens verify`` reads the module's manual page in the community repository's HTML
layout (and translations of it), and refuses a hostile page in one line.

The pages are built by :mod:`manual_page` from the project's own tables; each tampered
copy changes one thing and must fail on exactly the cell it changed.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_cli
from manual_page import ManualPage

from defuser.apps import manual_html
from defuser.apps.manual_html import read_manual_page
from defuser.apps.table_io import compare
from edgework import (
    CARD_TABLES,
    TABLE_LETTERS,
    Card,
    CardType,
    Colour,
    InvalidTableError,
    Shape,
)


def _verify(page: str | ManualPage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
            *args: str) -> tuple[int, dict[str, Any]]:
    path = tmp_path / "Exploding Mittens.html"
    path.write_text(page if isinstance(page, str) else page.html(), encoding="utf-8")
    run = run_cli(["verify", str(path), "--json", *args], monkeypatch)
    assert run.err == "", run.err
    report: dict[str, Any] = json.loads(run.out)
    return run.code, report


def _failing(report: dict[str, Any]) -> set[str]:
    return {d["where"] for d in report["differences"] if d["fails"]}


def test_the_manual_page_matches_every_cell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, report = _verify(ManualPage(), tmp_path, monkeypatch)
    assert code == 0 and report["ok"] and report["differences"] == []
    path = tmp_path / "Exploding Mittens.html"
    run = run_cli(["verify", str(path)], monkeypatch)
    assert run.code == 0
    assert run.out == f"{path}: every card type and rule letter matches\n"


def test_the_page_is_read_cell_by_cell() -> None:
    found = read_manual_page(ManualPage().html(), "page.html")
    assert len(found.card_cells) == 64 and len(found.table_e_cells) == 60
    assert found.card_cells[("A", Shape.SQUARE, Colour.BLUE)] == "Expl. Mitten"
    assert found.table_e_cells[("Exploding Mitten", 9)] == "E"
    # Emphasis keeps its words; the typographic apostrophe is read as a plain one.
    assert found.rule_texts["D"] == (
        "It shares neither its shape nor its color with the card in the discard pile."
    )
    assert found.rule_texts["A"] == "It's identical to the card in the discard pile."


def test_a_tampered_card_cell_fails_on_that_cell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = ManualPage()
    page.cells[("C", Shape.HEART, Colour.GREEN)] = "Nope"  # the manual: Defuse
    code, report = _verify(page, tmp_path, monkeypatch)
    assert code == 1 and not report["ok"]
    assert report["differences"] == [{
        "where": "Table C, heart green", "expected": "Defuse", "found": "Nope",
        "fails": True, "why": None,
    }]


def test_a_tampered_table_e_cell_fails_on_that_cell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = ManualPage()
    page.letters[4][7] = "A"  # Attack row, digit 7: the manual says E
    code, report = _verify(page, tmp_path, monkeypatch)
    assert code == 1 and _failing(report) == {"Table E, Attack row, digit 7"}


def test_a_condition_that_lost_its_emphasised_not_fails_by_meaning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = ManualPage()
    page.rules["E"] = page.rules["E"].replace("<b>not</b> ", "")
    code, report = _verify(page, tmp_path, monkeypatch)
    assert code == 1 and _failing(report) == {"Table F, rule E"}
    (diff,) = report["differences"]
    assert diff["found"] == "Its color does match the card in the discard pile."
    assert "colour differs from the discard top" in diff["why"]
    # Emphasis moved, meaning kept: a note, not a failure.
    page = ManualPage()
    page.rules["H"] = "<b>The card is not red.</b>"
    code, report = _verify(page, tmp_path, monkeypatch)
    assert code == 0 and report["differences"] == []


def test_swapped_headings_fail_on_the_cells_they_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = ManualPage()
    page.colours[0], page.colours[1] = page.colours[1], page.colours[0]  # RED <-> BLUE
    code, report = _verify(page, tmp_path, monkeypatch)
    assert code == 1
    expected = set()
    for t in TABLE_LETTERS:
        for s in Shape:
            red, blue = (CARD_TABLES[t][Card.of(s, c)] for c in (Colour.RED, Colour.BLUE))
            if red is not blue:
                expected |= {f"Table {t}, {s.name.lower()} {c}" for c in ("red", "blue")}
    assert _failing(report) == expected


def test_a_heading_that_names_nothing_is_itself_a_difference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = ManualPage()
    page.shapes[2] = "TRIANGEL"
    code, report = _verify(page, tmp_path, monkeypatch)
    assert code == 1 and _failing(report) == {f"Table {t}, row 3 heading" for t in "ABCD"}
    assert report["differences"][0]["expected"] == "TRIANGLE"


def test_a_missing_rule_or_row_is_a_difference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = ManualPage()
    del page.rules["G"]
    code, report = _verify(page, tmp_path, monkeypatch)
    assert code == 1 and _failing(report) == {"Table F, rule G"}
    assert report["differences"][0]["found"] == "(missing)"
    html = ManualPage().html().replace("<td>Attack</td>", "", 1)  # Table A, heart red
    code, report = _verify(html, tmp_path, monkeypatch)
    assert code == 1 and "Table A, heart yellow" in _failing(report)


FRENCH_TYPES = {
    CardType.NOPE: "Non", CardType.YEP: "Oui", CardType.DEFUSE: "D\u00e9samor\u00e7age",
    CardType.DOUBLE_PLAY: "Double jeu", CardType.ATTACK: "Attaque",
    CardType.EXPLODING_MITTEN: "Moufle explosive",
}


def _french() -> ManualPage:
    page = ManualPage(title="Moufles explosives", table_word="Tableau",
                      colours=["ROUGE", "BLEU", "VERT", "JAUNE"],
                      shapes=["CERCLE", "C\u0152UR", "TRIANGLE", "CARR\u00c9"],
                      e_heading="DERNIER CHIFFRE DU NUM\u00c9RO DE S\u00c9RIE",
                      e_corner="Carte dans la d\u00e9fausse",
                      f_heading="On ne peut jouer une carte que si...")
    page.cells = {(t, s, c): FRENCH_TYPES[CARD_TABLES[t][Card.of(s, c)]]
                  for t in TABLE_LETTERS for s in Shape for c in Colour}
    page.e_rows = [w.upper() for w in FRENCH_TYPES.values()]
    page.rules["B"] = "Sa couleur est <b>la m\u00eame</b> que celle de la d\u00e9fausse."
    page.rules["G"] = "La carte est jaune."
    return page


def test_a_declared_translation_is_compared_cell_by_cell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, report = _verify(_french(), tmp_path, monkeypatch, "--language", "fr")
    assert code == 0, report
    assert [d["where"] for d in report["differences"]] == ["Table F, rule B", "Table F, rule G"]
    assert not _failing(report)
    # One cell changed to another type's word fails there, and says what the word means.
    page = _french()
    page.cells[("B", Shape.CIRCLE, Colour.RED)] = "Non"  # the manual: Yep
    code, report = _verify(page, tmp_path, monkeypatch, "--language", "fr")
    assert code == 1 and _failing(report) == {"Table B, circle red"}
    (diff,) = [d for d in report["differences"] if d["fails"]]
    assert diff["why"] == "the word this translation uses for Nope"


def test_an_undeclared_translation_fails_on_its_headings_and_conditions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, report = _verify(_french(), tmp_path, monkeypatch)
    assert code == 1
    failing = _failing(report)
    assert "Table A, column 1 heading" in failing and "Table F, rule G" in failing
    assert "Table E, row 1 heading" in failing


@pytest.mark.parametrize("page", [
    "<!DOCTYPE html><html><body><p>No tables here.</p></body></html>",
    "<html><table><tr><th>0</th><td></td><td class=bk></td></tr></table></html>",
    "<",
])
def test_a_page_without_the_manuals_tables_is_one_line(
    page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "Other Module.html"
    path.write_text(page, encoding="utf-8")
    run = run_cli(["verify", str(path)], monkeypatch)
    assert run.code == 2 and run.out == ""
    assert run.err.count("\n") == 1 and "has no tables like the module manual's" in run.err


def _grown(middle: str) -> str:
    html = ManualPage().html()
    return html.replace("<h2>", middle + "<h2>", 1)


@pytest.mark.parametrize(("page", "words"), [
    (_grown("<div>" * 150), "nested deeper than 100"),
    (_grown("<table><tr>" + "<td>x</td>" * 12_000 + "</tr></table>"), "more than 10000 table"),
    (_grown("<table><tr>" + "<td colspan=1000000>x" * 200 + "</table>"), "more than 10000"),
    (_grown("<table><tr><td>" + "x" * 5000 + "</td></tr></table>"), "more than 4000 char"),
    (_grown("<table></table>" * 201), "more than 200 tables"),
    (_grown("<!-- never closed"), "a comment never ends"),
])
def test_a_hostile_page_is_refused_in_one_line(
    page: str, words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "hostile.html"
    path.write_text(page, encoding="utf-8")
    run = run_cli(["verify", str(path)], monkeypatch)
    assert run.code == 2 and run.out == ""
    assert run.err.count("\n") == 1 and words in run.err, run.err
    assert run.err.startswith("mittens verify: error: ") and "hostile.html line " in run.err


@pytest.mark.parametrize("unit", [
    '<a b="x" c="', "<a", "<!", "</", "<?", "<td colspan='", "<", "&#",
])
def test_markup_that_never_ends_is_read_in_linear_time(unit: str) -> None:
    # Each of these made the standard parser rescan the rest of the page at every
    # '<' (about 17 s of CPU for the first at 256 KiB, and four times that for each
    # doubling); the page is read as text instead. CPU time, so a busy machine does not
    # count.
    text = unit * (262_144 // len(unit))
    started = time.process_time()
    with pytest.raises(InvalidTableError):
        read_manual_page(text, "page.html")
    assert time.process_time() - started < 4.0


def test_tags_with_odd_but_valid_markup_are_read() -> None:
    html = ManualPage().html()
    html = html.replace('<td style="width: 20%">Table A</td>',
                        "<TD\nstyle='x>y'  data-a=\"<b>\">Table A</td>", 1)
    html = html.replace("<td>Nope</td>", "<td><span>No</span><!-- a\ncomment -->pe", 1)
    html = html.replace("</table>", "</table><script>if (a<b) { '</td>' }</script>", 1)
    found = read_manual_page(html, "page.html")
    assert compare(found) == []


def test_bounds_are_the_documented_ones() -> None:
    assert (manual_html.MAX_DEPTH, manual_html.MAX_TABLES, manual_html.MAX_CELLS,
            manual_html.MAX_CELL_CHARS) == (100, 200, 10_000, 4_000)
