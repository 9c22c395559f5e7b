"""``mittens prop``: whole games on the simulated prop (in-process URL and a real pty),
connection trouble in words, port listing; and the pty twin surviving an unplug."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest
import serial.tools.list_ports
from cli_helpers import run_cli
from prop_helpers import FAST, unique_name, unplug_sim
from serial.tools.list_ports_common import ListPortInfo

from defuser.commands.prop import PropView
from defuser.engine.generate import build_edgework
from defuser.engine.simulator import Module
from defuser.terminal.app import Application
from edgework import Card, Edgework
from hardware.bridge import button_for, edge_commands, winning_actions
from hardware.device import Device
from hardware.errors import Setting, UnshowableEdgeError
from hardware.propsim import __main__ as propsim_main
from hardware.propsim import registry
from hardware.propsim.pty import PtyTwin
from hardware.propsim.script import parse_script, script_text
from hardware.propsim.twin import Faults
from hardware.protocol import Button, Cue, GameState, ShowHand, ShowTop
from hardware.session import Notice, NoticeKind

ROOT = Path(__file__).resolve().parents[2]
EDGE = "3B 2H // AB3CD4"


def winning_script(edgework: str, seed: int) -> str:
    module = Module.from_edgework(Edgework.parse(edgework), seed)
    return script_text(button_for(a) for a in winning_actions(module))


def events(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


@pytest.fixture(autouse=True)
def no_real_ports(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [])


def test_demo_plays_a_whole_game_as_json(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    log = tmp_path / "game.log"
    trace = tmp_path / "trace.txt"
    run = run_cli(
        ["prop", "--demo", "--seed", "7", "--edgework", EDGE, "--json",
         "--log", str(log), "--trace", str(trace)],
        monkeypatch,
    )
    assert run.code == 0, run.err
    stream = events(run.out)
    assert stream[0]["event"] == "link" and stream[0]["kind"] == "connected"
    start = stream[1]
    assert start["event"] == "start" and start["serial"] == "AB3CD4" and start["seed"] == 7
    assert start["prop"] == {
        "serial": "AB3CD4", "batteries": 3, "holders": 2, "top": "GH",
        "hand": ["GC", "RT", "RS"], "strikes": 0, "solved": False,
        "aa_holders": 1, "d_holders": 1, "indicators": [], "plates": [],
        "strike_limit": 3, "timer_ms": None, "timer_rate": 0, "game": "PLAYING",
    }
    presses = [e for e in stream if e["event"] == "press"]
    assert [p["seq"] for p in presses] == list(range(1, len(presses) + 1))
    end = stream[-1]
    assert end["event"] == "end" and end["reason"] == "solved" and end["strikes"] == 0
    assert presses[-1]["outcome"] == "solved"
    assert {"GAME", "SOLVED"} <= set(presses[-1]["sent"])  # type: ignore[call-overload]
    # The log file holds the module's own log, the same lines the presses reported.
    module = Module.from_edgework(Edgework.parse(EDGE), 7)
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines[: len(module.log)] == module.log
    reported = [line for p in presses for line in p["log"]]  # type: ignore[attr-defined]
    assert lines[len(module.log) :] == reported
    assert trace.read_text(encoding="ascii").startswith("> HELLO 0 2 ")
    # The prop was told how the game ended before the port closed.
    assert "> SOLVED " in trace.read_text(encoding="ascii").split("< BTN")[-1]


def test_full_game_through_a_propsim_url_with_a_script(monkeypatch: pytest.MonkeyPatch) -> None:
    name = unique_name("cli")
    script = "PILE," + winning_script(EDGE, 7)  # a strike first: discarding is blocked
    try:
        run = run_cli(
            ["prop", "--port", f"propsim://{name}?script={script}&corrupt=0.05&seed=3",
             "--edgework", EDGE, "--seed", "7", "--timeout", "0.2"],
            monkeypatch,
        )
    finally:
        unplug_sim(name)
    assert run.code == 0, run.err
    out = run.out
    assert "Exploding Mittens on the prop · seed 7 (replay with --seed 7)" in out
    assert f"Port:    propsim://{name} (USB 1209:0001 serial PROPSIM-" in out
    assert "Edge:    serial AB3CD4 · 3 batteries in 2 holders (1 AA, 1 D)" in out
    assert "Prop:    pile GH ♥ green heart | hand 1: GC ●  2: RT ▲  3: RS ■ | strikes 0" in out
    assert "#1 PILE -> discard: STRIKE 1 (discard-blocked)." in out
    assert "| strikes 1 of 3 | SOLVED" in out
    assert "Module solved!" in out
    assert "prop: connected to the prop on propsim://" in run.err


def test_a_script_that_runs_out_ends_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    name = unique_name("short")
    try:
        run = run_cli(
            ["prop", "--port", f"propsim://{name}?script=drop,DECK,reset,PILE",
             "--edgework", EDGE, "--seed", "7", "--strikes", "0", "--json"],
            monkeypatch,
        )
    finally:
        unplug_sim(name)
    assert run.code == 0, run.err
    stream = events(run.out)
    assert [e["button"] for e in stream if e["event"] == "press"] == ["DECK", "PILE"]
    kinds = [e["kind"] for e in stream if e["event"] == "link"]
    assert "restarted" in kinds
    assert stream[-1]["event"] == "end" and stream[-1]["reason"] == "script-ended"


def test_a_prop_that_never_answers_is_reported_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    name = unique_name("mute")
    try:
        run = run_cli(
            ["prop", "--port", f"propsim://{name}?mute=1", "--handshake-timeout", "0.3",
             "--serial", "AB3CD4", "--seed", "1"],
            monkeypatch,
        )
    finally:
        unplug_sim(name)
    assert run.code == 1
    assert run.err.strip().startswith(f"mittens prop: error: no answer from a prop on 'propsim://{name}'")
    assert "Traceback" not in run.err


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--port", "/dev/no-such-prop"], 1, "cannot open port '/dev/no-such-prop'"),
        # Bad input, once a fault (exit 1).
        (["--port", "propsim://?nonsense=1"], 2, "propsim option 'nonsense' is not known"),
        (["--port", " "], 2, "port is empty"),
        (["--demo", "--port", "loop://"], 2, "give --port or --demo, not both"),
        ([], 1, "no USB serial port found"),
        (["--serial", "AB3CD"], 2, "has 5 characters"),
        # It once started the bomb at 99:59.999 without a word.
        (["--demo", "--time", "7200"], 2, "timer shows at most 99:59.999: give 5999.999 s"),
    ],
)
def test_bad_input_and_missing_ports(
    monkeypatch: pytest.MonkeyPatch, args: list[str], code: int, message: str
) -> None:
    run = run_cli(["prop", *args], monkeypatch)
    assert run.code == code
    assert message in run.err
    assert len(run.err.strip().splitlines()) == 1


def fake_port(device: str, vid: int | None, pid: int | None, sn: str | None) -> ListPortInfo:
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid, info.serial_number = vid, pid, sn
    info.description = "USB serial" if vid else "n/a"
    return info


def test_list_ports(monkeypatch: pytest.MonkeyPatch) -> None:
    ports = [
        fake_port("/dev/ttyACM0", 0x2341, 0x0043, "8573531"),
        fake_port("/dev/ttyS0", None, None, None),
    ]
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: ports)
    run = run_cli(["prop", "--list"], monkeypatch)
    assert run.code == 0
    assert run.out.splitlines() == [
        "* /dev/ttyACM0  [Arduino]  USB 2341:0043 serial 8573531  USB serial",
        "  /dev/ttyS0  n/a",
        "* = USB serial port that could be the prop",
    ]
    run = run_cli(["prop", "--list", "--json"], monkeypatch)
    listed = json.loads(run.out)["ports"]
    assert [(p["device"], p["candidate"], p["vid"]) for p in listed] == [
        ("/dev/ttyACM0", True, "2341"),
        ("/dev/ttyS0", False, None),
    ]


def test_no_ports_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["prop", "--list"], monkeypatch)
    assert run.code == 0 and "No serial ports found" in run.out


# ---------------------------------------------------------------------- real ptys


def test_full_game_over_a_real_pty(tmp_path: Path) -> None:
    """The twin as a separate process on a pty; mittens prop as another process."""
    seed = 21
    edge = build_edgework(Edgework.parse(EDGE), seed)
    script = winning_script(str(edge), seed)
    twin = subprocess.Popen(
        [sys.executable, "-m", "hardware.propsim", "--pty", "--no-stdin", "--script", script],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        assert twin.stdout is not None
        path = twin.stdout.readline().strip()
        assert path.startswith("/dev/")
        done = subprocess.run(
            [sys.executable, "-m", "defuser", "prop", "--port", path, "--edgework", EDGE,
             "--seed", str(seed), "--json"],
            cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
            env={**os.environ, "NO_COLOR": "1"},
        )
    finally:
        twin.terminate()
        twin.wait(10)
    assert done.returncode == 0, done.stderr
    stream = events(done.stdout)
    start = next(e for e in stream if e["event"] == "start")
    assert start["port"] == path
    assert stream[-1]["event"] == "end" and stream[-1]["reason"] == "solved"


class PtyPump:
    """Serves a :class:`~hardware.propsim.pty.PtyTwin` from a thread; unplug and plug it."""

    def __init__(self, twin: PtyTwin) -> None:
        self.twin = twin
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        while not self.stop.is_set():
            with self.lock:
                master = self.twin.master
            if master < 0:
                self.stop.wait(0.01)
                continue
            ready, _, _ = select.select([master], [], [], 0.01)
            with self.lock:
                if self.twin.master != master:
                    continue
                data = b""
                if ready:
                    try:
                        data = os.read(master, 4096)
                    except OSError:
                        data = b""
                self.twin.pump(data)

    def unplug(self) -> None:
        with self.lock:
            self.twin.unplug()

    def plug(self) -> str:
        with self.lock:
            return self.twin.plug()


@pytest.fixture
def pump(tmp_path: Path) -> Iterator[PtyPump]:
    sim = registry.create(unique_name("pty"), faults=Faults(reset_on_open=False))
    pump = PtyPump(PtyTwin(sim, str(tmp_path / "prop-tty")))
    pump.plug()
    pump.thread.start()
    yield pump
    pump.stop.set()
    pump.thread.join(2)
    pump.unplug()
    unplug_sim(sim.name)


def test_pty_unplugged_and_back_on_another_pty(pump: PtyPump) -> None:
    link = pump.twin.link
    assert link is not None
    first = os.path.realpath(link)
    notices: list[Notice] = []
    came_back: list[str] = []
    squatters: list[int] = []

    def on_notice(notice: Notice) -> None:
        notices.append(notice)
        if notice.kind is NoticeKind.WAITING:
            # Something else takes the freed pty number, so the prop comes back elsewhere.
            squatters.extend(os.openpty())
            came_back.append(pump.plug())

    device = Device(link, timing=FAST, on_notice=on_notice)
    device.connect()
    try:
        device.show(ShowTop(Card.BLUE_SQUARE))
        pump.unplug()
        device.show(ShowHand.of([Card.YELLOW_HEART]))
        sim = pump.twin.sim
        shown = sim.display.state
        assert shown.top is Card.BLUE_SQUARE and shown.hand[0] is Card.YELLOW_HEART
        assert came_back and os.path.realpath(link) == came_back[0] != first
        sim.press(Button.HAND1)
        press = device.next_press(5.0)
        assert press is not None and press.button is Button.HAND1
    finally:
        device.close()
        for fd in squatters:
            os.close(fd)
    # (The pty may also deliver start-up noise, counted as bad lines.)
    assert [n.kind for n in notices if n.kind is not NoticeKind.BAD_LINE] == [
        NoticeKind.CONNECTED, NoticeKind.LOST, NoticeKind.WAITING, NoticeKind.RECONNECTED
    ]


def test_hardware_loads_neither_click_nor_rich() -> None:
    code = (
        "import hardware.device, hardware.bridge, hardware.propsim, hardware.protocol_propsim\n"
        "import sys; print(sorted({'click', 'rich'} & set(sys.modules)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"


def test_the_bomb_timer_reaches_the_prop_and_can_run_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """--time: the prop gets the timer, faster after a strike (1.25x), then the time-out
    with the explosion sound; the game ends as 'timeout'. The prop plays a script, so
    the game runs on emulated time: the timer starts at exactly its 1 s; after the
    strike the script's DECK press is garbled, and the 0.8 s left run out before the
    heartbeat (1 s) would find it."""
    sim = registry.create(unique_name("timer"), script=parse_script("PILE,corrupt,DECK"))
    try:
        run = run_cli(
            ["prop", "--port", registry.url_of(sim), "--edgework", EDGE, "--seed", "7",
             "--time", "1", "--json"],
            monkeypatch,
        )
    finally:
        unplug_sim(sim.name)
    assert run.code == 0, run.err
    stream = [json.loads(line) for line in run.out.splitlines()]
    start = next(e for e in stream if e["event"] == "start")
    assert start["prop"]["timer_rate"] == 1000 and start["prop"]["timer_ms"] == 1000
    press = next(e for e in stream if e["event"] == "press")
    assert press["outcome"] == "strike" and press["prop"]["timer_rate"] == 1250
    assert stream[-1]["event"] == "end" and stream[-1]["reason"] == "timeout"
    assert sim.display.state.game is GameState.TIMEOUT
    assert sim.display.sounds == [Cue.STRIKE, Cue.BOOM]
    assert sim.display.state.timer is not None and sim.display.state.timer[1] == 0


def test_no_port_found_is_worded_with_the_options(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [])
    run = run_cli(["prop", "--seed", "1"], monkeypatch)
    assert run.code == 1
    assert "no USB serial port found: plug the prop in, or give --port" in run.err


def test_an_edge_the_protocol_cannot_carry_is_bad_input(monkeypatch: pytest.MonkeyPatch) -> None:
    """Said by the bridge as bad input (it was a fault the command re-worded as click's
    ``Invalid value:``)."""
    plate = "[" + ", ".join(["Serial"] * 9) + "]"
    run = run_cli(["prop", "--demo", "--edgework", f"3B 2H // {plate} // AB3CD4"], monkeypatch)
    assert run.code == 2
    assert run.err == ("mittens prop: error: the prop cannot show this edge: port plate 1 "
                       "has 9 ports, expected at most 8\n")
    with pytest.raises(UnshowableEdgeError):
        edge_commands(Edgework.parse(f"3B 2H // {plate} // AB3CD4"))


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--port", "propsim://{name}?script=bogus"],
         "script step 'bogus' is not known, expected a button (DECK, PILE, HAND1-HAND3, 1-3) "
         "or a fault (corrupt, drop, garbage, reset)"),
        (["--port", "propsim://{name}?corrupt=5"],
         "cannot open port 'propsim://{name}?corrupt=5': propsim option corrupt='5' is not a "
         "chance between 0 and 1"),
        (["--port", "propsim://{name}?version=7"],
         "cannot open port 'propsim://{name}?version=7': protocol version 7 is not known, "
         "expected one of 1, 2"),
        (["--port", "foo://{name}"],
         "cannot open port 'foo://{name}': invalid URL, protocol 'foo' not known"),
        (["check", "propsim://{name}?bogus=1"],
         "cannot open port 'propsim://{name}?bogus=1': propsim option 'bogus' is not known, "
         "expected one of boot_delay, corrupt, drop, mute, reset_on_open, script, seed, "
         "usb_serial, version"),
    ],
)
def test_a_port_url_that_cannot_be_read_is_bad_input(
    args: list[str], error: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bad ``propsim://`` option or script word, or a URL pyserial cannot read, is bad
    input: one line, exit 2 (it was a fault, exit 1), as ``python -m hardware.propsim``
    says it too."""
    name = unique_name("bad")
    command = "mittens prop check" if args[0] == "check" else "mittens prop"
    run = run_cli(["prop", *(arg.format(name=name) for arg in args)], monkeypatch)
    assert (run.code, run.err) == (2, f"{command}: error: {error.format(name=name)}\n")
    assert registry.lookup(name) is None


def test_the_simulated_props_own_command_line_says_a_bad_script_the_same_way(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert propsim_main.main(["--pty", "--script", "bogus", "--no-stdin"]) == 2
    assert capsys.readouterr().err.startswith("propsim: error: script step 'bogus' is not known")


def test_b6_a_link_lost_for_good_still_reports_the_press_and_the_summary(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sim = registry.create(unique_name("b6"))

    def press_then_pull_the_cable() -> None:
        for _ in range(1000):
            if sim.display.shown and sim.session:
                break
            threading.Event().wait(0.005)
        threading.Event().wait(0.2)
        sim.press(Button.PILE)
        for _ in range(1000):
            if sim.presses and sim.display.state.strikes:
                break
            threading.Event().wait(0.002)
        sim.unplug()

    actor = threading.Thread(target=press_then_pull_the_cable, daemon=True)
    actor.start()
    try:
        run = run_cli(
            ["prop", "--port", registry.url_of(sim), "--edgework", EDGE, "--seed", "7",
             "--reconnect-timeout", "0.5"],
            monkeypatch,
        )
    finally:
        unplug_sim(sim.name)
    assert run.code == 1
    assert "#1 PILE -> discard: STRIKE 1" in run.out
    assert "Game stopped." in run.out
    assert "1 press, 1 strike, 0 lost" in run.out and "0 reconnection(s)" in run.out
    assert "did not come back within 0.5 s" in run.err
    assert "--reconnect-timeout" in run.err.splitlines()[-1]


def test_a_version_1_prop_plays_a_whole_game(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    name = unique_name("v1")
    script = winning_script(EDGE, 7)
    trace = tmp_path / "trace.txt"
    try:
        run = run_cli(
            ["prop", "--port", f"propsim://{name}?version=1&script={script}", "--edgework",
             "3B 2H // *FRK // [Serial] // AB3CD4", "--seed", "7", "--time", "600",
             "--trace", str(trace)],
            monkeypatch,
        )
        lines = trace.read_text(encoding="ascii").splitlines()
    finally:
        unplug_sim(name)
    assert run.code == 0, run.err
    assert "Module solved!" in run.out
    assert lines[:3] == [lines[0], "< ERR 0 VERSION 1", lines[2]]
    assert lines[0].startswith("> HELLO 0 2 ") and lines[2].startswith("> HELLO 1 1 ")
    # Only version-1 commands went to the version-1 prop.
    sent = {line.split()[1] for line in lines if line.startswith(">")}
    version_1 = {"HELLO", "PING", "RESEND", "ACK", "SERIAL", "BATT", "TOP", "HAND", "STRIKES",
                 "SOLVED"}
    assert {"HELLO", "SERIAL", "BATT", "HAND", "SOLVED", "ACK"} <= sent <= version_1
    # The Prop: lines show what it was sent: no holders, indicators, plates, limit, timer.
    prop_lines = [line for line in run.out.splitlines() if line.startswith("Prop:")]
    assert prop_lines[0] == "Prop:    serial AB3CD4 | 3B 2H"
    assert all(" of " not in line and "timer" not in line for line in prop_lines)


def test_a_json_slow_notice_carries_the_hint(capsys: pytest.CaptureFixture[str]) -> None:
    # In words the slow notice named --timeout; as JSON it did not.
    view = PropView(
        Application.current(json_mode=True), colour=False, json_mode=True, log_file=None,
        trace_file=None,
    )
    view.notice(Notice(NoticeKind.SLOW, "the prop answered TOP after 0.71 s; the reply "
                       "timeout is 0.5 s", setting=Setting.REPLY_TIMEOUT))
    assert json.loads(capsys.readouterr().out) == {
        "event": "link",
        "kind": "slow",
        "message": "the prop answered TOP after 0.71 s; the reply timeout is 0.5 s (a slow "
        "prop works better with a longer --timeout)",
    }


def test_a_scripted_simulated_prop_plays_on_emulated_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A propsim:// prop with a script presses only what the script says, so the game
    runs on emulated time: the bomb timer starts at exactly its 600 s, and the press the
    prop garbled is found by the 1 s heartbeat exactly 1 s later (on the wall clock both
    were a few milliseconds off and the heartbeat took a real second)."""
    name = unique_name("emulated")
    try:
        run = run_cli(
            ["prop", "--port", f"propsim://{name}?script=corrupt,PILE", "--edgework", EDGE,
             "--seed", "7", "--time", "600", "--json"],
            monkeypatch,
        )
    finally:
        unplug_sim(name)
    assert run.code == 0, run.err
    stream = events(run.out)
    assert [e["kind"] for e in stream if e["event"] == "link"] == ["connected", "bad-line"]
    start = next(e for e in stream if e["event"] == "start")
    press = next(e for e in stream if e["event"] == "press")
    timers = [cast(dict[str, object], e["prop"])["timer_ms"] for e in (start, press)]
    assert timers == [600_000, 599_000]
    assert press["outcome"] == "strike"
    assert stream[-1]["event"] == "end" and stream[-1]["reason"] == "script-ended"
