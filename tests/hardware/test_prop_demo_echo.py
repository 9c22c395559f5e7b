"""What a person watching sees: ``mittens prop --demo`` presses at a visible pace on a
terminal (on a sleep the test injects into the game), and ``python -m hardware.propsim
--pty`` echoes each typed press and the display after every change."""

from __future__ import annotations

import re
from typing import Any

import pytest
import serial.tools.list_ports
from cli_helpers import Run, run_cli
from prop_helpers import make_device, simulated_prop

from defuser.commands import prop
from defuser.terminal.app import Application
from edgework import Card
from hardware.propsim import registry
from hardware.propsim.pty import PtyTwin, typed
from hardware.protocol import Cue, ShowHand, ShowTop

EDGE = "3B 2H // AB3CD4"


@pytest.fixture(autouse=True)
def no_real_ports(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [])


def _demo(pace: float, monkeypatch: pytest.MonkeyPatch) -> tuple[Run, list[float]]:
    """``mittens prop --demo --pace PACE`` as the command plays it, on an injected sleep:
    what it printed and every wait."""
    waits: list[float] = []
    play = prop.play_on_port

    def on_injected_sleep(*args: Any, **kwargs: Any) -> None:
        play(*args, **kwargs, sleep=waits.append)

    monkeypatch.setattr(prop, "play_on_port", on_injected_sleep)
    args = ["prop", "--demo", "--seed", "3", "--edgework", EDGE]
    run = run_cli([*args, "--pace", str(pace)] if pace else args, monkeypatch)
    return run, waits


def test_the_demo_waits_between_its_presses(monkeypatch: pytest.MonkeyPatch) -> None:
    run, waits = _demo(0.4, monkeypatch)
    assert run.code == 0, run.err
    presses = len(re.findall(r"^#\d+ ", run.out, re.M))
    assert presses >= 2 and "Module solved!" in run.out
    assert waits == [0.4] * (presses - 1)  # after each press but the last, which ends it


def test_the_demo_is_paced_only_for_a_person(monkeypatch: pytest.MonkeyPatch) -> None:
    run, waits = _demo(0, monkeypatch)
    assert run.code == 0 and waits == []  # piped: no pace
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    app = Application()
    assert prop.demo_pace(True, None, None, app) == prop.DEMO_PACE
    assert prop.demo_pace(False, None, None, app) == 0.0
    app.json_mode = True
    assert prop.demo_pace(True, None, None, app) == 0.0
    assert prop.demo_pace(True, None, 0.2, app) == 0.2


def test_pace_needs_the_demo(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["prop", "--pace", "1", "--port", "loop://"], monkeypatch)
    assert run.code == 2 and "--pace works with --demo" in run.err


def test_the_pty_prop_echoes_presses_and_every_display_change(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with simulated_prop() as sim:
        twin = PtyTwin(sim)
        assert twin.news() == []
        device = make_device(registry.url_of(sim))
        device.connect()
        try:
            twin.news()  # what the handshake showed
            device.show(ShowTop(Card.BLUE_SQUARE))
            device.show(ShowHand.of([Card.YELLOW_HEART]))
            news = twin.news()
            assert len(news) == 1 and news[0].startswith("display: hand YH -- -- | pile BS")
            assert twin.news() == []  # nothing new, nothing echoed
            typed(twin, "2")
            assert "pressed HAND2 (event 1)" in capsys.readouterr().err
            device.sound(Cue.STRIKE)
            device.sync()
            assert twin.news() == ["sound STRIKE"]
        finally:
            device.close()
