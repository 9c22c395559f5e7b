"""The host side of the prop protocol as a pure state machine (sans-I/O).

:class:`HostSession` holds everything docs/protocol.md asks of the host (handshake and
version negotiation, one command in flight with retries and back-off, late replies
matched by tag, the heartbeat, event numbering, ``RESEND`` recovery, restarts, the full
display re-send, the accounting of presses that were not applied) and does no I/O: it
reads no clock, starts no thread and blocks on nothing. Its caller feeds it

* what happened: :meth:`~HostSession.start` (a port is open), :meth:`~HostSession.receive`
  (bytes arrived), :meth:`~HostSession.port_failed` (the port broke);
* what the user wants: :meth:`~HostSession.show`, :meth:`~HostSession.sound`,
  :meth:`~HostSession.ack`, :meth:`~HostSession.ping_now`;
* the current time, with every call and with :meth:`~HostSession.tick` when
  :meth:`~HostSession.deadline` passes;

and takes out the bytes to write (:meth:`~HostSession.data_to_send`) and what happened
(:meth:`~HostSession.events`): presses to apply, notices for the user, trace lines, a
link that is down, a handshake completed, a failure that ends the run. The same input
always gives the same output, so every recovery path is tested with a fake clock
(tests/hardware/test_prop_session.py); :class:`hardware.device.Device` is the I/O loop around it.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field
from typing import Final

from hardware.display import DisplayState, Slot
from hardware.errors import (
    DeviceProtocolError,
    ErrorCode,
    HardwareError,
    HostProtocolError,
    LinkError,
    NoAnswerError,
    Setting,
    VersionMismatchError,
)
from hardware.framing import BadLine, LineFramer, seal
from hardware.protocol import (
    MAX_SESSION,
    MAX_TAG,
    SEQ_MODULUS,
    VERSIONS,
    Ack,
    Boot,
    ButtonPressed,
    Command,
    Cue,
    DeviceMessage,
    DisplayCommand,
    Err,
    Hello,
    Hi,
    Ok,
    Ping,
    PlaySound,
    Pong,
    Resend,
    ShowTimer,
    decode_device,
    encode_command,
    is_newer,
    next_seq,
    seq_distance,
)

#: How many times longer than the reply timeout one attempt may wait, at most.
MAX_BACKOFF: Final = 4
#: Lost press numbers listed one by one in a notice, at most.
MAX_LISTED: Final = 20


@dataclass(frozen=True, slots=True)
class Timing:
    """The protocol's timeouts, in seconds (docs/protocol.md, sections 5.6 and 7).

    ``reply_timeout`` is the first attempt's wait (later attempts double it, up to
    :data:`MAX_BACKOFF` times); it also paces the handshake's ``HELLO``\\ s.
    ``heartbeat`` 0 turns the heartbeat off; ``reconnect_timeout`` None waits forever
    for a lost prop to come back.
    """

    reply_timeout: float = 0.5
    attempts: int = 3
    heartbeat: float = 1.0
    handshake_timeout: float = 5.0
    reconnect_interval: float = 0.5
    reconnect_timeout: float | None = None

    def attempt_wait(self, attempt: int) -> float:
        """How long attempt number ``attempt`` (0 first) waits for its reply."""
        return self.reply_timeout * float(min(2**attempt, MAX_BACKOFF))


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
    SLOW = "slow"


@dataclass(frozen=True, slots=True)
class Notice:
    """One link happening, with a sentence for people and fields for programs.

    ``setting`` names the :class:`Timing` field that bounds what happened (for example
    ``reconnect_timeout`` while waiting for a lost prop), so a command can say which of
    its options changes it.
    """

    kind: NoticeKind
    message: str
    url: str | None = None
    seqs: tuple[int, ...] = ()
    count: int | None = None
    setting: Setting | None = None

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


# --- what comes out ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Line:
    """A line for the trace: ``>`` sent, ``<`` received, ``!`` dropped as bad."""

    direction: str
    text: str


@dataclass(frozen=True, slots=True)
class Press:
    """A press to apply, in order; each is delivered exactly once."""

    press: ButtonPressed


@dataclass(frozen=True, slots=True)
class Established:
    """A handshake completed and the full display state is on its way."""

    first: bool
    version: int
    firmware: str


@dataclass(frozen=True, slots=True)
class LinkDown:
    """The link is lost: close the port and try to open it again."""

    reason: str


@dataclass(frozen=True, slots=True)
class Failed:
    """The run cannot go on; ``error`` says why."""

    error: HardwareError


SessionEvent = Line | Press | Established | LinkDown | Failed | Notice


class SessionPhase(enum.Enum):
    """Where the session stands."""

    IDLE = "idle"
    HANDSHAKE = "handshake"
    READY = "ready"
    DOWN = "down"
    FAILED = "failed"


@dataclass
class _InFlight:
    """The one command in flight: its attempts' tags, and when the current one expires."""

    command: Command
    sent_as: Command
    tags: list[int]
    attempt: int
    expires: float
    first_sent: float


@dataclass
class _Handshake:
    first: bool
    started: float
    version: int
    tags: dict[int, int] = field(default_factory=dict)
    hellos: int = 0
    next_hello: float = 0.0
    restarted: bool = False
    #: The last HI that answered a HELLO in another version than asked, worded.
    wrong_hi: str | None = None


@dataclass
class _Gap:
    """Presses are missing: ``RESEND`` from ``last + 1`` is owed or in flight."""

    target: int
    pool: dict[int, ButtonPressed] = field(default_factory=dict)


class HostSession:
    """The host's protocol state machine for one prop. See the module docstring.

    ``session_seed`` makes session numbers reproducible (for transcripts).
    """

    def __init__(self, timing: Timing | None = None, *, session_seed: int | None = None) -> None:
        self.timing = timing or Timing()
        self._sessions = random.Random(session_seed)
        self._framer = LineFramer()
        self._out = bytearray()
        self._events: list[SessionEvent] = []
        self._tag = MAX_TAG
        self.phase = SessionPhase.IDLE
        self._handshake: _Handshake | None = None
        self._in_flight: _InFlight | None = None
        #: The display state wanted, when each part was last posted, and what the prop
        #: has confirmed in this session.
        self._desired = DisplayState()
        self._posted: dict[Slot, float] = {}
        self._confirmed = DisplayState()
        #: Per part, the command posted and the one the prop confirmed for it: they differ
        #: for a running timer, sent with the time left at the moment it went out.
        self._sent_as: dict[Slot, tuple[DisplayCommand, DisplayCommand]] = {}
        self._pending_ack: int | None = None
        self._pending_sound: PlaySound | None = None
        self._sound_number = 0
        self._gap: _Gap | None = None
        self._ping_owed = False
        self._last_sent = 0.0
        self._down_since: float | None = None
        #: The latest reply a SLOW notice told of (seconds after the first attempt).
        self._slowest_told = 0.0
        self._established_once = False
        self._recovering = False
        #: Sessions of the last completed handshake and of every handshake since.
        self._recent_sessions: set[int] = set()
        self._restart_seen = False
        #: The protocol version of the current session (0 before the first handshake).
        self.version = 0
        #: Firmware name the prop gave in ``HI``.
        self.firmware: str | None = None
        #: The session number of the current handshake (0 before the first).
        self.session = 0
        #: The newest button event number applied or skipped.
        self.last_seq = 0
        #: Lines from the prop this host dropped as bad.
        self.bad_lines = 0
        #: Bad lines the prop reported dropping (from its newest ``PONG``).
        self.prop_bad_lines = 0
        #: Presses the prop numbered that were never applied (each reported).
        self.lost_events = 0
        #: Handshakes after a loss or a restart whose display re-send completed.
        self.recoveries = 0

    # ------------------------------------------------------------------ input: the port

    def start(self, now: float) -> None:
        """A port to the prop is open: discard old input, begin a handshake."""
        self._framer.reset()
        self._out.clear()
        self._out += b"\n"
        self._begin_handshake(now, restarted=False)

    def receive(self, data: bytes, now: float) -> None:
        """Bytes from the prop."""
        if self.phase in (SessionPhase.IDLE, SessionPhase.DOWN, SessionPhase.FAILED):
            return
        for item in self._framer.feed(data):
            if self.phase in (SessionPhase.DOWN, SessionPhase.FAILED):
                return
            if isinstance(item, BadLine):
                self._bad_line(item)
                continue
            self._events.append(Line("<", item))
            try:
                message = decode_device(item)
            except DeviceProtocolError as exc:
                self._notice(NoticeKind.DEVICE_ERROR, str(exc))
                continue
            if self.phase is SessionPhase.HANDSHAKE:
                self._handshake_line(message, now)
            else:
                self._ready_line(message, now)
        self._advance(now)

    def port_failed(self, reason: str, now: float) -> None:
        """The port reported an error: the link is lost."""
        if self.phase in (SessionPhase.HANDSHAKE, SessionPhase.READY):
            self._lose(reason, now)

    # ------------------------------------------------------------------ input: intents

    def show(self, command: DisplayCommand, now: float) -> None:
        """Set part of the display; sent when its turn comes, re-sent after handshakes."""
        if self._desired.get(command.slot) != command:
            self._desired = self._desired.apply(command)
            self._posted[command.slot] = now
        self._advance(now)

    def sound(self, cue: Cue, now: float) -> None:
        """Play ``cue`` once (version 2; a version-1 prop has no sounds)."""
        self._sound_number = (self._sound_number + 1) % SEQ_MODULUS
        self._pending_sound = PlaySound(self._sound_number, cue)
        self._advance(now)

    def ack(self, seq: int, now: float) -> None:
        """Acknowledge press ``seq`` (sent when nothing else waits)."""
        self._pending_ack = seq
        self._advance(now)

    def ping_now(self, now: float) -> None:
        """Send ``PING`` as soon as the line is free."""
        self._ping_owed = True
        self._advance(now)

    def tick(self, now: float) -> None:
        """Time passes: retries, heartbeat, handshake and reconnect timeouts."""
        self._advance(now)

    # ------------------------------------------------------------------ output

    def data_to_send(self) -> bytes:
        """The bytes to write to the port now (and forget)."""
        data = bytes(self._out)
        self._out.clear()
        return data

    def events(self) -> list[SessionEvent]:
        """What happened since the last call, in order."""
        events, self._events = self._events, []
        return events

    def deadline(self) -> float | None:
        """The latest time :meth:`tick` must be called, or None when nothing waits on time."""
        times: list[float] = []
        if self.phase is SessionPhase.HANDSHAKE and self._handshake is not None:
            shake = self._handshake
            times += [shake.next_hello, shake.started + self.timing.handshake_timeout]
        elif self.phase is SessionPhase.READY:
            if self._in_flight is not None:
                times.append(self._in_flight.expires)
            elif self.timing.heartbeat:
                times.append(self._last_sent + self.timing.heartbeat)
        elif (
            self.phase is SessionPhase.DOWN
            and self._down_since is not None
            and self.timing.reconnect_timeout is not None
        ):
            times.append(self._down_since + self.timing.reconnect_timeout)
        return min(times) if times else None

    @property
    def ready(self) -> bool:
        """True when a handshake is complete and the link is up."""
        return self.phase is SessionPhase.READY

    @property
    def synced(self) -> bool:
        """True when the prop has confirmed the whole display state of this session."""
        return self.ready and not self._dirty()

    @property
    def idle(self) -> bool:
        """True when ready, synced, and nothing (sound, ack, ping, resend) is owed."""
        return (
            self.synced
            and self._in_flight is None
            and self._pending_sound is None
            and self._pending_ack is None
            and self._gap is None
            and not self._ping_owed
        )

    def display_state(self) -> DisplayState:
        """The display state wanted (what the prop shows once it is synced): the parts of
        the version in use once a handshake chose one (a version-1 prop is never sent the
        holders, indicators, plates, limit, timer or game), each part as it was sent once
        the prop confirmed it (a running timer with the time left when it went out)."""
        commands = [
            self._as_sent(c) for c in self._desired.commands()
            if not self.version or self.version >= c.SINCE
        ]
        return DisplayState.of(commands)

    def _as_sent(self, command: DisplayCommand) -> DisplayCommand:
        posted, sent = self._sent_as.get(command.slot, (None, command))
        return sent if posted == command else command

    # ------------------------------------------------------------------ handshake

    def _begin_handshake(self, now: float, *, restarted: bool) -> None:
        first = not self._established_once
        self._in_flight = None
        self.session = self._new_session()
        self._recent_sessions.add(self.session)
        self._handshake = _Handshake(
            first=first, started=now, version=VERSIONS[-1], restarted=restarted
        )
        self.phase = SessionPhase.HANDSHAKE
        self._send_hello(now)

    def _send_hello(self, now: float) -> None:
        shake = self._handshake
        assert shake is not None
        tag = self._send(Hello(shake.version, self.session), now)
        shake.tags[tag] = shake.version
        shake.next_hello = now + self.timing.attempt_wait(shake.hellos)
        shake.hellos += 1

    def _handshake_line(self, message: DeviceMessage, now: float) -> None:
        shake = self._handshake
        assert shake is not None
        if isinstance(message, Boot):
            # The prop has just started: any earlier HELLO was lost in its boot.
            shake.restarted = True
            self._send_hello(now)
            return
        if isinstance(message, ButtonPressed | Pong | Ok):
            return  # a prop that has not completed the handshake is ignored
        asked = shake.tags.get(message.tag) if message.tag is not None else None
        if asked is None:
            return
        if isinstance(message, Hi):
            self._hi(message, asked, now)
            return
        if message.code is ErrorCode.VERSION and message.version is not None:
            if message.version in VERSIONS and message.version < asked:
                shake.version = message.version
                self._send_hello(now)
                return
            self._fail(
                VersionMismatchError(
                    f"the prop speaks protocol version {message.version} at most, this host "
                    f"speaks versions {' and '.join(map(str, VERSIONS))}",
                    prop_version=message.version,
                )
            )
            return
        self._fail(
            HostProtocolError(
                f"the prop refused 'HELLO {message.tag} {asked} {self.session}' with "
                f"{message.encode()!r}"
            )
        )

    def _hi(self, hi: Hi, asked: int, now: float) -> None:
        shake = self._handshake
        assert shake is not None
        if hi.version != asked or (hi.prior is None) != (asked == 1):
            # (A HI whose form does not fit its own version is no valid line at all.)
            shake.wrong_hi = (
                f"the prop answered HELLO for version {asked} with {hi.encode()!r}, a "
                f"version-{hi.version} HI"
            )
            self._notice(NoticeKind.DEVICE_ERROR, shake.wrong_hi)
            return
        self.version = hi.version
        self.firmware = hi.firmware
        if not shake.first:
            self._count_unapplied(hi, shake)
        self.last_seq = hi.seq
        self._gap = None
        self._confirmed = DisplayState()
        self._sent_as.clear()
        self._pending_ack = None
        self._pending_sound = None
        self._ping_owed = False
        self._handshake = None
        self._down_since = None
        self._restart_seen = False
        self._recent_sessions = {self.session}
        self.phase = SessionPhase.READY
        self._recovering = not shake.first
        self._established_once = True
        self._events.append(Established(shake.first, hi.version, hi.firmware))
        self._check_recovered()

    def _check_recovered(self) -> None:
        """Count a recovery once the display state is back on the prop."""
        if self._recovering and not self._dirty():
            self._recovering = False
            self.recoveries += 1

    def _count_unapplied(self, hi: Hi, shake: _Handshake) -> None:
        """Report the presses the prop made that this host never applied (section 5.4)."""
        gap_numbers: list[int] = []
        gap = self._gap
        if gap is not None:
            seq = next_seq(self.last_seq)
            while True:
                gap_numbers.append(seq)
                if seq == gap.target:
                    break
                seq = next_seq(seq)
        if hi.prior is not None:
            restarted = hi.prior not in self._recent_sessions
        else:
            restarted = (
                shake.restarted or self._restart_seen
                or (hi.seq != self.last_seq and not is_newer(hi.seq, self.last_seq))
            )
        if restarted:
            numbers = gap_numbers + list(range(1, min(hi.seq, MAX_LISTED) + 1))
            count = len(gap_numbers) + hi.seq
        else:
            count = seq_distance(hi.seq, self.last_seq) if is_newer(hi.seq, self.last_seq) else 0
            numbers = [(self.last_seq + i) % SEQ_MODULUS for i in range(1, count + 1)]
        if count:
            why = "after it restarted" if restarted else "while the link was down"
            self._report_lost(
                count, numbers, f"{count} press(es) made on the prop {why} were not applied"
            )

    # ------------------------------------------------------------------ ready

    def _ready_line(self, message: DeviceMessage, now: float) -> None:
        if isinstance(message, Boot):
            self._restart(now)
            return
        if isinstance(message, ButtonPressed):
            self._press(message, now)
            return
        flight = self._in_flight
        if flight is None or message.tag not in flight.tags:
            if isinstance(message, Err) and message.tag is None and flight is not None:
                self._fail(self._refused(flight, message))
            return  # a late answer to an older command
        if isinstance(message, Err):
            if message.code is ErrorCode.NOSESSION:
                self._restart(now)
            elif message.code is ErrorCode.VERSION:
                self._wrong_reply(flight, message)
            else:
                self._fail(self._refused(flight, message))
            return
        expected = Pong if isinstance(flight.command, Ping) else Ok
        if isinstance(message, Hi) or not isinstance(message, expected):
            self._wrong_reply(flight, message)
            return
        late = round(now - flight.first_sent, 2)  # as the notice says it
        if flight.attempt > 0 and message.tag != flight.tags[-1] and late > self._slowest_told:
            # Told when a reply is later than any told before, not at every command.
            self._slowest_told = late
            self._notice(
                NoticeKind.SLOW,
                f"the prop answered {flight.command.WORD} after {late:.2f} s; the reply "
                f"timeout is {self.timing.reply_timeout:g} s",
                setting=Setting.REPLY_TIMEOUT,
            )
        self._in_flight = None
        self._done(flight, message, now)

    def _wrong_reply(self, flight: _InFlight, message: DeviceMessage) -> None:
        self._notice(
            NoticeKind.DEVICE_ERROR,
            f"the prop answered {self._line_of(flight)!r} with {message.encode()!r}, expected "
            f"{'PONG' if isinstance(flight.command, Ping) else 'OK'}; dropped",
        )

    def _refused(self, flight: _InFlight, reply: Err) -> HostProtocolError:
        return HostProtocolError(
            f"the prop refused {self._line_of(flight)!r} with {reply.encode()!r}: this host "
            "sent a command the prop does not accept (mismatched firmware?)"
        )

    def _line_of(self, flight: _InFlight) -> str:
        return encode_command(flight.sent_as, flight.tags[-1])

    def _done(self, flight: _InFlight, reply: DeviceMessage, now: float) -> None:
        command = flight.command
        if isinstance(command, Resend):
            self._close_gap()
        elif isinstance(command, PlaySound):
            if self._pending_sound == command:
                self._pending_sound = None
        elif isinstance(command, Ack):
            if self._pending_ack == command.seq:
                self._pending_ack = None
        elif isinstance(command, Ping):
            assert isinstance(reply, Pong)
            self._pong(reply, now)
        elif not isinstance(command, Hello):
            self._confirmed = self._confirmed.apply(command)
            if isinstance(flight.sent_as, DisplayCommand):
                self._sent_as[command.slot] = (command, flight.sent_as)
            self._check_recovered()

    def _pong(self, pong: Pong, now: float) -> None:
        if pong.session != self.session:
            self._restart(now)
            return
        if pong.bad_lines > self.prop_bad_lines:
            self._notice(
                NoticeKind.PROP_BAD_LINES,
                f"the prop has dropped {pong.bad_lines} bad line(s) from this host",
                count=pong.bad_lines,
            )
        self.prop_bad_lines = pong.bad_lines
        if self._gap is None and is_newer(pong.seq, self.last_seq):
            self._gap = _Gap(pong.seq)

    def _press(self, press: ButtonPressed, now: float) -> None:
        if self.version >= 2:
            if press.session is None:
                self._notice(
                    NoticeKind.DEVICE_ERROR,
                    f"the prop sent {press.encode()!r} without a session in a version "
                    f"{self.version} session; dropped",
                )
                return
            if press.session == 0:
                self._restart(now)
                return
            if press.session != self.session:
                return  # pressed before this handshake; HI counted it
        elif press.session is not None:
            self._notice(
                NoticeKind.DEVICE_ERROR,
                f"the prop sent {press.encode()!r}, a version 2 event, in a version 1 "
                "session; dropped",
            )
            return
        gap = self._gap
        if gap is not None:
            if is_newer(press.seq, self.last_seq):
                gap.pool[press.seq] = press
                if is_newer(press.seq, gap.target):
                    gap.target = press.seq
            return
        if press.seq == next_seq(self.last_seq):
            self.last_seq = press.seq
            self._events.append(Press(press))
            return
        if not is_newer(press.seq, self.last_seq):
            if self.version == 1:
                # A version-1 prop that restarted without a BOOT numbers from 1 again.
                self._ping_owed = True
            return
        self._gap = _Gap(press.seq, {press.seq: press})

    def _close_gap(self) -> None:
        gap, self._gap = self._gap, None
        if gap is None:
            return
        lost: list[int] = []
        seq = next_seq(self.last_seq)
        while True:
            if seq in gap.pool:
                self._events.append(Press(gap.pool[seq]))
            else:
                lost.append(seq)
            if seq == gap.target:
                break
            seq = next_seq(seq)
        self.last_seq = gap.target
        if lost:
            numbers = ", ".join(map(str, lost[:MAX_LISTED]))
            self._report_lost(
                len(lost),
                lost,
                f"{len(lost)} button press(es) were lost on the way (number {numbers}); "
                "press again if the prop did not react",
            )

    def _report_lost(self, count: int, numbers: list[int], message: str) -> None:
        self.lost_events += count
        self._notice(
            NoticeKind.EVENTS_LOST, message, seqs=tuple(numbers[:MAX_LISTED]), count=count
        )

    def _restart(self, now: float) -> None:
        # Presses that arrived during a RESEND were made before the restart: apply them
        # in order and report the missing ones as lost, as when the RESEND completes.
        self._close_gap()
        self._notice(NoticeKind.RESTARTED, "the prop restarted; saying hello again")
        self._restart_seen = True
        self._begin_handshake(now, restarted=True)

    # ------------------------------------------------------------------ time and sending

    def _advance(self, now: float) -> None:
        """Do whatever is due at ``now``: expire, retry, send the next command."""
        if self.phase is SessionPhase.HANDSHAKE:
            self._advance_handshake(now)
        elif self.phase is SessionPhase.READY:
            self._advance_ready(now)
        elif self.phase is SessionPhase.DOWN:
            limit = self.timing.reconnect_timeout
            down = self._down_since
            if limit is not None and down is not None and now - down >= limit:
                self._fail(
                    LinkError(
                        f"the prop did not come back within {limit:g} s (the reconnect "
                        "timeout)",
                        setting=Setting.RECONNECT_TIMEOUT,
                    )
                )

    def _advance_handshake(self, now: float) -> None:
        shake = self._handshake
        assert shake is not None
        limit = self.timing.handshake_timeout
        if now - shake.started >= limit:
            if shake.first and shake.wrong_hi is not None:
                # It answered, only not in the version asked for: not "no answer".
                self._fail(
                    DeviceProtocolError(
                        f"{shake.wrong_hi}, and never in the version asked for within "
                        f"{limit:g} s (docs/protocol.md section 5.1)"
                    )
                )
            elif shake.first:
                self._fail(
                    NoAnswerError(
                        f"no answer to HELLO within {limit:g} s (the handshake timeout)",
                        setting=Setting.HANDSHAKE_TIMEOUT,
                    )
                )
            elif shake.wrong_hi is not None:
                self._lose(f"{shake.wrong_hi}, and never in the version asked for within "
                           f"{limit:g} s", now)
            else:
                self._lose(f"no answer to HELLO within {limit:g} s", now)
            return
        if now >= shake.next_hello:
            self._send_hello(now)

    def _advance_ready(self, now: float) -> None:
        flight = self._in_flight
        if flight is not None:
            if now < flight.expires:
                return
            if flight.attempt + 1 >= self.timing.attempts:
                waited = now - flight.first_sent
                self._lose(
                    f"no answer to {flight.command.WORD} after {self.timing.attempts} "
                    f"attempts in {waited:.1f} s",
                    now,
                )
                return
            flight.attempt += 1
            flight.sent_as = self._current(flight.command, now)
            flight.tags.append(self._send(flight.sent_as, now))
            flight.expires = now + self.timing.attempt_wait(flight.attempt)
            return
        command = self._next_command(now)
        if command is None:
            return
        sent_as = self._current(command, now)
        tag = self._send(sent_as, now)
        self._in_flight = _InFlight(
            command, sent_as, [tag], 0, now + self.timing.attempt_wait(0), now
        )

    def _next_command(self, now: float) -> Command | None:
        if self._gap is not None:
            return Resend(next_seq(self.last_seq))
        dirty = self._dirty()
        if dirty:
            return dirty[0]
        if self._pending_sound is not None:
            if self.version >= 2:
                return self._pending_sound
            self._pending_sound = None
        if self._pending_ack is not None:
            return Ack(self._pending_ack)
        beat = self.timing.heartbeat
        if self._ping_owed or (beat and now - self._last_sent >= beat):
            self._ping_owed = False
            return Ping()
        return None

    def _dirty(self) -> list[DisplayCommand]:
        """The display commands the prop still has to confirm, in re-send order."""
        return [
            command
            for command in self._confirmed.diff(self._desired)
            if self.version >= command.SINCE
        ]

    def _current(self, command: Command, now: float) -> Command:
        """``command`` as it is to be sent at ``now``: a running timer shows less time."""
        if isinstance(command, ShowTimer) and command.ms is not None and command.rate:
            posted = self._posted.get(command.slot, now)
            elapsed_ms = round((now - posted) * command.rate)
            return ShowTimer(max(0, command.ms - elapsed_ms), command.rate)
        return command

    def _send(self, command: Command, now: float) -> int:
        self._tag = (self._tag + 1) % (MAX_TAG + 1)
        body = encode_command(command, self._tag)
        self._events.append(Line(">", body))
        self._out += seal(body)
        self._last_sent = now
        return self._tag

    # ------------------------------------------------------------------ trouble

    def _lose(self, reason: str, now: float) -> None:
        """The link is gone; the caller closes the port and reopens it."""
        shake = self._handshake
        if self.phase is SessionPhase.HANDSHAKE and shake is not None and shake.first:
            self._fail(LinkError(f"the link failed during the handshake ({reason})"))
            return
        self.phase = SessionPhase.DOWN
        self._in_flight = None
        self._handshake = None
        if self._down_since is None:
            self._down_since = now
        self._out.clear()
        self._events.append(LinkDown(reason))

    def _fail(self, error: HardwareError) -> None:
        self.phase = SessionPhase.FAILED
        self._in_flight = None
        self._handshake = None
        self._events.append(Failed(error))

    def _bad_line(self, line: BadLine) -> None:
        self.bad_lines += 1
        self._events.append(Line("!", f"{line.raw!r}: {line.reason}"))
        self._notice(
            NoticeKind.BAD_LINE,
            f"dropped a bad line from the prop ({line.reason})",
            count=self.bad_lines,
        )

    def _notice(self, kind: NoticeKind, message: str, **fields: object) -> None:
        self._events.append(Notice(kind, message, **fields))  # type: ignore[arg-type]

    def _new_session(self) -> int:
        while True:
            session = self._sessions.randint(1, MAX_SESSION)
            if session not in self._recent_sessions:
                return session
