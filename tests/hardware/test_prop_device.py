"""The Device against simulated props and scripted ports: every failure it must survive."""

from __future__ import annotations

import os
import select
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import serial
import serial.tools.list_ports
from prop_helpers import (
    FAST,
    SimTime,
    make_device,
    plug_in_elsewhere,
    simulated_prop,
    unique_name,
    unplug_sim,
)
from serial.tools.list_ports_common import ListPortInfo

from edgework import Card
from hardware.device import Device
from hardware.errors import (
    HostProtocolError,
    LinkError,
    NoAnswerError,
    PortNotFoundError,
    PortURLError,
    VersionMismatchError,
)
from hardware.framing import LineFramer, seal
from hardware.propsim import registry
from hardware.propsim.twin import FIRMWARE, Faults, PropSim
from hardware.protocol import (
    Button,
    ShowHand,
    ShowSerial,
    ShowSolved,
    ShowTop,
    decode_command,
)
from hardware.session import Notice, NoticeKind, Timing
from hardware.transport import (
    PortInfo,
    UsbIdentity,
    candidate_ports,
    discover,
    find_ports,
    identity_of,
    open_port,
    system_ports,
)


def kinds(notices: list[Notice]) -> list[NoticeKind]:
    return [n.kind for n in notices]


def test_handshake_then_state_and_presses() -> None:
    with simulated_prop() as sim:
        trace: list[str] = []
        device = make_device(registry.url_of(sim), trace=trace)
        device.connect()
        try:
            assert device.firmware == FIRMWARE
            assert device.identity == UsbIdentity(0x1209, 0x0001, sim.usb_serial)
            device.show(ShowSerial("AB3CD4"))
            device.show(ShowTop(Card.GREEN_TRIANGLE))
            device.show(ShowHand.of([Card.RED_CIRCLE, Card.BLUE_HEART]))
            assert sim.display.state.serial == "AB3CD4"
            assert sim.display.state.hand == (Card.RED_CIRCLE, Card.BLUE_HEART, None)
            sim.press(Button.HAND2)
            press = device.next_press(2.0)
            assert press is not None and press.button is Button.HAND2 and press.seq == 1
            device.ack(press)
            assert device.sync(2.0)
            assert sim.acked == [1]
            assert device.next_press(0.0) is None
        finally:
            device.close()
        assert trace[0].startswith("> HELLO 0 2 ")
        assert trace[1] == f"< HI 0 2 0 {FIRMWARE} 0"


def test_bootloader_swallows_hello_and_boot_prompts_a_new_one() -> None:
    with simulated_prop(faults=Faults(boot_delay=2)) as sim:
        trace: list[str] = []
        device = make_device(registry.url_of(sim), trace=trace)
        device.connect()
        device.close()
    hellos = [line for line in trace if line.startswith("> HELLO")]
    assert len(hellos) == 3
    assert "< BOOT 2" in trace
    # The answer to the third HELLO comes right after BOOT, no timeout in between.
    boot = trace.index("< BOOT 2")
    assert trace[boot + 1].startswith("> HELLO 2 ")


def test_a_prop_that_never_answers_gives_a_clear_error() -> None:
    with simulated_prop(faults=Faults(mute=True)) as sim:
        device = make_device(
            registry.url_of(sim), timing=Timing(handshake_timeout=0.4, reply_timeout=0.1)
        )
        with pytest.raises(NoAnswerError) as caught:
            device.connect()
        assert "no answer from a prop on 'propsim://" in str(caught.value)
        assert "0.4 s" in str(caught.value)


def test_a_missing_port_is_a_link_error() -> None:
    device = Device("/dev/does-not-exist-mittens", timing=FAST)
    with pytest.raises(LinkError) as caught:
        device.connect()
    assert str(caught.value) == (
        "cannot open port '/dev/does-not-exist-mittens': No such file or directory"
    )


def test_corrupted_and_garbage_lines_are_counted_and_survived() -> None:
    with simulated_prop() as sim:
        notices: list[Notice] = []
        trace: list[str] = []
        device = make_device(registry.url_of(sim), notices, trace)
        device.connect()
        try:
            sim.corrupt_next(2)
            device.show(ShowSolved(False))
            sim.send_garbage(b"\xff\x00noise\n")
            device.show(ShowSolved(True))
            assert sim.display.state.solved
            assert device.bad_lines == 3
            assert kinds(notices).count(NoticeKind.BAD_LINE) == 3
            # The host retried SOLVED with new tags until an answer came through.
            assert sum(line.startswith("> SOLVED") for line in trace) == 4
        finally:
            device.close()


def test_lost_presses_are_recovered_in_order() -> None:
    with simulated_prop() as sim:
        device = make_device(registry.url_of(sim))
        device.connect()
        try:
            sim.press(Button.DECK)
            sim.drop_next(2)
            sim.press(Button.PILE)
            sim.press(Button.HAND1)
            sim.press(Button.HAND2)
            sim.drop_next(1)
            sim.press(Button.HAND3)  # the newest is lost: only the heartbeat can tell
            got = [device.next_press(2.0) for _ in range(5)]
            assert [p.button if p else None for p in got] == [
                Button.DECK, Button.PILE, Button.HAND1, Button.HAND2, Button.HAND3
            ]
            assert [p.seq if p else None for p in got] == [1, 2, 3, 4, 5]
            assert device.lost_events == 0
        finally:
            device.close()


def test_presses_beyond_the_event_store_are_reported_lost() -> None:
    with simulated_prop() as sim:
        notices: list[Notice] = []
        device = make_device(registry.url_of(sim), notices)
        device.connect()
        try:
            sim.drop_next(10)
            for _ in range(10):
                sim.press(Button.DECK)
            sim.press(Button.PILE)
            got = []
            while (press := device.next_press(0.5)) is not None:
                got.append(press.seq)
            assert got == list(range(4, 12))  # the prop stores the newest 8
            assert device.lost_events == 3
            lost = [n for n in notices if n.kind is NoticeKind.EVENTS_LOST]
            assert len(lost) == 1 and lost[0].seqs == (1, 2, 3)
            assert "3 button press(es) were lost" in lost[0].message
        finally:
            device.close()


def test_restart_mid_game_re_sends_the_display() -> None:
    with simulated_prop() as sim:
        notices: list[Notice] = []
        device = make_device(registry.url_of(sim), notices)
        device.connect()
        try:
            device.show(ShowSerial("AB3CD4"))
            device.show(ShowTop(Card.YELLOW_SQUARE))
            sim.press(Button.DECK)
            assert device.next_press(2.0) is not None
            sim.restart()
            assert not sim.display.shown
            device.heartbeat()
            shown = sim.display.state
            assert shown.serial == "AB3CD4" and shown.top is Card.YELLOW_SQUARE
            assert NoticeKind.RESTARTED in kinds(notices)
            # The link was never lost: it once said "reconnected" all the same.
            assert NoticeKind.RECONNECTED not in kinds(notices)
            # Event numbers start again after the restart.
            sim.press(Button.PILE)
            press = device.next_press(2.0)
            assert press is not None and press.seq == 1
        finally:
            device.close()


def test_restart_seen_as_nosession_when_boot_is_lost() -> None:
    with simulated_prop() as sim:
        device = make_device(registry.url_of(sim))
        device.connect()
        try:
            device.show(ShowTop(Card.RED_CIRCLE))
            sim.restart()
            sim.discard_output()  # the BOOT line never reaches the host
            device.show(ShowHand.of([Card.BLUE_CIRCLE]))
            assert sim.display.state.top is Card.RED_CIRCLE
            assert sim.display.state.hand[0] is Card.BLUE_CIRCLE
        finally:
            device.close()


def test_unplug_wait_and_come_back_under_another_name() -> None:
    with simulated_prop() as sim:
        new_name = unique_name("back")
        notices: list[Notice] = []
        back: list[PropSim] = []

        def on_notice(notice: Notice) -> None:
            notices.append(notice)
            if notice.kind is NoticeKind.WAITING:
                # The user plugs the prop back in, elsewhere.
                back.append(plug_in_elsewhere(sim, new_name))

        time = SimTime()
        device = Device(
            registry.url_of(sim), timing=FAST, lister=registry.sim_ports, on_notice=on_notice,
            opener=time.opener, clock=time.clock, sleep=time.sleep,
        )
        device.connect()
        try:
            device.show(ShowTop(Card.GREEN_SQUARE))
            sim.unplug()
            device.show(ShowHand.of([Card.RED_HEART]))
            assert device.current_url == f"propsim://{new_name}"
            [board] = back
            assert board.display.state.top is Card.GREEN_SQUARE
            assert board.display.state.hand[0] is Card.RED_HEART
            assert kinds(notices)[1:] == [
                NoticeKind.LOST, NoticeKind.WAITING, NoticeKind.RECONNECTED
            ]
            board.press(Button.HAND1)
            press = device.next_press(2.0)
            assert press is not None and press.button is Button.HAND1
        finally:
            device.close()
            unplug_sim(new_name)


def test_unplugged_for_good_gives_up_after_the_reconnect_timeout() -> None:
    with simulated_prop() as sim:
        timing = Timing(reply_timeout=0.1, reconnect_interval=0.02, reconnect_timeout=0.2)
        device = make_device(registry.url_of(sim), timing=timing)
        device.connect()
        sim.unplug()
        with pytest.raises(LinkError) as caught:
            device.show(ShowSolved(False))
        assert "did not come back within 0.2 s" in str(caught.value)
        device.close()


# ---------------------------------------------------------------------- scripted ports


class ScriptedPort:
    """A port whose other end answers each command body through ``answer`` at once; an
    empty read lets the read timeout pass on ``time``."""

    def __init__(self, answer: Callable[[str, str], list[str]], time: SimTime) -> None:
        self.answer = answer
        self.time = time
        self.framer = LineFramer()
        self.out = bytearray()
        self.cond = threading.Condition()
        self.closed = False

    @property
    def in_waiting(self) -> int:
        with self.cond:
            return len(self.out)

    def read(self, size: int) -> bytes:
        with self.cond:
            if not self.out:
                self.time.sleep(0.05)
            data = bytes(self.out[:size])
            del self.out[:size]
            return data

    def write(self, data: bytes) -> int:
        with self.cond:
            for body in self.framer.feed(data):
                assert isinstance(body, str)
                tag, _ = decode_command(body)
                for reply in self.answer(tag, body):
                    self.out += seal(reply)
            self.cond.notify_all()
        return len(data)

    def flush(self) -> None:
        pass

    def reset_input_buffer(self) -> None:
        with self.cond:
            self.out.clear()

    def close(self) -> None:
        with self.cond:
            self.closed = True
            self.cond.notify_all()


def scripted(
    answer: Callable[[str, str], list[str]],
    notices: list[Notice] | None = None,
    session_seed: int | None = None,
) -> Device:
    time = SimTime()
    return Device(
        "scripted://", timing=FAST, opener=lambda url: ScriptedPort(answer, time),
        on_notice=None if notices is None else notices.append, session_seed=session_seed,
        clock=time.clock, sleep=time.sleep,
    )


def test_version_mismatch_names_both_versions() -> None:
    device = scripted(lambda tag, body: [f"ERR {tag} VERSION 3"])
    with pytest.raises(VersionMismatchError) as caught:
        device.connect()
    assert "speaks protocol version 3 at most, this host speaks versions 1 and 2" in str(
        caught.value
    )
    assert caught.value.prop_version == 3


def test_refused_command_is_our_fault_and_wrong_reply_is_reported() -> None:
    pings = []

    def answer(tag: str, body: str) -> list[str]:
        if body.startswith("HELLO"):
            return [f"HI {tag} 2 0 fake-2 0"]
        if body.startswith("TOP"):
            return [f"ERR {tag} ARGS"]
        if body.startswith("PING"):
            pings.append(tag)
            # The first PING gets an OK (the wrong kind), then the right answer.
            return [f"OK {tag}"] if len(pings) == 1 else [f"OK {tag}", f"PONG {tag} 0 0 0"]
        return [f"OK {tag}"]

    notices: list[Notice] = []
    device = scripted(answer, notices, session_seed=5)
    device.connect()
    try:
        device.heartbeat()
        wrong = [n for n in notices if n.kind is NoticeKind.DEVICE_ERROR]
        assert wrong and "with 'OK" in wrong[0].message and "expected PONG" in wrong[0].message
        with pytest.raises(HostProtocolError) as ours:
            device.show(ShowTop(Card.RED_CIRCLE))
        assert "the prop refused 'TOP " in str(ours.value) and " RC' with 'ERR" in str(ours.value)
    finally:
        device.close()


def test_stale_replies_and_invalid_lines_are_dropped() -> None:
    notices: list[Notice] = []

    def answer(tag: str, body: str) -> list[str]:
        if body.startswith("HELLO") and body.split()[2] == "2":
            return [f"ERR {tag} VERSION 1"]
        if body.startswith("HELLO"):
            return ["OK 999", "WHAT is this", f"HI {tag} 1 0 fake-1"]
        return [f"OK {int(tag) - 1}", f"OK {tag}"]

    device = scripted(answer, notices)
    device.connect()
    device.show(ShowSolved(False))
    device.close()
    errors = [n for n in notices if n.kind is NoticeKind.DEVICE_ERROR]
    assert len(errors) == 1 and "'WHAT is this'" in errors[0].message


# ---------------------------------------------------------------------- transports


def test_socket_url_reaches_a_prop(tmp_path: Path) -> None:
    """socket:// works: a TCP server in front of a simulated prop."""
    with simulated_prop(faults=Faults(reset_on_open=False)) as sim:
        server = socket.create_server(("127.0.0.1", 0))
        port = server.getsockname()[1]
        stop = threading.Event()

        def serve() -> None:
            conn, _ = server.accept()
            with conn:
                while not stop.is_set():
                    ready, _, _ = select.select([conn], [], [], 0.02)
                    if ready:
                        data = conn.recv(4096)
                        if not data:
                            return
                        sim.receive(data)
                    out = sim.take_output()
                    if out:
                        conn.sendall(out)

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        device = Device(f"socket://127.0.0.1:{port}", timing=FAST)  # real time: a thread serves
        try:
            device.connect()
            device.show(ShowSerial("XY1ZW2"))
            assert sim.display.state.serial == "XY1ZW2"
        finally:
            device.close()
            stop.set()
            thread.join(2)
            server.close()


def test_loop_url_opens_with_protocol_settings() -> None:
    port = open_port("loop://")
    try:
        assert port.baudrate == 115200
        assert (port.bytesize, port.parity, port.stopbits) == (8, "N", 1)
    finally:
        port.close()


@pytest.fixture
def fake_ports(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[list[ListPortInfo]]:
    ports: list[ListPortInfo] = []
    for device, vid, pid, sn in (
        (str(tmp_path / "ttyACM0"), 0x2341, 0x0043, "8573531"),
        (str(tmp_path / "ttyUSB0"), 0x1A86, 0x7523, None),
        (str(tmp_path / "ttyS0"), None, None, None),
    ):
        Path(device).touch()
        info = ListPortInfo(device, skip_link_detection=True)
        info.vid, info.pid, info.serial_number = vid, pid, sn
        info.description = "fake"
        ports.append(info)
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: list(ports))
    yield ports


def test_identity_follows_symlinks_and_finds_the_board_again(
    fake_ports: list[ListPortInfo], tmp_path: Path
) -> None:
    by_id = tmp_path / "usb-Arduino_Uno_8573531-if00"
    os.symlink(fake_ports[0].device, by_id)
    ports = system_ports()
    identity = identity_of(str(by_id), ports)
    assert identity == UsbIdentity(0x2341, 0x0043, "8573531")
    assert str(identity) == "USB 2341:0043 serial 8573531"
    # The board comes back as another device name.
    moved = [PortInfo(str(tmp_path / "ttyACM1"), vid=0x2341, pid=0x0043, serial_number="8573531")]
    assert find_ports(identity, moved) == [str(tmp_path / "ttyACM1")]
    other = [PortInfo("/dev/ttyACM2", vid=0x2341, pid=0x0043, serial_number="1111")]
    assert find_ports(identity, other) == []


def test_discovery_prefers_known_boards(fake_ports: list[ListPortInfo]) -> None:
    ports = system_ports()
    found = [p.device for p in candidate_ports(ports)]
    assert found == [fake_ports[0].device, fake_ports[1].device]
    with pytest.raises(LinkError) as several:
        discover(ports)
    assert "several ports could be the prop" in str(several.value)
    assert isinstance(several.value, PortNotFoundError)
    assert several.value.candidates == (fake_ports[0].device, fake_ports[1].device)
    assert "--port" not in str(several.value)  # the command words the advice
    arduino = [p for p in ports if p.vid == 0x2341]
    assert discover(arduino) == fake_ports[0].device
    with pytest.raises(LinkError) as none:
        discover([p for p in ports if p.vid is None])
    assert "no USB serial port found" in str(none.value)


def test_serial_package_knows_the_propsim_scheme() -> None:
    name = unique_name()
    port = serial.serial_for_url(f"propsim://{name}?reset_on_open=0", timeout=0.1)
    try:
        port.write(seal("PING 4"))
        assert port.read(100).endswith(seal("PONG 4 0 0 0"))
        assert registry.lookup(name) is not None
    finally:
        port.close()
        unplug_sim(name)
    # A URL that cannot be read is bad input (a ValueError, as pyserial's own are).
    with pytest.raises(PortURLError) as caught:
        serial.serial_for_url("propsim://?nonsense=1")
    assert "'nonsense' is not known" in str(caught.value)
