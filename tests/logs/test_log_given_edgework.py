"""``log analyze --serial/--batteries`` that contradict the log: one clear finding.

A wrong serial number makes every card type and rule letter of a module look wrong;
the analysis says once that the serial does not belong to the log and checks the module
with what its own lines show. Logs are our own: simulated modules' lines.
"""

from __future__ import annotations

import pytest
from gamelog_builder import BombSpec, game_log, simulated_messages

from defuser.engine import modlog
from defuser.logs.analysis import analyse_bytes, to_json


@pytest.fixture(scope="module")
def module_lines() -> bytes:
    lines = [modlog.line(1, m) for m in simulated_messages("AB3CD4", [2, 1], 8)]
    return ("\n".join(lines) + "\n").encode()


def _inconsistencies(data: bytes, **given: object) -> list[str]:
    analysis = analyse_bytes(data, judge_decisions=False, **given)  # type: ignore[arg-type]
    return [i.message for m in analysis.modules for i in m.inconsistencies]


def test_the_right_edgework_gives_a_clean_log(module_lines: bytes) -> None:
    assert _inconsistencies(module_lines, serial="AB3CD4", batteries=3) == []


def test_a_wrong_serial_is_one_finding_not_one_per_line(module_lines: bytes) -> None:
    found = _inconsistencies(module_lines, serial="BC1DF2", batteries=3)
    assert len(found) == 1
    assert found[0].startswith(
        "the serial number given (BC1DF2) does not belong to this module: it selects "
        "Table D and last digit 2, but the module's lines follow Table B with last digit 4"
    )
    analysis = analyse_bytes(module_lines, serial="BC1DF2", batteries=3)
    assert analysis.modules[0].table == "B"
    # Checked with what the lines show, the decisions are still judged.
    assert analysis.bombs[0].modules[0].judgement is not None
    assert not analysis.bombs[0].modules[0].judgement.stopped


def test_wrong_batteries_are_one_finding(module_lines: bytes) -> None:
    found = _inconsistencies(module_lines, serial="AB3CD4", batteries=4)
    assert len(found) == 1
    assert "the batteries given (4, so N = 13) do not fit this module" in found[0]
    assert "N = 12" in found[0]


def test_a_tampered_line_is_still_blamed_on_its_own(module_lines: bytes) -> None:
    text = module_lines.decode()
    at = text.index("The rule used is ", text.index("Card #3"))
    letter = text[at + len("The rule used is ")]
    other = "A" if letter != "A" else "B"
    tampered = (text[:at] + f"The rule used is {other}" + text[at + 18 :]).encode()
    found = _inconsistencies(tampered, serial="AB3CD4", batteries=3)
    assert len(found) == 1 and "the line says rule" in found[0]


def test_edgework_the_log_shows_overrules_the_options() -> None:
    log = game_log([BombSpec("AB3CD4", [2, 1], {
        1: simulated_messages("AB3CD4", [2, 1], 8),
    })]).data
    analysis = analyse_bytes(log, serial="BC1DF2", batteries=4, judge_decisions=False)
    assert analysis.inconsistency_count == 0
    assert analysis.bombs[0].notes == [
        "the serial number given (BC1DF2) is not used for this bomb: the log shows its "
        "serial number, AB3CD4",
        "the battery count given (4) is not used for this bomb: the log shows its 3 "
        "batteries",
    ]
    assert to_json([analysis])["files"][0]["bombs"][0]["notes"] == analysis.bombs[0].notes
