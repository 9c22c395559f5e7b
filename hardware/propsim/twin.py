"""The simulated prop itself: :class:`PropSim`, a twin of the physical prop.

:class:`PropSim` behaves as docs/protocol.md asks of a prop: it answers commands in the
documented order of checks, keeps the display state (:class:`Display`), numbers its
button presses and stores the newest ones for ``RESEND``, counts bad lines, and starts
with a ``BOOT`` line. It adds what a test needs and a real prop must never do: fault
injection (:class:`Faults`: restarts, corrupted lines, dropped events, garbage, a
bootloader that swallows the first lines, silence, unplugging) and a *script* of button
presses (:mod:`hardware.propsim.script`), each made once the host has acknowledged the
previous one, so a whole game can run unattended. Feed it bytes
(:meth:`PropSim.receive`) and read what it sends.

Its protocol steps are public, so a prop built another way is a subclass that changes
one of them: :meth:`PropSim.handle_line` takes a line from the host,
:meth:`PropSim.answer` replies to a command, :meth:`PropSim.event_line` words a button
event, :meth:`PropSim.emit` sends a line, and :meth:`PropSim.version_in_use` is the
version they follow (the conformance checker is held against such props in its tests).
"""

from __future__ import annotations

import random
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Final

from defuser.engine.clock import time_text
from hardware.display import DisplayState
from hardware.errors import CommandRejected, ErrorCode
from hardware.framing import BadLine, LineFramer, seal
from hardware.propsim.script import GARBAGE, ScriptStep, SimError
from hardware.protocol import (
    MIN_EVENT_STORE,
    SEQ_MODULUS,
    VERSIONS,
    Ack,
    Boot,
    Button,
    ButtonPressed,
    Command,
    Cue,
    DisplayCommand,
    Err,
    GameState,
    Hello,
    Hi,
    Ok,
    Ping,
    PlaySound,
    Pong,
    Resend,
    ShowSolved,
    decode_command,
    is_newer,
    next_seq,
)

#: The firmware name a simulated prop gives in ``HI`` (``propsim-1`` for version 1).
FIRMWARE: Final = "propsim-2"

#: Bytes a board may spit out while it resets (bootloader noise, a half-sent line).
BOOT_NOISE: Final = b"\x00\xffBT"


@dataclass(frozen=True, slots=True)
class Faults:
    """What goes wrong on the simulated prop, and how often."""

    corrupt: float = 0.0
    drop: float = 0.0
    boot_delay: int = 0
    reset_on_open: bool = True
    mute: bool = False
    seed: int = 0


@dataclass
class Display:
    """What the simulated prop shows now, and the sounds it has played."""

    state: DisplayState = field(default_factory=DisplayState)
    #: Sounds played, in order.
    sounds: list[Cue] = field(default_factory=list)
    #: False from a restart until the first display command ("waiting for host").
    shown: bool = False

    def render(self) -> str:
        """A one-line picture of the display."""
        if not self.shown:
            return "waiting for host"
        state = self.state
        hand = " ".join("--" if card is None else card.code for card in state.hand)
        top = "--" if state.top is None else state.top.code
        holders = "" if state.holders is None else f" {state.holders}H"
        cells = "" if state.aa is None else f" ({state.aa}xAA {state.d}xD)"
        limit = f"/{state.limit}" if state.limit else ""
        timer = ""
        if state.timer is not None:
            clock = time_text(state.timer[0], game=True, under_minute=False)
            timer = f" | timer {clock} x{state.timer[1] / 1000:g}"
        game = "" if state.game is GameState.PLAYING else f" | {state.game.value}"
        edge = state.edge_text()
        batteries = state.batteries if state.batteries is not None else "-"
        return (
            f"hand {hand} | pile {top} | strikes {state.strikes}{limit}"
            f"{' | SOLVED' if state.solved else ''}{timer}{game} | serial "
            f"{state.serial or '------'} | {batteries}B{holders}{cells}"
            f"{' | ' + edge if edge else ''}"
        )


@dataclass
class PropSim:
    """One simulated prop. Thread-safe: the host side and a test may use it at once."""

    name: str
    script: tuple[ScriptStep, ...] = ()
    faults: Faults = field(default_factory=Faults)
    usb_serial: str = "PROPSIM"
    event_store: int = MIN_EVENT_STORE
    #: The newest protocol version it speaks (it speaks every one from 1 up).
    max_version: int = VERSIONS[-1]

    def __post_init__(self) -> None:
        self._cond = threading.Condition()
        self._framer = LineFramer()
        self._rng = random.Random(self.faults.seed)
        self._out = bytearray()
        #: Stored events with the session each was pressed in.
        self._store: deque[tuple[ButtonPressed, int]] = deque(maxlen=self.event_store)
        self._corrupt_next = 0
        self._drop_next = 0
        self._swallow = 0
        self._script_at = 0
        self._awaiting_ack: int | None = None
        self._state_complete = False
        self._last_sound: int | None = None
        #: The version of the current session (0: none).
        self.version = 0
        #: What is shown now.
        self.display = Display()
        #: The session from the newest successful HELLO (0: none since the restart).
        self.session = 0
        #: The newest event number (0: no press since the restart).
        self.seq = 0
        #: Bad lines dropped since the restart.
        self.bad_lines = 0
        #: True while the USB cable is in.
        self.plugged = True
        #: Bumped by every unplug; a port opened before it is dead.
        self.generation = 0
        #: Every press made, in order (survives restarts), and every command received.
        self.presses: list[ButtonPressed] = []
        self.commands: list[Command] = []
        #: Presses the host acknowledged, in order.
        self.acked: list[int] = []
        with self._cond:
            self._restart()

    # ------------------------------------------------------------------ host side

    def receive(self, data: bytes) -> None:
        """Bytes from the host."""
        with self._cond:
            for line in self._framer.feed(data):
                if isinstance(line, BadLine):
                    self.bad_lines = min(self.bad_lines + 1, 65535)
                    continue
                self.handle_line(line)
            self._run_script()

    def read(self, size: int, timeout: float | None, generation: int) -> bytes:
        """Up to ``size`` bytes for the host, waiting at most ``timeout`` for the first."""
        with self._cond:
            self._cond.wait_for(
                lambda: bool(self._out) or generation != self.generation, timeout
            )
            self._check_alive(generation)
            data = bytes(self._out[:size])
            del self._out[:size]
            return data

    def pending(self, generation: int) -> int:
        """How many bytes wait for the host."""
        with self._cond:
            self._check_alive(generation)
            return len(self._out)

    def has_output(self) -> bool:
        """True when bytes wait for the host (it answers at once: none means it has sent
        everything until it hears more or a button is pressed)."""
        with self._cond:
            return bool(self._out)

    def discard_output(self) -> None:
        """Drop what waits for the host (the host flushed its input)."""
        with self._cond:
            self._out.clear()

    def attach(self) -> int:
        """The host opens the port; returns the connection's generation."""
        with self._cond:
            if not self.plugged:
                raise SimError(f"simulated prop {self.name!r} is unplugged")
            if self.faults.reset_on_open:
                self._restart()
            return self.generation

    def check_alive(self, generation: int) -> None:
        """Raise :class:`SimError` when the connection ``generation`` is gone."""
        with self._cond:
            self._check_alive(generation)

    # ------------------------------------------------------------------ the player

    def press(self, button: Button) -> ButtonPressed:
        """Press a button: a numbered event goes to the host (unless dropped)."""
        with self._cond:
            return self._press(button)

    # ------------------------------------------------------------------ faults

    def restart(self) -> None:
        """Reset the board: session, display and event numbers are gone; BOOT follows."""
        with self._cond:
            self._restart()

    def corrupt_next(self, lines: int = 1) -> None:
        """Corrupt the next ``lines`` lines sent to the host."""
        with self._cond:
            self._corrupt_next += lines

    def drop_next(self, events: int = 1) -> None:
        """Lose the next ``events`` button events on the wire (``RESEND`` still has them)."""
        with self._cond:
            self._drop_next += events

    def send_garbage(self, data: bytes = GARBAGE) -> None:
        """Put raw bytes on the wire to the host."""
        with self._cond:
            self._out += data
            self._cond.notify_all()

    def unplug(self) -> None:
        """Pull the cable: open ports fail from now on, and the port cannot be opened."""
        with self._cond:
            self.plugged = False
            self.generation += 1
            self._cond.notify_all()

    def plug(self) -> None:
        """Put the cable back; it powers up."""
        with self._cond:
            self.plugged = True
            self._restart()

    @property
    def script_finished(self) -> bool:
        """True when the script had steps, all are made, and the last press was acknowledged."""
        with self._cond:
            return (
                bool(self.script)
                and self._script_at >= len(self.script)
                and self._awaiting_ack is None
            )

    def take_output(self) -> bytes:
        """Everything that waits for the host (for the pty runner)."""
        with self._cond:
            data = bytes(self._out)
            self._out.clear()
            return data

    # ------------------------------------------------------------------ internals

    def _check_alive(self, generation: int) -> None:
        if generation != self.generation or not self.plugged:
            raise SimError(f"simulated prop {self.name!r} was unplugged")

    def _restart(self) -> None:
        self.session = 0
        self.version = 0
        self.seq = 0
        self.bad_lines = 0
        self.display = Display()
        self._store.clear()
        self._framer.reset()
        self._awaiting_ack = None
        self._state_complete = False
        self._out.clear()
        self._out += BOOT_NOISE
        self._swallow = self.faults.boot_delay
        if not self._swallow:
            self._announce()
        self._cond.notify_all()

    def _announce(self) -> None:
        # A lone LF first ends any noise, so the BOOT line itself arrives intact.
        self._out += b"\n"
        self.emit(Boot(self.max_version).encode())

    def _press(self, button: Button) -> ButtonPressed:
        self.seq = next_seq(self.seq)
        event = ButtonPressed(self.seq, button)
        self._store.append((event, self.session))
        self.presses.append(event)
        self.emit(self.event_line(event, self.session), event=True)
        return event

    # ------------------------------------------------------------------ protocol steps

    def emit(self, body: str, *, event: bool = False) -> None:
        """Send ``body`` to the host as one sealed line, as the faults let it through
        (``event``: a button event, which a drop fault may lose)."""
        if event and (self._drop_next or self._rng.random() < self.faults.drop):
            self._drop_next = max(0, self._drop_next - 1)
            return
        line = bytearray(seal(body))
        if self._corrupt_next or self._rng.random() < self.faults.corrupt:
            self._corrupt_next = max(0, self._corrupt_next - 1)
            index = self._rng.randrange(len(body))
            line[index] = ord("#") if line[index] != ord("#") else ord("%")
        self._out += line
        self._cond.notify_all()

    def version_in_use(self) -> int:
        """The version of the session, or the newest one spoken before any session."""
        return self.version or self.max_version

    def event_line(self, event: ButtonPressed, session: int) -> str:
        """The line that sends (or re-sends) ``event``, pressed in ``session``: in the
        form of the version in use."""
        token = session if self.version_in_use() >= 2 else None
        return ButtonPressed(event.seq, event.button, token).encode()

    def handle_line(self, body: str) -> None:
        """One whole line from the host (its checksum already checked): the bootloader
        swallows it, or it is decoded and answered (``ERR`` for what the prop refuses)."""
        if self._swallow:
            # Still in the bootloader: the line is lost; then the firmware starts.
            self._swallow -= 1
            if not self._swallow:
                self._announce()
            return
        if self.faults.mute:
            return
        try:
            tag_text, command = decode_command(body, self.version_in_use())
        except CommandRejected as exc:
            tag = None if exc.tag is None else int(exc.tag)
            self.emit(Err(tag, exc.code).encode())
            return
        tag = int(tag_text)
        self.commands.append(command)
        if not isinstance(command, Hello | Ping) and self.session == 0:
            self.emit(Err(tag, ErrorCode.NOSESSION).encode())
            return
        self.emit(self.answer(tag, command))

    def answer(self, tag: int, command: Command) -> str:
        """The reply to a decoded ``command`` sent with ``tag`` (in a session, or a
        ``HELLO`` or ``PING``), after doing what it asks."""
        if isinstance(command, Hello):
            if not 1 <= command.version <= self.max_version:
                return Err(tag, ErrorCode.VERSION, self.max_version).encode()
            prior, self.session = self.session, command.session
            self.version = command.version
            self._awaiting_ack = None
            self._state_complete = False
            self._last_sound = None
            firmware = FIRMWARE if self.max_version >= 2 else "propsim-1"
            return Hi(
                tag, command.version, self.seq, firmware, prior if command.version >= 2 else None
            ).encode()
        if isinstance(command, Ping):
            return Pong(tag, self.session, self.seq, self.bad_lines).encode()
        if isinstance(command, Resend):
            span = (self.seq - command.seq) % SEQ_MODULUS
            if span < SEQ_MODULUS // 2:
                for event, session in self._store:
                    if (event.seq - command.seq) % SEQ_MODULUS <= span:
                        self.emit(self.event_line(event, session))
            return Ok(tag).encode()
        if isinstance(command, PlaySound):
            if command.number != self._last_sound:
                self._last_sound = command.number
                self.display.sounds.append(command.cue)
            return Ok(tag).encode()
        if isinstance(command, Ack):
            self.acked.append(command.seq)
            waiting = self._awaiting_ack
            if waiting is not None and not is_newer(waiting, command.seq):
                self._awaiting_ack = None
            return Ok(tag).encode()
        self._show(command)
        return Ok(tag).encode()

    def _show(self, command: DisplayCommand) -> None:
        """A display command: change what is shown."""
        self.display.state = self.display.state.apply(command)
        self.display.shown = True
        if isinstance(command, ShowSolved):
            # SOLVED ends a full re-send: the host has shown the whole state.
            self._state_complete = True

    def _run_script(self) -> None:
        """Make the next script steps once the host has caught up with the last press."""
        while (
            self._script_at < len(self.script)
            and self.session != 0
            and self._state_complete
            and self._awaiting_ack is None
            and not self._swallow
        ):
            step = self.script[self._script_at]
            self._script_at += 1
            if isinstance(step, Button):
                self._awaiting_ack = self._press(step).seq
            elif step == "reset":
                self._restart()
            elif step == "corrupt":
                self._corrupt_next += 1
            elif step == "drop":
                self._drop_next += 1
            else:
                self._out += GARBAGE
