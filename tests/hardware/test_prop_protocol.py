"""Protocol messages: encode/decode round trips, strict decoding, fuzzing, the doc's examples."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from edgework import Card
from hardware.errors import CommandRejected, DeviceProtocolError, ErrorCode, HostProtocolError
from hardware.framing import MAX_LINE, BadLine, LineFramer, seal
from hardware.protocol import (
    MAX_COUNT,
    MAX_FIRMWARE,
    MAX_PLATE_PORTS,
    MAX_RATE,
    MAX_SESSION,
    MAX_TAG,
    MAX_TIMER_MS,
    MESSAGES,
    PORT_CODES,
    SEQ_MODULUS,
    Ack,
    Boot,
    Button,
    ButtonPressed,
    Command,
    Cue,
    DeviceMessage,
    Err,
    GameState,
    Hello,
    Hi,
    MessageKind,
    Ok,
    Ping,
    PlaySound,
    Pong,
    Resend,
    ShowBatteries,
    ShowGame,
    ShowHand,
    ShowHolders,
    ShowIndicator,
    ShowIndicatorCount,
    ShowLimit,
    ShowPlate,
    ShowPlateCount,
    ShowSerial,
    ShowSolved,
    ShowStrikes,
    ShowTimer,
    ShowTop,
    decode_command,
    decode_device,
    encode_command,
    is_newer,
    next_seq,
    words,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"

tags = st.integers(0, MAX_TAG)
seqs = st.integers(0, SEQ_MODULUS - 1)
sessions = st.integers(1, MAX_SESSION)
counts = st.integers(0, MAX_COUNT)
slots = st.none() | st.sampled_from(list(Card))
serials = st.none() | st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", min_size=6, max_size=6)

commands: st.SearchStrategy[Command] = st.one_of(
    st.builds(Hello, st.integers(1, MAX_SESSION), sessions),
    st.just(Ping()),
    st.builds(Resend, seqs),
    st.builds(Ack, seqs),
    st.builds(ShowSerial, serials),
    st.builds(ShowBatteries, counts, st.none() | counts),
    st.builds(ShowTop, slots),
    st.builds(ShowHand, st.tuples(slots, slots, slots)),
    st.builds(ShowStrikes, counts),
    st.builds(ShowSolved, st.booleans()),
    st.builds(ShowHolders, counts, counts),
    st.just(ShowHolders(None, None)),
    st.builds(ShowIndicatorCount, counts),
    st.builds(
        ShowIndicator,
        st.integers(1, MAX_COUNT),
        st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=3, max_size=3),
        st.booleans(),
    ),
    st.builds(ShowPlateCount, counts),
    st.builds(
        ShowPlate,
        st.integers(1, MAX_COUNT),
        st.lists(st.sampled_from(sorted(PORT_CODES)), max_size=MAX_PLATE_PORTS).map(tuple),
    ),
    st.builds(ShowLimit, counts),
    st.builds(ShowTimer, st.integers(0, MAX_TIMER_MS), st.integers(0, MAX_RATE)),
    st.just(ShowTimer(None, 0)),
    st.builds(ShowGame, st.sampled_from(list(GameState))),
    st.builds(PlaySound, seqs, st.sampled_from(list(Cue))),
)
firmware = st.text(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
    min_size=1,
    max_size=MAX_FIRMWARE,
)
device_messages: st.SearchStrategy[DeviceMessage] = st.one_of(
    st.builds(Hi, tags, st.just(1), seqs, firmware),
    st.builds(Hi, tags, st.integers(2, MAX_SESSION), seqs, firmware, st.integers(0, MAX_SESSION)),
    st.builds(Pong, tags, st.integers(0, MAX_SESSION), seqs, st.integers(0, 65535)),
    st.builds(Ok, tags),
    st.builds(
        Err, st.none() | tags, st.sampled_from([c for c in ErrorCode if c is not ErrorCode.VERSION])
    ),
    st.builds(Err, st.none() | tags, st.just(ErrorCode.VERSION), st.integers(1, MAX_SESSION)),
    st.builds(ButtonPressed, seqs, st.sampled_from(list(Button))),
    st.builds(ButtonPressed, seqs, st.sampled_from(list(Button)), st.integers(0, MAX_SESSION)),
    st.builds(Boot, st.integers(1, MAX_SESSION)),
)


@given(commands, tags)
def test_command_round_trip(command: Command, tag: int) -> None:
    body = encode_command(command, tag)
    assert len(seal(body)) - 1 <= MAX_LINE
    assert body.split(" ")[0] in words(MessageKind.COMMAND)
    assert decode_command(body) == (str(tag), command)


@given(device_messages)
def test_device_message_round_trip(message: DeviceMessage) -> None:
    body = message.encode()
    assert len(seal(body)) - 1 <= MAX_LINE
    expected = MessageKind.EVENT if isinstance(message, ButtonPressed | Boot) else MessageKind.REPLY
    assert body.split(" ")[0] in words(expected)
    assert decode_device(body) == message


def test_first_tokens_are_disjoint_and_complete() -> None:
    kinds = {kind: set(words(kind)) for kind in MessageKind}
    assert kinds[MessageKind.COMMAND] == {
        "HELLO", "PING", "RESEND", "ACK", "SERIAL", "BATT", "TOP", "HAND", "STRIKES", "SOLVED",
        "HOLDERS", "INDS", "IND", "PLATES", "PLATE", "LIMIT", "TIMER", "GAME", "SOUND",
    }
    assert kinds[MessageKind.REPLY] == {"HI", "PONG", "OK", "ERR"}
    assert kinds[MessageKind.EVENT] == {"BTN", "BOOT"}
    assert sum(map(len, kinds.values())) == len(MESSAGES)


def test_every_card_code_and_empty_slot() -> None:
    for card in Card:
        assert decode_command(f"TOP 1 {card.code}") == ("1", ShowTop(card))
    assert decode_command("HAND 2 -- RC --") == ("2", ShowHand((None, Card.RED_CIRCLE, None)))
    assert ShowHand.of([Card.BLUE_HEART]) == ShowHand((Card.BLUE_HEART, None, None))


@pytest.mark.parametrize(
    ("body", "tag", "code"),
    [
        ("PING", None, "ARGS"),
        ("PING x", None, "ARGS"),
        ("PING 01", None, "ARGS"),
        ("PING 1000", None, "ARGS"),
        ("FLASH 3 RED", "3", "UNKNOWN"),
        ("ping 3", "3", "UNKNOWN"),
        ("OK 3", "3", "UNKNOWN"),
        ("HAND 5 RC", "5", "ARGS"),
        ("HAND 5 RC BH rc", "5", "ARGS"),
        ("TOP 5 XX", "5", "ARGS"),
        ("STRIKES 5 100", "5", "ARGS"),
        ("STRIKES 5 -1", "5", "ARGS"),
        ("SOLVED 5 2", "5", "ARGS"),
        ("SERIAL 5 ab3cd4", "5", "ARGS"),
        ("SERIAL 5 AB3CD", "5", "ARGS"),
        ("BATT 5 3", "5", "ARGS"),
        ("BATT 5 3 x", "5", "ARGS"),
        ("HELLO 5 1", "5", "ARGS"),
        ("HELLO 5 1 0", "5", "ARGS"),
        ("RESEND 5 65536", "5", "ARGS"),
        ("PING 5 extra", "5", "ARGS"),
        ("PING  5", None, "ARGS"),
    ],
)
def test_command_rejections_name_the_err_code(body: str, tag: str | None, code: str) -> None:
    with pytest.raises(CommandRejected) as caught:
        decode_command(body)
    assert caught.value.tag == tag
    assert caught.value.code is ErrorCode(code)


@pytest.mark.parametrize(
    "body",
    [
        "HELLO 1 1 5",
        "OK",
        "OK 1 2",
        "OK 01",
        "HI 1 1 0",
        "HI 1 1 0 bad*name",
        "HI 1 1 0 " + "x" * (MAX_FIRMWARE + 1),
        "PONG 1 2 3",
        "ERR 1 WHATEVER",
        "ERR 1 VERSION",
        "ERR 1 ARGS 2",
        "BTN 1 HAND4",
        "BTN -1 DECK",
        "BOOT 0",
        "",
    ],
)
def test_device_decode_errors_quote_the_line(body: str) -> None:
    with pytest.raises(DeviceProtocolError) as caught:
        decode_device(body)
    assert repr(body) in str(caught.value)
    assert caught.value.line == body


def test_host_side_values_are_checked_before_sending() -> None:
    for make in (
        lambda: ShowStrikes(100),
        lambda: ShowBatteries(3, 100),
        lambda: ShowSerial("ab3cd4"),
        lambda: Hello(1, 0),
        lambda: Ack(SEQ_MODULUS),
        lambda: ShowHand.of([Card.RED_CIRCLE] * 4),
        lambda: encode_command(Ping(), MAX_TAG + 1),
    ):
        with pytest.raises(HostProtocolError):
            make()


ALL_BODIES = st.one_of(
    commands.map(lambda c: encode_command(c, 7)), device_messages.map(lambda m: m.encode())
)


@given(ALL_BODIES, st.data())
def test_corrupted_bytes_never_pass(body: str, data: st.DataObject) -> None:
    """Any change of 1-2 bytes in a sealed line is caught by the framer, never decoded."""
    original = seal(body)[:-1]
    line = bytearray(original)
    for _ in range(data.draw(st.integers(1, 2))):
        index = data.draw(st.integers(0, len(line) - 1))
        allowed = [b for b in range(256) if b not in (line[index], 10)]
        line[index] = data.draw(st.sampled_from(allowed))
    if bytes(line) == original:
        return
    out = LineFramer().feed(bytes(line) + b"\n")
    assert len(out) == 1
    # CRC-16 catches every error burst of up to 16 bits, so every change within 2 bytes
    # of each other; two distant bytes could only cancel rarely. Either way the result
    # is a bad line or a line that decodes to a protocol error, never a crash.
    item = out[0]
    if not isinstance(item, BadLine):
        assert item != body
        with contextlib.suppress(DeviceProtocolError, CommandRejected):
            decode_device(item)
            decode_command(item)


@given(st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=60))
def test_decoders_raise_only_protocol_errors(body: str) -> None:
    with contextlib.suppress(CommandRejected):
        decode_command(body)
    with contextlib.suppress(DeviceProtocolError):
        decode_device(body)


def test_single_byte_corruption_is_always_caught() -> None:
    """Exhaustive over one line: every position, every other byte value."""
    line = seal("HAND 12 RC BH --")[:-1]
    for index in range(len(line)):
        for value in range(256):
            if value in (line[index], 10):
                continue
            broken = line[:index] + bytes([value]) + line[index + 1 :]
            out = LineFramer().feed(broken + b"\n")
            assert len(out) == 1 and isinstance(out[0], BadLine), broken


def test_sequence_arithmetic_wraps() -> None:
    assert next_seq(SEQ_MODULUS - 1) == 0
    assert is_newer(0, SEQ_MODULUS - 1)
    assert is_newer(5, 3) and not is_newer(3, 5) and not is_newer(3, 3)
    assert not is_newer((3 + SEQ_MODULUS // 2) % SEQ_MODULUS, 3)


def doc_lines() -> list[tuple[str, bytes]]:
    text = DOC.read_text(encoding="utf-8")
    return [
        (m.group(1), m.group(2).encode("ascii"))
        for m in re.finditer(r"^([<>]) (\S[^\n]*)$", text, re.MULTILINE)
    ]


def test_protocol_doc_examples_are_real() -> None:
    """Every example line in docs/protocol.md has a correct checksum and decodes."""
    lines = doc_lines()
    assert len(lines) > 30
    for direction, raw in lines:
        out = LineFramer().feed(raw + b"\n")
        assert len(out) == 1 and isinstance(out[0], str), raw
        body = out[0]
        if direction == ">":
            if body.startswith("FLASH") or body == "HAND 30 RC BH":
                with pytest.raises(CommandRejected):
                    decode_command(body)
            else:
                decode_command(body)
        else:
            decode_device(body)


def test_protocol_doc_states_the_numbers_the_code_uses() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert f"Maximum line length: {MAX_LINE} bytes" in text
    assert "115200" in text and "`31C3`" in text
    assert "store at least its **8**" in text


def doc_line_table() -> list[tuple[bytes, str, str]]:
    """The rows of the bad-line / protocol-error table in section 2.1: (raw, verdict, why)."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("### 2.1", 1)[1].split("## 3.", 1)[0]
    rows = []
    for match in re.finditer(r"^\| `([^`]*)`( CR `([^`]*)`)?[^|]*\| (\w+)[^|]*\| ([^\n]*)\|$",
                             section, re.MULTILINE):
        raw = match.group(1)
        if match.group(2):
            raw += "\r" + match.group(3)
        raw = raw.replace("\u2423", " ")
        rows.append((raw.encode("ascii"), match.group(4), match.group(5)))
    return rows


def test_protocol_doc_bad_line_table_is_what_the_code_does() -> None:
    """Each row of section 2.1: bad lines are dropped by the framer; the others decode
    to the ERR the row names (real checksums, computed by the code)."""
    rows = doc_line_table()
    assert len(rows) >= 14
    for raw, verdict, why in rows:
        out = LineFramer().feed(raw + b"\n")
        assert len(out) == 1, raw
        if verdict == "bad":
            assert isinstance(out[0], BadLine), raw
            continue
        assert isinstance(out[0], str), (raw, out[0])
        answer = re.search(r"`(ERR [^`]*)`", why)
        if verdict == "good":
            decode_command(out[0])
            assert answer is None
            continue
        assert verdict == "error" and answer is not None, raw
        with pytest.raises(CommandRejected) as caught:
            decode_command(out[0])
        tag = caught.value.tag or "-"
        assert f"ERR {tag} {caught.value.code.value}" == answer.group(1), raw


@pytest.mark.parametrize(
    "body",
    ["HOLDERS 1 1 1", "INDS 1 2", "IND 1 1 FRK 1", "PLATES 1 1", "PLATE 1 1 EMPTY",
     "LIMIT 1 3", "TIMER 1 1000 1000", "GAME 1 PLAYING", "SOUND 1 1 BOOM"],
)
def test_version_2_commands_are_unknown_in_version_1(body: str) -> None:
    decode_command(body, 2)
    with pytest.raises(CommandRejected) as caught:
        decode_command(body, 1)
    assert caught.value.code is ErrorCode.UNKNOWN


@pytest.mark.parametrize(
    "body",
    [
        "HOLDERS 1 1 -",
        "HOLDERS 1 01 1",
        "IND 1 0 FRK 1",
        "IND 1 1 FrK 1",
        "IND 1 1 FRK 2",
        "INDS 1 100",
        "PLATE 1 1 PAR,,SER",
        "PLATE 1 1 Parallel",
        "PLATE 1 1 " + ",".join(["DVI"] * (MAX_PLATE_PORTS + 1)),
        "PLATE 1 1",
        "TIMER 1 - 1000",
        "TIMER 1 6000000 1000",
        "TIMER 1 1000 10000",
        "GAME 1 playing",
        "SOUND 1 1 BEEP",
        "LIMIT 1 100",
    ],
)
def test_version_2_values_are_checked(body: str) -> None:
    with pytest.raises(CommandRejected) as caught:
        decode_command(body, 2)
    assert caught.value.code is ErrorCode.ARGS


def test_hi_and_btn_forms_follow_the_version() -> None:
    assert decode_device("HI 1 1 0 fw") == Hi(1, 1, 0, "fw")
    assert decode_device("HI 1 2 0 fw 7") == Hi(1, 2, 0, "fw", 7)
    assert decode_device("BTN 3 DECK 7") == ButtonPressed(3, Button.DECK, 7)
    for body in ("HI 1 2 0 fw", "HI 1 1 0 fw 7", "BTN 3 DECK 07", "BTN 3 DECK 7 7"):
        with pytest.raises(DeviceProtocolError):
            decode_device(body)
