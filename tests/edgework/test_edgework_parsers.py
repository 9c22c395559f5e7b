"""Round trips and error messages for every parser in :mod:`edgework`.

The domains are tiny, so cards, card types, hands, battery counts and holders are
checked exhaustively; serial numbers and the Twitch Plays edgework notation are checked
with Hypothesis both ways (value -> text -> value, and canonical text -> value -> text).
Every parser is also fed arbitrary text: it returns a value or raises its own
``EdgeworkError`` (one clear line naming the input), never anything else.
"""

from __future__ import annotations

import itertools
import re
import string
from collections.abc import Callable
from typing import TypeVar

from hypothesis import given
from hypothesis import strategies as st

from defuser.terminal.words import error_words
from edgework import (
    Batteries,
    Edgework,
    EdgeworkError,
    Indicator,
    InvalidBatteriesError,
    InvalidCardError,
    InvalidEdgeworkError,
    InvalidSerialError,
    PortPlate,
)
from edgework.cards import Card, CardType, Colour, Shape, parse_hand
from edgework.serial_number import SerialNumber
from edgework.widgets import CANONICAL_PORTS, PORT_NAMES

LENIENT_HINT = "(use --lenient-serial for modded bombs)"
VANILLA_EDGE = "ABCDEFGHIJKLMNPQRSTUVWXZ0123456789"  # letters-or-digits, never O or Y
VANILLA_LETTERS = "ABCDEFGHIJKLMNPQRSTUVWXZ"
ALNUM = string.ascii_uppercase + string.digits
VANILLA_RE = re.compile(r"[A-NP-XZ0-9]{2}[0-9][A-NP-XZ]{2}[0-9]")


E = TypeVar("E", bound=Exception)


def raises(kind: type[E], call: Callable[..., object], *args: object, **kwargs: object) -> E:
    """Call ``call(*args, **kwargs)`` and return the one-line ``kind`` it raises."""
    try:
        result = call(*args, **kwargs)
    except kind as exc:
        message = str(exc)
        assert message and "\n" not in message, message
        return exc
    raise AssertionError(f"{call!r}{args!r} returned {result!r}, expected {kind.__name__}")


# ---------------------------------------------------------------- cards and types


def spellings(card: Card) -> list[str]:
    """Every spelling the issue asks Card.parse to accept for ``card``."""
    colour, shape = card.colour.name.lower(), card.shape.name.lower()
    code = colour[0].upper() + shape[0].upper()
    return [
        code,
        code.lower(),
        code[0] + code[1].lower(),
        f"{colour} {shape}",
        f"{shape} {colour}",
        f"{colour.title()} {shape.title()}",
        f"{shape.title()} {colour.title()}",
        f"{colour.upper()} {shape.upper()}",
        f"  {colour}   {shape}  ",
        f"{colour}-{shape}",
        f"{colour}_{shape}",
    ]


def test_card_every_face_every_spelling() -> None:
    """Each of the 16 faces parses from every spelling and prints its code and words."""
    assert len(Card) == 16
    for card in Card:
        for text in spellings(card):
            assert Card.parse(text) is card, text
        assert str(card) == card.code == spellings(card)[0]
        assert f"{card}" == card.code
        assert f"{card:>4}" == f"  {card.code}"
        assert card.words == spellings(card)[3]
        assert Card.parse(str(card)) is card
        assert Card.parse(card.words) is card
        assert Card.of(card.shape, card.colour) is card
        assert card.code[0] == card.colour.initial and card.code[1] == card.shape.initial
        assert card.words == f"{card.colour.word} {card.shape.word}"
    assert len({c.code for c in Card}) == 16
    assert len({c.words for c in Card}) == 16


def test_card_reprs_are_python() -> None:
    """repr() of a face, shape, colour or type evaluates back to the same member."""
    names = {"Card": Card, "Shape": Shape, "Colour": Colour, "CardType": CardType}
    for member in [*Card, *Shape, *Colour, *CardType]:
        assert eval(repr(member), names) is member


def test_card_parse_errors_name_the_input() -> None:
    """Unknown faces are refused with the input quoted and the accepted forms named."""
    for text in ("", "X", "XX", "RX", "red", "purple circle", "red circle square", "RCC", "1"):
        exc = raises(InvalidCardError, Card.parse, text)
        message = str(exc)
        assert message.startswith(f"card {text!r} is not a card face, expected ")
        assert "RC" in message and "red circle" in message
        assert isinstance(exc, EdgeworkError) and isinstance(exc, ValueError)


@given(st.text(max_size=30))
def test_card_parse_any_text(text: str) -> None:
    """Card.parse returns a face or raises InvalidCardError, whatever the text."""
    try:
        card = Card.parse(text)
    except InvalidCardError as exc:
        assert repr(text) in str(exc)
    else:
        assert card in {Card.parse(s) for s in (card.code, card.words)}


def test_card_type_parse_and_print() -> None:
    """Every type parses from its name in any case, its enum name and the manual's spelling."""
    assert [t.value for t in CardType] == [
        "Nope",
        "Yep",
        "Defuse",
        "Double Play",
        "Attack",
        "Exploding Mitten",
    ]
    for kind in CardType:
        assert str(kind) == kind.value
        for text in (kind.value, kind.value.upper(), kind.value.lower(), kind.name, f" {kind} "):
            assert CardType.parse(text) is kind, text
        assert kind.is_plain is (kind not in (CardType.DEFUSE, CardType.EXPLODING_MITTEN))
    assert CardType.parse("Expl. Mitten") is CardType.EXPLODING_MITTEN
    assert CardType.parse("EXPLODING MITTEN") is CardType.EXPLODING_MITTEN
    assert CardType.parse("double  play") is CardType.DOUBLE_PLAY
    for text in ("", "Nop", "Kitten", "Exploding Kitten"):
        message = str(raises(InvalidCardError, CardType.parse, text))
        assert message.startswith(f"card type {text!r} is not known, expected one of ")
        assert "Double Play" in message and "Exploding Mitten" in message


# ---------------------------------------------------------------- hands


def test_parse_hand_every_hand_every_format() -> None:
    """Every ordered hand of 0-3 cards survives printing as codes or words, any separator."""
    for size in range(4):
        for hand in itertools.product(Card, repeat=size):
            codes = [c.code for c in hand]
            words = [c.words for c in hand]
            texts = [
                " ".join(codes),
                ",".join(codes),
                ", ".join(codes).lower(),
                "  ".join(codes) + " ",
                ", ".join(words),
                " ".join(words),
                " ".join(f"{c.shape.word.title()} {c.colour.word}" for c in hand),
                " ".join(words[i] if i % 2 else code for i, code in enumerate(codes)),
            ]
            for text in texts:
                assert parse_hand(text) == hand, text


def test_parse_hand_errors_name_the_bad_card() -> None:
    """A bad card in a hand is named on its own."""
    message = str(raises(InvalidCardError, parse_hand, "BH XX GS"))
    assert message.startswith("card 'XX' is not a card face")
    message = str(raises(InvalidCardError, parse_hand, "blue heart, purple"))
    assert "'purple'" in message


@given(st.text(alphabet="RBGYCHTS ,redblugnylowcirhatsqu", max_size=40))
def test_parse_hand_any_text(text: str) -> None:
    """parse_hand returns faces or raises InvalidCardError; its faces print back."""
    try:
        hand = parse_hand(text)
    except InvalidCardError:
        return
    assert parse_hand(" ".join(c.code for c in hand)) == hand
    assert parse_hand(", ".join(c.words for c in hand)) == hand


# ---------------------------------------------------------------- serial numbers


def test_serial_messages_from_the_issue() -> None:
    """The two messages quoted in the issue, word for word."""
    exc = raises(InvalidSerialError, SerialNumber.parse, "AB3CD")
    assert str(exc) == "serial number 'AB3CD' has 5 characters, expected 6 (like AB3CD4)"
    exc = raises(InvalidSerialError, SerialNumber.parse, "AB3OD4")
    # The library carries the fact (only the vanilla shape refused it); the command line
    # words the option that helps.
    assert exc.vanilla_only
    assert error_words(exc) == (
        "serial number 'AB3OD4' contains O, which vanilla serials never use "
        "(use --lenient-serial for modded bombs)"
    )
    assert isinstance(exc, EdgeworkError) and isinstance(exc, ValueError)


BAD_SERIALS = [
    "",
    "AB3CD",
    "AB3CD45",
    "ab3cd",
    "AB 3CD4",
    "AB-CD4",
    "AB3CD!",
    "ABCDEF",
    "ßab3c",  # upper-cases to six characters, but five were typed
    "ÀB3CD4",
    "AB٣CD4",  # an Arabic-Indic digit
    "AB3OD4",
    "YB3CD4",
    "ABXCD4",
    "AB31D4",
    "AB3C14",
    "AB3CDE",
    "123456",
]


def test_serial_bad_input_messages() -> None:
    """Every refusal names the input, says what was expected, and hints at lenient mode
    exactly when lenient parsing would accept the serial."""
    for text in BAD_SERIALS:
        exc = raises(InvalidSerialError, SerialNumber.parse, text)
        message = error_words(exc)
        assert message.startswith(f"serial number {text.strip()!r} "), message
        assert "expected" in message or "never use" in message, message
        assert "--" not in str(exc), str(exc)
        try:
            SerialNumber.parse(text, strict=False)
        except InvalidSerialError as lenient_exc:
            assert not exc.vanilla_only and not lenient_exc.vanilla_only
            assert LENIENT_HINT not in message, message
            assert LENIENT_HINT not in error_words(lenient_exc)
            assert str(lenient_exc).startswith(f"serial number {text.strip()!r} ")
        else:
            assert exc.vanilla_only
            assert message.endswith(LENIENT_HINT), message


def parses_strictly(serial: SerialNumber) -> bool:
    """Whether the serial has the shape the base game generates (strict parsing takes it)."""
    try:
        SerialNumber.parse(serial.text)
    except InvalidSerialError:
        return False
    return True


def test_serial_properties() -> None:
    """Letters, digits, last digit, vowels and repeats as the spec defines them."""
    serial = SerialNumber.parse(" ae3cd4\n")
    assert serial.text == str(serial) == "AE3CD4"
    assert serial.letters == "AECD" and serial.digits == "34" and serial.last_digit == 4
    assert serial.has_vowel and not serial.has_repeat and serial.table == "B"
    assert parses_strictly(serial)
    modded = SerialNumber.parse("ab3cde", strict=False)
    assert modded.last_digit == 3 and not parses_strictly(modded)
    assert SerialNumber.parse("AB1CD1").has_repeat
    assert not SerialNumber.parse("YB3CD4", strict=False).has_vowel
    repeats = SerialNumber.parse("EE1UE1", strict=False)
    assert (repeats.vowels, repeats.repeated) == ("EEUE", "E1")
    assert (serial.vowels, serial.repeated) == ("AE", "")


@st.composite
def vanilla_serials(draw: st.DrawFn) -> str:
    """Serials of the base game's shape, upper-case."""
    pools = [VANILLA_EDGE, VANILLA_EDGE, string.digits, VANILLA_LETTERS, VANILLA_LETTERS]
    pools.append(string.digits)
    return "".join(draw(st.sampled_from(pool)) for pool in pools)


lenient_serials = st.text(alphabet=ALNUM, min_size=6, max_size=6).filter(
    lambda s: any(ch.isdigit() for ch in s)
)


@st.composite
def mixed_case(draw: st.DrawFn, canonical: st.SearchStrategy[str]) -> tuple[str, str]:
    """A canonical serial and a spelling of it with random case and outer spaces."""
    text = draw(canonical)
    lowers = draw(st.lists(st.booleans(), min_size=6, max_size=6))
    typed = "".join(ch.lower() if low else ch for ch, low in zip(text, lowers, strict=True))
    pad = draw(st.sampled_from(["", " ", "\t", " \n"]))
    return text, pad + typed + pad


def _expected_facts(text: str) -> tuple[str, str, int, bool, bool]:
    letters = "".join(ch for ch in text if ch.isalpha())
    digits = "".join(ch for ch in text if ch.isdigit())
    vowel = any(ch in "AEIOU" for ch in letters)
    repeat = len(set(text)) < 6
    return letters, digits, int(digits[-1]), vowel, repeat


@given(mixed_case(vanilla_serials()))
def test_vanilla_serial_round_trip(pair: tuple[str, str]) -> None:
    """Vanilla serials parse strictly in any case; printing gives the canonical text."""
    canonical, typed = pair
    assert VANILLA_RE.fullmatch(canonical)
    serial = SerialNumber.parse(typed)
    assert str(serial) == canonical
    assert SerialNumber.parse(str(serial)) == serial
    assert SerialNumber.parse(typed, strict=False) == serial
    assert parses_strictly(serial)
    letters, digits, last, vowel, repeat = _expected_facts(canonical)
    assert (serial.letters, serial.digits, serial.last_digit) == (letters, digits, last)
    assert (serial.has_vowel, serial.has_repeat) == (vowel, repeat)


@given(mixed_case(lenient_serials))
def test_lenient_serial_round_trip(pair: tuple[str, str]) -> None:
    """Any six letters and digits with a digit parse leniently; strict iff vanilla."""
    canonical, typed = pair
    serial = SerialNumber.parse(typed, strict=False)
    assert str(serial) == canonical
    assert SerialNumber.parse(str(serial), strict=False) == serial
    letters, digits, last, vowel, repeat = _expected_facts(canonical)
    assert (serial.letters, serial.digits, serial.last_digit) == (letters, digits, last)
    assert (serial.has_vowel, serial.has_repeat) == (vowel, repeat)
    vanilla = VANILLA_RE.fullmatch(canonical) is not None
    assert parses_strictly(serial) is vanilla
    if vanilla:
        assert SerialNumber.parse(typed) == serial
    else:
        exc = raises(InvalidSerialError, SerialNumber.parse, typed)
        assert exc.vanilla_only and error_words(exc).endswith(LENIENT_HINT)


@given(st.text(max_size=10), st.booleans())
def test_serial_parse_any_text(text: str, strict: bool) -> None:
    """SerialNumber.parse returns a 6-character ASCII serial or raises InvalidSerialError."""
    try:
        serial = SerialNumber.parse(text, strict=strict)
    except InvalidSerialError as exc:
        assert str(exc).startswith("serial number ")
        return
    assert re.fullmatch(r"[A-Z0-9]{6}", serial.text) and serial.digits
    assert len(text.strip()) == 6
    assert serial.text == text.strip().upper()


def test_serial_counts_the_characters_typed() -> None:
    """Upper-casing must not turn five typed characters into six ('ß' -> 'SS')."""
    for strict in (True, False):
        exc = raises(InvalidSerialError, SerialNumber.parse, "ßab3c", strict=strict)
        assert str(exc) == "serial number 'ßab3c' has 5 characters, expected 6 (like AB3CD4)"


# ---------------------------------------------------------------- batteries


def test_batteries_every_count_and_holders() -> None:
    """Every count 0-99, alone or with every possible number of holders, round-trips."""
    for count in range(100):
        plain = Batteries(count)
        assert str(plain) == f"{count}B"
        for text in (str(plain), str(count), f" {count}b ", f"{count:03d}"):
            assert Batteries.parse(text) == plain, text
        assert plain.aa_holders is None and plain.d_holders is None
        for holders in range(101):
            if not holders <= count <= 2 * holders:
                raises(InvalidBatteriesError, Batteries, count, holders)
                continue
            value = Batteries(count, holders)
            assert str(value) == f"{count}B {holders}H"
            for text in (str(value), f"{count}b{holders}h", f" {count} B  {holders} H "):
                assert Batteries.parse(text) == value, text
            aa, d = value.aa_holders, value.d_holders
            assert aa is not None and d is not None and aa >= 0 and d >= 0
            assert aa + d == holders and 2 * aa + d == count
            assert Batteries.from_holders(aa, d) == value
            assert value.interval == count % 5 + 9


def test_batteries_from_holders() -> None:
    """AA holders carry 2 batteries and D holders 1."""
    assert Batteries.from_holders(aa=1, d=1) == Batteries(3, 2)
    assert Batteries.from_holders() == Batteries(0, 0)
    assert Batteries.from_holders(aa=3) == Batteries(6, 3)
    assert Batteries.from_holders(d=4) == Batteries(4, 4)
    message = str(raises(InvalidBatteriesError, Batteries.from_holders, -1, 0))
    assert "-1" in message and "expected 0 or more" in message
    raises(InvalidBatteriesError, Batteries.from_holders, 50, 0)  # 100 batteries


def test_batteries_bad_input() -> None:
    """Out-of-range or malformed counts are refused with the input named."""
    for count in (-1, 100, 10**6):
        message = str(raises(InvalidBatteriesError, Batteries, count))
        assert message == f"batteries {count} is out of range, expected 0 to 99"
    for text in ("100", "9" * 5000, "0" * 4999 + "100"):
        message = str(raises(InvalidBatteriesError, Batteries.parse, text))
        assert message.startswith("batteries ") and "expected 0 to 99" in message
    for text in ("", "-1", "three", "3H", "3 2H", "B", "3B 2", "3.5", "3B 2H 1H"):
        message = str(raises(InvalidBatteriesError, Batteries.parse, text))
        assert message.startswith(f"batteries {text!r} is not a battery count, expected ")
    message = str(raises(InvalidBatteriesError, Batteries.parse, "3B 1H"))
    assert "3" in message and "1" in message and "expected between 1 and 2" in message
    assert Batteries.parse("0" * 5000 + "3") == Batteries(3)


@given(st.text(alphabet="0123456789BbHh -", max_size=12))
def test_batteries_parse_any_text(text: str) -> None:
    """Batteries.parse returns a value that prints back, or raises its own error."""
    try:
        value = Batteries.parse(text)
    except InvalidBatteriesError:
        return
    assert Batteries.parse(str(value)) == value


# ---------------------------------------------------------------- indicators and ports


def test_indicator_forms() -> None:
    """``FRK`` unlit, ``*FRK`` lit, ``lit frk`` and ``unlit FRK``; printed canonically."""
    cases = {
        "FRK": Indicator("FRK", False),
        "*FRK": Indicator("FRK", True),
        " *frk ": Indicator("FRK", True),
        "lit frk": Indicator("FRK", True),
        "Unlit CAR": Indicator("CAR", False),
    }
    for text, value in cases.items():
        parsed = Indicator.parse(text)
        assert parsed == value, text
        assert Indicator.parse(str(parsed)) == parsed
    assert str(Indicator("FRK", True)) == "*FRK" and str(Indicator("CAR", False)) == "CAR"
    for text in ("", "*", "FR", "FRKK", "F1K", "**FRK", "lit FRK CAR", "on FRK"):
        message = str(raises(InvalidEdgeworkError, Indicator.parse, text))
        assert message.startswith(f"indicator {text!r} is not an indicator, expected ")


indicators = st.builds(
    Indicator,
    st.text(alphabet=string.ascii_uppercase, min_size=3, max_size=3),
    st.booleans(),
)


@given(indicators)
def test_indicator_round_trip(value: Indicator) -> None:
    """Printing then parsing an indicator gives it back."""
    assert Indicator.parse(str(value)) == value
    assert str(Indicator.parse(str(value))) == str(value)


def test_port_plate_forms() -> None:
    """Plates with ports, empty plates, forgiving port spellings, canonical printing."""
    assert PortPlate.parse("[Parallel, Serial]") == PortPlate(("Parallel", "Serial"))
    assert PortPlate.parse("[Empty]") == PortPlate(()) == PortPlate.parse("[empty]")
    assert PortPlate.parse("Parallel,Serial") == PortPlate(("Parallel", "Serial"))
    assert str(PortPlate(())) == "[Empty]"
    assert str(PortPlate(("DVI", "PS2"))) == "[DVI, PS2]"
    aliases = PortPlate.parse("[dvi-d, ps/2, rj-45, stereo rca, RCA, SERIAL]")
    assert aliases.ports == ("DVI", "PS2", "RJ45", "StereoRCA", "StereoRCA", "Serial")
    for alias, canonical in PORT_NAMES.items():
        assert canonical in CANONICAL_PORTS
        assert PortPlate.parse(f"[{alias}]").ports == (canonical,)
    for port in CANONICAL_PORTS:
        assert PortPlate.parse(str(PortPlate((port,)))) == PortPlate((port,))
    message = str(raises(InvalidEdgeworkError, PortPlate.parse, "[Parallel, HDMI]"))
    assert message.startswith("port 'HDMI' in plate '[Parallel, HDMI]' is not a port, expected")
    for text in ("[]", "[ , ]", ""):
        message = str(raises(InvalidEdgeworkError, PortPlate.parse, text))
        assert message.startswith(f"port plate {text!r} is empty, expected ")


plates = st.builds(PortPlate, st.lists(st.sampled_from(CANONICAL_PORTS), max_size=4).map(tuple))


@given(plates)
def test_port_plate_round_trip(value: PortPlate) -> None:
    """Printing then parsing a plate gives it back."""
    assert PortPlate.parse(str(value)) == value


# ---------------------------------------------------------------- edgework notation

EXAMPLE = "3B 2H // *FRK, CAR // [Parallel, Serial] [Empty] // AB1CD2"


def test_edgework_example_from_the_issue() -> None:
    """The issue's example parses into its parts and prints back unchanged."""
    value = Edgework.parse(EXAMPLE)
    assert value.batteries == Batteries(3, 2)
    assert value.indicators == (Indicator("FRK", True), Indicator("CAR", False))
    assert value.port_plates == (PortPlate(("Parallel", "Serial")), PortPlate(()))
    assert value.serial == SerialNumber.parse("AB1CD2")
    assert str(value) == EXAMPLE
    assert Edgework.parse(str(value)) == value


def test_edgework_every_subset_of_parts() -> None:
    """Any part may be missing; the rest parse and print in the same order."""
    parts = EXAMPLE.split(" // ")
    full = Edgework.parse(EXAMPLE)
    for mask in range(1, 16):
        kept = [p for i, p in enumerate(parts) if mask >> i & 1]
        text = " // ".join(kept)
        value = Edgework.parse(text)
        assert str(value) == text
        assert value.batteries == (full.batteries if mask & 1 else None)
        assert value.indicators == (full.indicators if mask & 2 else ())
        assert value.port_plates == (full.port_plates if mask & 4 else ())
        assert value.serial == (full.serial if mask & 8 else None)


def test_edgework_forgiving_spelling_prints_canonically() -> None:
    """Case, spacing, ``lit``/``unlit`` and port aliases are read; printing is canonical."""
    loose = "3b2h//lit frk,car//[parallel,serial][empty]//ab1cd2"
    assert str(Edgework.parse(loose)) == EXAMPLE
    assert str(Edgework.parse("  AB1CD2 ")) == "AB1CD2"
    assert Edgework.parse("AB1CD2").serial == SerialNumber.parse("AB1CD2")


def test_edgework_lenient_serials_that_look_like_batteries() -> None:
    """A modded serial such as 12B10H is the serial when it comes last."""
    value = Edgework.parse("3B // 12B10H", strict=False)
    assert value.serial == SerialNumber.parse("12B10H", strict=False)
    assert value.batteries == Batteries(3)
    round_trip = Edgework(serial=SerialNumber.parse("99B50H", strict=False))
    assert Edgework.parse(str(round_trip), strict=False) == round_trip
    exc = raises(InvalidSerialError, Edgework.parse, "3B // 12B10H")
    assert exc.vanilla_only and error_words(exc).endswith(LENIENT_HINT)


def test_edgework_bad_input() -> None:
    """Each malformed edgework string gets a message about the part that is wrong."""
    cases = {
        "": "edgework '' is empty, expected parts joined by ' // '",
        " // ": "edgework ' // ' is empty",
        "3B //  // AB1CD2": "edgework '3B //  // AB1CD2' has an empty part",
        "3B // 3B // AB1CD2": "edgework '3B // 3B // AB1CD2' gives batteries twice",
        "FRK // CAR // AB1CD2": "edgework 'FRK // CAR // AB1CD2' gives indicators twice",
        "[DVI] // [Serial] // AB1CD2": "edgework '[DVI] // [Serial] // AB1CD2' gives port "
        "plates twice",
        "3B // AB3CD": "serial number 'AB3CD' has 5 characters, expected 6 (like AB3CD4)",
        "3B // AB3OD4": "serial number 'AB3OD4' contains O, which vanilla serials never use",
        "3B // [Serial] x // AB1CD2": "port plates '[Serial] x' are malformed, expected ",
        "3B // [HDMI] // AB1CD2": "port 'HDMI' in plate '[HDMI]' is not a port",
        "3B // FRKK // AB1CD2": "indicator 'FRKK' is not an indicator",
        "150B // AB1CD2": "batteries 150 is out of range",
    }
    for text, start in cases.items():
        exc = raises(EdgeworkError, Edgework.parse, text)
        assert str(exc).startswith(start), (text, str(exc))
    assert Edgework.parse("3B // AB3OD4", strict=False).serial == SerialNumber(text="AB3OD4")


batteries_values = st.integers(0, 99).flatmap(
    lambda n: st.one_of(
        st.just(Batteries(n)),
        st.integers((n + 1) // 2, n).map(lambda h: Batteries(n, h)),
    )
)


def edgework_values(serials: st.SearchStrategy[str], strict: bool) -> st.SearchStrategy[Edgework]:
    """Edgework values with at least one part; serials parsed with ``strict``."""
    return st.builds(
        Edgework,
        st.none() | serials.map(lambda s: SerialNumber.parse(s, strict=strict)),
        st.none() | batteries_values,
        st.lists(indicators, max_size=4).map(tuple),
        st.lists(plates, min_size=0, max_size=3).map(tuple),
    ).filter(lambda e: bool(str(e)))


@given(edgework_values(vanilla_serials(), strict=True))
def test_edgework_value_round_trip(value: Edgework) -> None:
    """Value -> text -> value, with vanilla serials parsed strictly."""
    assert Edgework.parse(str(value)) == value


@given(edgework_values(lenient_serials, strict=False))
def test_edgework_value_round_trip_lenient(value: Edgework) -> None:
    """Value -> text -> value, with modded serials parsed leniently."""
    assert Edgework.parse(str(value), strict=False) == value


@st.composite
def canonical_edgework(draw: st.DrawFn) -> str:
    """Canonical notation written out by hand (not with Edgework.__str__)."""
    parts: list[str] = []
    if draw(st.booleans()):
        count = draw(st.integers(0, 99))
        if draw(st.booleans()):
            parts.append(f"{count}B {draw(st.integers((count + 1) // 2, count))}H")
        else:
            parts.append(f"{count}B")
    labels = draw(st.lists(st.text(alphabet=string.ascii_uppercase, min_size=3, max_size=3)))
    if labels:
        parts.append(", ".join(("*" if draw(st.booleans()) else "") + lab for lab in labels))
    plate_list = draw(st.lists(st.lists(st.sampled_from(CANONICAL_PORTS), max_size=3)))
    if plate_list:
        parts.append(" ".join("[" + (", ".join(p) or "Empty") + "]" for p in plate_list))
    if draw(st.booleans()) or not parts:
        parts.append(draw(vanilla_serials()))
    return " // ".join(parts)


@given(canonical_edgework())
def test_edgework_canonical_text_round_trip(text: str) -> None:
    """Canonical text -> value -> the same text."""
    assert str(Edgework.parse(text)) == text


@given(st.text(alphabet="0123456789ABCFHKRSYbh*[], /-", max_size=40), st.booleans())
def test_edgework_parse_any_text(text: str, strict: bool) -> None:
    """Edgework.parse returns a value that prints and parses back, or an EdgeworkError."""
    try:
        value = Edgework.parse(text, strict=strict)
    except EdgeworkError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert str(value)
    assert Edgework.parse(str(value), strict=strict) == value
