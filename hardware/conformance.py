"""The conformance checker: does a prop do what docs/protocol.md asks of it?

:func:`check_prop` talks to a prop over a raw :class:`~hardware.transport.Link` (not
through the host session, which forgives what a checker must catch), line by line, and
returns one :class:`CheckResult` per requirement: the grammar's edge cases (bad lines
dropped and counted, protocol errors answered with the right ``ERR``), every message of
every version the prop speaks (and their refusals), the handshake and version
negotiation, event numbering, ``RESEND`` and ``ACK``, and a reset. Each result quotes
the line that failed.

Requirements that need a person (presses, a reset) go through an :class:`Actor`:
``press(button)`` and ``reset()`` make the prop do so, or ask someone to. Without an
actor those checks are skipped, and a skipped check is not a pass.

Time comes from a :class:`Clock`. The :class:`WallClock` waits out every deadline on a
real port; a simulated prop's clock (:class:`hardware.propsim.checking.SimClock`) knows when the
prop has nothing more to send and moves time on instead, so a check that expects
silence costs nothing.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Final, Protocol

from hardware.errors import DeviceProtocolError, ErrorCode, LinkError, NoAnswerError
from hardware.framing import BadLine, LineFramer, seal
from hardware.protocol import (
    MIN_EVENT_STORE,
    Boot,
    Button,
    ButtonPressed,
    DeviceMessage,
    Err,
    Hi,
    Pong,
    decode_device,
    next_seq,
)
from hardware.transport import Link

#: How long the checker waits for an answer, and for silence after a bad line.
ANSWER_WAIT: Final = 0.5
#: The reply deadline of docs/protocol.md, section 3.3.
REPLY_DEADLINE: Final = 0.05


class Clock(Protocol):
    """The checker's time: what time it is, and whether a wait can be cut short."""

    def now(self) -> float:
        """Seconds on a monotonic scale."""

    def idle_until(self, deadline: float) -> bool:
        """Called while waiting for the prop until ``deadline``: True when nothing can
        arrive before then (time has moved on to ``deadline``), False to read the port."""


class WallClock:
    """Real time; every wait is read out on the port."""

    def now(self) -> float:
        """``time.monotonic()``."""
        return time.monotonic()

    def idle_until(self, deadline: float) -> bool:
        """Never: a real prop may answer at any moment."""
        return False


class Actor(Protocol):
    """Makes the prop do what only a person can: press a button, reset the board."""

    def press(self, button: Button) -> None:
        """Press ``button`` once (or ask someone to, and wait)."""

    def reset(self) -> None:
        """Reset the prop (or ask someone to, and wait)."""


class CheckStatus(enum.Enum):
    """How the prop did on one requirement (a skipped one is not a pass)."""

    PASS = "pass"
    FAIL = "fail"
    SKIP = "skip"


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One requirement and how the prop did."""

    name: str
    section: str
    requirement: str
    status: CheckStatus
    detail: str = ""

    def as_dict(self) -> dict[str, str]:
        """A JSON-ready view."""
        return {
            "name": self.name,
            "section": self.section,
            "requirement": self.requirement,
            "status": self.status.value,
            "detail": self.detail,
        }


class _Failed(Exception):
    """A requirement was not met; the message quotes what happened."""


@dataclass
class _Probe:
    """A raw line conversation with the prop."""

    link: Link
    wait: float
    press_wait: float = 2.0
    clock: Clock = field(default_factory=WallClock)
    framer: LineFramer = field(default_factory=LineFramer)
    events: list[ButtonPressed] = field(default_factory=list)
    boots: list[Boot] = field(default_factory=list)
    slowest: float = 0.0

    def send_raw(self, data: bytes) -> None:
        self.link.write(data)

    def lines(
        self, until: Callable[[list[str | BadLine]], bool], wait: float
    ) -> list[str | BadLine]:
        """Lines that arrive within ``wait`` seconds, stopping early when ``until`` says."""
        got: list[str | BadLine] = []
        deadline = self.clock.now() + wait
        while not until(got) and self.clock.now() < deadline:
            if self.clock.idle_until(deadline):
                break
            got += self.framer.feed(self.link.read())
        return got

    def ask(self, body: str, *, raw: bytes | None = None, wait: float | None = None) -> list[str]:
        """Send a line; return the good lines that came back until a reply with its tag."""
        tag = body.split(" ")[1] if " " in body else ""
        sent = self.clock.now()
        self.send_raw(raw if raw is not None else seal(body))

        def replied(got: list[str | BadLine]) -> bool:
            return any(isinstance(g, str) and _is_reply_to(g, tag) for g in got)

        got = self.lines(replied, self.wait if wait is None else wait)
        if replied(got):
            self.slowest = max(self.slowest, self.clock.now() - sent)
        bodies = [g for g in got if isinstance(g, str)]
        for bad in (g for g in got if isinstance(g, BadLine)):
            raise _Failed(f"the prop sent a bad line {bad.raw!r} ({bad.reason})")
        self._note_events(bodies)
        return bodies

    def note(self, got: list[str | BadLine]) -> None:
        """Keep the events among lines read outside a command."""
        self._note_events([g for g in got if isinstance(g, str)])

    def await_events(self, count: int) -> None:
        """Read until ``count`` events were seen or :attr:`press_wait` passed."""
        deadline = self.clock.now() + self.press_wait
        while len(self.events) < count and self.clock.now() < deadline:
            self.note(self.lines(lambda g: bool(g), 0.1))

    def _note_events(self, bodies: list[str]) -> None:
        for body in bodies:
            message = _decode(body)
            if isinstance(message, ButtonPressed):
                self.events.append(message)
            elif isinstance(message, Boot):
                self.boots.append(message)

    def reply(self, body: str, *, raw: bytes | None = None) -> DeviceMessage:
        """The reply to one command; fail when there is none or it is no message."""
        bodies = self.ask(body, raw=raw)
        tag = body.split(" ")[1] if " " in body else ""
        replies = [b for b in bodies if _is_reply_to(b, tag)]
        if not replies:
            raise _Failed(f"> {body!r}: no reply within {self.wait:g} s")
        message = _decode(replies[0])
        if message is None:
            raise _Failed(f"> {body!r}: < {replies[0]!r} is no valid reply")
        return message

    def expect(self, body: str, answer: str, *, raw: bytes | None = None) -> None:
        """The reply to ``body`` must be exactly ``answer``."""
        message = self.reply(body, raw=raw)
        if message.encode() != answer:
            raise _Failed(f"> {body!r}: expected < {answer!r}, got < {message.encode()!r}")

    def silent(self, raw: bytes, what: str) -> None:
        """After ``raw``, the prop must send nothing (except events)."""
        self.send_raw(raw)
        got = self.lines(lambda g: False, min(self.wait, 0.3))
        bodies = [g for g in got if isinstance(g, str)]
        self._note_events(bodies)
        answers = [b for b in bodies if not b.startswith(("BTN ", "BOOT "))]
        if answers or any(isinstance(g, BadLine) for g in got):
            raise _Failed(f"{what} {raw!r} was answered: {answers or got!r}")

    def pong(self, tag: int) -> Pong:
        message = self.reply(f"PING {tag}")
        if not isinstance(message, Pong):
            raise _Failed(f"> 'PING {tag}': expected PONG, got < {message.encode()!r}")
        return message


def _is_reply_to(body: str, tag: str) -> bool:
    words = body.split(" ")
    return len(words) > 1 and words[0] in ("HI", "PONG", "OK", "ERR") and words[1] in (tag, "-")


def _decode(body: str) -> DeviceMessage | None:
    try:
        return decode_device(body)
    except DeviceProtocolError:
        return None


@dataclass
class _Checker:
    probe: _Probe
    actor: Actor | None
    results: list[CheckResult] = field(default_factory=list)
    tag: int = 100
    session: int = 31000
    versions: list[int] = field(default_factory=list)

    def next_tag(self) -> int:
        self.tag = self.tag + 1 if self.tag < 999 else 100
        return self.tag

    def new_session(self) -> int:
        self.session += 1
        return self.session

    def check(
        self, name: str, section: str, requirement: str, run: Callable[[], None],
        *, needs: str = "",
    ) -> None:
        if needs and self.actor is None:
            self.results.append(
                CheckResult(
                    name, section, requirement, CheckStatus.SKIP, f"needs {needs} (no actor)"
                )
            )
            return
        try:
            run()
        except _Failed as exc:
            self.results.append(CheckResult(name, section, requirement, CheckStatus.FAIL, str(exc)))
        except LinkError:
            raise
        else:
            self.results.append(CheckResult(name, section, requirement, CheckStatus.PASS))


def _messages(version: int) -> Iterator[tuple[str, str]]:
    """A valid command (tag ``{t}``) and a wrong-argument variant, per display command."""
    yield "SERIAL {t} AB3CD4", "SERIAL {t} ab3cd4"
    yield "BATT {t} 3 2", "BATT {t} 3 x"
    yield "TOP {t} GT", "TOP {t} XX"
    yield "HAND {t} RC BH --", "HAND {t} RC BH"
    yield "STRIKES {t} 1", "STRIKES {t} 100"
    yield "SOLVED {t} 0", "SOLVED {t} 2"
    if version >= 2:
        yield "HOLDERS {t} 1 1", "HOLDERS {t} 1 -"
        yield "INDS {t} 2", "INDS {t} 100"
        yield "IND {t} 1 FRK 1", "IND {t} 1 FrK 1"
        yield "PLATES {t} 1", "PLATES {t} 01"
        yield "PLATE {t} 1 PAR,SER", "PLATE {t} 1 PARALLEL"
        yield "LIMIT {t} 3", "LIMIT {t} 100"
        yield "TIMER {t} 300000 1000", "TIMER {t} - 1000"
        yield "GAME {t} PLAYING", "GAME {t} playing"
        yield "SOUND {t} 1 STRIKE", "SOUND {t} 1 BEEP"


V2_ONLY: Final = ("HOLDERS {t} 1 1", "LIMIT {t} 3", "TIMER {t} 1000 1000", "GAME {t} SOLVED")


def check_prop(
    link: Link,
    actor: Actor | None = None,
    *,
    wait: float = ANSWER_WAIT,
    press_wait: float = 2.0,
    deadline: float = REPLY_DEADLINE,
    startup: float = 3.0,
    clock: Clock | None = None,
) -> list[CheckResult]:
    """Run every requirement of docs/protocol.md against the prop on ``link``.

    ``wait`` bounds each answer, ``press_wait`` each press or reset the actor makes,
    ``deadline`` is the reply time the prop must keep, and ``startup`` how long the
    prop may take to answer at all (a board may reset when its port opens); ``clock``
    measures them (the wall clock by default). Raises
    :class:`~hardware.errors.NoAnswerError` when it never answers.
    """
    probe = _Probe(link, wait, press_wait, clock or WallClock())
    checker = _Checker(probe, actor)
    _await_start(probe, startup)
    _framing_checks(checker)
    _handshake_checks(checker)
    for version in checker.versions:
        _message_checks(checker, version)
    _event_checks(checker)
    _reset_checks(checker)
    slowest = probe.slowest

    def in_time() -> None:
        if slowest > deadline:
            raise _Failed(f"the slowest reply took {slowest * 1000:.0f} ms")

    checker.check(
        "reply-deadline", "3.3", f"every reply within {deadline * 1000:.0f} ms", in_time
    )
    return checker.results


def _await_start(probe: _Probe, startup: float) -> None:
    """Send ``PING`` until the prop answers (it may be starting up), then drain."""
    probe.send_raw(b"\n")
    deadline = probe.clock.now() + startup
    tag = 0
    while probe.clock.now() < deadline:
        tag += 1
        probe.send_raw(seal(f"PING {tag}"))
        pong = f"PONG {tag} "

        def answered(got: list[str | BadLine], pong: str = pong) -> bool:
            return any(isinstance(x, str) and x.startswith(pong) for x in got)

        if answered(probe.lines(answered, 0.25)):
            probe.lines(lambda g: False, 0.1)
            return
    raise NoAnswerError(
        f"no answer to PING within {startup:g} s: is this a prop, running firmware that "
        "speaks the Exploding Mittens protocol?"
    )


def _framing_checks(c: _Checker) -> None:
    probe = c.probe

    def counted(raw: bytes, what: str) -> Callable[[], None]:
        def run() -> None:
            before = probe.pong(c.next_tag()).bad_lines
            probe.silent(raw, what)
            after = probe.pong(c.next_tag()).bad_lines
            if after != min(before + 1, 65535):
                raise _Failed(f"{what} {raw!r}: bad-line count went {before} -> {after}")

        return run

    body = "PING 7"
    good = seal(body)[:-1]
    wrong = good[:-1] + (b"0" if good[-1:] != b"0" else b"1")
    lower = body.encode() + b"*" + good[-4:].lower()
    cases = [
        ("bad-crc", "a line with a wrong checksum", wrong),
        ("bad-hex", "a line with lower-case checksum digits", lower),
        ("bad-empty-body", "a line with an empty body (*0000)", b"*0000"),
        ("bad-two-stars", "a line with two '*'", good + b"*" + good[-4:]),
        ("bad-cr", "a line with a CR inside", b"PING 7\r*" + good[-4:]),
        ("bad-high-byte", "a line with a byte >= 0x80", b"PING \xb7*" + good[-4:]),
        ("bad-overlong", "a line longer than 63 bytes", b"PING 7 " + b"X" * 70 + b"*0000"),
        ("bad-no-star", "a line with no '*'", b"PING 7"),
    ]
    for name, what, raw in cases:
        c.check(
            name, "2.1", f"{what} is dropped, counted, never answered",
            counted(raw + b"\n", what),
        )

    def empty_lines() -> None:
        before = probe.pong(c.next_tag()).bad_lines
        probe.silent(b"\n\n\n", "empty lines")
        after = probe.pong(c.next_tag()).bad_lines
        if after != before:
            raise _Failed(f"empty lines changed the bad-line count {before} -> {after}")

    c.check("empty-lines", "2", "empty lines are ignored and not counted", empty_lines)
    errors = [
        ("err-double-space", "PING  5", "ERR - ARGS"),
        ("err-trailing-space", "PING 5 ", "ERR 5 ARGS"),
        ("err-leading-space", " PING 5", "ERR - ARGS"),
        ("err-leading-zero", "PING 05", "ERR - ARGS"),
        ("err-tag-range", "PING 1000", "ERR - ARGS"),
        ("err-no-tag", "PING", "ERR - ARGS"),
        ("err-lower-case", "ping 5", "ERR 5 UNKNOWN"),
        ("err-reply-word", "OK 5", "ERR 5 UNKNOWN"),
        ("err-extra-token", "PING 5 6", "ERR 5 ARGS"),
    ]
    for name, body, answer in errors:

        def answered(body: str = body, answer: str = answer) -> None:
            probe.expect(body, answer)

        c.check(name, "2.1, 4", f"{body!r} is a protocol error answered {answer!r}", answered)


def _handshake_checks(c: _Checker) -> None:
    probe = c.probe
    state: dict[str, int] = {}

    def v1() -> None:
        t, s = c.next_tag(), c.new_session()
        message = probe.reply(f"HELLO {t} 1 {s}")
        if isinstance(message, Err) and message.code is ErrorCode.VERSION:
            if message.version is not None and message.version >= 2:
                return  # a prop that speaks only later versions
            raise _Failed(f"> 'HELLO {t} 1 {s}': {message.encode()!r} names no later version")
        if not isinstance(message, Hi) or message.version != 1 or message.prior is not None:
            raise _Failed(f"> 'HELLO {t} 1 {s}': expected 'HI {t} 1 <seq> <fw>', got "
                          f"{message.encode()!r}")
        state["session"] = s
        c.versions.append(1)

    c.check(
        "hello-1", "3.2, 5.1",
        "HELLO for version 1 is answered HI in the version-1 form (or ERR VERSION by a prop "
        "that speaks only later versions)",
        v1,
    )

    def v2() -> None:
        t, s = c.next_tag(), c.new_session()
        message = probe.reply(f"HELLO {t} 2 {s}")
        if isinstance(message, Err) and message.code is ErrorCode.VERSION:
            if message.version != 1:
                raise _Failed(f"> 'HELLO {t} 2 {s}': a version-1 prop answers 'ERR {t} VERSION "
                              f"1', got {message.encode()!r}")
            return
        if not isinstance(message, Hi) or message.version != 2 or message.prior is None:
            raise _Failed(f"> 'HELLO {t} 2 {s}': expected 'HI {t} 2 <seq> <fw> <prior>' or "
                          f"'ERR {t} VERSION 1', got {message.encode()!r}")
        # The session is open whatever <prior> says: the checks that follow speak it, so
        # a wrong <prior> is this one failure, not the start of others.
        before = state.get("session")
        state["session"] = s
        c.versions.append(2)
        if before is not None and message.prior != before:
            raise _Failed(f"> 'HELLO {t} 2 {s}': <prior> is {message.prior}, expected the "
                          f"session before, {before}")

    c.check(
        "hello-2", "3.2, 5.1",
        "HELLO for version 2 is answered HI with <prior>, or ERR VERSION 1 by a version-1 prop",
        v2,
    )
    _hello_refusal_checks(c, state)


def _hello_refusal_checks(c: _Checker, state: dict[str, int]) -> None:
    """A HELLO for a version not spoken, or with bad arguments, is refused; the session stays.

    ``state["session"]`` is the session the accepted HELLOs before opened, if any.
    """
    probe = c.probe

    def later() -> None:
        t = c.next_tag()
        message = probe.reply(f"HELLO {t} 99 {c.new_session()}")
        if not (isinstance(message, Err) and message.code is ErrorCode.VERSION):
            raise _Failed(f"HELLO for version 99: expected ERR {t} VERSION <v>, got "
                          f"{message.encode()!r}")
        newest = max(c.versions, default=1)
        if message.version != newest:
            raise _Failed(f"HELLO for version 99: <v> is {message.version}, the prop answered "
                          f"HELLO for version {newest}")

    c.check("hello-unknown-version", "3.2, 4",
            "HELLO for a version not spoken: ERR VERSION with the highest one", later)

    def kept() -> None:
        pong = probe.pong(c.next_tag())
        if pong.session != state.get("session"):
            raise _Failed(f"after a refused HELLO the session is {pong.session}, expected "
                          f"{state.get('session')} (kept)")

    c.check("hello-refused-keeps-session", "3.2",
            "a refused HELLO keeps the old session", kept)
    for body, answer in (("HELLO {t} 0 4242", "ARGS"), ("HELLO {t} 01 4242", "ARGS"),
                         ("HELLO {t} 1 0", "ARGS"), ("HELLO {t} 1", "ARGS")):
        def bad_hello(body: str = body, answer: str = answer) -> None:
            t = c.next_tag()
            probe.expect(body.format(t=t), f"ERR {t} {answer}")

        c.check(f"hello-args {body.format(t='t')}", "3.1, 4",
                f"{body.format(t='<tag>')!r} is answered ERR <tag> {answer}", bad_hello)


def _hello(c: _Checker, version: int) -> Hi:
    t, s = c.next_tag(), c.new_session()
    message = c.probe.reply(f"HELLO {t} {version} {s}")
    if not isinstance(message, Hi):
        raise _Failed(f"> 'HELLO {t} {version} {s}': got {message.encode()!r}")
    return message


def _message_checks(c: _Checker, version: int) -> None:
    probe = c.probe

    def start() -> None:
        _hello(c, version)

    c.check(f"v{version}-session", "5.1", f"a version-{version} session starts", start)
    for good, bad in _messages(version):
        word = good.split()[0]

        def accepted(good: str = good) -> None:
            t = c.next_tag()
            probe.expect(good.format(t=t), f"OK {t}")

        def refused(bad: str = bad) -> None:
            t = c.next_tag()
            probe.expect(bad.format(t=t), f"ERR {t} ARGS")

        c.check(f"v{version} {word}", "3.2", f"{good.format(t='<tag>')!r} is answered OK",
                accepted)
        c.check(f"v{version} {word} args", "3.1, 4",
                f"{bad.format(t='<tag>')!r} is answered ERR <tag> ARGS", refused)
    if version == 1:
        for body in V2_ONLY:
            word = body.split()[0]

            def unknown(body: str = body) -> None:
                t = c.next_tag()
                probe.expect(body.format(t=t), f"ERR {t} UNKNOWN")

            c.check(f"v1 {word} unknown", "4",
                    "a version-2 command in a version-1 session is answered UNKNOWN", unknown)

    def sound_once() -> None:
        t = c.next_tag()
        probe.expect(f"SOUND {t} 7 SOLVE", f"OK {t}")
        t = c.next_tag()
        probe.expect(f"SOUND {t} 7 SOLVE", f"OK {t}")

    if version >= 2:
        for body in ("IND {t} 0 FRK 1", "PLATE {t} 0 EMPTY"):
            word = body.split()[0]

            def index_0(body: str = body) -> None:
                t = c.next_tag()
                probe.expect(body.format(t=t), f"ERR {t} ARGS")

            c.check(f"v2 {word} index 0", "3.1, 4",
                    f"{body.format(t='<tag>')!r} is answered ERR <tag> ARGS (an index is 1-99)",
                    index_0)
        c.check("v2 SOUND repeat", "6.3", "a repeated SOUND (same number) is answered OK",
                sound_once)

        def no_timer() -> None:
            t = c.next_tag()
            probe.expect(f"TIMER {t} - 0", f"OK {t}")

        c.check("v2 TIMER none", "3.1, 6.1",
                "'TIMER <tag> - 0' (no timer) is answered OK; '-' with another rate is ARGS",
                no_timer)


def _await_presses(probe: _Probe, count: int) -> list[ButtonPressed]:
    """The first ``count`` events the probe has seen, waiting for them a while."""
    probe.await_events(count)
    return probe.events[:count]


def _event_checks(c: _Checker) -> None:
    probe = c.probe
    version = max(c.versions, default=1)
    state: dict[str, int] = {}

    def presses() -> None:
        assert c.actor is not None
        hi = _hello(c, version)
        state["session"] = c.session
        first = probe.pong(c.next_tag()).seq
        probe.events.clear()
        buttons = [Button.DECK, Button.PILE, Button.HAND1]
        for button in buttons:
            c.actor.press(button)
        events = _await_presses(probe, 3)
        if len(events) < 3:
            raise _Failed(f"pressed {', '.join(b.value for b in buttons)}: got "
                          f"{[e.encode() for e in events]}")
        expected = []
        seq = first
        for button in buttons:
            seq = next_seq(seq)
            expected.append(ButtonPressed(seq, button, c.session if version >= 2 else None))
        if events != expected:
            raise _Failed(f"expected {[e.encode() for e in expected]}, got "
                          f"{[e.encode() for e in events]} (HI said {hi.seq})")
        state["newest"] = seq
        pong = probe.pong(c.next_tag())
        if pong.seq != seq:
            raise _Failed(f"PONG says the newest event is {pong.seq}, expected {seq}")

    c.check("btn-numbering", "3.4, 5.4",
            "presses arrive as BTN, numbered one after the other, in the version's form; "
            "PONG gives the newest number", presses, needs="presses")
    _resend_checks(c, state)

    def ack() -> None:
        t = c.next_tag()
        probe.expect(f"ACK {t} {state.get('newest', 0)}", f"OK {t}")

    c.check("ack", "3.2", "ACK is answered OK", ack)


def _resend_checks(c: _Checker, state: dict[str, int]) -> None:
    """RESEND and the event store, after the numbering check.

    ``state["newest"]`` is the number of the newest press the numbering check saw.
    """
    probe = c.probe

    def resend() -> None:
        if "newest" not in state:
            raise _Failed("no presses to re-send (the numbering check failed)")
        newest = state["newest"]
        first = (newest - 2) % 65536
        t = c.next_tag()
        probe.events.clear()
        bodies = probe.ask(f"RESEND {t} {first}")
        events = [_decode(b) for b in bodies if b.startswith("BTN ")]
        seqs = [e.seq for e in events if isinstance(e, ButtonPressed)]
        expected = [first, next_seq(first), newest]
        if seqs != expected or not bodies or bodies[-1] != f"OK {t}":
            raise _Failed(f"> 'RESEND {t} {first}': expected BTN {expected} then OK {t}, got "
                          f"{bodies}")

    c.check("resend", "3.2", "RESEND sends the stored events from <seq> on, then OK",
            resend, needs="presses")

    _resend_session_check(c, state)

    def resend_newer() -> None:
        newest = state.get("newest", 0)
        t = c.next_tag()
        beyond = (newest + 5) % 65536
        bodies = probe.ask(f"RESEND {t} {beyond}")
        if bodies != [f"OK {t}"]:
            raise _Failed(f"> 'RESEND {t} {beyond}' (newer than the newest {newest}): expected "
                          f"only OK {t}, got {bodies}")

    c.check("resend-newer", "3.2",
            "RESEND from a number newer than the newest sends no event, then OK", resend_newer,
            needs="presses")

    def store() -> None:
        assert c.actor is not None
        pong = probe.pong(c.next_tag())
        probe.events.clear()
        for _ in range(MIN_EVENT_STORE):
            c.actor.press(Button.HAND2)
        _await_presses(probe, MIN_EVENT_STORE)
        t = c.next_tag()
        first = next_seq(pong.seq)
        bodies = probe.ask(f"RESEND {t} {first}")
        count = sum(1 for b in bodies if b.startswith("BTN "))
        if count != MIN_EVENT_STORE:
            raise _Failed(f"> 'RESEND {t} {first}' after {MIN_EVENT_STORE} presses: "
                          f"{count} events came back")

    c.check("event-store", "3.2", f"the prop stores at least its {MIN_EVENT_STORE} newest "
            "events", store, needs="presses")


def _resend_session_check(c: _Checker, state: dict[str, int]) -> None:
    """Version 2: a re-sent event keeps the session it was pressed in (after the numbering
    check; ``state["session"]`` is the session the presses were made in)."""
    probe = c.probe

    def resend_session() -> None:
        if "newest" not in state:
            raise _Failed("no presses to re-send (the numbering check failed)")
        pressed_in = state["session"]
        _hello(c, 2)  # another session in use now
        newest = state["newest"]
        first = (newest - 2) % 65536
        t = c.next_tag()
        probe.events.clear()
        bodies = probe.ask(f"RESEND {t} {first}")
        got = [b for b in bodies if b.startswith("BTN ")]
        buttons = [Button.DECK, Button.PILE, Button.HAND1]
        seqs = [first, next_seq(first), newest]
        expected = [
            ButtonPressed(q, b, pressed_in).encode() for q, b in zip(seqs, buttons, strict=True)
        ]
        if got != expected:
            raise _Failed(f"> 'RESEND {t} {first}' in session {c.session}: expected "
                          f"{expected} (the session each was pressed in), got {got}")

    if max(c.versions, default=1) >= 2:
        c.check("resend-session", "3.2, 3.4",
                "a re-sent event carries the session it was pressed in, not the one in use",
                resend_session, needs="presses")
    if 1 in c.versions and max(c.versions) >= 2:
        _resend_form_check(c, state)


def _resend_form_check(c: _Checker, state: dict[str, int]) -> None:
    """A prop speaking versions 1 and 2 re-sends version-2 presses in the form of a
    version-1 session in use (no session token), then speaks version 2 again."""
    probe = c.probe

    def resend_form() -> None:
        if "newest" not in state:
            raise _Failed("no presses to re-send (the numbering check failed)")
        _hello(c, 1)
        try:
            newest = state["newest"]
            t = c.next_tag()
            probe.events.clear()
            bodies = probe.ask(f"RESEND {t} {newest}")
            got = [b for b in bodies if b.startswith("BTN ")]
            # Only the form is checked here: the range of a RESEND has its own checks.
            expected = ButtonPressed(newest, Button.HAND1).encode()
            if expected not in got or any(len(b.split()) != 3 for b in got):
                raise _Failed(f"> 'RESEND {t} {newest}' in a version-1 session: expected "
                              f"{expected!r} (the form of the session in use), got {got}")
        finally:
            _hello(c, 2)

    c.check("resend-form", "3.2, 3.4",
            "a re-sent event takes the form of the session in use (version 1: no session)",
            resend_form, needs="presses")


def _reset_checks(c: _Checker) -> None:
    probe = c.probe

    def reset() -> None:
        assert c.actor is not None
        probe.boots.clear()
        c.actor.reset()
        deadline = probe.clock.now() + probe.press_wait
        while not probe.boots and probe.clock.now() < deadline:
            probe.note(probe.lines(lambda g: False, 0.1))
        probe.note(probe.lines(lambda g: False, 0.2))
        if not probe.boots:
            raise _Failed("no BOOT line after the reset")
        newest = max(c.versions, default=1)
        if probe.boots[-1].version != newest:
            raise _Failed(f"BOOT says {probe.boots[-1].version}, the prop speaks {newest}")
        pong = probe.pong(c.next_tag())
        if (pong.session, pong.seq) != (0, 0):
            raise _Failed(f"after a reset PONG says session {pong.session}, newest event "
                          f"{pong.seq}; expected 0 and 0")
        t = c.next_tag()
        probe.expect(f"HAND {t} RC", f"ERR {t} ARGS")
        t = c.next_tag()
        probe.expect(f"HAND {t} RC BH --", f"ERR {t} NOSESSION")
        t = c.next_tag()
        probe.expect(f"RESEND {t} 1", f"ERR {t} NOSESSION")

    c.check("reset", "3.4, 4, 5.4",
            "after a reset: BOOT, no session, newest event 0 (the next press is 1), "
            "ARGS before NOSESSION",
            reset, needs="a reset")

    def press_without_session() -> None:
        assert c.actor is not None
        probe.events.clear()
        c.actor.press(Button.DECK)
        probe.await_events(1)
        newest = max(c.versions, default=1)
        expected = ButtonPressed(1, Button.DECK, 0 if newest >= 2 else None)
        if probe.events[:1] != [expected]:
            raise _Failed(f"a press right after the reset: expected {expected.encode()!r}, got "
                          f"{[e.encode() for e in probe.events]}")

    c.check("btn-without-session", "3.4",
            "a press before any HELLO is sent at once, numbered 1 (version 2: session 0)",
            press_without_session, needs="a reset")

    def hello_after() -> None:
        newest = max(c.versions, default=1)
        hi = _hello(c, newest)
        if hi.seq != 1 or (newest >= 2 and hi.prior != 0):
            raise _Failed(f"HI after the reset and one press: {hi.encode()!r}; expected seq 1"
                          + (" and prior 0" if newest >= 2 else ""))

    c.check("hello-after-reset", "3.2, 5.4",
            "HELLO after a reset: HI gives the presses since the start (and prior 0)",
            hello_after, needs="a reset")


def passed(results: list[CheckResult]) -> bool:
    """True when every requirement passed (a skipped one is not a pass)."""
    return bool(results) and all(r.status is CheckStatus.PASS for r in results)
