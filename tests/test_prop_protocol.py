"""Protocol messages: encode/decode round trips, strict decoding, fuzzing, the doc's examples."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from edgework import Card
from hardware.errors import CommandRejected, DeviceProtocolError, HostProtocolError
from hardware.framing import MAX_LINE, BadLine, LineFramer, seal
from hardware.protocol import (
    FIRST_TOKENS,
    MAX_COUNT,
    MAX_FIRMWARE,
    MAX_SESSION,
    MAX_TAG,
    SEQ_MODULUS,
    Ack,
    Boot,
    Button,
    ButtonPressed,
    Command,
    DeviceMessage,
    Err,
    ErrorCode,
    Hello,
    Hi,
    MessageKind,
    Ok,
    Ping,
    Pong,
    Resend,
    ShowBatteries,
    ShowHand,
    ShowSerial,
    ShowSolved,
    ShowStrikes,
    ShowTop,
    decode_command,
    decode_device,
    encode_command,
    is_newer,
    kind_of,
    next_seq,
)

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"

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
)
firmware = st.text(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
    min_size=1,
    max_size=MAX_FIRMWARE,
)
device_messages: st.SearchStrategy[DeviceMessage] = st.one_of(
    st.builds(Hi, tags, st.integers(1, MAX_SESSION), seqs, firmware),
    st.builds(Pong, tags, st.integers(0, MAX_SESSION), seqs, st.integers(0, 65535)),
    st.builds(Ok, tags),
    st.builds(
        Err, st.none() | tags, st.sampled_from([c for c in ErrorCode if c is not ErrorCode.VERSION])
    ),
    st.builds(Err, st.none() | tags, st.just(ErrorCode.VERSION), st.integers(1, MAX_SESSION)),
    st.builds(ButtonPressed, seqs, st.sampled_from(list(Button))),
    st.builds(Boot, st.integers(1, MAX_SESSION)),
)


@given(commands, tags)
def test_command_round_trip(command: Command, tag: int) -> None:
    body = encode_command(command, tag)
    assert len(seal(body)) - 1 <= MAX_LINE
    assert kind_of(body) is MessageKind.COMMAND
    assert decode_command(body) == (str(tag), command)


@given(device_messages)
def test_device_message_round_trip(message: DeviceMessage) -> None:
    body = message.encode()
    assert len(seal(body)) - 1 <= MAX_LINE
    expected = MessageKind.EVENT if isinstance(message, ButtonPressed | Boot) else MessageKind.REPLY
    assert kind_of(body) is expected
    assert decode_device(body) == message


def test_first_tokens_are_disjoint_and_complete() -> None:
    kinds = {kind: {w for w, k in FIRST_TOKENS.items() if k is kind} for kind in MessageKind}
    assert kinds[MessageKind.COMMAND] == {
        "HELLO", "PING", "RESEND", "ACK", "SERIAL", "BATT", "TOP", "HAND", "STRIKES", "SOLVED"
    }
    assert kinds[MessageKind.REPLY] == {"HI", "PONG", "OK", "ERR"}
    assert kinds[MessageKind.EVENT] == {"BTN", "BOOT"}
    assert kind_of("NOPE 1") is None


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
    assert caught.value.code == code


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
