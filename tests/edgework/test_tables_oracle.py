"""The project's tables and rules against the independent oracle read from the manual.

Every table x last digit x discard x hand card is compared (types, mitten faces, rule
letters, legality), and the rulebook's (``defuser.engine.board.Board``) legal and
blocking slots are compared on every hand of up to two cards in every order and every
multiset of three cards, on every discard, for every table and digit. Serial numbers of
every class (vowel or not, repeat or not, every last digit) pick the same table and
Table E column as the oracle.
"""

from __future__ import annotations

import itertools
import random
import string
from typing import cast

import oracle_manual as oracle
from hypothesis import given
from hypothesis import strategies as st
from oracle_manual import Face

import defuser.engine.rules as rules
from defuser.engine.actions import Action
from defuser.engine.board import Board, Effect
from defuser.errors import InvalidHandError
from edgework import (
    CARD_TABLES,
    DEFUSE_FACES,
    MITTEN_FACES,
    PLAIN_FACES,
    RULE_LETTERS,
    RULE_TEXTS,
    TABLE_E,
    TABLE_E_ROWS,
    TABLE_LETTERS,
    Batteries,
    Card,
    CardType,
    Colour,
    EdgeworkError,
    RuleLetter,
    Ruleset,
    SerialNumber,
    Shape,
    TableLetter,
    card_type,
    interval_for,
    legal_mask,
    rule_admits,
    rule_letter,
    table_for,
)
from edgework.tables import RULE_PREDICATES

DIGITS = range(10)
DISCARD = Action.discard()


def card_of(face: Face) -> Card:
    """The project's face for an oracle ``(colour, shape)`` pair."""
    colour, shape = face
    return Card.of(Shape[shape.upper()], Colour[colour.upper()])


def cards_of(hand: tuple[Face, ...]) -> tuple[Card, ...]:
    """A hand of oracle faces as project faces."""
    return tuple(card_of(f) for f in hand)


FACE_CARDS: dict[Face, Card] = {f: card_of(f) for f in oracle.ALL_FACES}


def test_oracle_read_the_whole_manual() -> None:
    """The oracle found four 4x4 tables, a 6x10 Table E and twelve rules."""
    assert oracle.MANUAL.colours == ("red", "blue", "green", "yellow")
    assert oracle.MANUAL.shapes == ("circle", "heart", "triangle", "square")
    assert len(set(oracle.ALL_FACES)) == 16
    for table in "ABCD":
        assert set(oracle.MANUAL.card_tables[table]) == set(oracle.ALL_FACES)
    for row in oracle.MANUAL.table_e.values():
        assert sorted(row) == list(DIGITS)
        assert set(row.values()) <= set("ABCDEFGHIJKL")
    assert list(oracle.MANUAL.rule_texts) == list("ABCDEFGHIJKL")


def test_faces_are_the_manuals_sixteen() -> None:
    """Card values, words and codes follow the manual's rows (shapes) and columns."""
    assert [card_of(f) for f in oracle.ALL_FACES] == list(Card)
    for (colour, shape), card in FACE_CARDS.items():
        assert card.words == f"{colour} {shape}"
        assert card.code == (colour[0] + shape[0]).upper()
        assert int(card) == int(card.shape) * 4 + int(card.colour)


def test_type_names_are_the_modules() -> None:
    """CardType values are exactly the six names the module logs."""
    assert {t.value for t in CardType} == oracle.TYPE_NAMES
    assert set(TABLE_E_ROWS) == set(CardType)


def test_table_choice_matches_manual_sentences() -> None:
    """table_for(vowel, repeat) picks the table whose sentence says so."""
    assert TABLE_LETTERS == ("A", "B", "C", "D")
    for table, (vowel, repeat) in oracle.MANUAL.conditions.items():
        assert table_for(vowel, repeat) == table


def test_spec_mitten_faces() -> None:
    """Each table has exactly one mitten face: A BS, B RH, C GC, D YT."""
    expected = {"A": "BS", "B": "RH", "C": "GC", "D": "YT"}
    for table, code in ((TableLetter(t), code) for t, code in expected.items()):
        assert card_of(oracle.mitten_face(table)).code == code
        assert MITTEN_FACES[table].code == code
        for digit in DIGITS:
            assert Ruleset(table, digit).mitten.code == code
        mittens = [c for c in Card if CARD_TABLES[table][c] is CardType.EXPLODING_MITTEN]
        assert [c.code for c in mittens] == [code]


def test_card_types_every_table_and_face() -> None:
    """Tables A-D agree with the manual cell by cell, and the derived face sets too."""
    for table in TABLE_LETTERS:
        ruleset = Ruleset(table, 0)
        plain, defuse = set(), set()
        for face, card in FACE_CARDS.items():
            expected = oracle.card_type(table, face)
            assert CARD_TABLES[table][card].value == expected, (table, face)
            assert card_type(table, card).value == expected
            assert ruleset.type_of(card).value == expected
            assert CardType.parse(expected) is CARD_TABLES[table][card]
            if expected == oracle.DEFUSE:
                defuse.add(card)
            elif expected != oracle.MITTEN:
                plain.add(card)
        assert set(PLAIN_FACES[table]) == plain == set(ruleset.plain_faces)
        assert set(DEFUSE_FACES[table]) == defuse == set(ruleset.defuse_faces)
        assert list(PLAIN_FACES[table]) == sorted(plain)
        assert all(t.is_plain for c in plain for t in [CARD_TABLES[table][c]])


def test_table_e_every_cell() -> None:
    """Table E agrees with the manual for every discard type and last digit."""
    assert set(TABLE_E) == set(CardType)
    for type_name, row in oracle.MANUAL.table_e.items():
        letters = TABLE_E[CardType(type_name)]
        assert len(letters) == 10
        for digit, letter in row.items():
            assert letters[digit] == letter, (type_name, digit)


def test_rule_texts_are_the_manuals() -> None:
    """Table F's wording is the manual's, letter for letter."""
    assert tuple(RULE_TEXTS) == RULE_LETTERS == tuple(oracle.MANUAL.rule_texts)
    assert dict(RULE_TEXTS) == oracle.MANUAL.rule_texts


def test_table_f_predicates_every_letter_card_discard_mitten() -> None:
    """Every rule predicate agrees with the oracle's reading of the manual's sentence."""
    assert set(RULE_PREDICATES) == set(oracle.RULES)
    mittens = [oracle.mitten_face(t) for t in "ABCD"]
    for letter, predicate in oracle.RULES.items():
        for card, discard, mitten in itertools.product(oracle.ALL_FACES, repeat=3):
            if mitten not in mittens:
                continue
            got = rule_admits(
                RuleLetter(letter), FACE_CARDS[card], FACE_CARDS[discard], FACE_CARDS[mitten]
            )
            assert got == predicate(card, discard, mitten), (letter, card, discard, mitten)


def test_rule_i_to_l_use_the_tables_mitten_whatever_the_discard() -> None:
    """Rules I-L compare with the active table's mitten face, not the discard."""
    # Table C's mitten is the green circle; a red triangle discard shares nothing with it.
    red_triangle, green_heart = Card.RED_TRIANGLE, Card.GREEN_HEART
    mitten = MITTEN_FACES[TableLetter.C]
    assert rule_admits(RuleLetter.K, green_heart, red_triangle, mitten)
    assert not rule_admits(RuleLetter.I, green_heart, red_triangle, mitten)
    assert rule_admits(RuleLetter.I, Card.BLUE_CIRCLE, red_triangle, mitten)
    assert rule_admits(RuleLetter.A, red_triangle, red_triangle, mitten)
    assert not rule_admits(RuleLetter.A, Card.RED_SQUARE, red_triangle, mitten)


def test_rules_every_table_digit_discard_card() -> None:
    """Rule letter and legality for all 4 x 10 x 16 x 16 combinations."""
    for table, digit in itertools.product(TABLE_LETTERS, DIGITS):
        ruleset = Ruleset(table, digit)
        for discard in oracle.ALL_FACES:
            d = FACE_CARDS[discard]
            letter = oracle.rule_letter(table, digit, discard)
            assert ruleset.rule(d) == letter == rule_letter(table, digit, d)
            mask = ruleset.legal_mask(d)
            assert mask == legal_mask(table, digit, d)
            assert 0 <= mask < 1 << 16
            for card in oracle.ALL_FACES:
                c = FACE_CARDS[card]
                expected = oracle.is_legal(table, digit, card, discard)
                assert ruleset.is_legal(c, d) == expected, (table, digit, discard, card)
                assert Board(ruleset, d, ()).is_legal(c) == expected
                assert bool(mask >> int(c) & 1) == expected


def _hands() -> list[tuple[Face, ...]]:
    """Every ordered hand of 0-2 cards and every 3-card multiset in a varying order."""
    hands: list[tuple[Face, ...]] = []
    for size in range(3):
        hands.extend(itertools.product(oracle.ALL_FACES, repeat=size))
    orders = list(itertools.permutations(range(3)))
    for i, triple in enumerate(itertools.combinations_with_replacement(oracle.ALL_FACES, 3)):
        order = orders[i % len(orders)]
        hands.append(tuple(triple[j] for j in order))
    return hands


def test_hands_every_table_digit_discard() -> None:
    """The board's legal slots, blocking slots, discard and draw room on every hand."""
    hands = [(h, cards_of(h)) for h in _hands()]
    assert len(hands) == 1 + 16 + 256 + 816
    any_rules = Ruleset(TableLetter.A, 0)
    assert [Board(any_rules, Card.RED_CIRCLE, cards).has_room for _, cards in hands] == [
        len(hand) < 3 for hand, _ in hands
    ]
    exempted = 0
    for table, digit in itertools.product(TABLE_LETTERS, DIGITS):
        ruleset = Ruleset(table, digit)
        for discard in oracle.ALL_FACES:
            d = FACE_CARDS[discard]
            # One comparison per discard (the asserts of a loop over 700,000 hands cost
            # more than the rules they check); a difference names its first hand.
            expected = [oracle.hand_verdict(table, digit, discard, hand) for hand, _ in hands]
            boards = [Board(ruleset, d, cards) for _, cards in hands]
            got = [
                (
                    list(b.legal_slots),
                    list(b.blocking_slots),
                    b.discard_allowed,
                    b.verdict(DISCARD, mitten_on_top=False).effect is Effect.DEAL,
                )
                for b in boards
            ]
            if got != expected:
                i = next(i for i, (g, e) in enumerate(zip(got, expected, strict=True)) if g != e)
                raise AssertionError((table, digit, discard, hands[i][0], got[i], expected[i]))
            exempted += sum(legal != blocking for legal, blocking, _, _ in expected)
    # The lone-legal-Defuse exemption was exercised, not just vacuously agreed with.
    assert exempted > 1000


def test_lone_legal_defuse_examples() -> None:
    """The spec's exemption on hand-picked hands: table A, digit 3, yellow circle on top."""
    defuse_rules = Ruleset(TableLetter.A, 3)
    discard = Card.YELLOW_CIRCLE  # a Defuse in table A; Table E DEFUSE/3 is C
    assert defuse_rules.type_of(discard) is CardType.DEFUSE
    assert defuse_rules.rule(discard) == "C"  # legal: circles
    # The yellow circle (a Defuse) is the only legal card: discarding is allowed.
    hand: tuple[Card, ...] = (Card.BLUE_HEART, Card.YELLOW_CIRCLE, Card.RED_TRIANGLE)
    board = Board(defuse_rules, discard, hand)
    assert board.legal_slots == (2,)
    assert board.blocking_slots == ()
    assert board.discard_allowed
    # Two legal cards, one a Defuse: both block.
    hand = (Card.YELLOW_CIRCLE, Card.BLUE_CIRCLE)
    assert Board(defuse_rules, discard, hand).blocking_slots == (1, 2)
    # Two legal Defuse cards: they block.
    hand = (Card.YELLOW_CIRCLE, Card.RED_HEART, Card.YELLOW_CIRCLE)
    assert Board(defuse_rules, discard, hand).blocking_slots == (1, 3)
    # A lone legal plain card blocks.
    assert defuse_rules.type_of(Card.BLUE_CIRCLE) is CardType.YEP
    assert Board(defuse_rules, discard, (Card.BLUE_CIRCLE,)).blocking_slots == (1,)
    assert not Board(defuse_rules, discard, (Card.BLUE_CIRCLE,)).discard_allowed


def test_hand_of_four_is_refused() -> None:
    """More than three cards is bad input, named in the message."""
    ruleset = Ruleset(TableLetter.B, 4)
    four = (Card.RED_CIRCLE, Card.BLUE_HEART, Card.GREEN_SQUARE, Card.YELLOW_TRIANGLE)
    for check in (lambda: Board(ruleset, Card.RED_CIRCLE, four), lambda: rules.check_hand(four)):
        try:
            check()
        except InvalidHandError as exc:
            assert str(exc) == "hand 'RC BH GS YT' has 4 cards, expected 0 to 3"
        else:
            raise AssertionError("four cards were accepted")
    assert rules.check_hand([Card.RED_CIRCLE]) == (Card.RED_CIRCLE,)


def test_ruleset_refuses_unknown_table_and_digit() -> None:
    """A Ruleset is a table A-D and a digit 0-9; anything else (from untyped data, such as
    parsed JSON) is an input error."""
    for table, digit in (("E", 0), ("a", 0), ("", 0), ("A", 10), ("A", -1)):
        try:
            Ruleset(cast(TableLetter, table), digit)
        except EdgeworkError as exc:
            assert "expected" in str(exc)
        else:
            raise AssertionError(f"Ruleset({table!r}, {digit}) was accepted")


def test_interval_every_battery_count() -> None:
    """N = batteries mod 5 + 9 for every count the model accepts."""
    for count in range(100):
        n = oracle.interval(count)
        assert 9 <= n <= 13
        assert interval_for(count) == n == Batteries(count).interval
    try:
        interval_for(-1)
    except EdgeworkError as exc:
        assert "-1" in str(exc)
    else:
        raise AssertionError("a negative battery count was accepted")


VANILLA_EDGE = "ABCDEFGHIJKLMNPQRSTUVWXZ0123456789"  # letters-or-digits, never O or Y
VANILLA_LETTERS = "ABCDEFGHIJKLMNPQRSTUVWXZ"
ALNUM = string.ascii_uppercase + string.digits


def _random_vanilla(rng: random.Random) -> str:
    return "".join(
        (
            rng.choice(VANILLA_EDGE),
            rng.choice(VANILLA_EDGE),
            rng.choice(string.digits),
            rng.choice(VANILLA_LETTERS),
            rng.choice(VANILLA_LETTERS),
            rng.choice(string.digits),
        )
    )


def _random_lenient(rng: random.Random) -> str:
    chars = [rng.choice(ALNUM) for _ in range(6)]
    if not any(ch.isdigit() for ch in chars):
        chars[rng.randrange(6)] = rng.choice(string.digits)
    return "".join(chars)


def _check_serial(text: str, *, strict: bool) -> tuple[str, int]:
    serial = SerialNumber.parse(text, strict=strict)
    table = oracle.table_for_serial(text)
    digit = oracle.last_digit(text)
    assert serial.table == table, text
    assert serial.last_digit == digit, text
    return table, digit


def test_serials_of_every_class_and_digit() -> None:
    """A deterministic sample of vanilla and modded serials covers all 4 x 10 classes."""
    rng = random.Random(20240602)
    seen_vanilla: set[tuple[str, int]] = set()
    seen_lenient: set[tuple[str, int]] = set()
    for _ in range(6000):
        seen_vanilla.add(_check_serial(_random_vanilla(rng), strict=True))
        text = _random_lenient(rng)
        seen_lenient.add(_check_serial(text, strict=False))
        seen_lenient.add(_check_serial(text.lower(), strict=False))
    every = set(itertools.product("ABCD", DIGITS))
    assert seen_vanilla == every
    assert seen_lenient == every


def test_serial_class_corner_cases() -> None:
    """Repeats among digits count, Y is not a vowel, the last digit need not be last."""
    cases = {
        "AB1CD1": ("A", 1),  # vowel A; the repeat is the digit 1
        "BC1DF2": ("D", 2),
        "UB3CD4": ("B", 4),  # U is a vowel
        "BB3CD4": ("C", 4),  # repeated letter, no vowel
        "ZZ9XW0": ("C", 0),
        "9A9BC8": ("A", 8),  # the only repeat is the leading 9
    }
    for text, expected in cases.items():
        assert _check_serial(text, strict=True) == expected
    lenient = {
        "YB3CD4": ("D", 4),  # Y is not a vowel
        "OB3CD4": ("B", 4),  # O is a vowel (modded serials may use it)
        "AB3CDE": ("B", 3),  # the last digit character is the third one
        "123456": ("D", 6),
        "111111": ("C", 1),
    }
    for text, expected in lenient.items():
        assert _check_serial(text, strict=False) == expected


@given(st.text(alphabet=ALNUM, min_size=6, max_size=6).filter(lambda s: any(map(str.isdigit, s))))
def test_any_lenient_serial_picks_the_oracles_table(text: str) -> None:
    """Hypothesis: table and last digit agree with the oracle on modded serials."""
    _check_serial(text, strict=False)
