"""``mittens prop check``: the conformance checker against good and broken props."""

from __future__ import annotations

import json

import pytest
from cli_helpers import run_cli
from prop_helpers import unique_name, unplug_sim

from hardware.propsim import registry
from hardware.propsim.twin import PropSim
from hardware.protocol import SEQ_MODULUS, ButtonPressed, Command, Hello, Resend


class BrokenProp(PropSim):
    """A prop with two mistakes a builder could make from the doc.

    It answers ``RESEND`` from a number newer than its newest with every stored event
    (the C range test without the newer-than check: as if asked from the oldest event
    it can store), and it counts empty lines as bad.
    """

    def receive(self, data: bytes) -> None:
        self.bad_lines += data.count(b"\n\n")
        super().receive(data)

    def answer(self, tag: int, command: Command) -> str:
        if isinstance(command, Resend):
            oldest = (self.seq - self.event_store + 1) % SEQ_MODULUS
            return super().answer(tag, Resend(oldest))
        return super().answer(tag, command)


@pytest.mark.parametrize("version", [1, 2])
def test_the_simulated_prop_passes_every_requirement(
    version: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = unique_name("check")
    try:
        run = run_cli(["prop", "check", f"propsim://{name}?version={version}", "--json"],
                      monkeypatch)
    finally:
        unplug_sim(name)
    assert run.code == 0, run.out + run.err
    report = json.loads(run.out)
    assert report["passed"] is True
    names = {r["name"] for r in report["results"]}
    assert {r["status"] for r in report["results"]} == {"pass"}
    # Every part of the doc is covered: grammar, handshake, messages, events, a reset.
    for expected in ("bad-crc", "bad-empty-body", "err-double-space", "hello-1", "hello-2",
                     "v1 HAND", "resend", "resend-newer", "btn-numbering", "event-store",
                     "reset", "btn-without-session", "reply-deadline"):
        assert expected in names
    assert ("v2 TIMER" in names) == (version == 2)
    for v2_only in ("resend-session", "resend-form", "v2 IND index 0", "v2 PLATE index 0",
                    "v2 TIMER none", "v2 TIMER args"):
        assert (v2_only in names) == (version == 2)
    assert "v1 TIMER unknown" in names  # a version-2 command in a version-1 session


def test_a_broken_prop_fails_with_the_lines_that_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    sim = registry.add(BrokenProp(unique_name("broken")))
    try:
        run = run_cli(["prop", "check", registry.url_of(sim)], monkeypatch)
    finally:
        unplug_sim(sim.name)
    assert run.code == 1
    failed = [line for line in run.out.splitlines() if line.startswith("FAIL")]
    assert len(failed) == 2, run.out
    assert "empty-lines" in failed[0] and "resend-newer" in failed[1]
    assert "expected only OK" in run.out and "'RESEND " in run.out
    assert "bad-line count" in run.out
    total = sum(line[:4] in ("PASS", "FAIL") for line in run.out.splitlines())
    assert f"{total - 2} of {total} requirements passed on propsim://" in run.out


def test_without_presses_the_checks_that_need_them_are_skipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    name = unique_name("check")
    try:
        run = run_cli(["prop", "check", f"propsim://{name}", "--no-presses", "--json"],
                      monkeypatch)
    finally:
        unplug_sim(name)
    assert run.code == 1
    report = json.loads(run.out)
    skipped = {r["name"] for r in report["results"] if r["status"] == "skip"}
    assert {"btn-numbering", "resend", "reset"} <= skipped
    assert report["passed"] is False


def test_a_silent_port_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    name = unique_name("mute")
    try:
        run = run_cli(["prop", "check", f"propsim://{name}?mute=1"], monkeypatch)
    finally:
        unplug_sim(name)
    assert run.code == 1
    assert "no answer to PING" in run.err and "Traceback" not in run.err


class ResendsInTheSessionInUse(PropSim):
    """Re-sends each event with the session in use instead of the one it was pressed in."""

    def event_line(self, event: ButtonPressed, session: int) -> str:
        return super().event_line(event, self.session)


class ResendsAsFirstSent(PropSim):
    """Re-sends each event in the version-2 form it was first sent in, also while a
    version-1 session is in use."""

    def event_line(self, event: ButtonPressed, session: int) -> str:
        if self.version_in_use() == 1 and session:
            return ButtonPressed(event.seq, event.button, session).encode()
        return super().event_line(event, session)


class RefusesNoTimer(PropSim):
    """Refuses 'TIMER - 0' as it refuses 'TIMER - 1000' (no '-' at all)."""

    def handle_line(self, body: str) -> None:
        words = body.split()
        if words[:1] == ["TIMER"] and len(words) == 4 and words[2] == "-":
            self.emit(f"ERR {words[1]} ARGS")
            return
        super().handle_line(body)


class WrongPrior(PropSim):
    """Answers every version-2 HELLO with <prior> 0."""

    def answer(self, tag: int, command: Command) -> str:
        answer = super().answer(tag, command)
        if isinstance(command, Hello) and command.version == 2 and answer.startswith("HI "):
            return answer.rsplit(" ", 1)[0] + " 0"
        return answer


class TakesIndex0(PropSim):
    """Answers OK to IND and PLATE with index 0 (the doc's range is 1-99)."""

    def handle_line(self, body: str) -> None:
        words = body.split()
        if words[:1] in (["IND"], ["PLATE"]) and len(words) in (4, 5) and words[2] == "0":
            self.emit(f"OK {words[1]}")
            return
        super().handle_line(body)


@pytest.mark.parametrize(
    ("prop", "failing", "said"),
    [
        (ResendsInTheSessionInUse, ["resend-session"], "the session each was pressed in"),
        (ResendsAsFirstSent, ["resend-form"], "the form of the session in use"),
        (RefusesNoTimer, ["v2 TIMER none"], "'TIMER "),
        (WrongPrior, ["hello-2"], "<prior> is 0, expected the session before"),
        (TakesIndex0, ["v2 IND index 0", "v2 PLATE index 0"], "'IND "),
    ],
)
def test_each_mistake_is_one_failure(
    prop: type[PropSim], failing: list[str], said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A wrong <prior> once set off four follow-on failures; the session of re-sent events
    # and index 0 were not checked at all.
    sim = registry.add(prop(unique_name("broken")))
    try:
        run = run_cli(["prop", "check", registry.url_of(sim), "--json"], monkeypatch)
    finally:
        unplug_sim(sim.name)
    assert run.code == 1
    report = json.loads(run.out)
    failed = [r for r in report["results"] if r["status"] == "fail"]
    assert [r["name"] for r in failed] == failing, failed
    assert said in failed[0]["detail"]
