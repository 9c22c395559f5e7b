"""A misuse is a bug and passes through: no handler meant for bad input swallows it.

``MisuseError`` is a ``ValueError`` (as ``InputError`` is), so an ``except ValueError``
around project code also caught a broken precondition and carried on as if the input
were bad: a stored setting or skill key was dropped, a serial number was noted as
unusable, a transcribed card type was listed as a difference, a module line was read as
no message, a shipped graph was explored again, ``python -m hardware.propsim`` printed
a bug as a one-line error, a drill state was called malformed, a manual page
unreadable and a stored answer's question read as one without a discard pile. Each place now catches
what it means (the standard library's ``ValueError`` alone, or the input error) and
lets a misuse through.
"""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser

import pytest

from defuser.apps import table_io
from defuser.apps.manual_html import read_manual_page
from defuser.engine import modlog
from defuser.logs.check.module import check_module
from defuser.strategy.dp import graph
from defuser.trainer import settings, skills
from defuser.trainer.drill_session import STATE_VERSION, DrillSession
from defuser.trainer.report import lookups_of
from defuser.trainer.session import Drill
from defuser.trainer.states import StateError
from defuser.trainer.store import AnswerRow
from edgework import Card, CardType, MisuseError, SerialNumber, Shape
from hardware.propsim import __main__ as propsim_main


def misuse(*_args: object, **_kwargs: object) -> None:
    raise MisuseError("a broken precondition")


def test_a_stored_setting_check_that_is_misused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "check_setting", misuse)
    with pytest.raises(MisuseError):
        settings.load_settings({"retention": "0.9"})


def test_a_bad_stored_setting_still_keeps_its_default() -> None:
    assert settings.load_settings({"retention": "high"}) == settings.Settings()


def test_a_skill_key_whose_card_parse_is_misused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Card, "parse", classmethod(misuse))
    with pytest.raises(MisuseError):
        skills.parse_skill("identify:A:RC")


def test_an_unknown_skill_key_is_still_none() -> None:
    assert skills.parse_skill("decide:juggle") is None
    assert skills.parse_skill("identify:A:XX") is None


def test_a_log_check_whose_serial_parse_is_misused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SerialNumber, "parse", classmethod(misuse))
    with pytest.raises(MisuseError):
        check_module([], serial="AB3CD4")


def test_an_unusable_serial_is_still_a_note() -> None:
    result = check_module([], serial="not a serial")
    assert any("could not be used" in note for note in result.notes)


@pytest.mark.parametrize(
    "call",
    [
        lambda: table_io.compare(
            table_io.Transcription(card_cells={("A", Shape.CIRCLE, Card.RED_CIRCLE.colour): "Nope"})
        ),
        lambda: table_io.read_transcription('{"table_e": {"Nope": "ABCDEFGHIJ"}}', "t.json"),
    ],
)
def test_a_transcription_whose_type_parse_is_misused(
    monkeypatch: pytest.MonkeyPatch, call: Callable[[], object]
) -> None:
    monkeypatch.setattr(CardType, "parse", classmethod(misuse))
    with pytest.raises(MisuseError):
        call()


def test_a_module_line_whose_card_parse_is_misused(monkeypatch: pytest.MonkeyPatch) -> None:
    line = modlog.drew(Card.RED_CIRCLE, CardType.NOPE).split("] ", 1)[-1]
    modlog.parse.cache_clear()
    monkeypatch.setattr(Card, "parse", classmethod(misuse))
    try:
        with pytest.raises(MisuseError):
            modlog.parse(line)
    finally:
        modlog.parse.cache_clear()


def test_a_line_no_template_writes_is_still_none() -> None:
    assert modlog.parse("You drew a purple circle card.") is None


def test_a_shipped_graph_whose_reading_is_misused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(graph, "graph_from_data", misuse)
    with pytest.raises(MisuseError):
        graph.build_graph.__wrapped__(9)


def test_propsim_main_lets_a_misuse_through(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(propsim_main, "winning_script_for", misuse)
    with pytest.raises(MisuseError):
        propsim_main.main(["--winning-script", "3B // AB3CD4"])


def test_a_drill_state_whose_rebuilding_is_misused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Drill, "from_state", classmethod(misuse))
    with pytest.raises(MisuseError):
        DrillSession.from_state({"version": STATE_VERSION, "drill": {}}, None)


def test_a_malformed_drill_state_is_still_a_state_error() -> None:
    with pytest.raises(StateError):
        DrillSession.from_state({"version": STATE_VERSION, "drill": {}}, None)


def test_a_manual_page_whose_parsing_is_misused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(HTMLParser, "feed", misuse)
    with pytest.raises(MisuseError):
        read_manual_page("<table><tr><td>Nope</td></tr></table>", "manual.html")


def _stored(question: str) -> AnswerRow:
    return AnswerRow(1, 1, "rule", 0.0, "legal", "legal:J", None, question, "x", "x",
                     "right", True, 1.0, None)


@pytest.mark.parametrize("parser", [SerialNumber, Card])
def test_a_stored_question_whose_parse_is_misused(
    monkeypatch: pytest.MonkeyPatch, parser: type
) -> None:
    monkeypatch.setattr(parser, "parse", classmethod(misuse))
    with pytest.raises(MisuseError):
        lookups_of(_stored('{"serial": "BC1DF0", "discard": "RC"}'))


@pytest.mark.parametrize(
    "question",
    ["not json", "[1, 2]", '{"serial": 5, "discard": "RC"}', '{"serial": "BC1DF0"}',
     '{"serial": "not a serial", "discard": "RC"}', '{"serial": "BC1DF0", "discard": "XX"}'],
)
def test_a_bad_stored_question_still_uses_no_discard_pile(question: str) -> None:
    assert lookups_of(_stored(question)) == set()
