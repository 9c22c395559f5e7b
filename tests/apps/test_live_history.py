"""The live session's history for two front ends: what kind each line is, undo and redo,
a session resumed from a module's lines (the web board's way in), and a bug that
propagates instead of becoming an error reply."""

from __future__ import annotations

import pytest

from defuser.apps.live_session import LineKind, LiveSession, line_kind
from defuser.strategy.belief import Observation
from edgework import Batteries, SerialNumber
from edgework.errors import MisuseError

SERIAL, BATTERIES = SerialNumber.parse("AB3CD4"), Batteries(3)
START = "start YC YT GT GC"


def session() -> LiveSession:
    return LiveSession(SERIAL, BATTERIES)


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("", LineKind.EMPTY), ("quit", LineKind.QUIT), ("EXIT", LineKind.QUIT),
        ("q", LineKind.QUIT), ("help", LineKind.HELP), ("?", LineKind.HELP),
        ("state", LineKind.STATE), ("undo", LineKind.UNDO), ("redo", LineKind.REDO),
        ("twitch 7", LineKind.TWITCH), ("serial AB3CD4", LineKind.SERIAL),
        ("batteries 3", LineKind.BATTERIES), ("edgework 3B // AB3CD4", LineKind.EDGEWORK),
        (START, LineKind.START), ("p2", LineKind.EVENT), ("d RC", LineKind.EVENT),
        ("strike draw", LineKind.EVENT), ("solved", LineKind.EVENT), ("!7 dr GS", LineKind.EVENT),
        ("wibble", LineKind.UNKNOWN),
    ],
)
def test_every_line_has_one_kind_and_its_reply_names_it(line: str, kind: LineKind) -> None:
    assert line_kind(line) is kind
    live = session()
    live.handle(START)
    assert live.handle(line).kind is kind
    assert kind.asks is (kind in {LineKind.QUIT, LineKind.HELP, LineKind.STATE})


def test_redo_brings_back_what_undo_took_back_and_a_new_change_forgets_it() -> None:
    live = session()
    for line in (START, "p3", "d BT", "batteries 4"):
        assert live.handle(line).ok, line
    done = live.state()
    undone = [live.handle("undo").note for _ in range(3)]
    assert undone[0].startswith("undid 'batteries 4'") and undone[2].startswith("undid 'played 3'")
    assert live.redoable == ["batteries 4", "d BT", "p3"]
    assert live.handle("state").ok and live.redoable == ["batteries 4", "d BT", "p3"]
    assert live.handle("redo").note.startswith("redid 'p3'; now discard GC")
    assert live.handle("redo").ok and live.handle("redo").ok
    assert live.state() == done and live.history == [START, "p3", "d BT", "batteries 4"]
    assert live.handle("redo").error == "there is nothing to redo"
    assert live.handle("redo x").error == "redo 'x': redo takes nothing after it"
    live.handle("undo")
    assert live.handle("d RS").ok and live.redoable == []


def test_a_chat_command_redone_names_the_module_again() -> None:
    live = session()
    live.handle(START)
    assert live.handle("!7 p3").ok and live.twitch == "7"
    live.handle("undo")
    assert live.twitch is None
    assert live.handle("redo").ok and live.twitch == "7"


def test_a_resumed_session_can_undo_each_line_and_holds_the_ones_that_no_longer_fit() -> None:
    """On Table D (serial XZ3CD4) the reported discard no longer fits: it and the line
    after it are held; no report is taken until undo takes them back."""
    lines = [START, "played 3", "discarded BT", "discarded RH"]
    fits = LiveSession.resume(SERIAL, BATTERIES, lines, ["played 1"])
    assert fits.history == lines and fits.held == [] and fits.redoable == ["played 1"]
    assert fits.handle("undo").ok and fits.history == lines[:3]
    assert fits.redoable == ["played 1", "discarded RH"]
    held = LiveSession.resume(SerialNumber.parse("XZ3CD4"), BATTERIES, lines)
    assert held.history == lines[:2] and held.held == lines[2:] and held.held_at == 2
    assert held.held_reason is not None and "BT" in held.held_reason
    assert held.handle("d RS").error == (
        "line 3 no longer fits; undo back to it or correct the edgework first"
    )
    assert held.handle("state").ok
    assert held.handle("undo").note == "undid 'discarded RH', which was not applied"
    assert held.handle("redo").ok and held.held == lines[2:] and held.redoable == []
    held.handle("undo")
    held.handle("undo")
    assert held.held == [] and held.held_reason is None and held.handle("p1").ok


def test_a_redone_line_that_no_longer_fits_is_held_with_its_reason() -> None:
    lines = [START, "played 3"]
    resumed = LiveSession.resume(SerialNumber.parse("XZ3CD4"), BATTERIES, lines, ["discarded BT"])
    reply = resumed.handle("redo")
    assert reply.ok and reply.note.startswith("redid 'discarded BT', held: ")
    assert resumed.held == ["discarded BT"] and resumed.held_at == 2
    assert resumed.history == lines


def test_a_bug_inside_the_session_propagates_instead_of_an_error_reply(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only the session's own bad input is an error reply: a misuse (or any other
    exception) inside it is a bug for the front end's error boundary, and it was once
    turned into the reply 'internal error: MisuseError: ...'."""
    live = session()
    live.handle(START)

    def broken(self: Observation, event: object) -> Observation:
        raise MisuseError("a click after the module was solved")

    monkeypatch.setattr(Observation, "apply", broken)
    with pytest.raises(MisuseError, match="after the module was solved"):
        live.handle("p3")
    monkeypatch.undo()
    assert live.handle("p3").ok
