"""The host session as a pure state machine: transcripts with a fake clock.

Every test drives :class:`~hardware.session.HostSession` by hand: it says what the prop
sends and when, and checks what the host sends back and reports. No thread, no port,
no sleep: the same input always gives the same transcript. Each of the bugs B1-B6 of
the outside review (docs/protocol.md describes the fixed behaviour) has a test here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from edgework import Card
from hardware.errors import (
    DeviceProtocolError,
    HostProtocolError,
    LinkError,
    NoAnswerError,
    Setting,
    VersionMismatchError,
)
from hardware.framing import LineFramer, seal
from hardware.propsim.twin import PropSim
from hardware.protocol import (
    Button,
    ButtonPressed,
    Cue,
    ShowHand,
    ShowSerial,
    ShowSolved,
    ShowTimer,
    ShowTop,
    decode_command,
)
from hardware.session import (
    Established,
    Failed,
    HostSession,
    LinkDown,
    Notice,
    NoticeKind,
    Press,
    SessionPhase,
    Timing,
)

T = Timing(reply_timeout=0.5, attempts=3, heartbeat=1.0, handshake_timeout=5.0)


@dataclass
class Wire:
    """One session and a fake clock; records what it sends and reports."""

    timing: Timing = T
    now: float = 0.0
    session: HostSession = field(init=False)
    sent: list[str] = field(default_factory=list)
    presses: list[ButtonPressed] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    others: list[object] = field(default_factory=list)
    _framer: LineFramer = field(default_factory=LineFramer)

    def __post_init__(self) -> None:
        self.session = HostSession(self.timing, session_seed=1)

    def _collect(self) -> None:
        for body in self._framer.feed(self.session.data_to_send()):
            assert isinstance(body, str)
            self.sent.append(body)
        for event in self.session.events():
            if isinstance(event, Press):
                self.presses.append(event.press)
            elif isinstance(event, Notice):
                self.notices.append(event)
            elif not hasattr(event, "direction"):
                self.others.append(event)

    def start(self) -> None:
        self.session.start(self.now)
        self._collect()

    def at(self, when: float) -> None:
        self.now = when
        self.session.tick(when)
        self._collect()

    def prop(self, *bodies: str) -> None:
        self.session.receive(b"".join(seal(body) for body in bodies), self.now)
        self._collect()

    def lose(self, reason: str) -> None:
        self.session.port_failed(reason, self.now)
        self._collect()

    def take(self) -> list[str]:
        self._collect()
        sent, self.sent = self.sent, []
        return sent

    def last_tag(self) -> str:
        return self.sent[-1].split(" ")[1]

    def answer_all(self) -> None:
        """Answer every command sent so far with OK (PING with PONG), until none is left."""
        while batch := self.take():
            for body in batch:
                tag, command = decode_command(body)
                if command.WORD == "PING":
                    pong = f"PONG {tag} {self.session.session} {self.session.last_seq} 0"
                    self.prop(pong)
                else:
                    self.prop(f"OK {tag}")

    def kinds(self) -> list[NoticeKind]:
        self._collect()
        return [notice.kind for notice in self.notices]


def handshake(wire: Wire, version: int = 2, seq: int = 0) -> None:
    """Start and complete a handshake in ``version``, then sync the display."""
    wire.start()
    hello = wire.take()[-1]
    assert hello.startswith("HELLO 0 2 ")
    if version == 1:
        wire.prop("ERR 0 VERSION 1")
        hello = wire.take()[-1]
        assert hello.startswith("HELLO 1 1 ")
        wire.prop(f"HI 1 1 {seq} fw-1")
    else:
        wire.prop(f"HI 0 2 {seq} fw-2 0")
    assert wire.session.ready and wire.session.version == version
    wire.answer_all()
    assert wire.session.synced


def shown(wire: Wire) -> None:
    wire.session.show(ShowSerial("AB3CD4"), wire.now)
    wire.session.show(ShowTop(Card.GREEN_TRIANGLE), wire.now)
    wire.session.show(ShowSolved(False), wire.now)


# ---------------------------------------------------------------------- handshake


def test_handshake_negotiates_version_2_and_sends_the_display_in_order() -> None:
    wire = Wire()
    shown(wire)
    wire.start()
    assert wire.take() == [f"HELLO 0 2 {wire.session.session}"]
    wire.prop("HI 0 2 0 fw-2 0")
    assert wire.others == [Established(True, 2, "fw-2")]
    assert wire.take() == ["SERIAL 1 AB3CD4"]
    wire.prop("OK 1")
    assert wire.take() == ["TOP 2 GT"]
    wire.prop("OK 2")
    assert wire.take() == ["SOLVED 3 0"]
    wire.prop("OK 3")
    assert wire.session.synced and wire.take() == []


def test_a_version_1_prop_is_spoken_to_in_version_1() -> None:
    wire = Wire()
    shown(wire)
    wire.session.show(ShowTimer(60_000, 1000), wire.now)
    wire.start()
    wire.take()
    wire.prop("ERR 0 VERSION 1")
    assert wire.take() == [f"HELLO 1 1 {wire.session.session}"]
    wire.prop("HI 1 1 0 fw-1")
    wire.answer_all()
    # TIMER is a version-2 command: never sent to a version-1 prop.
    assert wire.session.synced and wire.session.version == 1
    wire.session.sound(Cue.STRIKE, wire.now)
    assert wire.take() == []


def test_a_prop_that_speaks_only_a_later_version_is_a_clear_error() -> None:
    wire = Wire()
    wire.start()
    wire.prop("ERR 0 VERSION 3")
    [failed] = wire.others
    assert isinstance(failed, Failed) and isinstance(failed.error, VersionMismatchError)
    assert failed.error.prop_version == 3
    assert "version 3" in str(failed.error) and "1 and 2" in str(failed.error)


def test_hello_backs_off_and_boot_prompts_one_at_once() -> None:
    wire = Wire()
    wire.start()
    assert len(wire.take()) == 1
    for when, count in ((0.49, 0), (0.5, 1), (1.49, 0), (1.5, 1), (3.49, 0), (3.5, 1)):
        wire.at(when)
        assert len(wire.take()) == count, when
    wire.prop("BOOT 2")
    assert wire.take()[0].startswith("HELLO 4 2 ")


def test_the_host_ignores_a_prop_that_has_not_completed_the_handshake() -> None:
    wire = Wire()
    wire.start()
    wire.take()
    wire.prop("BTN 1 DECK 0", "OK 0", "PONG 0 0 0 0", "HI 7 2 0 fw 0", "BTN 2 PILE")
    assert wire.presses == [] and not wire.session.ready and wire.take() == []
    assert wire.notices == []


def test_no_answer_at_the_first_handshake_names_the_handshake_timeout() -> None:
    wire = Wire()
    wire.start()
    wire.at(4.99)
    assert wire.others == []
    wire.at(5.0)
    [failed] = wire.others
    assert isinstance(failed, Failed) and isinstance(failed.error, NoAnswerError)
    assert failed.error.setting is Setting.HANDSHAKE_TIMEOUT


def test_a_hi_in_the_wrong_version_is_not_called_no_answer() -> None:
    wire = Wire()
    wire.start()
    [hello] = wire.take()
    wire.prop(f"HI {hello.split()[1]} 1 0 fw-1")  # HELLO asked for version 2
    wire.at(5.0)
    [failed] = wire.others
    assert isinstance(failed, Failed) and isinstance(failed.error, DeviceProtocolError)
    assert str(failed.error) == (
        "the prop answered HELLO for version 2 with 'HI 0 1 0 fw-1', a version-1 HI, and "
        "never in the version asked for within 5 s (docs/protocol.md section 5.1)"
    )


def test_a_hi_in_the_wrong_version_after_a_restart_is_not_called_no_answer() -> None:
    wire = Wire()
    handshake(wire)
    wire.prop("BOOT 2")
    [hello] = wire.take()
    assert hello.startswith("HELLO ")
    wire.prop(f"HI {hello.split()[1]} 1 0 fw-1")
    wire.at(wire.now + 5.0)
    [down] = [e for e in wire.others if isinstance(e, LinkDown)]
    assert down.reason == (
        f"the prop answered HELLO for version 2 with 'HI {hello.split()[1]} 1 0 fw-1', a "
        "version-1 HI, and never in the version asked for within 5 s"
    )


# ---------------------------------------------------------------------- B3: slow props


def test_b3_a_prop_answering_late_completes_the_handshake() -> None:
    """HI 0.7 s after each HELLO: the HI to the first HELLO completes the handshake."""
    wire = Wire()
    wire.start()
    wire.at(0.5)
    assert [line.split()[1] for line in wire.take()] == ["0", "1"]
    wire.at(0.7)
    wire.prop("HI 0 2 0 fw-2 0")
    assert wire.session.ready
    wire.at(1.2)
    wire.prop("HI 1 2 0 fw-2 0")  # the late answer to the second HELLO: dropped quietly
    assert wire.session.ready and wire.notices == []


def test_b3_a_prop_answering_late_plays_a_whole_game() -> None:
    """Every reply 0.7 s late with a 0.5 s reply timeout: nothing is lost, no link loss."""
    wire = Wire()
    handshake(wire)
    for number in range(1, 31):
        wire.prop(f"BTN {number} DECK {wire.session.session}")
        wire.session.ack(number, wire.now)
        wire.session.show(ShowTop(list(Card)[number % 16]), wire.now)
        while not wire.session.idle:
            first = wire.take()
            assert first, "the host stopped sending"
            tag = first[0].split()[1]
            wire.at(wire.now + 0.5)
            wire.take()  # the retry
            wire.at(wire.now + 0.2)
            reply = "PONG" if first[0].startswith("PING") else "OK"
            extra = f" {wire.session.session} {number} 0" if reply == "PONG" else ""
            wire.prop(f"{reply} {tag}{extra}")
    assert [p.seq for p in wire.presses] == list(range(1, 31))
    assert not [o for o in wire.others if isinstance(o, LinkDown | Failed)]
    # Told once, not at each of the 60-odd commands (the replies never get later).
    [slow] = [n for n in wire.notices if n.kind is NoticeKind.SLOW]
    assert slow.setting is Setting.REPLY_TIMEOUT


def test_retries_double_the_wait_and_then_the_link_is_lost() -> None:
    wire = Wire()
    handshake(wire)
    wire.session.show(ShowSolved(True), wire.now)
    [solved] = wire.take()
    assert solved.startswith("SOLVED ")
    times = []
    for when in (0.5, 1.0, 1.49, 1.5, 2.0, 3.49, 3.5):
        wire.at(when)
        if wire.take():
            times.append(when)
    assert times == [0.5, 1.5]
    assert isinstance(wire.others[-1], LinkDown)
    assert "after 3 attempts" in wire.others[-1].reason


# ---------------------------------------------------------------------- B2: wrong kind


def test_b2_a_reply_of_the_wrong_kind_is_reported_and_the_game_goes_on() -> None:
    wire = Wire()
    handshake(wire)
    wire.session.show(ShowHand((Card.RED_CIRCLE, None, None)), wire.now)
    [hand] = wire.take()
    tag = hand.split()[1]
    wire.prop(f"PONG {tag} 61231 4 0")
    assert wire.kinds() == [NoticeKind.DEVICE_ERROR]
    assert repr(hand) in wire.notices[0].message and "PONG" in wire.notices[0].message
    wire.prop(f"OK {tag}")
    assert wire.session.synced and not wire.others[1:]
    wire.session.ping_now(wire.now)
    [ping] = wire.take()
    wire.prop(f"OK {ping.split()[1]}")
    assert wire.kinds()[-1] is NoticeKind.DEVICE_ERROR
    wire.prop(f"PONG {ping.split()[1]} {wire.session.session} 0 0")
    assert wire.session.idle and wire.session.ready


def test_a_refused_command_is_quoted_whole() -> None:
    wire = Wire()
    handshake(wire)
    wire.session.show(ShowHand((Card.RED_CIRCLE, Card.BLUE_HEART, None)), wire.now)
    [hand] = wire.take()
    wire.prop(f"ERR {hand.split()[1]} ARGS")
    [failed] = [o for o in wire.others if isinstance(o, Failed)]
    assert isinstance(failed.error, HostProtocolError)
    assert f"'{hand}'" in str(failed.error)


# ---------------------------------------------------------------------- presses


def test_presses_in_order_duplicates_dropped_gap_recovered() -> None:
    wire = Wire()
    handshake(wire)
    s = wire.session.session
    wire.prop(f"BTN 1 DECK {s}", f"BTN 1 DECK {s}", f"BTN 3 PILE {s}")
    assert [p.seq for p in wire.presses] == [1]
    [resend] = wire.take()
    assert resend.startswith("RESEND ") and resend.endswith(" 2")
    wire.prop(f"BTN 2 HAND1 {s}", f"BTN 3 PILE {s}", f"OK {resend.split()[1]}")
    assert [p.seq for p in wire.presses] == [1, 2, 3]
    assert wire.session.lost_events == 0


def test_presses_the_prop_no_longer_has_are_reported_lost() -> None:
    wire = Wire()
    handshake(wire)
    s = wire.session.session
    wire.prop(f"BTN 4 PILE {s}")
    [resend] = wire.take()
    wire.prop(f"BTN 3 DECK {s}", f"BTN 4 PILE {s}", f"OK {resend.split()[1]}")
    assert [p.seq for p in wire.presses] == [3, 4]
    [lost] = wire.notices
    assert lost.kind is NoticeKind.EVENTS_LOST and lost.seqs == (1, 2)
    assert wire.session.lost_events == 2


def test_a_pong_showing_a_missed_press_starts_a_resend() -> None:
    wire = Wire()
    handshake(wire)
    wire.at(1.0)
    [ping] = wire.take()
    wire.prop(f"PONG {ping.split()[1]} {wire.session.session} 1 0")
    [resend] = wire.take()
    assert resend.endswith(" 1")
    wire.prop(f"BTN 1 HAND2 {wire.session.session}", f"OK {resend.split()[1]}")
    assert [p.button for p in wire.presses] == [Button.HAND2]


def test_sequence_numbers_wrap_after_65535() -> None:
    wire = Wire()
    handshake(wire, seq=65534)
    s = wire.session.session
    wire.prop(f"BTN 65535 DECK {s}", f"BTN 0 PILE {s}", f"BTN 1 HAND1 {s}")
    assert [p.seq for p in wire.presses] == [65535, 0, 1]


# ---------------------------------------------------------------------- B1: restarts


@pytest.mark.parametrize("restart", ["BOOT 1", "ERR {tag} NOSESSION"])
def test_b1_a_restart_during_resend_loses_nothing_silently(restart: str) -> None:
    """A version-1 prop restarts while the host recovers press 2: no stale RESEND goes
    to the new boot, the old boot's press 3 (it arrived before the restart) is applied
    and its press 2 reported lost on the way, and the new boot's presses 1-3 are all
    applied. (Press 3 was once dropped and reported as made after the restart.)"""
    wire = Wire()
    handshake(wire, version=1)
    wire.prop("BTN 1 PILE")
    wire.session.ack(1, wire.now)
    wire.answer_all()
    wire.prop("BTN 3 PILE")
    [resend] = wire.take()
    assert resend.startswith("RESEND ")
    wire.prop(restart.format(tag=resend.split()[1]))
    [hello] = wire.take()
    assert hello.startswith("HELLO ") and hello.split()[2] == "2"
    wire.prop(f"ERR {hello.split()[1]} VERSION 1")
    [hello] = wire.take()
    wire.prop(f"HI {hello.split()[1]} 1 0 fw-1")
    lost = [n for n in wire.notices if n.kind is NoticeKind.EVENTS_LOST]
    assert len(lost) == 1 and lost[0].seqs == (2,)
    assert "lost on the way" in lost[0].message and "restarted" not in lost[0].message
    wire.answer_all()
    wire.prop("BTN 1 PILE", "BTN 2 PILE", "BTN 3 PILE")
    assert [p.seq for p in wire.presses] == [1, 3, 1, 2, 3]
    sent = wire.take()
    assert not [line for line in sent if line.startswith("RESEND")]
    assert wire.session.recoveries == 1


def test_a_version_2_resend_cut_short_by_boot_applies_what_arrived() -> None:
    """Presses with the host's session that arrived before a BOOT were made before the
    restart: applied in order, the missing one reported lost on the way, none reported
    as made after the restart."""
    wire = Wire()
    handshake(wire)
    s = wire.session.session
    wire.prop(f"BTN 1 PILE {s}")
    wire.session.ack(1, wire.now)
    wire.answer_all()
    wire.prop(f"BTN 3 DECK {s}", f"BTN 4 HAND1 {s}")
    [resend] = wire.take()
    assert resend.startswith("RESEND ")
    wire.prop("BOOT 2")
    [hello] = wire.take()
    wire.prop(f"HI {hello.split()[1]} 2 0 fw-2 0")
    assert [(p.seq, p.button) for p in wire.presses] == [
        (1, Button.PILE), (3, Button.DECK), (4, Button.HAND1)
    ]
    lost = [n for n in wire.notices if n.kind is NoticeKind.EVENTS_LOST]
    assert [n.seqs for n in lost] == [(2,)] and "lost on the way" in lost[0].message


# ---------------------------------------------------------------------- B4, B5: presses
# made while the host could not apply them


def test_b4_version_2_a_silent_restart_is_seen_at_the_first_press() -> None:
    wire = Wire()
    handshake(wire)
    s = wire.session.session
    for seq in range(1, 6):
        wire.prop(f"BTN {seq} DECK {s}")
    wire.take()
    # The prop restarts without a BOOT; two presses follow at once.
    wire.prop("BTN 1 HAND1 0", "BTN 2 HAND2 0")
    [hello] = wire.take()
    assert hello.startswith("HELLO ")
    assert NoticeKind.RESTARTED in wire.kinds()
    wire.prop(f"HI {hello.split()[1]} 2 2 fw-2 0")
    lost = [n for n in wire.notices if n.kind is NoticeKind.EVENTS_LOST]
    assert len(lost) == 1 and lost[0].count == 2
    assert [p.seq for p in wire.presses] == [1, 2, 3, 4, 5]
    assert wire.session.lost_events == 2


def test_b4_version_1_a_silent_restart_is_found_by_a_ping() -> None:
    wire = Wire()
    handshake(wire, version=1)
    for seq in range(1, 6):
        wire.prop(f"BTN {seq} DECK")
    wire.session.ack(5, wire.now)
    wire.answer_all()
    wire.prop("BTN 1 HAND1")  # numbered from 1 again: the prop restarted silently
    [ping] = wire.take()
    assert ping.startswith("PING ")
    wire.prop("BTN 2 HAND2", f"PONG {ping.split()[1]} 0 2 0")
    [hello] = wire.take()
    wire.prop(f"ERR {hello.split()[1]} VERSION 1")
    [hello] = wire.take()
    wire.prop(f"HI {hello.split()[1]} 1 2 fw-1")
    assert [p.seq for p in wire.presses] == [1, 2, 3, 4, 5]
    lost = [n for n in wire.notices if n.kind is NoticeKind.EVENTS_LOST]
    assert len(lost) == 1 and lost[0].count == 2 and lost[0].seqs == (1, 2)


def test_b5_presses_made_while_unplugged_are_reported() -> None:
    wire = Wire(Timing(reconnect_timeout=30.0))
    handshake(wire)
    old = wire.session.session
    wire.prop(f"BTN 1 DECK {old}")
    wire.lose("the cable was pulled")
    assert isinstance(wire.others[-1], LinkDown) and wire.session.phase is SessionPhase.DOWN
    wire.at(3.0)
    wire.take()
    wire.start()  # the port is back; the prop did not restart (no auto-reset)
    [nl_hello] = wire.take()
    wire.prop(f"HI {nl_hello.split()[1]} 2 4 fw-2 {old}")
    lost = [n for n in wire.notices if n.kind is NoticeKind.EVENTS_LOST]
    assert len(lost) == 1 and lost[0].seqs == (2, 3, 4)
    assert "while the link was down" in lost[0].message
    assert [p.seq for p in wire.presses] == [1]
    assert wire.session.recoveries == 1 and wire.session.lost_events == 3


# ---------------------------------------------------------------------- B6 and losing


def test_b6_a_link_that_never_returns_ends_naming_the_reconnect_timeout() -> None:
    wire = Wire(Timing(reconnect_timeout=10.0))
    handshake(wire)
    wire.prop(f"BTN 1 DECK {wire.session.session}")
    wire.session.show(ShowTop(Card.RED_CIRCLE), wire.now)
    wire.take()  # TOP is in flight; the link drops during the display update
    wire.now = 1.0
    wire.lose("gone")
    assert [p.seq for p in wire.presses] == [1]
    wire.at(10.99)
    assert not [o for o in wire.others if isinstance(o, Failed)]
    wire.at(11.0)
    failed = wire.others[-1]
    assert isinstance(failed, Failed) and isinstance(failed.error, LinkError)
    assert failed.error.setting is Setting.RECONNECT_TIMEOUT
    assert wire.session.recoveries == 0


def test_a_failed_handshake_after_a_loss_keeps_trying() -> None:
    wire = Wire(Timing(reconnect_timeout=None))
    handshake(wire)
    wire.lose("gone")
    wire.start()
    wire.at(5.0)
    assert isinstance(wire.others[-1], LinkDown)
    assert wire.session.phase is SessionPhase.DOWN


# ---------------------------------------------------------------------- the timer


def test_a_running_timer_is_sent_with_the_time_left_at_sending() -> None:
    wire = Wire()
    handshake(wire)
    wire.session.show(ShowTimer(300_000, 1250), wire.now)
    [timer] = wire.take()
    assert timer.endswith(" 300000 1250")
    wire.at(wire.now + 0.5)
    [retry] = wire.take()
    assert retry.endswith(" 299375 1250")


def test_the_display_state_holds_the_timer_as_it_was_sent() -> None:
    """The JSON's ``timer_ms`` is what the prop was sent (the time left when the TIMER
    went out), not the time left when the game posted it."""
    wire = Wire()
    handshake(wire)
    wire.session.show(ShowTop(Card.BLUE_HEART), wire.now)
    [top] = wire.take()
    wire.session.show(ShowTimer(300_000, 1000), wire.now)
    wire.at(0.2)
    wire.prop(f"OK {top.split()[1]}")
    [timer] = wire.take()
    assert timer.endswith(" 299800 1000")
    wire.prop(f"OK {timer.split()[1]}")
    assert wire.session.display_state().commands()[-1] == ShowTimer(299_800, 1000)
    wire.session.show(ShowTimer(250_000, 0), wire.now)  # posted, not yet confirmed
    assert ShowTimer(250_000, 0) in wire.session.display_state().commands()


def test_a_lone_lf_goes_out_after_opening_the_port_and_not_after_a_restart() -> None:
    """docs/protocol.md 5.1, step 1: the LF ends a half line the opened port held; a prop
    that restarted on a port that stayed open holds none."""
    session = HostSession(T, session_seed=1)
    session.start(0.0)
    opened = session.data_to_send()
    assert opened.startswith(b"\nHELLO 0 2 ")
    session.receive(seal("HI 0 2 0 fw-2 0"), 0.01)
    session.data_to_send()
    session.receive(seal("BOOT 2"), 0.02)
    restarted = session.data_to_send()
    assert restarted.startswith(b"HELLO ") and b"\n\n" not in restarted


def test_sounds_are_numbered_so_a_retry_plays_once() -> None:
    wire = Wire()
    handshake(wire)
    wire.session.sound(Cue.STRIKE, wire.now)
    [sound] = wire.take()
    wire.at(wire.now + 0.5)
    [retry] = wire.take()
    assert sound.split()[2:] == retry.split()[2:] == ["1", "STRIKE"]


# ---------------------------------------------------------------------- with the twin


def test_the_session_plays_against_the_simulated_prop_without_a_clock() -> None:
    """The session and the simulated prop, wired by hand: both versions."""
    for version in (1, 2):
        sim = PropSim(f"wired-{version}", max_version=version)
        session = HostSession(T, session_seed=3)
        session.show(ShowSerial("AB3CD4"), 0.0)
        session.show(ShowSolved(False), 0.0)
        session.start(0.0)
        presses: list[ButtonPressed] = []
        for step in range(40):
            sim.receive(session.data_to_send())
            session.receive(sim.take_output(), 0.0)
            presses += [e.press for e in session.events() if isinstance(e, Press)]
            if step == 10:
                sim.press(Button.DECK)
                sim.press(Button.PILE)
        assert session.synced and session.version == version
        assert sim.display.state.serial == "AB3CD4"
        assert [p.button for p in presses] == [Button.DECK, Button.PILE]


def test_every_setting_names_a_timing_field() -> None:
    fields = set(Timing.__dataclass_fields__)
    assert {setting.value for setting in Setting} <= fields
