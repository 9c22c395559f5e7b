"""hardware.conformance: every requirement of docs/protocol.md checked against a prop.

The prop is a simulated one in this process, on its own emulated clock
(:class:`~hardware.propsim.checking.SimClock`), so no check waits.
"""

from __future__ import annotations

import pytest
from prop_helpers import unique_name

from hardware.conformance import CheckResult, CheckStatus, check_prop, passed
from hardware.errors import NoAnswerError
from hardware.propsim.checking import SimActor, SimClock
from hardware.propsim.twin import PropSim
from hardware.propsim.url import open_url
from hardware.transport import Link

PRESSES = {"btn-numbering", "resend", "resend-session", "resend-form", "resend-newer",
           "event-store", "reset", "btn-without-session", "hello-after-reset"}


def checked(query: str = "", *, hands: bool = True, deadline: float = 0.05) -> list[CheckResult]:
    """The results of checking a new simulated prop made with ``query``'s options."""
    url = f"propsim://{unique_name('conformance')}{query}"
    link = Link.open(url)
    sim: PropSim = open_url(url)
    try:
        return check_prop(link, SimActor(sim) if hands else None, clock=SimClock(sim),
                          deadline=deadline)
    finally:
        link.close()


def failed(results: list[CheckResult]) -> dict[str, str]:
    return {r.name: r.detail for r in results if r.status is CheckStatus.FAIL}


def test_the_simulated_prop_meets_every_requirement_of_both_versions() -> None:
    results = checked()
    assert passed(results) and failed(results) == {}
    names = [r.name for r in results]
    assert len(names) == len(set(names))
    assert PRESSES | {"bad-crc", "hello-1", "hello-2", "v2 TIMER", "reply-deadline"} <= set(names)
    assert results[0].as_dict() == {
        "name": "bad-crc", "section": "2.1", "status": "pass", "detail": "",
        "requirement": "a line with a wrong checksum is dropped, counted, never answered"}


def test_a_version_1_prop_is_checked_in_version_1_only() -> None:
    results = checked("?version=1")
    names = {r.name for r in results}
    assert passed(results) and "v1 HAND" in names
    assert not any(name.startswith("v2 ") for name in names)


def test_without_hands_the_presses_and_the_reset_are_skipped_and_nothing_passes() -> None:
    results = checked(hands=False)
    assert {r.name for r in results if r.status is CheckStatus.SKIP} == PRESSES
    assert failed(results) == {} and not passed(results)
    assert not passed([])


def test_a_prop_that_loses_its_events_fails_with_what_it_sent() -> None:
    problems = failed(checked("?drop=1"))
    assert problems["btn-numbering"] == "pressed DECK, PILE, HAND1: got []"
    assert problems["btn-without-session"] == (
        "a press right after the reset: expected 'BTN 1 DECK 0', got []")


def test_a_reply_slower_than_the_deadline_fails_it() -> None:
    assert failed(checked(deadline=-1.0)) == {"reply-deadline": "the slowest reply took 0 ms"}


def test_a_silent_port_is_no_prop() -> None:
    with pytest.raises(NoAnswerError, match=r"^no answer to PING within 3 s: is this a prop"):
        checked("?mute=1")
