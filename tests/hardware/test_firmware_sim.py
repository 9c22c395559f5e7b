"""Firmware in the loop: the prop firmware, built with avr-gcc against Debian's Arduino
core, runs under simavr and the host code in ``hardware/`` talks to it over a real pty.

The simavr harness (``tests/simavr/prop_harness.c``, a test tool that links GPL-3 simavr
and is never shipped) presses the prop's buttons, reads its two displays and its LEDs,
and injects faults on the line to the host (dropped and garbled lines) and resets. The
firmware runs on emulated time: simulated time passes only while the test lets it (a
``wait``, or a read that found nothing waiting), and the host's clock is that simulated
time, so debounce and timeouts are the documented ones at no wall-clock cost. One smoke
test (``mittens prop check`` in a real process) runs the firmware paced to the wall clock.

The tests need gcc-avr, avr-libc, binutils-avr, simavr, libsimavr-dev and
arduino-core-avr (Debian packages). On a developer machine without them they skip,
saying what is missing; in CI (``CI=true``) a missing tool is a failure.
"""

from __future__ import annotations

import fcntl
import hashlib
import itertools
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Final

import pytest
import serial
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test
from prop_helpers import next_pressed, prop_game

from defuser.engine.simulator import Module
from edgework import Card, Edgework
from hardware.bridge import BombDisplay, button_for, winning_actions
from hardware.device import Device
from hardware.framing import BadLine, LineFramer, crc16, seal
from hardware.protocol import (
    Button,
    Cue,
    DisplayCommand,
    GameState,
    ShowBatteries,
    ShowHand,
    ShowSerial,
    ShowSolved,
    ShowStrikes,
    ShowTop,
)
from hardware.session import Timing

ROOT: Final = Path(__file__).resolve().parents[2]
FIRMWARE_DIR: Final = ROOT / "hardware" / "firmware"
SKETCH_DIR: Final = FIRMWARE_DIR / "mittens_prop"
HARNESS_SOURCE: Final = ROOT / "tests" / "simavr" / "prop_harness.c"
ARDUINO_AVR: Final = Path(os.environ.get("ARDUINO_AVR", "/usr/share/arduino/hardware/arduino/avr"))
APT_PACKAGES: Final = "gcc-avr avr-libc binutils-avr simavr libsimavr-dev arduino-core-avr"
#: arduino-builder is the Arduino IDE's own sketch builder (no Java).
BUILDER_DIR: Final = Path("/usr/share/arduino-builder")

#: How the displays draw their custom glyphs, for reading them back as text.
MAIN_GLYPHS: Final = {0: "●", 1: "♥", 2: "▲", 3: "■"}
#: An AA holder (two cells), a D holder (one cell), a lit and an unlit indicator lamp.
TAG_GLYPHS: Final = {0: "‖", 1: "▮", 2: "●", 3: "○"}
SHAPE_GLYPHS: Final = {"C": "●", "H": "♥", "T": "▲", "S": "■"}

#: Harness button names by protocol button.
HARNESS_BUTTONS: Final = {
    Button.DECK: "deck",
    Button.PILE: "discard",
    Button.HAND1: "slot1",
    Button.HAND2: "slot2",
    Button.HAND3: "slot3",
}

#: Host timing for the emulator: the documented timeouts, and a heartbeat every 0.3 s
#: instead of 1 s so that a press whose event line was lost is recovered sooner (the
#: prop does not mind how often it is pinged).
SIM_TIMING: Final = Timing(heartbeat=0.3, reconnect_timeout=10.0)
#: How long one answer from the harness may take (it waits for simulated time).
ANSWER_TIMEOUT: Final = 15.0
#: Simulated milliseconds a read lets pass when nothing has arrived (emulated time).
STEP_MS: Final = 2


# --------------------------------------------------------------------------- the build


@dataclass(frozen=True)
class Build:
    """The built firmware ELF and the harness binary."""

    elf: Path
    harness: Path


def missing_tools() -> list[str]:
    """What the firmware build and the harness need and this machine lacks."""
    tools = ("make", "cc", "avr-gcc", "avr-g++", "avr-objcopy", "avr-size")
    missing = [tool for tool in tools if not shutil.which(tool)]
    needed_files = {
        "Arduino core (arduino-core-avr)": ARDUINO_AVR / "cores" / "arduino" / "Arduino.h",
        "avr-libc": Path("/usr/lib/avr/include/util/crc16.h"),
        "simavr headers (libsimavr-dev)": Path("/usr/include/simavr/sim_avr.h"),
        "simavr parts headers (libsimavr-dev)": Path("/usr/include/simavr/parts/uart_pty.h"),
    }
    missing += [name for name, path in needed_files.items() if not path.exists()]
    return missing


def require(missing: list[str], packages: str) -> None:
    """Skip the test when tools are missing, or fail it in CI (``CI=true``)."""
    if not missing:
        return
    reason = (
        f"the firmware tests need {', '.join(missing)}, which this machine lacks "
        f"(apt-get install {packages})"
    )
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


def build_firmware(directory: Path) -> Build:
    """Build the firmware and the harness into ``directory`` with the project Makefile."""
    require(missing_tools(), APT_PACKAGES)
    done = subprocess.run(
        ["make", "-C", str(FIRMWARE_DIR), f"BUILD={directory}", "firmware", "harness"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.fail(f"building the firmware failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return Build(directory / "mittens_prop.elf", directory / "prop_harness")


def sources_digest() -> str:
    """A digest of what the build reads from the project: the Makefile, the sketch and
    the harness's source."""
    digest = hashlib.sha256()
    paths = [FIRMWARE_DIR / "Makefile", HARNESS_SOURCE, *sorted(SKETCH_DIR.iterdir())]
    for path in paths:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@pytest.fixture(scope="session")
def firmware(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """The firmware and harness, built once per test run: the parallel workers share one
    build (the first to get the lock builds it, keyed by the sources' digest; each build
    costs about 1.5 s of CPU)."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    directory = shared / f"firmware-build-{sources_digest()}"
    with (shared / "firmware-build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        done = directory / "built"
        if done.exists():
            return Build(directory / "mittens_prop.elf", directory / "prop_harness")
        build = build_firmware(directory)
        done.touch()
        return build


# --------------------------------------------------------------------------- the harness


#: The timer display's segment patterns (bit 0 segment a ... bit 6 g) and what they show.
SEVEN_SEGMENTS: Final = {
    0x3F: "0", 0x06: "1", 0x5B: "2", 0x4F: "3", 0x66: "4",
    0x6D: "5", 0x7D: "6", 0x07: "7", 0x7F: "8", 0x6F: "9",
    0x40: "-", 0x00: " ",
}  # fmt: skip


@dataclass(frozen=True)
class Tone:
    """One tone from the buzzer: start (simulated ms since start), length (ms), pitch."""

    start_ms: int
    length_ms: int
    hz: int


@dataclass(frozen=True)
class Screens:
    """What the two displays show, glyphs read back as text."""

    main: tuple[str, ...]
    tag: tuple[str, ...]


def _decode(hex_text: str, glyphs: dict[int, str], columns: int) -> tuple[str, ...]:
    data = bytes.fromhex(hex_text)
    text = "".join(glyphs.get(byte, chr(byte)) for byte in data)
    return tuple(text[start : start + columns] for start in range(0, len(text), columns))


class SimProp:
    """The firmware running under simavr: its pty, buttons, displays and LEDs.

    On emulated time (the default) the firmware stands still between commands;
    :meth:`wait` lets simulated time pass, :meth:`clock` is that time for the host, and
    :meth:`open_port` gives the host a port whose empty reads let a little time pass.
    ``real_time`` runs it paced to the wall clock instead.
    """

    def __init__(self, build: Build, *, real_time: bool = False) -> None:
        self.real_time = real_time
        #: Simulated milliseconds let pass so far (emulated time).
        self.elapsed_ms = 0
        # The harness's complaints, for failure messages; closed in close().
        self._errors: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115
        pacing = ["-s", "1"] if real_time else ["-e"]
        self._process = subprocess.Popen(
            [str(build.harness), *pacing, str(build.elf)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._errors,
        )
        self._pending = b""
        first = self._answer()
        if not first.startswith("pty "):
            raise AssertionError(f"the harness did not start: {first!r} {self._stderr()}")
        #: The pty the firmware's UART0 is on.
        self.port = first.split(" ", 1)[1]
        assert self._answer() == "ready"

    def _stderr(self) -> str:
        self._errors.seek(0)
        return self._errors.read().decode(errors="replace")

    def _answer(self) -> str:
        stdout = self._process.stdout
        assert stdout is not None
        deadline = time.monotonic() + ANSWER_TIMEOUT
        while b"\n" not in self._pending:
            remaining = deadline - time.monotonic()
            ready, _, _ = select.select([stdout], [], [], max(0.0, remaining))
            if not ready:
                raise AssertionError(f"the harness did not answer: {self._stderr()}")
            chunk = os.read(stdout.fileno(), 4096)
            if not chunk:
                raise AssertionError(f"the harness stopped: {self._stderr()}")
            self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        return line.decode()

    def ask(self, command: str) -> str:
        """Send one harness command and return its answer; a refusal fails the test."""
        stdin = self._process.stdin
        assert stdin is not None
        stdin.write(command.encode() + b"\n")
        stdin.flush()
        answer = self._answer()
        if answer.startswith("err"):
            raise AssertionError(f"harness refused {command!r}: {answer}")
        return answer

    def press(self, button: Button, hold_ms: int = 40) -> None:
        """Press and release ``button``, then wait until it has read released long enough
        for the next press to count (simulated time)."""
        self.ask(f"press {HARNESS_BUTTONS[button]} {hold_ms}")
        self.wait(hold_ms + 30)

    def wait(self, ms: int) -> None:
        """Let ``ms`` milliseconds of simulated time pass."""
        assert self.ask(f"wait {ms}") == "ok"
        self.elapsed_ms += ms

    def clock(self) -> float:
        """The host's clock in seconds: simulated time, or the wall clock in real time."""
        return time.monotonic() if self.real_time else self.elapsed_ms / 1000

    def open_port(self, url: str | None = None) -> Any:
        """The firmware's pty opened for the host (``url`` is ignored: there is one)."""
        if self.real_time:
            return serial.Serial(self.port, 115200, timeout=0.05)
        return SteppedPort(serial.Serial(self.port, 115200, timeout=0), self)

    def screens(self) -> Screens:
        """What the displays show now."""
        fields = dict(part.split("=", 1) for part in self.ask("lcd").split()[1:])
        return Screens(
            _decode(fields["main"], MAIN_GLYPHS, 16), _decode(fields["tag"], TAG_GLYPHS, 20)
        )

    def timer(self) -> str:
        """What the 4-digit timer display shows: "" when off or blank, else its digits
        with ":" where the colon is lit, e.g. "04:59"."""
        fields = dict(part.split("=", 1) for part in self.ask("digits").split()[1:])
        segments = bytes.fromhex(fields["seg"])
        if fields["on"] != "1" or not any(segments):
            return ""
        text = ""
        for index, value in enumerate(segments):
            text += SEVEN_SEGMENTS.get(value & 0x7F, "?")
            if index == 1 and value & 0x80:
                text += ":"
        return text

    def tones(self) -> list[Tone]:
        """The tones the buzzer made since the last call, oldest first."""
        return [Tone(*map(int, part.split(":"))) for part in self.ask("tones").split()[1:]]

    def leds(self) -> dict[str, bool]:
        """Which LEDs are on: strike (red), solved (green), link (on-board)."""
        fields = dict(part.split("=", 1) for part in self.ask("leds").split()[1:])
        return {name: value == "1" for name, value in fields.items()}

    def close(self) -> None:
        """Stop the harness."""
        stdin = self._process.stdin
        try:
            if stdin is not None:
                stdin.write(b"quit\n")
                stdin.close()
            self._process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self._process.kill()
            self._process.wait()
        if self._process.stdout is not None:
            self._process.stdout.close()
        self._errors.close()


class SteppedPort:
    """A pty port on emulated time: a read that finds nothing lets a step of simulated
    time pass (the firmware may answer in it), then takes what has arrived."""

    def __init__(self, port: Any, prop: SimProp) -> None:
        self._port = port
        self._prop = prop

    @property
    def in_waiting(self) -> int:
        """Bytes waiting to be read."""
        return int(self._port.in_waiting)

    def read(self, size: int = 1) -> bytes:
        """Up to ``size`` bytes; when none are waiting, first let :data:`STEP_MS` pass."""
        data = bytes(self._port.read(size))
        if not data:
            self._prop.wait(STEP_MS)
            data = bytes(self._port.read(size))
        return data

    def write(self, data: bytes) -> int:
        """Send ``data``."""
        return int(self._port.write(data))

    def flush(self) -> None:
        """Wait until written."""
        self._port.flush()

    def reset_input_buffer(self) -> None:
        """Drop what waits to be read."""
        self._port.reset_input_buffer()

    def close(self) -> None:
        """Close the pty."""
        self._port.close()


@pytest.fixture
def prop(firmware: Build) -> Iterator[SimProp]:
    """A freshly started prop in the simulator."""
    sim = SimProp(firmware)
    yield sim
    sim.close()


@pytest.fixture
def device(prop: SimProp) -> Iterator[Device]:
    """The host's device object connected to the simulated prop over its pty."""
    dev = Device(
        prop.port, timing=SIM_TIMING, session_seed=7, opener=prop.open_port, clock=prop.clock
    )
    dev.connect()
    yield dev
    dev.close()


class RawLink:
    """The prop's pty opened directly, for tests below the device layer."""

    def __init__(self, prop: SimProp) -> None:
        self.port: Any = prop.open_port()
        self.clock = prop.clock
        self.framer = LineFramer()

    def send_raw(self, data: bytes) -> None:
        """Write bytes as they are."""
        self.port.write(data)
        self.port.flush()

    def lines(self, count: int, timeout: float = 2.0) -> list[str | BadLine]:
        """The next ``count`` lines from the prop (fewer if ``timeout`` passes)."""
        got: list[str | BadLine] = []
        deadline = self.clock() + timeout
        while len(got) < count and self.clock() < deadline:
            data = self.port.read(max(1, self.port.in_waiting))
            got += self.framer.feed(data)
        return got

    def ask(self, body: str, answers: int = 1) -> list[str | BadLine]:
        """Send one line and return the next ``answers`` lines."""
        self.send_raw(seal(body))
        return self.lines(answers)

    def close(self) -> None:
        """Close the port."""
        self.port.close()


@pytest.fixture
def raw(prop: SimProp) -> Iterator[RawLink]:
    """A raw line-level link to the simulated prop, BOOT line read."""
    link = RawLink(prop)
    assert link.lines(1) == ["BOOT 2"]
    yield link
    link.close()


# --------------------------------------------------------------------------- the oracle
# The documented layout (docs/hardware.md), written out independently of the firmware.


def card_text(card: Card | None) -> str:
    """A card as the main display draws it: colour letter, shape glyph; -- for none."""
    return "--" if card is None else card.code[0] + SHAPE_GLYPHS[card.code[1]]


def main_rows(
    top: Card | None, hand: tuple[Card, ...], strikes: int, solved: bool
) -> tuple[str, str]:
    """The main display for a visible module state."""
    row0 = f"PILE {card_text(top)}".ljust(10) + ("SOLVED" if solved else "").ljust(6)
    slots = [*hand, None, None, None][:3]
    row1 = " ".join(f"{i}{card_text(card)}" for i, card in enumerate(slots, 1))
    return row0, f"{row1} X:{strikes:>2}"


def module_rows(module: Module) -> tuple[str, str]:
    """The main display for ``module``."""
    return main_rows(module.discard_top, module.hand, min(module.strikes, 99), module.solved)


WAITING: Final = ("  MITTENS PROP  ", "WAITING FOR HOST")
#: The name the firmware gives in HI.
FIRMWARE: Final = "mittens-fw-2"


def edge_rows(*rows: str) -> tuple[str, ...]:
    """The 20x4 edge display's rows, each padded to its width."""
    return tuple(row.ljust(20) for row in rows)


#: The edge display before the host has said anything about the edge.
EDGE_UNKNOWN: Final = edge_rows("SERIAL #  ------", "BATTERIES --", "INDICATORS --", "PORTS --")


# --------------------------------------------------------------------------- tests


def test_the_firmware_starts_waiting_for_the_host(prop: SimProp, raw: RawLink) -> None:
    assert prop.screens() == Screens(WAITING, EDGE_UNKNOWN)
    assert prop.leds() == {"strike": False, "solved": False, "link": False}
    # A handshake alone does not end the waiting screen; it lights the link LED.
    assert raw.ask("HELLO 1 1 4242") == ["HI 1 1 0 mittens-fw-2"]
    assert prop.screens().main == WAITING
    assert prop.leds()["link"]


def test_the_device_handshakes_and_the_display_shows_what_it_is_told(
    prop: SimProp, device: Device
) -> None:
    assert device.firmware == "mittens-fw-2"
    assert device.last_seq == 0
    device.show(ShowSerial("AB3CD4"))
    device.show(ShowBatteries(3, 2))
    device.show(ShowTop(Card.GREEN_TRIANGLE))
    device.show(ShowHand.of((Card.RED_CIRCLE, Card.BLUE_HEART, Card.YELLOW_SQUARE)))
    device.show(ShowStrikes(0))
    device.show(ShowSolved(False))
    screens = prop.screens()
    assert screens.main == ("PILE G▲         ", "1R● 2B♥ 3Y■ X: 0")
    # 3 batteries in 2 holders: one AA holder (2) and one D holder (1).
    assert screens.tag == edge_rows("SERIAL #  AB3CD4", "3B 2H  ‖ ▮", "INDICATORS --", "PORTS --")
    device.show(ShowHand.of((Card.RED_CIRCLE,)))
    device.show(ShowTop(None))
    device.show(ShowStrikes(12))
    assert prop.screens().main == main_rows(None, (Card.RED_CIRCLE,), 12, False)


@pytest.mark.parametrize(
    ("count", "holders", "row"),
    [
        (0, 0, "0B 0H"),
        (4, None, "4B"),
        (5, 3, "5B 3H  ‖ ‖ ▮"),
        # More holders than fit: the last place says so.
        (12, 10, "12B 10H  ‖ ‖ ▮ ▮ ▮ +"),
        # Counts that no holders can carry are shown as numbers only.
        (9, 2, "9B 2H"),
    ],
)
def test_batteries_are_drawn_as_holders(
    prop: SimProp, device: Device, count: int, holders: int | None, row: str
) -> None:
    device.show(ShowBatteries(count, holders))
    assert prop.screens().tag[1] == row.ljust(20)


def test_a_strike_flashes_red_and_a_solve_lights_green(prop: SimProp, device: Device) -> None:
    device.show(ShowStrikes(0))
    assert not prop.leds()["strike"]
    device.show(ShowStrikes(1))
    assert prop.leds()["strike"]
    prop.wait(1100)
    assert not prop.leds()["strike"]
    # The same count again is no new strike.
    device.show(ShowStrikes(1))
    assert not prop.leds()["strike"]
    device.show(ShowSolved(True))
    assert prop.leds() == {"strike": False, "solved": True, "link": True}
    assert prop.screens().main[0].endswith("SOLVED")


def test_presses_arrive_numbered_and_in_order(prop: SimProp, device: Device) -> None:
    order = [Button.DECK, Button.PILE, Button.HAND1, Button.HAND2, Button.HAND3, Button.DECK]
    for button in order:
        prop.press(button)
    got = [next_press(device, 2.0) for _ in order]
    assert got == list(enumerate(order, 1))
    assert device.next_press(timeout=0.2) is None


def test_debounce_one_event_per_press(prop: SimProp, device: Device) -> None:
    # Contact chatter on the way down and up is one press.
    prop.ask("bounce slot1")
    prop.wait(150)
    assert next_press(device, 1.0) == (1, Button.HAND1)
    # A glitch shorter than the debounce time is no press.
    prop.press(Button.DECK, hold_ms=5)
    # Holding a button down is one press: no auto-repeat, nothing on release.
    prop.press(Button.PILE, hold_ms=600)
    assert next_press(device, 1.0) == (2, Button.PILE)
    assert device.next_press(timeout=0.3) is None


def test_protocol_errors_are_answered_in_the_documented_order(prop: SimProp, raw: RawLink) -> None:
    assert raw.ask("HAND 5 RC") == ["ERR 5 ARGS"]
    assert raw.ask("HAND 5 RC BH --") == ["ERR 5 NOSESSION"]
    assert raw.ask("PING 6") == ["PONG 6 0 0 0"]
    assert raw.ask("HELLO 7 3 99") == ["ERR 7 VERSION 2"]
    assert raw.ask("PING 8") == ["PONG 8 0 0 0"]  # still no session
    assert raw.ask("HELLO 9 1 4242") == ["HI 9 1 0 mittens-fw-2"]
    assert raw.ask("FLASH 31 RED") == ["ERR 31 UNKNOWN"]
    assert raw.ask("HAND 30 RC BH") == ["ERR 30 ARGS"]
    assert raw.ask("TOP 10 RX") == ["ERR 10 ARGS"]
    assert raw.ask("STRIKES 11 100") == ["ERR 11 ARGS"]
    assert raw.ask("STRIKES 12 07") == ["ERR 12 ARGS"]
    assert raw.ask("SERIAL 13 ab3cd4") == ["ERR 13 ARGS"]
    assert raw.ask("BATT 14 3 x") == ["ERR 14 ARGS"]
    assert raw.ask("SOLVED 15 2") == ["ERR 15 ARGS"]
    assert raw.ask("PING  16") == ["ERR - ARGS"]
    assert raw.ask("PING 1000") == ["ERR - ARGS"]
    assert raw.ask("PING") == ["ERR - ARGS"]
    assert raw.ask("OK 17") == ["ERR 17 UNKNOWN"]
    # None of that changed the display.
    assert prop.screens().main == WAITING
    assert raw.ask("SERIAL 18 ------") == ["OK 18"]
    assert raw.ask("BATT 19 2 -") == ["OK 19"]
    assert raw.ask("ACK 20 65535") == ["OK 20"]


def _sealed_anyway(body: str) -> bytes:
    """A correctly checksummed line even when the body is too long to be sent."""
    data = body.encode("ascii")
    return data + f"*{crc16(data):04X}\n".encode("ascii")


def test_bad_lines_are_dropped_and_counted(prop: SimProp, raw: RawLink) -> None:
    good = seal("PING 1")
    longest = seal("Z 1 " + "A" * 54)
    assert len(longest) == 64  # 63 bytes and the LF
    bad_lines = [
        good.replace(b"PING 1", b"PING 2"),  # checksum does not match
        good.replace(b"\n", b"\r\n"),  # CR is no terminator
        good[:-5] + good[-5:].lower(),  # lower-case checksum digits
        b"PING 1\n",  # no checksum
        b"PING*1*" + good[-5:],  # two stars
        b"\x80" + good,  # not ASCII
        b"A" * 200 + b"\n",  # far too long
        _sealed_anyway("Z 1 " + "A" * 55),  # one byte too long
        b"*0000\n",  # empty body
    ]
    for line in bad_lines:
        raw.send_raw(line)
    raw.send_raw(b"\n\n")  # empty lines are not counted
    assert raw.ask("PING 3") == [f"PONG 3 0 0 {len(bad_lines)}"]
    # A line of exactly the longest length is good, and answered.
    raw.send_raw(longest)
    assert raw.lines(1) == ["ERR 1 UNKNOWN"]


def test_resend_replays_stored_events(prop: SimProp, raw: RawLink) -> None:
    assert raw.ask("HELLO 1 1 10") == ["HI 1 1 0 mittens-fw-2"]
    assert raw.ask("RESEND 2 1") == ["OK 2"]  # nothing stored yet
    buttons = list(HARNESS_BUTTONS)
    for round_ in range(4):
        for button in buttons:
            prop.ask(f"press {HARNESS_BUTTONS[button]} 30")
        assert len(raw.lines(5)) == 5, f"round {round_}"
        prop.wait(60)
    pressed = buttons * 4
    # The prop keeps its 16 newest events (at least 8 are required).
    replay = raw.ask("RESEND 3 1", answers=17)
    assert replay[-1] == "OK 3"
    seqs = [int(str(line).split()[1]) for line in replay[:-1]]
    assert seqs == list(range(5, 21))
    assert raw.ask("RESEND 4 19", answers=3) == [
        f"BTN 19 {pressed[18].value}",
        f"BTN 20 {pressed[19].value}",
        "OK 4",
    ]
    assert raw.ask("PING 5") == ["PONG 5 10 20 0"]
    assert raw.ask("HELLO 6 1 11") == ["HI 6 1 20 mittens-fw-2"]


def test_a_lost_event_is_recovered(prop: SimProp, device: Device) -> None:
    prop.ask("drop 1")
    prop.press(Button.DECK)
    prop.press(Button.PILE)
    # Press 1 never reached the host; press 2 shows the gap and RESEND brings 1 back.
    assert next_press(device, 2.0) == (1, Button.DECK)
    assert next_press(device, 2.0) == (2, Button.PILE)
    assert device.lost_events == 0


def test_a_garbled_reply_is_retried(prop: SimProp, device: Device) -> None:
    prop.ask("garble 1")
    device.show(ShowTop(Card.YELLOW_HEART))
    assert device.bad_lines == 1
    assert prop.screens().main[0].startswith("PILE Y♥")


def test_a_restarted_prop_gets_its_display_back(prop: SimProp, device: Device) -> None:
    state: list[DisplayCommand] = [
        ShowSerial("KT4NE7"),
        ShowBatteries(2, 1),
        ShowTop(Card.BLUE_SQUARE),
        ShowHand.of((Card.GREEN_CIRCLE, Card.RED_HEART)),
        ShowStrikes(3),
        ShowSolved(False),
    ]
    for command in state:
        device.show(command)
    before = prop.screens()
    session = device.session
    prop.ask("reset")
    prop.wait(300)
    assert prop.screens() == Screens(WAITING, EDGE_UNKNOWN)
    # The BOOT line (or the next heartbeat) tells the device; it says hello again and
    # re-sends everything.
    await_recovery(prop, device, 0)
    assert device.session != session
    assert prop.screens() == before
    # Restoring the count after a restart is no new strike.
    assert not prop.leds()["strike"]
    prop.press(Button.HAND2)
    assert next_press(device, 2.0) == (1, Button.HAND2)


def test_the_prop_shows_when_the_host_is_lost(firmware: Build) -> None:
    sim = SimProp(firmware)
    link = RawLink(sim)
    try:
        assert link.lines(1) == ["BOOT 2"]
        assert link.ask("HELLO 1 1 5") == ["HI 1 1 0 mittens-fw-2"]
        assert link.ask("TOP 2 RC") == ["OK 2"]
        sim.wait(2500)
        assert sim.screens().main[0].startswith("PILE R●")
        sim.wait(700)
        assert sim.screens().main[0] == "** HOST LOST ** "
        assert not sim.leds()["link"]
        # The display state was kept; the next good line brings it back.
        assert link.ask("PING 3") == ["PONG 3 5 0 0"]
        # On emulated time the reply may be the last thing the step ran: a few
        # milliseconds more for the firmware's loop to come round to the lamp.
        sim.wait(20)
        assert sim.screens().main[0].startswith("PILE R●")
        assert sim.leds()["link"]
    finally:
        link.close()
        sim.close()


def next_press(device: Device, timeout: float) -> tuple[int, Button] | None:
    """The next press the device reports, as its number and button (the session that
    version 2 adds is checked line by line in the version-2 tests)."""
    press = device.next_press(timeout=timeout)
    return None if press is None else (press.seq, press.button)


def await_recovery(prop: SimProp, device: Device, recoveries: int) -> None:
    """Keep the host busy until it has re-established the link after a prop restart."""
    deadline = prop.clock() + 5.0
    while device.recoveries == recoveries:
        assert prop.clock() < deadline, "the host never noticed that the prop restarted"
        assert device.next_press(timeout=0.1) is None


def test_a_full_game_through_the_bridge_with_faults(prop: SimProp, device: Device) -> None:
    edgework = Edgework.parse("3B 2H // KT4NE7")
    module = Module.from_edgework(edgework, seed=13)
    actions = winning_actions(module)
    game = prop_game(module, edgework, device)
    game.start()
    assert prop.screens().main == module_rows(module)
    # A lost event line, a garbled event line and a restart of the prop along the way.
    faults = {1: "drop 1", 3: "garble 1", 5: "reset"}
    assert len(actions) > max(faults), "the game is too short for every fault"
    for index, action in enumerate(actions):
        fault = faults.get(index)
        if fault:
            prop.ask(fault)
        if fault == "reset":
            # Presses before the new handshake are never applied: let the host notice.
            await_recovery(prop, device, 0)
        prop.press(button_for(action))
        pressed = next_pressed(game, device, attempts=6)  # 3 s
        assert pressed.result.action == action, f"step {index} ({action})"
        assert prop.screens().main == module_rows(module)
    assert module.solved
    assert module.strikes == 0
    assert prop.leds()["solved"]
    assert device.lost_events == 0


#: An Uno's flash for programs (32 KiB less the 512-byte bootloader) and its RAM.
UNO_FLASH: Final = 32256
UNO_RAM: Final = 2048
#: RAM the firmware must leave free for its stack (the deepest call chain, a command
#: being answered while a display redraws, needs a few hundred bytes).
STACK_RESERVE: Final = 512


def test_the_firmware_fits_an_uno(firmware: Build) -> None:
    sections: dict[str, int] = {}
    done = subprocess.run(
        ["avr-size", "-A", str(firmware.elf)], capture_output=True, text=True, check=True
    )
    for line in done.stdout.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[0].startswith(".") and fields[1].isdigit():
            sections[fields[0]] = int(fields[1])
    flash = sections[".text"] + sections[".data"]
    ram = sections[".data"] + sections[".bss"] + sections.get(".noinit", 0)
    assert flash <= UNO_FLASH
    assert ram <= UNO_RAM - STACK_RESERVE


def test_v2_a_game_through_the_bridge_shows_the_whole_bomb(prop: SimProp, device: Device) -> None:
    # The host's own code (Device negotiating version 2, Bridge) against the firmware:
    # the whole edge, the timer and the strike limit, a strike that speeds the timer up
    # with its sound, the solve, and the explosion screen.
    assert device.version == 2
    edgework = Edgework.parse("3B 2H // *FRK, CAR // [Parallel, Serial] [Empty] // KT4NE7")
    module = Module.from_edgework(edgework, seed=13)
    actions = winning_actions(module)
    game = prop_game(module, edgework, device, strike_limit=3, clock=prop.clock,
                     time_limit=300.0)
    bridge = game.bridge
    game.start()
    assert bridge.bomb == BombDisplay(limit=3, timer_ms=300_000, rate=1000)
    screens = prop.screens()
    row0, row1 = module_rows(module)
    assert screens.main == (row0, row1[:12] + "X0/3")  # strikes out of the limit
    assert screens.tag == edge_rows("SERIAL #  KT4NE7", "3B 1xAA 1xD  ‖ ▮", "●FRK ○CAR", "[PS] []")
    assert prop.timer() in ("05:00", "04:59")
    prop.tones()
    # A strike (the game loop's: the module here is played without one).
    bridge.set_bomb(BombDisplay(limit=3, timer_ms=281_500, rate=1250), Cue.STRIKE)
    device.sync()
    prop.wait(700)
    assert [tone.hz // 10 for tone in prop.tones() if tone.length_ms > 100] == [22, 22]
    assert prop.timer() in ("04:40", "04:41")
    for action in actions:
        prop.press(button_for(action))
        next_pressed(game, device, attempts=6)  # 3 s each
    assert module.solved
    bridge.set_bomb(BombDisplay(limit=3, timer_ms=200_000, rate=0, state=GameState.SOLVED),
                    Cue.SOLVE)  # fmt: skip
    device.sync()
    prop.wait(700)
    assert prop.screens().main[0].endswith("SOLVED")
    assert prop.leds()["solved"]
    assert prop.timer() == "03:20"
    assert any(tone.hz > 1000 and tone.length_ms >= 500 for tone in prop.tones())
    bridge.set_bomb(BombDisplay(limit=3, timer_ms=0, rate=0, state=GameState.TIMEOUT), Cue.BOOM)
    device.sync()
    assert prop.screens().main[0] == "*** TIME OUT ***"
    assert prop.timer() == "00:00"
    assert prop.leds()["strike"]


def test_the_arduino_ide_build_runs_too(firmware: Build, tmp_path: Path) -> None:
    # The sketch folder as the Arduino IDE builds it (prototypes, link-time optimisation),
    # with the IDE's builder; Debian's core needs DECIMAL_DIG with Debian's avr-gcc.
    builder = shutil.which("arduino-builder")
    require([] if builder else ["arduino-builder"], "arduino-builder")
    assert builder is not None
    extra = "-DDECIMAL_DIG=17"
    done = subprocess.run(
        [
            builder,
            "-compile",
            "-hardware",
            str(ARDUINO_AVR.parent.parent),
            "-hardware",
            str(BUILDER_DIR),
            "-tools",
            "/usr/bin",
            "-fqbn",
            "arduino:avr:uno",
            "-build-path",
            str(tmp_path),
            f"-prefs=compiler.c.extra_flags={extra}",
            f"-prefs=compiler.cpp.extra_flags={extra}",
            str(SKETCH_DIR / "mittens_prop.ino"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    sim = SimProp(Build(tmp_path / "mittens_prop.ino.elf", firmware.harness))
    link = RawLink(sim)
    try:
        assert link.lines(1) == ["BOOT 2"]
        assert link.ask("HELLO 1 1 9") == ["HI 1 1 0 mittens-fw-2"]
        assert link.ask("HAND 2 GS YT --") == ["OK 2"]
        assert sim.screens().main[1] == "1G■ 2Y▲ 3-- X: 0"
    finally:
        link.close()
        sim.close()


# --------------------------------------------------------------------------- version 2
# The version-2 messages at the line level, against docs/protocol.md as written.

#: docs/protocol.md section 9.1: the full display state of a version-2 session.
FULL_STATE_V2: Final = [
    "SERIAL 3 AB3CD4",
    "BATT 4 3 2",
    "HOLDERS 5 1 1",
    "INDS 6 2",
    "IND 7 1 FRK 1",
    "IND 8 2 CAR 0",
    "PLATES 9 2",
    "PLATE 10 1 PAR,SER",
    "PLATE 11 2 EMPTY",
    "TOP 12 GT",
    "HAND 13 RC BH YS",
    "STRIKES 14 0",
    "LIMIT 15 3",
    "TIMER 16 300000 1000",
    "GAME 17 PLAYING",
    "SOLVED 18 0",
]


def handshake_v2(raw: RawLink, session: int = 4242, seq: int = 0, prior: int = 0) -> None:
    """Start a version-2 session and check the HI."""
    assert raw.ask(f"HELLO 2 2 {session}") == [f"HI 2 2 {seq} {FIRMWARE} {prior}"]


def answer_ok(raw: RawLink, body: str) -> None:
    """Send a command and check that it is answered OK."""
    tag = body.split()[1]
    assert raw.ask(body) == [f"OK {tag}"], body


def test_v2_the_full_display_state_is_shown(prop: SimProp, raw: RawLink) -> None:
    handshake_v2(raw)
    for body in FULL_STATE_V2:
        answer_ok(raw, body)
    screens = prop.screens()
    assert screens.main == ("PILE G▲         ", "1R● 2B♥ 3Y■ X0/3")
    assert screens.tag == edge_rows("SERIAL #  AB3CD4", "3B 1xAA 1xD  ‖ ▮", "●FRK ○CAR", "[PS] []")
    # Five minutes, counting down in real time.
    assert prop.timer() in ("05:00", "04:59")
    assert prop.leds() == {"strike": False, "solved": False, "link": True}


def test_v2_handshake_tells_the_prior_session_and_keeps_numbering(
    prop: SimProp, raw: RawLink
) -> None:
    # A press before any HELLO carries session 0, in the version-2 form.
    prop.press(Button.HAND1)
    assert raw.lines(1) == ["BTN 1 HAND1 0"]
    handshake_v2(raw, session=7, seq=1, prior=0)
    prop.press(Button.DECK)
    assert raw.lines(1) == ["BTN 2 DECK 7"]
    # A HELLO mid-session replaces the session; HI names the one before.
    handshake_v2(raw, session=8, seq=2, prior=7)
    # RESEND sends the events as first sent: each keeps the session it was pressed in.
    assert raw.ask("RESEND 3 1", answers=3) == ["BTN 1 HAND1 0", "BTN 2 DECK 7", "OK 3"]
    # A number newer than the newest asks for nothing.
    assert raw.ask("RESEND 4 3") == ["OK 4"]
    assert raw.ask("RESEND 5 100") == ["OK 5"]
    # In a version-1 session the same events take the version-1 form.
    assert raw.ask("HELLO 6 1 9") == [f"HI 6 1 2 {FIRMWARE}"]
    assert raw.ask("RESEND 7 2", answers=2) == ["BTN 2 DECK", "OK 7"]
    prop.press(Button.PILE)
    assert raw.lines(1) == ["BTN 3 PILE"]
    # Back to version 2: the prior session is the version-1 one.
    handshake_v2(raw, session=10, seq=3, prior=9)
    assert raw.ask("RESEND 8 3", answers=2) == ["BTN 3 PILE 9", "OK 8"]
    # A restart forgets the session: the next HI says there was none before.
    prop.ask("reset")
    assert raw.lines(1) == ["BOOT 2"]
    handshake_v2(raw, session=11, seq=0, prior=0)


def test_v2_commands_belong_to_version_2(prop: SimProp, raw: RawLink) -> None:
    # Before any session the version in use is the newest: v2 commands need a session.
    assert raw.ask("LIMIT 1 3") == ["ERR 1 NOSESSION"]
    assert raw.ask("LIMIT 2 300") == ["ERR 2 ARGS"]
    assert raw.ask("HELLO 3 1 5") == [f"HI 3 1 0 {FIRMWARE}"]
    # In a version-1 session they are unknown, whatever their arguments.
    for body in [
        "HOLDERS 4 1 1",
        "INDS 5 0",
        "IND 6 1 FRK 1",
        "PLATES 7 0",
        "PLATE 8 1 EMPTY",
        "LIMIT 9 3",
        "TIMER 10 - 0",
        "GAME 11 PLAYING",
        "SOUND 12 1 BOOM",
        "GAME 13",
    ]:
        tag = body.split()[1]
        assert raw.ask(body) == [f"ERR {tag} UNKNOWN"], body
    assert raw.ask("HELLO 14 3 5") == ["ERR 14 VERSION 2"]
    assert raw.ask("HELLO 15 0 5") == ["ERR 15 ARGS"]
    assert raw.ask("HELLO 16 02 5") == ["ERR 16 ARGS"]
    assert raw.ask("HELLO 17 2 0") == ["ERR 17 ARGS"]


@pytest.mark.parametrize(
    "body",
    [
        "HOLDERS 1 1 -",  # both known or both unknown
        "HOLDERS 1 100 0",
        "HOLDERS 1 01 1",
        "INDS 1 100",
        "INDS 1 -",
        "IND 1 0 FRK 1",  # indexes run from 1
        "IND 1 100 FRK 1",
        "IND 1 1 FR 1",
        "IND 1 1 FRKK 1",
        "IND 1 1 frk 1",
        "IND 1 1 FRK 2",
        "IND 1 1 FRK",
        "PLATES 1 100",
        "PLATE 1 1 empty",
        "PLATE 1 1 PAR,,SER",
        "PLATE 1 1 PAR,",
        "PLATE 1 1 USB",
        "PLATE 1 1 DVI,DVI,DVI,DVI,DVI,DVI,DVI,DVI,DVI",  # 9 ports
        "LIMIT 1 100",
        "TIMER 1 6000000 1000",
        "TIMER 1 - 1000",  # no timer runs at rate 0
        "TIMER 1 1000 10000",
        "TIMER 1 0100 1000",
        "TIMER 1 1000",
        "GAME 1 playing",
        "GAME 1 WON",
        "SOUND 1 1 TICK",
        "SOUND 1 65536 BOOM",
        "SOUND 1 BOOM",
    ],
)
def test_v2_bad_values_are_refused(prop: SimProp, raw: RawLink, body: str) -> None:
    handshake_v2(raw)
    assert raw.ask(body) == ["ERR 1 ARGS"]
    assert prop.screens().main == WAITING


def test_v2_edge_widgets_show_what_fits_and_count_the_rest(prop: SimProp, raw: RawLink) -> None:
    handshake_v2(raw)
    answer_ok(raw, "INDS 1 0")
    answer_ok(raw, "PLATES 2 0")
    assert prop.screens().tag[2:] == edge_rows("NO INDICATORS", "NO PORT PLATES")
    # Entries may come before their count; one never described shows as unknown.
    answer_ok(raw, "IND 3 4 BOB 1")
    answer_ok(raw, "IND 4 1 SND 0")
    answer_ok(raw, "INDS 5 4")
    assert prop.screens().tag[2] == edge_rows("○SND  ???  ??? ●BOB")[0]
    # More than fit: the first three and how many more.
    answer_ok(raw, "INDS 6 99")
    answer_ok(raw, "IND 7 99 NSA 1")
    assert prop.screens().tag[2] == edge_rows("○SND  ???  ??? +96")[0]
    answer_ok(raw, "PLATE 8 1 DVI,PS2,RJ45,RCA")
    answer_ok(raw, "PLATE 9 2 SER,SER")
    answer_ok(raw, "PLATE 10 3 EMPTY")
    answer_ok(raw, "PLATES 11 3")
    assert prop.screens().tag[3] == edge_rows("[D2RA] [SS] []")[0]
    answer_ok(raw, "PLATES 12 4")
    assert prop.screens().tag[3] == edge_rows("[D2RA] [SS] [] [?]")[0]
    answer_ok(raw, "PLATES 13 5")  # "[?] +1" would not fit
    assert prop.screens().tag[3] == edge_rows("[D2RA] [SS] [] +2")[0]
    answer_ok(raw, "PLATE 14 1 PAR,SER,DVI,PS2,RJ45,RCA,SER,PAR")
    assert prop.screens().tag[3] == edge_rows("[PSD2RASP] [SS] +3")[0]
    answer_ok(raw, "PLATES 15 99")
    answer_ok(raw, "PLATE 16 99 EMPTY")
    assert prop.screens().tag[3] == edge_rows("[PSD2RASP] [SS] +97")[0]
    # Holders: AA first, then D; unknown again with "- -".
    answer_ok(raw, "BATT 17 5 3")
    answer_ok(raw, "HOLDERS 18 2 1")
    assert prop.screens().tag[1] == edge_rows("5B 2xAA 1xD  ‖ ‖ ▮")[0]
    answer_ok(raw, "HOLDERS 19 - -")
    assert prop.screens().tag[1] == edge_rows("5B 3H  ‖ ‖ ▮")[0]


def test_v2_the_timer_runs_down_at_the_rate_it_is_given(prop: SimProp, raw: RawLink) -> None:
    handshake_v2(raw)
    assert prop.timer() == ""
    answer_ok(raw, "TIMER 1 65500 0")  # stopped
    assert prop.timer() == "01:05"
    prop.wait(1200)
    assert prop.timer() == "01:05"
    answer_ok(raw, "TIMER 2 61000 2000")  # twice as fast: 2 s a second
    prop.wait(1000)
    # Under a minute: seconds and hundredths.
    shown = prop.timer()
    assert shown[:2] == "58" or shown[:2] == "59", shown
    assert shown[2] == ":"
    answer_ok(raw, "TIMER 3 300 1000")
    prop.wait(400)
    assert prop.timer() == "00:00"  # stops at 0; the host ends the game
    answer_ok(raw, "TIMER 4 5999999 1000")
    assert prop.timer() == "99:59"
    answer_ok(raw, "TIMER 5 - 0")
    assert prop.timer() == ""


def test_v2_presses_count_while_the_timer_display_updates(prop: SimProp, raw: RawLink) -> None:
    # Under a minute at the fastest rate the timer display changes every few ms, so the
    # firmware writes the timer's DIO line on the buttons' port all the time: a held
    # button must stay held (a real Uno's pinMode touches one bit; the harness must not
    # lose the others either).
    handshake_v2(raw)
    answer_ok(raw, "TIMER 1 59000 9999")
    for press in range(1, 13):
        prop.press(Button.HAND1)
        assert raw.lines(1) == [f"BTN {press} HAND1 4242"]


def test_v2_the_end_of_the_game_is_shown(prop: SimProp, raw: RawLink) -> None:
    handshake_v2(raw)
    for body in FULL_STATE_V2:
        answer_ok(raw, body)
    answer_ok(raw, "STRIKES 20 3")
    answer_ok(raw, "TIMER 21 150250 0")
    answer_ok(raw, "GAME 22 EXPLODED")
    screens = prop.screens()
    assert screens.main == ("*** EXPLODED ***", "1R● 2B♥ 3Y■ X3/3")
    assert prop.timer() == "02:30"
    assert prop.leds() == {"strike": True, "solved": False, "link": True}
    prop.wait(1200)  # the red light stays on after the strike flash
    assert prop.leds()["strike"]
    answer_ok(raw, "GAME 23 TIMEOUT")
    assert prop.screens().main[0] == "*** TIME OUT ***"
    answer_ok(raw, "GAME 24 SOLVED")
    assert prop.screens().main[0] == "PILE G▲   SOLVED"
    assert prop.leds() == {"strike": False, "solved": True, "link": True}
    # Without a limit (or above 9), the count alone.
    answer_ok(raw, "LIMIT 25 0")
    assert prop.screens().main[1].endswith("X: 3")


def test_v2_sounds_play_once_per_number(prop: SimProp, raw: RawLink) -> None:
    handshake_v2(raw)
    prop.tones()
    answer_ok(raw, "SOUND 1 1 STRIKE")
    answer_ok(raw, "SOUND 2 1 STRIKE")  # the host repeating the attempt: no second sound
    prop.wait(700)
    strike = prop.tones()
    # Two low buzzes of 150 and 350 ms.
    assert len(strike) == 2
    assert all(200 <= tone.hz <= 240 for tone in strike)
    assert all(
        abs(tone.length_ms - want) <= 20 for tone, want in zip(strike, (150, 350), strict=True)
    )
    answer_ok(raw, "SOUND 3 2 SOLVE")
    prop.wait(700)
    solve = prop.tones()
    assert len(solve) == 1  # three notes back to back
    assert solve[0].length_ms >= 500
    assert solve[0].hz > 1000
    answer_ok(raw, "SOUND 4 3 BOOM")
    # Nothing cuts the explosion short.
    answer_ok(raw, "SOUND 5 4 STRIKE")
    prop.wait(2500)
    boom = prop.tones()
    assert len(boom) == 1
    assert boom[0].length_ms >= 1800
    assert boom[0].hz < 300
    # A new session forgets the last number: the same number sounds again.
    handshake_v2(raw, session=4243, prior=4242)
    answer_ok(raw, "SOUND 6 4 STRIKE")
    prop.wait(700)
    assert len(prop.tones()) == 2


def test_v2_the_timer_ticks_while_the_game_is_played(prop: SimProp, raw: RawLink) -> None:
    handshake_v2(raw)
    answer_ok(raw, "GAME 1 PLAYING")
    prop.tones()
    answer_ok(raw, "TIMER 2 100000 1000")
    prop.wait(2300)
    ticks = prop.tones()
    assert len(ticks) in (2, 3)
    assert all(tick.length_ms < 30 and tick.hz > 1500 for tick in ticks)
    gaps = {later.start_ms - earlier.start_ms for earlier, later in itertools.pairwise(ticks)}
    assert all(950 <= gap <= 1050 for gap in gaps), gaps
    # A stopped timer and an ended game are silent.
    answer_ok(raw, "TIMER 3 100000 0")
    prop.tones()
    prop.wait(1500)
    assert prop.tones() == []
    answer_ok(raw, "TIMER 4 100000 1000")
    answer_ok(raw, "GAME 5 EXPLODED")
    prop.wait(50)  # a tick that had begun ends
    prop.tones()
    prop.wait(1500)
    assert prop.tones() == []


def test_v2_replies_come_within_the_deadline_in_simulated_time(prop: SimProp, raw: RawLink) -> None:
    # The deadline is the firmware's (50 ms from the command's LF to the end of its
    # reply), timed by the harness in simulated time, so a busy test machine cannot
    # blur it. The slowest cases: redrawing both displays, and a RESEND of all 16 stored
    # events in the longer version-2 form.
    for round_ in range(4):
        for button in HARNESS_BUTTONS:
            prop.ask(f"press {HARNESS_BUTTONS[button]} 30")
        assert len(raw.lines(5)) == 5, f"round {round_}"
        prop.wait(60)
    prop.ask("replies")
    handshake_v2(raw, seq=20, session=65535)
    for body in FULL_STATE_V2:
        answer_ok(raw, body)
    answer_ok(raw, "PLATE 19 1 PAR,SER,DVI,PS2,RJ45,RCA,SER,PAR")
    answer_ok(raw, "GAME 20 TIMEOUT")
    replay = raw.ask("RESEND 21 1", answers=17)
    assert len(replay) == 17
    assert replay[-1] == "OK 21"
    fields = dict(part.split("=") for part in prop.ask("replies").split()[1:])
    assert int(fields["count"]) == len(FULL_STATE_V2) + 4
    assert int(fields["worst"]) <= 50_000


#: What `mittens prop check` prints on stderr when it needs a press or a reset.
PRESS_PROMPT: Final = re.compile(r"check: press (DECK|PILE|HAND1|HAND2|HAND3) on the prop")
RESET_PROMPT: Final = "check: reset the prop"
#: Seconds the whole check may take (it takes about 15 s).
CHECK_TIMEOUT: Final = 180.0


@pytest.fixture
def real_time_prop(firmware: Build) -> Iterator[SimProp]:
    """A freshly started prop in the simulator, paced to the wall clock."""
    sim = SimProp(firmware, real_time=True)
    yield sim
    sim.close()


def test_the_firmware_passes_mittens_prop_check(real_time_prop: SimProp) -> None:
    # The real-time smoke test: the conformance checker as a prop maker runs it, in its
    # own process, against the emulated board paced to the wall clock. It asks for
    # presses and a reset on stderr, and this test does them on the harness.
    prop = real_time_prop
    # The reply deadline is checked in simulated time by the test above; here the
    # emulator's pty and the shared test machine add wall-clock delay that a real board
    # does not have, so the checker is given 0.5 s.
    command = [
        sys.executable, "-m", "defuser", "prop", "check", prop.port, "--json",
        "--deadline", "0.5", "--timeout", "2", "--press-timeout", "10",
    ]  # fmt: skip
    checker = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT
    )
    assert checker.stderr is not None
    # A checker that hangs is stopped, so the test fails instead of waiting forever.
    watchdog = threading.Timer(CHECK_TIMEOUT, checker.kill)
    watchdog.start()
    prompts: list[str] = []
    try:
        for line in checker.stderr:
            prompts.append(line.rstrip())
            press = PRESS_PROMPT.search(line)
            if press:
                prop.press(Button(press.group(1)))
            elif RESET_PROMPT in line:
                prop.ask("reset")
        stdout, _ = checker.communicate(timeout=CHECK_TIMEOUT)
    finally:
        watchdog.cancel()
    report = json.loads(stdout)
    failed = [result for result in report["results"] if result["status"] != "pass"]
    assert failed == [], prompts
    assert report["passed"] is True
    assert checker.returncode == 0
    # The checks that need hands ran: presses (3 numbered, 8 stored) and a reset.
    assert sum(PRESS_PROMPT.search(line) is not None for line in prompts) >= 11
    assert any(RESET_PROMPT in line for line in prompts)


#: docs/protocol.md section 2.1: lines and what the prop answers (None: nothing, a bad
#: line). Sent before any session, so the version in use is 2.
GRAMMAR_TABLE: Final = [
    (b"PING 5*FD6B\n", "PONG 5 0 0 0"),
    (b"PING 5*fd6b\n", None),
    (b"PING 5*FD6C\n", None),
    (b"PING 5*FD6B*FD6B\n", None),
    (b"*0000\n", None),
    (b"PING 5\r*FD6B\n", None),
    (b"PING  5*CFC2\n", "ERR - ARGS"),
    (b"PING 5 *71D0\n", "ERR 5 ARGS"),
    (b" PING 5*939D\n", "ERR - ARGS"),
    (b"PING 05*CCB1\n", "ERR - ARGS"),
    (b"ping 5*715F\n", "ERR 5 UNKNOWN"),
    (b"HELLO 2 0 4242*3794\n", "ERR 2 ARGS"),
    (b"HELLO 2 01 4242*2942\n", "ERR 2 ARGS"),
    (b"OK 3*57F8\n", "ERR 3 UNKNOWN"),
]


def test_the_documented_grammar_examples(prop: SimProp, raw: RawLink) -> None:
    bad = 0
    for line, answer in GRAMMAR_TABLE:
        raw.send_raw(line)
        if answer is None:
            bad += 1
            assert raw.lines(1, timeout=0.3) == [], line
        else:
            assert raw.lines(1) == [answer], line
    assert raw.ask("PING 6") == [f"PONG 6 0 0 {bad}"]


# --------------------------------------------------------------------------- stateful

#: The build the state machine uses (set by the test that runs it).
_MACHINE_BUILD: list[Build] = []


class PropGame(RuleBasedStateMachine):
    """Random presses and faults against the firmware; the game must stay intact.

    An oracle module takes the same actions directly. After every step the bridge's
    module equals the oracle and the prop's display shows the module's state.
    """

    def __init__(self) -> None:
        super().__init__()
        self.sim = SimProp(_MACHINE_BUILD[0])
        self.device = Device(
            self.sim.port,
            timing=SIM_TIMING,
            session_seed=3,
            opener=self.sim.open_port,
            clock=self.sim.clock,
        )
        self.device.connect()
        edgework = Edgework.parse("1B 1H // AB3CD4")
        self.game = prop_game(Module.from_edgework(edgework, seed=5), edgework, self.device)
        self.bridge = self.game.bridge
        self.oracle = Module.from_edgework(edgework, seed=5)
        self.game.start()

    def _play(self, button: Button) -> None:
        if self.game.game.end is not None:
            return  # solved: no press is played any more
        self.sim.press(button)
        pressed = next_pressed(self.game, self.device, attempts=6)  # 3 s
        assert pressed.press.button is button
        self.oracle.act(pressed.result.action)

    @rule(button=st.sampled_from(list(Button)))
    def press(self, button: Button) -> None:
        self._play(button)

    @rule(button=st.sampled_from(list(Button)))
    def press_with_event_lost(self, button: Button) -> None:
        self.sim.ask("drop 1")
        self._play(button)

    @rule(button=st.sampled_from(list(Button)))
    def press_with_event_garbled(self, button: Button) -> None:
        self.sim.ask("garble 1")
        self._play(button)

    @rule()
    def restart(self) -> None:
        recoveries = self.device.recoveries
        self.sim.ask("reset")
        await_recovery(self.sim, self.device, recoveries)

    @invariant()
    def game_intact(self) -> None:
        module = self.bridge.module
        assert module.hand == self.oracle.hand
        assert module.discard_top == self.oracle.discard_top
        assert module.strikes == self.oracle.strikes
        assert module.solved == self.oracle.solved
        assert self.device.lost_events == 0
        assert self.sim.screens().main == module_rows(module)

    def teardown(self) -> None:
        self.device.close()
        self.sim.close()


def test_stateful_bridge_against_the_firmware(firmware: Build) -> None:
    _MACHINE_BUILD[:] = [firmware]
    # hypothesis 6.15x leaves this function unannotated; older releases annotate it.
    run_state_machine_as_test(  # type: ignore[no-untyped-call,unused-ignore]
        PropGame,
        settings=settings(max_examples=3, stateful_step_count=6, deadline=None),
    )
