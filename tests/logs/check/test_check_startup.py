"""defuser.logs.check.startup: the start-up's table, opening discard, rule and hand lines."""

from __future__ import annotations

from replay_helpers import cards, context, line, state

from defuser.engine import modlog
from defuser.logs.check import startup
from defuser.logs.check.state import Stage

CTX = context()
START = state(stage=Stage.START, discard=None, hand=(), until=None, first_cycle=True)


def test_the_table_line_must_name_the_serials_table() -> None:
    assert startup.table_line(CTX, START, "A") == (START._replace(stage=Stage.OPENING_DISCARD), [])
    after, [problem] = startup.table_line(CTX, START, "C")
    assert after.stage is Stage.OPENING_DISCARD
    assert problem == ("the line says Table C, expected Table A: serial number 5M3ES3 has "
                       "a vowel (E) and a repeated character (3), which selects Table A")
    assert "the types the log gives follow Table A" in startup.table_line(
        context(serial=None), START, "C")[1][0]


def opening(text: str) -> modlog.OpeningDiscardMessage:
    message = line(text)
    assert isinstance(message, modlog.OpeningDiscardMessage)
    return message


def test_the_opening_discard_is_typed_and_never_the_mitten() -> None:
    s = START._replace(stage=Stage.OPENING_DISCARD)
    [(after, [])] = startup.initial_discard(
        CTX, s, opening("The card on the discard pile is a green circle, which is a(n) Yep card."))
    assert (after.stage, after.discard) == (Stage.OPENING_RULE, cards("green circle")[0])
    [(_, problems)] = startup.initial_discard(
        CTX, s, opening("The card on the discard pile is a blue square, which is a(n) Yep card."))
    assert problems[0] == ("blue square is an Exploding Mitten card in Table A, but the line "
                           "calls it a Yep card")
    assert problems[1].startswith("the opening discard is never the Exploding Mitten")


def test_the_rule_line_names_table_es_rule_in_its_wording() -> None:
    s = state(stage=Stage.HAND)
    rule_j, rule_now_j = line("The rule used is J."), line("The rule used now is J.")
    assert isinstance(rule_j, modlog.RuleMessage)
    assert isinstance(rule_now_j, modlog.RuleNowMessage)
    assert startup.rule_line(CTX, s, rule_j) == (s, [])
    [wording] = startup.rule_line(CTX, s, rule_now_j)[1]
    assert wording.startswith("'The rule used now is X.' follows only a discard")
    assert startup.rule_line(CTX, s._replace(stage=Stage.COMING), rule_now_j)[1] == []
    wrong = line("The rule used is B.")
    assert isinstance(wrong, modlog.RuleMessage)
    [letter] = startup.rule_line(CTX, s, wrong)[1]
    assert letter.startswith("the line says rule B, expected rule J: Table E gives J")
    assert letter.endswith("with last digit 3 of serial number 5M3ES3")


def hand_line(text: str) -> modlog.HandCardMessage:
    message = line(text)
    assert isinstance(message, modlog.HandCardMessage)
    return message


def test_the_hand_lines_are_numbered_and_the_opening_hand_has_a_legal_plain_card() -> None:
    s = state(stage=Stage.HAND, hand=())
    [(after, [])] = startup.hand_card(
        CTX, s, 4, hand_line("Card #1 is a red heart, which is a(n) Attack card."))
    assert (after.hand, after.stage) == (cards("red heart"), Stage.HAND)
    [(_, [number])] = startup.hand_card(
        CTX, s, 4, hand_line("Card #2 is a red heart, which is a(n) Attack card."))
    assert number == "the line says Card #2, expected Card #1"
    two_illegal = s._replace(hand=cards("red square", "yellow square"))
    [(last, [problem])] = startup.hand_card(
        CTX, two_illegal, 6, hand_line("Card #3 is a red square, which is a(n) Attack card."))
    assert last.stage is Stage.IDLE
    assert problem.startswith("the opening hand has no legal plain card")
