"""The prop protocol's line framer: checksums, bounds, and byte streams split anywhere."""

from __future__ import annotations

import binascii

from hypothesis import given
from hypothesis import strategies as st

from edgework.errors import MisuseError
from hardware.framing import MAX_BODY, MAX_LINE, BadLine, LineFramer, crc16, seal, unseal

PRINTABLE = st.characters(min_codepoint=0x20, max_codepoint=0x7E, exclude_characters="*")
BODIES = st.text(PRINTABLE, min_size=1, max_size=MAX_BODY)


def avr_crc_xmodem(data: bytes) -> int:
    """avr-libc's ``_crc_xmodem_update`` loop, transcribed bit by bit, starting at 0."""
    crc = 0
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


def test_crc_check_value() -> None:
    assert crc16(b"123456789") == 0x31C3


@given(st.binary(max_size=80))
def test_crc_agrees_with_avr_libc(data: bytes) -> None:
    assert crc16(data) == avr_crc_xmodem(data) == binascii.crc_hqx(data, 0)


def test_seal_known_line() -> None:
    assert seal("BTN 1 DECK") == b"BTN 1 DECK*ABF7\n"


@given(BODIES)
def test_seal_unseal_round_trip(body: str) -> None:
    line = seal(body)
    assert line.endswith(b"\n") and len(line) - 1 <= MAX_LINE
    assert unseal(line[:-1]) == body


def test_seal_refuses_unsendable_bodies() -> None:
    for body in ("", "a*b", "x" * (MAX_BODY + 1), "caf\u00e9", "tab\there"):
        try:
            seal(body)
        except MisuseError as exc:  # a bug of the caller's, never bad input
            assert repr(body) in str(exc)
        else:
            raise AssertionError(f"{body!r} was sealed")


def test_unseal_reasons() -> None:
    good = seal("OK 1")[:-1]
    cases = {
        b"OK 1": "exactly one '*'",
        b"OK*1*0000": "exactly one '*'",
        b"OK 1*47d9": "4 upper-case hex",
        b"OK 1*47D": "4 upper-case hex",
        b"*0000": "empty body",
        b"OK 2*" + good[-4:]: "does not match",
        good + b"\r": "not printable",
        b"OK\x001*0000": "not printable",
        b"x" * (MAX_LINE + 1): "longer than",
    }
    for raw, reason in cases.items():
        result = unseal(raw)
        assert isinstance(result, BadLine), raw
        assert reason in result.reason, (raw, result.reason)
    assert unseal(good) == "OK 1"


@given(st.lists(BODIES, max_size=8), st.data())
def test_framer_any_split(bodies: list[str], data: st.DataObject) -> None:
    stream = b"".join(seal(body) for body in bodies)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    framer = LineFramer()
    out: list[str | BadLine] = []
    start = 0
    for cut in [*cuts, len(stream)]:
        out.extend(framer.feed(stream[start:cut]))
        start = cut
    assert out == bodies
    assert framer.pending == 0 and framer.bad_lines == 0


@given(st.lists(BODIES, min_size=1, max_size=6), st.binary(max_size=200), st.data())
def test_framer_recovers_after_garbage(bodies: list[str], junk: bytes, data: st.DataObject) -> None:
    """Garbage costs at most the lines it touches; a lone LF resynchronises."""
    stream = junk + b"\n" + b"".join(seal(body) for body in bodies)
    cut = data.draw(st.integers(0, len(stream)))
    framer = LineFramer()
    out = framer.feed(stream[:cut]) + framer.feed(stream[cut:])
    good = [item for item in out if isinstance(item, str)]
    assert good[-len(bodies) :] == bodies
    assert framer.bad_lines == len(out) - len(good)


def test_framer_overlong_line_is_one_bad_line_and_bounded() -> None:
    framer = LineFramer()
    out = framer.feed(b"A" * 1000)
    assert out == [] and framer.pending <= MAX_LINE
    out = framer.feed(b"B" * 1000 + b"\n" + seal("OK 3"))
    assert len(out) == 2
    assert isinstance(out[0], BadLine) and "longer than" in out[0].reason
    assert out[1] == "OK 3"
    assert framer.bad_lines == 1


def test_framer_ignores_empty_lines_and_reset_forgets() -> None:
    framer = LineFramer()
    assert framer.feed(b"\n\n\n") == []
    assert framer.feed(b"HALF A LI") == []
    framer.reset()
    assert framer.feed(seal("OK 4")) == ["OK 4"]
    assert framer.bad_lines == 0


def test_exactly_max_line_passes() -> None:
    body = "X" * MAX_BODY
    line = seal(body)
    assert len(line) == MAX_LINE + 1
    assert LineFramer().feed(line) == [body]
