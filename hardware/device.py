"""The prop as an object: a thin I/O loop around :class:`~hardware.session.HostSession`.

:class:`Device` owns the port (open, write, read, close, reopen) and the clock; every
protocol decision (handshake, retries, heartbeat, lost presses, restarts, the display
re-send) is the session's. One thread, no reader thread, no queues: every public
method runs the loop :meth:`Device._pump` until what it waits for is done, which
writes what the session wants sent, reads what arrived (waiting at most until the
session's next deadline), and hands the session the time.

What it survives (docs/protocol.md, section 5): the board resetting when the port opens
(the handshake retries and reacts to ``BOOT``), garbage and corrupted lines (counted and
dropped), lost or late replies (retried with back-off; a late reply to any attempt is
taken), a prop restart mid-game (new handshake), lost button events (``RESEND``, the
rest reported), an unplug mid-game (it reopens the port, or finds the board again by
its USB identity under another name). A prop that never answers gives
:class:`~hardware.errors.NoAnswerError`; one that does not come back in
``reconnect_timeout`` a :class:`~hardware.errors.LinkError`.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from hardware.display import DisplayState
from hardware.errors import HardwareError, LinkError, NoAnswerError, Setting
from hardware.protocol import ButtonPressed, Cue, DisplayCommand
from hardware.session import (
    Established,
    Failed,
    HostSession,
    Line,
    LinkDown,
    Notice,
    NoticeKind,
    Press,
    SessionPhase,
    Timing,
)
from hardware.transport import (
    Link,
    Port,
    PortLister,
    UsbIdentity,
    find_ports,
    identity_of,
    open_port,
)

__all__ = ["Device", "Trace"]

#: ``trace(direction, text)``: ``>`` line sent, ``<`` line received, ``!`` line dropped.
Trace = Callable[[str, str], None]


class Device:
    """One prop on one port. Use from a single thread.

    ``lister`` lists ports (default: none) to learn the prop's USB identity and to find
    it again after an unplug. ``on_notice`` hears about link trouble as it happens;
    ``trace`` sees every line. ``session_seed`` makes session numbers reproducible (for
    transcripts); ``clock`` is the time source (seconds, monotonic) and ``sleep`` waits
    on it (used only while the port is gone, between attempts to open it again).

    ``idle`` is for a clock that is not the wall clock (a simulated prop on emulated
    time): before each read the loop asks it whether nothing will arrive before the next
    moment the loop must act (its own time-out, or the session's next deadline); when
    it says so, it has moved the clock there and the read is skipped. Without it every
    read waits on the port.
    """

    def __init__(
        self,
        url: str,
        *,
        timing: Timing | None = None,
        lister: PortLister | None = None,
        opener: Callable[[str], Port] = open_port,
        on_notice: Callable[[Notice], None] | None = None,
        trace: Trace | None = None,
        session_seed: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        idle: Callable[[float], bool] | None = None,
    ) -> None:
        self.url = url
        self.timing = timing or Timing()
        self._lister = lister
        self._opener = opener
        self._on_notice = on_notice
        self._trace = trace
        self._clock = clock
        self._sleep = sleep
        self._idle = idle
        self.session_state = HostSession(self.timing, session_seed=session_seed)
        self._link: Link | None = None
        self._ready: deque[ButtonPressed] = deque()
        self._next_open = 0.0
        self._waiting_said = False
        self._link_lost = False
        #: The prop's USB identity, once known (used to find it again after an unplug).
        self.identity: UsbIdentity | None = None
        #: The port name in use now (it can change when the prop comes back elsewhere).
        self.current_url: str | None = None

    # ------------------------------------------------------------------ state

    @property
    def firmware(self) -> str | None:
        """Firmware name the prop gave in ``HI``."""
        return self.session_state.firmware

    @property
    def version(self) -> int:
        """The protocol version in use (0 before the first handshake)."""
        return self.session_state.version

    @property
    def session(self) -> int:
        """The session number of the current handshake."""
        return self.session_state.session

    @property
    def last_seq(self) -> int:
        """The newest button event number applied or skipped."""
        return self.session_state.last_seq

    @property
    def bad_lines(self) -> int:
        """Lines from the prop this host dropped as bad."""
        return self.session_state.bad_lines

    @property
    def prop_bad_lines(self) -> int:
        """Bad lines the prop reported dropping."""
        return self.session_state.prop_bad_lines

    @property
    def lost_events(self) -> int:
        """Presses the prop made that were never applied (each was reported)."""
        return self.session_state.lost_events

    @property
    def recoveries(self) -> int:
        """Handshakes after a loss or a restart whose display re-send completed."""
        return self.session_state.recoveries

    # ------------------------------------------------------------------ public API

    def connect(self) -> None:
        """Open the port, run the handshake and send the display state given so far.

        Raises :class:`LinkError` when the port cannot be opened,
        :class:`NoAnswerError` when nothing answers the handshake in time, and
        :class:`~hardware.errors.VersionMismatchError` when the prop speaks no version
        this host speaks.
        """
        self._open(self.url)
        self.session_state.start(self._clock())
        try:
            self._pump(lambda: self.session_state.synced)
        except HardwareError:
            self._close_link()
            raise
        # Reopen by the exact name from now on (a URL may have created the port).
        self.url = self.current_url or self.url
        if self.identity is None and self._lister is not None:
            self.identity = identity_of(self.url, self._lister())

    def close(self) -> None:
        """Close the port; safe to call twice."""
        self._close_link()

    def __enter__(self) -> Device:
        self.connect()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def post(self, command: DisplayCommand) -> None:
        """Set part of the display without waiting; it goes out at the next pump."""
        self.session_state.show(command, self._clock())

    def show(self, command: DisplayCommand) -> None:
        """Set part of the display and wait until the prop has it (or re-has it)."""
        self.post(command)
        self.sync()

    def sound(self, cue: Cue) -> None:
        """Play a sound once (version 2 props; ignored by version 1)."""
        self.session_state.sound(cue, self._clock())

    def sync(self, timeout: float | None = None) -> bool:
        """Wait until everything posted was delivered; False if ``timeout`` passed first."""
        return self._pump(lambda: self.session_state.idle, timeout)

    def display_state(self) -> DisplayState:
        """The display state wanted (what the prop shows once it is synced)."""
        return self.session_state.display_state()

    def ack(self, press: ButtonPressed) -> None:
        """Tell the prop the press was applied (sent when the line is free)."""
        self.session_state.ack(press.seq, self._clock())

    def heartbeat(self) -> None:
        """Ping the prop now and wait until the answer was acted on."""
        self.session_state.ping_now(self._clock())
        self._pump(lambda: self.session_state.idle)

    def next_press(self, timeout: float | None) -> ButtonPressed | None:
        """The next button press in order, or None after ``timeout`` seconds.

        Meanwhile it keeps the link alive: display updates, acknowledgements,
        heartbeats, lost-press recovery, restarts and reconnection.
        """
        self._pump(lambda: bool(self._ready), timeout)
        return self._ready.popleft() if self._ready else None

    # ------------------------------------------------------------------ the loop

    def _pump(self, done: Callable[[], bool], timeout: float | None = None) -> bool:
        """Run the I/O loop until ``done()`` or ``timeout``; raise on a failure."""
        session = self.session_state
        deadline = None if timeout is None else self._clock() + timeout
        while True:
            self._flush()
            if done():
                return True
            now = self._clock()
            if deadline is not None and now >= deadline:
                return False
            if session.phase is SessionPhase.DOWN:
                self._try_reopen(now, deadline)
            elif self._link is not None and not self._idled(now, deadline):
                self._read(now, deadline)
            session.tick(self._clock())

    def _flush(self) -> None:
        """Write what the session wants sent and act on what it reported."""
        session = self.session_state
        while True:
            data = session.data_to_send()
            if data and self._link is not None:
                try:
                    self._link.write(data)
                except LinkError as exc:
                    session.port_failed(str(exc), self._clock())
            events = session.events()
            if not events and not data:
                return
            for event in events:
                self._handle(event)

    def _handle(self, event: object) -> None:
        if isinstance(event, Line):
            if self._trace is not None:
                self._trace(event.direction, event.text)
        elif isinstance(event, Press):
            self._ready.append(event.press)
        elif isinstance(event, Notice):
            self._notify(event)
        elif isinstance(event, Established):
            self._established(event)
        elif isinstance(event, LinkDown):
            self._close_link()
            self._next_open = self._clock()
            self._waiting_said = False
            self._link_lost = True
            self._notify(
                Notice(NoticeKind.LOST, f"lost the prop on {self.current_url}: {event.reason}")
            )
        elif isinstance(event, Failed):
            self._close_link()
            raise self._worded(event.error)

    def _established(self, event: Established) -> None:
        where = f" ({self.identity})" if self.identity else ""
        if event.first:
            if self.identity is None and self._lister is not None and self.current_url:
                self.identity = identity_of(self.current_url, self._lister())
                where = f" ({self.identity})" if self.identity else ""
            self._notify(
                Notice(
                    NoticeKind.CONNECTED,
                    f"connected to the prop on {self.current_url}{where}, firmware "
                    f"{event.firmware}, protocol version {event.version}",
                    url=self.current_url,
                )
            )
        elif self._link_lost:
            # After a restart on a link that stayed up, the RESTARTED notice said it all.
            self._link_lost = False
            self._notify(
                Notice(
                    NoticeKind.RECONNECTED,
                    f"the prop is back on {self.current_url}; display state re-sent",
                    url=self.current_url,
                )
            )

    def _worded(self, error: HardwareError) -> HardwareError:
        """The session's error with the port named."""
        if isinstance(error, NoAnswerError):
            return NoAnswerError(
                f"no answer from a prop on {self.current_url!r} within "
                f"{self.timing.handshake_timeout:g} s: is the prop plugged in, running the "
                "Exploding Mittens firmware, and is this the right port?",
                setting=error.setting,
            )
        if isinstance(error, LinkError) and error.setting is Setting.RECONNECT_TIMEOUT:
            return LinkError(f"the prop on {self.url!r}: {error}", setting=error.setting)
        return error

    def _idled(self, now: float, deadline: float | None) -> bool:
        """Whether the injected ``idle`` moved the clock on to the next moment to act
        (a deadline still ahead), nothing being on its way before it."""
        if self._idle is None:
            return False
        wake = [
            t for t in (deadline, self.session_state.deadline()) if t is not None and t > now
        ]
        return bool(wake) and self._idle(min(wake))

    def _read(self, now: float, deadline: float | None) -> None:
        assert self._link is not None
        try:
            data = self._link.read()
        except LinkError as exc:
            self.session_state.port_failed(str(exc), self._clock())
            return
        if data:
            self.session_state.receive(data, self._clock())

    def _try_reopen(self, now: float, deadline: float | None) -> None:
        if now < self._next_open:
            wait = self._next_open - now
            if deadline is not None:
                wait = min(wait, max(0.0, deadline - now))
            self._sleep(min(wait, self.timing.reconnect_interval))
            return
        self._next_open = now + self.timing.reconnect_interval
        for url in self._candidates():
            try:
                self._open(url)
            except LinkError:
                continue
            self.session_state.start(self._clock())
            return
        if not self._waiting_said:
            self._waiting_said = True
            where = f" ({self.identity})" if self.identity else ""
            self._notify(
                Notice(
                    NoticeKind.WAITING,
                    f"waiting for the prop{where} to come back; the game is kept",
                    setting=Setting.RECONNECT_TIMEOUT,
                )
            )

    def _candidates(self) -> list[str]:
        if self.identity is not None and self._lister is not None:
            return find_ports(self.identity, self._lister())
        return [self.url]

    def _open(self, url: str) -> None:
        self._close_link()
        self._link = Link.open(url, self._opener)
        self.current_url = self._link.url

    def _close_link(self) -> None:
        link, self._link = self._link, None
        if link is not None:
            link.close()

    def _notify(self, notice: Notice) -> None:
        if self._on_notice is not None:
            self._on_notice(notice)
