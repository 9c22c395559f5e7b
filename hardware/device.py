"""The prop as an object: handshake, commands, button presses, heartbeat, reconnection.

This is the only threaded part of the bridge. One reader thread per open port turns
bytes into messages (framer, then decoder) and puts them on one queue; everything else
runs in the caller's thread, which must be a single thread: :meth:`Device.request`
holds a lock so at most one command is in flight, and waits for its reply on the queue
with a timeout. Nothing sleeps to synchronise; every wait is a queue or event wait
with a deadline.

What it survives (docs/protocol.md, section 5): the board resetting when the port opens
(the handshake retries and reacts to ``BOOT``), garbage and corrupted lines (counted and
dropped), a lost or late reply (retried with a new tag), a prop restart mid-game
(detected by ``BOOT``, ``ERR NOSESSION`` or a ``PONG`` with another session; new
handshake), lost button events (numbered; recovered with ``RESEND``, the rest reported),
an unplug mid-game (it waits, reopens the port, or finds the board again by its USB
identity under another name), and after every handshake it re-sends the full display
state it was given. A prop that never answers gives :class:`NoAnswerError` after the
handshake timeout.
"""

from __future__ import annotations

import enum
import queue
import random
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hardware.errors import (
    DeviceProtocolError,
    HostProtocolError,
    LinkError,
    NoAnswerError,
    VersionMismatchError,
)
from hardware.framing import BadLine, LineFramer, seal
from hardware.protocol import (
    DISPLAY_ORDER,
    MAX_SESSION,
    MAX_TAG,
    VERSIONS,
    Ack,
    Boot,
    ButtonPressed,
    Command,
    DeviceMessage,
    DisplayCommand,
    Err,
    ErrorCode,
    Hello,
    Hi,
    Ok,
    Ping,
    Pong,
    Reply,
    Resend,
    decode_device,
    encode_command,
    is_newer,
    next_seq,
)
from hardware.transport import Link, PortLister, UsbIdentity, find_ports, identity_of, open_port


@dataclass(frozen=True, slots=True)
class Timing:
    """The protocol's timeouts, in seconds (docs/protocol.md, section 6).

    ``heartbeat`` 0 turns the heartbeat off; ``reconnect_timeout`` None waits forever
    for an unplugged prop to come back.
    """

    reply_timeout: float = 0.5
    attempts: int = 3
    heartbeat: float = 1.0
    handshake_timeout: float = 5.0
    hello_interval: float = 0.5
    reconnect_interval: float = 0.5
    reconnect_timeout: float | None = None


class NoticeKind(enum.Enum):
    """Link happenings worth telling the user about."""

    CONNECTED = "connected"
    LOST = "lost"
    WAITING = "waiting"
    RECONNECTED = "reconnected"
    RESTARTED = "restarted"
    EVENTS_LOST = "events-lost"
    BAD_LINE = "bad-line"
    DEVICE_ERROR = "device-error"
    PROP_BAD_LINES = "prop-bad-lines"


@dataclass(frozen=True, slots=True)
class Notice:
    """One link happening, with a sentence for people and fields for programs."""

    kind: NoticeKind
    message: str
    url: str | None = None
    seqs: tuple[int, ...] = ()
    count: int | None = None

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready view."""
        data: dict[str, object] = {"kind": self.kind.value, "message": self.message}
        if self.url is not None:
            data["url"] = self.url
        if self.seqs:
            data["seqs"] = list(self.seqs)
        if self.count is not None:
            data["count"] = self.count
        return data


#: ``trace(direction, text)``: ``>`` line sent, ``<`` line received, ``!`` line dropped.
Trace = Callable[[str, str], None]


@dataclass(frozen=True, slots=True)
class _LinkDown:
    reason: str


@dataclass(frozen=True, slots=True)
class _Garbled:
    error: DeviceProtocolError


@dataclass(frozen=True, slots=True)
class _Dropped:
    line: BadLine


_Item = DeviceMessage | _LinkDown | _Garbled | _Dropped


class _Lost(Exception):
    """The port failed; ``args[0]`` says how."""


class _Unanswered(Exception):
    """A command went unanswered through all its attempts."""


class _Restarted(Exception):
    """The prop restarted and lost its session."""


@dataclass
class _Connection:
    link: Link
    generation: int
    stop: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None


class Device:
    """One prop on one port. Use from a single thread; see the module docstring.

    ``lister`` lists ports (default: the system's) to learn the prop's USB identity and
    to find it again after an unplug. ``on_notice`` hears about link trouble as it
    happens; ``trace`` sees every line. ``session_seed`` makes session numbers
    reproducible (for transcripts).
    """

    def __init__(
        self,
        url: str,
        *,
        timing: Timing | None = None,
        lister: PortLister | None = None,
        opener: Callable[[str], Any] = open_port,
        on_notice: Callable[[Notice], None] | None = None,
        trace: Trace | None = None,
        session_seed: int | None = None,
    ) -> None:
        self.url = url
        self.timing = timing or Timing()
        self._lister = lister
        self._opener = opener
        self._on_notice = on_notice
        self._trace = trace
        self._sessions = random.Random(session_seed)
        self._lock = threading.RLock()
        self._incoming: queue.Queue[tuple[int, _Item]] = queue.Queue()
        self._closing = threading.Event()
        self._connection: _Connection | None = None
        self._generation = 0
        self._tag = MAX_TAG
        self._last_sent = 0.0
        self._display: dict[type, DisplayCommand] = {}
        self._stash: list[ButtonPressed] = []
        self._ready: deque[ButtonPressed] = deque()
        #: The prop's USB identity, once known (used to find it again after an unplug).
        self.identity: UsbIdentity | None = None
        #: The port name in use now (it can change when the prop comes back elsewhere).
        self.current_url: str | None = None
        #: Firmware name the prop gave in ``HI``.
        self.firmware: str | None = None
        #: The session number of the current handshake (0 before the first).
        self.session = 0
        #: The newest button event number seen.
        self.last_seq = 0
        #: Lines from the prop this host dropped as bad.
        self.bad_lines = 0
        #: Bad lines the prop reported dropping (from its newest ``PONG``).
        self.prop_bad_lines = 0
        #: Button events that were lost for good.
        self.lost_events = 0
        #: How many times the link was re-established after a loss or a restart.
        self.recoveries = 0

    # ------------------------------------------------------------------ public API

    def connect(self) -> None:
        """Open the port and run the handshake (and any display state re-send).

        Raises :class:`LinkError` when the port cannot be opened,
        :class:`NoAnswerError` when nothing answers the handshake in time, and
        :class:`VersionMismatchError` when the prop speaks another protocol version.
        """
        with self._lock:
            self._closing.clear()
            self._open(self.url)
            try:
                self._establish()
            except (_Lost, _Unanswered) as exc:
                self._close_connection()
                raise LinkError(
                    f"the prop on {self.url!r} stopped answering during the handshake "
                    f"({self._reason(exc)})"
                ) from None
            except (NoAnswerError, VersionMismatchError, HostProtocolError, DeviceProtocolError):
                self._close_connection()
                raise
            # Reopen by the exact name from now on (a URL may have created the port).
            self.url = self.current_url or self.url
            if self.identity is None and self._lister is not None:
                self.identity = identity_of(self.url, self._lister())
            where = f" ({self.identity})" if self.identity else ""
            self._notice(
                NoticeKind.CONNECTED,
                f"connected to the prop on {self.url}{where}, firmware {self.firmware}",
                url=self.url,
            )

    def close(self) -> None:
        """Stop the reader thread and close the port; safe to call twice."""
        self._closing.set()
        with self._lock:
            self._close_connection()

    def __enter__(self) -> Device:
        self.connect()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def show(self, command: DisplayCommand) -> None:
        """Set part of the display; remembered and re-sent after every handshake."""
        with self._lock:
            self._display[type(command)] = command
            self.request(command)

    def display_state(self) -> list[DisplayCommand]:
        """The display commands that make up the full state, in re-send order."""
        return [self._display[kind] for kind in DISPLAY_ORDER if kind in self._display]

    def ack(self, press: ButtonPressed) -> None:
        """Tell the prop the press was applied."""
        self.request(Ack(press.seq))

    def request(self, command: Command) -> Reply:
        """Send one command and return the prop's reply, recovering the link as needed.

        Retries an unanswered command, re-handshakes after a prop restart and
        reconnects after a loss; a display command is then already re-sent with the
        full state. Raises :class:`HostProtocolError` when the prop refuses the command
        as unknown or malformed, :class:`LinkError` when the prop does not come back in
        ``timing.reconnect_timeout``.
        """
        with self._lock:
            if self._connection is None:
                raise LinkError(f"the prop on {self.url!r} is not connected")
            while True:
                try:
                    reply = self._transact(command)
                except _Restarted:
                    self._notice(NoticeKind.RESTARTED, "the prop restarted; saying hello again")
                    self._recover(None)
                except (_Lost, _Unanswered) as exc:
                    self._recover(self._reason(exc))
                else:
                    return self._check_reply(command, reply)
                if type(command) in DISPLAY_ORDER:
                    # The handshake after the recovery re-sent the display state.
                    return Ok(self._tag)

    def next_press(self, timeout: float | None) -> ButtonPressed | None:
        """The next button press in order, or None after ``timeout`` seconds.

        Meanwhile it keeps the link alive: heartbeats, lost-event recovery, restarts
        and reconnection all happen inside this call.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._lock:
            while True:
                if self._ready:
                    return self._ready.popleft()
                if self._stash:
                    self._absorb_stash()
                    continue
                if self._take_incoming(0.0):
                    # Whatever already arrived comes before any heartbeat.
                    continue
                now = time.monotonic()
                beat = self.timing.heartbeat
                if beat and now - self._last_sent >= beat:
                    self._heartbeat()
                    continue
                if deadline is not None and now >= deadline:
                    return None
                waits = [] if deadline is None else [deadline - now]
                if beat:
                    waits.append(self._last_sent + beat - now)
                self._take_incoming(max(0.0, min(waits)) if waits else None)

    def _take_incoming(self, wait: float | None) -> bool:
        """Handle one incoming item, waiting up to ``wait`` (0: only if one is there)."""
        try:
            if wait == 0.0:
                generation, item = self._incoming.get_nowait()
            else:
                generation, item = self._incoming.get(timeout=wait)
        except queue.Empty:
            return False
        try:
            self._dispatch(generation, item, None)
        except _Restarted:
            self._notice(NoticeKind.RESTARTED, "the prop restarted; saying hello again")
            self._recover(None)
        except _Lost as exc:
            self._recover(self._reason(exc))
        return True

    # ------------------------------------------------------------------ connection

    def _open(self, url: str) -> None:
        self._close_connection()
        link = Link.open(url, self._opener)
        self._generation += 1
        connection = _Connection(link, self._generation)
        connection.thread = threading.Thread(
            target=self._read_loop, args=(connection,), name=f"prop-reader-{url}", daemon=True
        )
        self._connection = connection
        self.current_url = link.url
        connection.thread.start()

    def _close_connection(self) -> None:
        connection, self._connection = self._connection, None
        if connection is None:
            return
        connection.stop.set()
        connection.link.close()
        if connection.thread is not None and connection.thread is not threading.current_thread():
            connection.thread.join(timeout=2.0)

    def _read_loop(self, connection: _Connection) -> None:
        """The reader thread: bytes to messages, all onto the one queue."""
        framer = LineFramer()
        generation = connection.generation
        while not connection.stop.is_set():
            try:
                data = connection.link.read()
            except LinkError as exc:
                if not connection.stop.is_set():
                    self._incoming.put((generation, _LinkDown(str(exc))))
                return
            for line in framer.feed(data):
                if isinstance(line, BadLine):
                    self._emit_trace("!", f"{line.raw!r}: {line.reason}")
                    self._incoming.put((generation, _Dropped(line)))
                    continue
                self._emit_trace("<", line)
                try:
                    message = decode_device(line)
                except DeviceProtocolError as exc:
                    self._incoming.put((generation, _Garbled(exc)))
                    continue
                self._incoming.put((generation, message))

    def _establish(self) -> None:
        """Handshake, then the full display state; again if the prop restarts meanwhile."""
        while True:
            self._handshake()
            try:
                for command in self.display_state():
                    self._check_reply(command, self._transact(command))
            except _Restarted:
                continue
            return

    def _handshake(self) -> None:
        self._write(b"\n")
        self.session = self._new_session()
        timing = self.timing
        deadline = time.monotonic() + timing.handshake_timeout
        hello = Hello(VERSIONS[0], self.session)
        while True:
            now = time.monotonic()
            if now >= deadline:
                raise NoAnswerError(
                    f"no answer from a prop on {self.current_url!r} within "
                    f"{timing.handshake_timeout:g} s: is the prop plugged in, running the "
                    "Exploding Mittens firmware, and is this the right port?"
                )
            tag = self._send(hello)
            try:
                reply = self._await_reply(tag, min(deadline, now + timing.hello_interval))
            except _Restarted:
                continue
            if reply is None:
                continue
            if isinstance(reply, Hi):
                if reply.version != VERSIONS[0]:
                    raise DeviceProtocolError(
                        f"the prop answered HELLO for version {VERSIONS[0]} with "
                        f"{reply.encode()!r}",
                        line=reply.encode(),
                    )
                self.firmware = reply.firmware
                self.last_seq = reply.seq
                self._stash.clear()
                self._ready.clear()
                return
            if isinstance(reply, Err) and reply.code is ErrorCode.VERSION:
                raise VersionMismatchError(
                    f"the prop on {self.current_url!r} speaks protocol version "
                    f"{reply.version}, this host speaks version {VERSIONS[0]}"
                )
            raise HostProtocolError(f"the prop refused HELLO: {reply.encode()!r}")

    def _recover(self, reason: str | None) -> None:
        """Get a working session back: a new handshake, reopening the port if needed."""
        self.recoveries += 1
        if reason is None:
            try:
                self._establish()
                return
            except (_Lost, _Unanswered, NoAnswerError) as exc:
                reason = self._reason(exc)
        self._reconnect(reason)

    def _reconnect(self, reason: str) -> None:
        timing = self.timing
        self._notice(NoticeKind.LOST, f"lost the prop on {self.current_url}: {reason}")
        self._close_connection()
        started = time.monotonic()
        waiting_said = False
        while True:
            for url in self._candidates():
                try:
                    self._open(url)
                    self._establish()
                except (LinkError, _Lost, _Unanswered):
                    self._close_connection()
                    continue
                self._notice(
                    NoticeKind.RECONNECTED,
                    f"the prop is back on {url}; display state re-sent",
                    url=url,
                )
                return
            waited = time.monotonic() - started
            if timing.reconnect_timeout is not None and waited >= timing.reconnect_timeout:
                raise LinkError(
                    f"the prop on {self.url!r} did not come back within "
                    f"{timing.reconnect_timeout:g} s ({reason})"
                )
            if not waiting_said:
                where = f" ({self.identity})" if self.identity else ""
                self._notice(
                    NoticeKind.WAITING,
                    f"waiting for the prop{where} to come back; the game is kept",
                )
                waiting_said = True
            if self._closing.wait(timing.reconnect_interval):
                raise LinkError("stopped while waiting for the prop to come back")

    def _candidates(self) -> list[str]:
        if self.identity is not None and self._lister is not None:
            found = find_ports(self.identity, self._lister())
            return found or []
        return [self.url]

    # ------------------------------------------------------------------ commands

    def _transact(self, command: Command) -> Reply:
        for _ in range(self.timing.attempts):
            tag = self._send(command)
            reply = self._await_reply(tag, time.monotonic() + self.timing.reply_timeout)
            if reply is None:
                continue
            if isinstance(reply, Err) and reply.code is ErrorCode.NOSESSION:
                raise _Restarted()
            return reply
        raise _Unanswered(f"no answer to {command.WORD} after {self.timing.attempts} attempts")

    def _check_reply(self, command: Command, reply: Reply) -> Reply:
        if isinstance(reply, Err):
            raise HostProtocolError(
                f"the prop refused {command.WORD} with {reply.encode()!r}: this host sent a "
                "command the prop does not accept (mismatched firmware?)"
            )
        expected: type[Reply] = Ok
        if isinstance(command, Ping):
            expected = Pong
        elif isinstance(command, Hello):
            expected = Hi
        if not isinstance(reply, expected):
            raise DeviceProtocolError(
                f"the prop answered {command.WORD} with {reply.encode()!r}, expected "
                f"{expected.WORD}",
                line=reply.encode(),
            )
        return reply

    def _send(self, command: Command) -> int:
        self._tag = (self._tag + 1) % (MAX_TAG + 1)
        body = encode_command(command, self._tag)
        self._emit_trace(">", body)
        self._write(seal(body))
        return self._tag

    def _write(self, data: bytes) -> None:
        connection = self._connection
        if connection is None:
            raise _Lost("the port is closed")
        try:
            connection.link.write(data)
        except LinkError as exc:
            raise _Lost(str(exc)) from None
        self._last_sent = time.monotonic()

    def _await_reply(self, tag: int, until: float) -> Reply | None:
        while True:
            remaining = until - time.monotonic()
            if remaining <= 0:
                return None
            try:
                generation, item = self._incoming.get(timeout=remaining)
            except queue.Empty:
                return None
            reply = self._dispatch(generation, item, tag)
            if reply is not None:
                return reply

    def _dispatch(self, generation: int, item: _Item, tag: int | None) -> Reply | None:
        """Route one incoming item; return it if it is the reply to ``tag``."""
        connection = self._connection
        if connection is None or generation != connection.generation:
            return None
        if isinstance(item, _LinkDown):
            raise _Lost(item.reason)
        if isinstance(item, _Dropped):
            self.bad_lines += 1
            self._notice(
                NoticeKind.BAD_LINE,
                f"dropped a bad line from the prop ({item.line.reason})",
                count=self.bad_lines,
            )
            return None
        if isinstance(item, _Garbled):
            self._notice(NoticeKind.DEVICE_ERROR, str(item.error))
            return None
        if isinstance(item, ButtonPressed):
            self._stash.append(item)
            return None
        if isinstance(item, Boot):
            raise _Restarted()
        if tag is not None and item.tag == tag:
            return item
        return None

    # ------------------------------------------------------------------ events

    def heartbeat(self) -> None:
        """Ping the prop now and act on the answer: restart, missed presses, bad lines."""
        with self._lock:
            self._heartbeat()

    def _heartbeat(self) -> None:
        generation = self._generation
        pong = self.request(Ping())
        if generation != self._generation or not isinstance(pong, Pong):
            return
        if pong.session != self.session:
            self._notice(NoticeKind.RESTARTED, "the prop restarted; saying hello again")
            self._recover(None)
            return
        if pong.bad_lines > self.prop_bad_lines:
            self._notice(
                NoticeKind.PROP_BAD_LINES,
                f"the prop has dropped {pong.bad_lines} bad line(s) from this host",
                count=pong.bad_lines,
            )
        self.prop_bad_lines = pong.bad_lines
        if is_newer(pong.seq, self.last_seq):
            self._fill_gap(pong.seq, [])

    def _absorb_stash(self) -> None:
        events, self._stash = self._stash, []
        for index, event in enumerate(events):
            if not is_newer(event.seq, self.last_seq):
                continue
            if event.seq == next_seq(self.last_seq):
                self._ready.append(event)
                self.last_seq = event.seq
                continue
            self._fill_gap(event.seq, events[index:])
            return

    def _fill_gap(self, target: int, have: list[ButtonPressed]) -> None:
        """Presses up to ``target`` are missing: ask for them again, deliver in order."""
        generation = self._generation
        first = next_seq(self.last_seq)
        self.request(Resend(first))
        if generation != self._generation:
            # The link was re-established meanwhile; its handshake reset the numbering.
            return
        pool: dict[int, ButtonPressed] = {}
        for event in [*have, *self._stash]:
            if is_newer(event.seq, self.last_seq):
                pool[event.seq] = event
        self._stash = []
        newest = target
        for seq in pool:
            if is_newer(seq, newest):
                newest = seq
        lost: list[int] = []
        seq = first
        while True:
            if seq in pool:
                self._ready.append(pool[seq])
            else:
                lost.append(seq)
            if seq == newest:
                break
            seq = next_seq(seq)
        self.last_seq = newest
        if lost:
            self.lost_events += len(lost)
            numbers = ", ".join(map(str, lost))
            self._notice(
                NoticeKind.EVENTS_LOST,
                f"{len(lost)} button press(es) were lost on the way (number {numbers}); "
                "press again if the prop did not react",
                seqs=tuple(lost),
            )

    # ------------------------------------------------------------------ helpers

    def _new_session(self) -> int:
        while True:
            session = self._sessions.randint(1, MAX_SESSION)
            if session != self.session:
                return session

    def _notice(self, kind: NoticeKind, message: str, **fields: Any) -> None:
        if self._on_notice is not None:
            self._on_notice(Notice(kind, message, **fields))

    def _emit_trace(self, direction: str, text: str) -> None:
        if self._trace is not None:
            self._trace(direction, text)

    @staticmethod
    def _reason(exc: BaseException) -> str:
        if isinstance(exc, _Unanswered | NoAnswerError):
            return f"it stopped answering ({exc})"
        return str(exc) or type(exc).__name__

