"""The simulated prop: a software twin of the physical prop that speaks the protocol.

:class:`PropSim` behaves as docs/protocol.md asks of a prop: it answers commands in the
documented order of checks, keeps the display state, numbers its button presses and
stores the newest ones for ``RESEND``, counts bad lines, and starts with a ``BOOT``
line. It adds what a test needs and a real prop must never do: fault injection
(restarts, corrupted lines, dropped events, garbage, a bootloader that swallows the
first lines, silence, unplugging) and a *script* of button presses, each made once the
host has acknowledged the previous one, so a whole game can run unattended.

It is reachable three ways:

* in-process as the pyserial URL ``propsim://NAME?OPTIONS`` (see
  :mod:`hardware.protocol_propsim`); simulated props live in a registry by name, so a
  test can reach the twin behind a port (:func:`lookup`) and the host can find it again
  by its USB identity after an unplug (:func:`sim_ports`);
* behind a real pseudo-terminal: ``python -m hardware.propsim --pty`` prints the path;
* directly, by feeding it bytes (:meth:`PropSim.receive`) and reading what it sends.

URL options (all optional): ``script=DECK,HAND1,PILE,...`` (buttons ``DECK``, ``PILE``,
``HAND1``-``HAND3`` or ``1``-``3``, and fault steps ``reset``, ``corrupt``, ``drop``,
``garbage``), ``corrupt=P`` and ``drop=P`` (chance per line / per event), ``seed=N``
(for those chances), ``boot_delay=N`` (lines swallowed after a restart), ``version=1``
(a prop that speaks only protocol version 1; default: versions 1 and 2),
``reset_on_open=0|1`` (default 1, like an Arduino's auto-reset), ``mute=1`` (never
answers) and ``usb_serial=TEXT``.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import select
import sys
import threading
import urllib.parse
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

from defuser.engine.clock import time_text
from hardware.display import DisplayState
from hardware.errors import CommandRejected, ErrorCode, HardwareError
from hardware.framing import BadLine, LineFramer, seal
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
from hardware.transport import PortInfo

#: The USB identity simulated props report: the pid.codes test vendor and product.
SIM_VID: Final = 0x1209
SIM_PID: Final = 0x0001
FIRMWARE: Final = "propsim-2"
SCHEME: Final = "propsim"

#: Bytes a board may spit out while it resets (bootloader noise, a half-sent line).
BOOT_NOISE: Final = b"\x00\xffBT"
GARBAGE: Final = b"\x07#garbage\x80\xfe"

#: Script words for buttons, beyond the protocol names.
BUTTON_WORDS: Final[dict[str, Button]] = {
    **{button.value.lower(): button for button in Button},
    "1": Button.HAND1,
    "2": Button.HAND2,
    "3": Button.HAND3,
    "draw": Button.DECK,
    "discard": Button.PILE,
}
FAULT_STEPS: Final = frozenset({"reset", "corrupt", "drop", "garbage"})


class SimError(HardwareError):
    """A simulated prop was used wrongly (a bad URL option, a bad script word)."""


@dataclass(frozen=True, slots=True)
class Faults:
    """What goes wrong on the simulated prop, and how often."""

    corrupt: float = 0.0
    drop: float = 0.0
    boot_delay: int = 0
    reset_on_open: bool = True
    mute: bool = False
    seed: int = 0


ScriptStep = Button | str


def parse_script(text: str | Iterable[str]) -> tuple[ScriptStep, ...]:
    """Read a script: buttons and fault steps separated by commas or spaces."""
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    steps: list[ScriptStep] = []
    for word in words:
        key = word.strip().lower()
        if key in BUTTON_WORDS:
            steps.append(BUTTON_WORDS[key])
        elif key in FAULT_STEPS:
            steps.append(key)
        else:
            raise SimError(
                f"script step {word!r} is not known, expected a button (DECK, PILE, HAND1-"
                f"HAND3, 1-3) or a fault ({', '.join(sorted(FAULT_STEPS))})"
            )
    return tuple(steps)


def script_text(steps: Iterable[ScriptStep]) -> str:
    """The comma-separated form of a script, as the URL option takes it."""
    return ",".join(step.value if isinstance(step, Button) else step for step in steps)


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
                self._handle(line)
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

    def plug(self, name: str | None = None) -> None:
        """Put the cable back, under ``name`` if given (a new device name); it powers up."""
        if name is not None and name != self.name:
            _rename(self, name)
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
        self._emit(Boot(self.max_version).encode())

    def _emit(self, body: str, *, event: bool = False) -> None:
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

    def _in_use(self) -> int:
        """The version of the session, or the newest one spoken before any session."""
        return self.version or self.max_version

    def _event_line(self, event: ButtonPressed, session: int) -> str:
        form = ButtonPressed(event.seq, event.button, session if self._in_use() >= 2 else None)
        return form.encode()

    def _press(self, button: Button) -> ButtonPressed:
        self.seq = next_seq(self.seq)
        event = ButtonPressed(self.seq, button)
        self._store.append((event, self.session))
        self.presses.append(event)
        self._emit(self._event_line(event, self.session), event=True)
        return event

    def _handle(self, body: str) -> None:
        if self._swallow:
            # Still in the bootloader: the line is lost; then the firmware starts.
            self._swallow -= 1
            if not self._swallow:
                self._announce()
            return
        if self.faults.mute:
            return
        try:
            tag_text, command = decode_command(body, self._in_use())
        except CommandRejected as exc:
            tag = None if exc.tag is None else int(exc.tag)
            self._emit(Err(tag, exc.code).encode())
            return
        tag = int(tag_text)
        self.commands.append(command)
        if not isinstance(command, Hello | Ping) and self.session == 0:
            self._emit(Err(tag, ErrorCode.NOSESSION).encode())
            return
        self._emit(self._answer(tag, command))

    def _answer(self, tag: int, command: Command) -> str:
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
                        self._emit(self._event_line(event, session))
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


# ---------------------------------------------------------------------- registry

_REGISTRY: dict[str, PropSim] = {}
_REGISTRY_LOCK = threading.Lock()
_NAMES = itertools.count(1)


def _rename(sim: PropSim, name: str) -> None:
    with _REGISTRY_LOCK:
        if name in _REGISTRY and _REGISTRY[name] is not sim:
            raise SimError(f"a simulated prop called {name!r} already exists")
        _REGISTRY.pop(sim.name, None)
        sim.name = name
        _REGISTRY[name] = sim


def create(
    name: str | None = None,
    *,
    script: Sequence[ScriptStep] = (),
    faults: Faults | None = None,
    usb_serial: str | None = None,
    max_version: int = VERSIONS[-1],
) -> PropSim:
    """A new simulated prop in the registry (named ``sim-N`` when no name is given).

    Its USB serial number defaults to one derived from the name it is created with, and
    stays when it is later plugged in under another name. ``max_version`` 1 makes a
    version-1 prop.
    """
    if max_version not in VERSIONS:
        raise SimError(
            f"protocol version {max_version} is not known, expected one of "
            f"{', '.join(map(str, VERSIONS))}"
        )
    with _REGISTRY_LOCK:
        if name is None:
            name = f"sim-{next(_NAMES)}"
            while name in _REGISTRY:
                name = f"sim-{next(_NAMES)}"
        if name in _REGISTRY:
            raise SimError(f"a simulated prop called {name!r} already exists")
        sim = PropSim(
            name,
            script=tuple(script),
            faults=faults or Faults(),
            usb_serial=usb_serial or f"PROPSIM-{name.upper()}",
            max_version=max_version,
        )
        _REGISTRY[name] = sim
        return sim


def register(sim: PropSim) -> PropSim:
    """Put a prop made elsewhere (a test's deliberately broken one) in the registry."""
    with _REGISTRY_LOCK:
        if sim.name in _REGISTRY:
            raise SimError(f"a simulated prop called {sim.name!r} already exists")
        _REGISTRY[sim.name] = sim
        return sim


def lookup(name: str) -> PropSim | None:
    """The simulated prop called ``name``, if any."""
    with _REGISTRY_LOCK:
        return _REGISTRY.get(name)


def forget(name: str) -> None:
    """Remove a simulated prop from the registry."""
    with _REGISTRY_LOCK:
        _REGISTRY.pop(name, None)


def url_of(sim: PropSim) -> str:
    """The URL that opens ``sim``."""
    return f"{SCHEME}://{sim.name}"


def sim_ports() -> list[PortInfo]:
    """The plugged-in simulated props, as a port list (for discovery after an unplug)."""
    with _REGISTRY_LOCK:
        sims = sorted(_REGISTRY.values(), key=lambda sim: sim.name)
    return [
        PortInfo(
            device=url_of(sim),
            description=f"simulated Exploding Mittens prop {sim.name}",
            hwid=f"USB VID:PID={SIM_VID:04X}:{SIM_PID:04X} SER={sim.usb_serial}",
            vid=SIM_VID,
            pid=SIM_PID,
            serial_number=sim.usb_serial,
            manufacturer="exploding-mittens",
            product="propsim",
        )
        for sim in sims
        if sim.plugged
    ]


def _flag(key: str, value: str) -> bool:
    if value not in ("0", "1"):
        raise SimError(f"propsim option {key}={value!r} is not 0 or 1")
    return value == "1"


def _chance(key: str, value: str) -> float:
    try:
        chance = float(value)
    except ValueError:
        chance = -1.0
    if not 0.0 <= chance <= 1.0:
        raise SimError(f"propsim option {key}={value!r} is not a chance between 0 and 1")
    return chance


def _count(key: str, value: str) -> int:
    if not value.isdigit():
        raise SimError(f"propsim option {key}={value!r} is not a whole number")
    return int(value)


def open_url(url: str) -> PropSim:
    """The simulated prop a ``propsim://NAME?OPTIONS`` URL names, created if new.

    Options apply only when the URL creates the prop; an existing one is reused as is.
    """
    parts = urllib.parse.urlsplit(url)
    if parts.scheme.lower() != SCHEME:
        raise SimError(f"URL {url!r} is not a propsim:// URL")
    name = parts.netloc or None
    if name is not None:
        existing = lookup(name)
        if existing is not None:
            return existing
    fields: dict[str, str] = {}
    for key, values in urllib.parse.parse_qs(parts.query, keep_blank_values=True).items():
        fields[key] = values[-1]
    known = {"script", "corrupt", "drop", "seed", "boot_delay", "reset_on_open", "mute",
             "usb_serial", "version"}
    for key in fields:
        if key not in known:
            raise SimError(
                f"propsim option {key!r} is not known, expected one of "
                f"{', '.join(sorted(known))}"
            )
    faults = Faults(
        corrupt=_chance("corrupt", fields.get("corrupt", "0")),
        drop=_chance("drop", fields.get("drop", "0")),
        seed=_count("seed", fields.get("seed", "0")),
        boot_delay=_count("boot_delay", fields.get("boot_delay", "0")),
        reset_on_open=_flag("reset_on_open", fields.get("reset_on_open", "1")),
        mute=_flag("mute", fields.get("mute", "0")),
    )
    return create(
        name,
        script=parse_script(fields.get("script", "")),
        faults=faults,
        usb_serial=fields.get("usb_serial") or None,
        max_version=_count("version", fields.get("version", str(VERSIONS[-1]))),
    )


# ---------------------------------------------------------------------- pty runner

PTY_HELP = """\
Type a line and Enter: deck, pile, 1, 2, 3 (press a button), reset, corrupt, drop,
garbage (faults), unplug (the pty goes away; plug brings a new one), show, quit."""


class PtyTwin:
    """A :class:`PropSim` behind a real pseudo-terminal, with an optional stable symlink."""

    def __init__(self, sim: PropSim, link: str | None = None) -> None:
        self.sim = sim
        self.link = link
        self.master = -1
        self.slave = -1
        self.path = ""

    def plug(self) -> str:
        """Create a new pty (a new device name) and point the symlink at it."""
        import tty

        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        if self.link:
            tmp = f"{self.link}.tmp"
            if os.path.lexists(tmp):
                os.unlink(tmp)
            os.symlink(self.path, tmp)
            os.replace(tmp, self.link)
        self.sim.plug()
        return self.path

    def unplug(self) -> None:
        """Close the pty: the host's reads fail, as when a cable is pulled."""
        self.sim.unplug()
        for fd in (self.master, self.slave):
            if fd >= 0:
                os.close(fd)
        self.master = self.slave = -1

    def pump(self, data: bytes | None = None) -> None:
        """Feed bytes from the host (if any) and write out what the prop sends."""
        if data:
            self.sim.receive(data)
        out = self.sim.take_output()
        if out and self.master >= 0:
            os.write(self.master, out)


def _pty_main(args: argparse.Namespace) -> int:
    faults = Faults(
        corrupt=args.corrupt, drop=args.drop, seed=args.seed, boot_delay=args.boot_delay,
        reset_on_open=False,
    )
    sim = create(
        args.name,
        script=parse_script(args.script or ""),
        faults=faults,
        max_version=args.version,
    )
    twin = PtyTwin(sim, args.link)
    path = twin.plug()
    print(path, flush=True)
    if args.link:
        print(f"(also at {args.link})", file=sys.stderr, flush=True)
    print(PTY_HELP, file=sys.stderr, flush=True)
    stdin_open = not args.no_stdin
    while True:
        watched = [twin.master] if twin.master >= 0 else []
        if stdin_open:
            watched.append(sys.stdin.fileno())
        readable, _, _ = select.select(watched, [], [], 0.2)
        if twin.master >= 0 and twin.master in readable:
            try:
                data = os.read(twin.master, 4096)
            except OSError:
                data = b""
            twin.pump(data)
        if stdin_open and sys.stdin.fileno() in readable:
            line = sys.stdin.readline()
            if not line:
                stdin_open = False
                continue
            word = line.strip().lower()
            if not word:
                continue
            if word in ("quit", "exit"):
                return 0
            if word == "unplug":
                twin.unplug()
                print("unplugged; type plug to come back on a new pty", file=sys.stderr)
            elif word == "plug":
                print(twin.plug(), flush=True)
            elif word == "show":
                print(sim.display.render(), file=sys.stderr, flush=True)
            elif word in BUTTON_WORDS:
                sim.press(BUTTON_WORDS[word])
            elif word == "reset":
                sim.restart()
            elif word == "corrupt":
                sim.corrupt_next()
            elif word == "drop":
                sim.drop_next()
            elif word == "garbage":
                sim.send_garbage()
            else:
                print(f"unknown input {word!r}\n{PTY_HELP}", file=sys.stderr, flush=True)
        twin.pump()


def winning_script_for(edgework: str, seed: int) -> str:
    """The presses that win the game ``mittens prop --edgework E --seed S`` plays.

    A demo aid: it peeks at the simulated deck (see :func:`hardware.bridge.winning_actions`).
    """
    from defuser.engine.simulator import Module
    from edgework import Edgework
    from hardware.bridge import button_for, winning_actions

    module = Module.from_edgework(Edgework.parse(edgework), seed)
    return script_text(button_for(action) for action in winning_actions(module))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m hardware.propsim --pty``: the simulated prop on a pseudo-terminal."""
    parser = argparse.ArgumentParser(
        prog="python -m hardware.propsim",
        description="The simulated Exploding Mittens prop behind a pseudo-terminal.",
    )
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--pty", action="store_true", help="serve on a pty, print its path")
    mode.add_argument(
        "--winning-script",
        metavar="EDGEWORK",
        help="print presses that win the game mittens prop plays with this edgework "
        "(e.g. '3B 2H // AB3CD4') and --seed, then exit",
    )
    parser.add_argument("--name", help="registry name (default sim-N)")
    parser.add_argument("--link", help="keep a symlink here pointing at the current pty")
    parser.add_argument("--script", help="button presses and faults, e.g. DECK,HAND1,PILE")
    parser.add_argument("--corrupt", type=float, default=0.0, help="chance a line is corrupted")
    parser.add_argument("--drop", type=float, default=0.0, help="chance an event is lost")
    parser.add_argument(
        "--seed", type=int, default=0, help="seed for the fault chances (or the game)"
    )
    parser.add_argument("--boot-delay", type=int, default=0, help="lines lost at start-up")
    parser.add_argument(
        "--version",
        type=int,
        default=VERSIONS[-1],
        choices=VERSIONS,
        help="newest protocol version it speaks (1: a version-1 prop)",
    )
    parser.add_argument("--no-stdin", action="store_true", help="do not read commands")
    args = parser.parse_args(argv)
    try:
        if args.winning_script is not None:
            print(winning_script_for(args.winning_script, args.seed))
            return 0
        return _pty_main(args)
    except KeyboardInterrupt:
        return 0
    except (SimError, ValueError) as exc:
        print(f"propsim: error: {exc}", file=sys.stderr)
        return 2


class SimActor:
    """Presses and resets a simulated prop for the conformance checker."""

    def __init__(self, sim: PropSim) -> None:
        self.sim = sim

    def press(self, button: Button) -> None:
        """Press ``button`` on the simulated prop."""
        self.sim.press(button)

    def reset(self) -> None:
        """Restart the simulated prop (it sends BOOT)."""
        self.sim.restart()


class SimClock:
    """The conformance checker's clock for a simulated prop in this process.

    The simulated prop answers at once, so when nothing waits for the host it will send
    nothing more until it hears more or a button is pressed: a wait then ends at its
    deadline at once, and time moves on to it.
    """

    def __init__(self, sim: PropSim) -> None:
        self.sim = sim
        self._now = 0.0

    def now(self) -> float:
        """Seconds of checker time so far."""
        return self._now

    def idle_until(self, deadline: float) -> bool:
        """True (time moves on to ``deadline``) when the prop has nothing waiting."""
        if self.sim.has_output():
            return False
        self._now = max(self._now, deadline)
        return True


if __name__ == "__main__":
    sys.exit(main())

