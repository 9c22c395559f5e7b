"""hardware.propsim.url: a ``propsim://NAME?OPTIONS`` URL names a simulated prop."""

from __future__ import annotations

import pytest
from prop_helpers import unique_name

from hardware.errors import PortURLError
from hardware.propsim.registry import lookup
from hardware.propsim.url import open_url
from hardware.protocol import Button


def test_the_options_make_the_prop() -> None:
    name = unique_name("url")
    sim = open_url(f"propsim://{name}?script=DECK,2,reset&corrupt=0.25&drop=1&seed=7"
                   "&boot_delay=3&reset_on_open=0&mute=1&usb_serial=BENCH-1&version=1")
    assert lookup(name) is sim and sim.name == name
    faults = sim.faults
    assert (faults.corrupt, faults.drop, faults.seed, faults.boot_delay) == (0.25, 1.0, 7, 3)
    assert (faults.reset_on_open, faults.mute) == (False, True)
    assert (sim.usb_serial, sim.max_version) == ("BENCH-1", 1)
    assert sim.script == (Button.DECK, Button.HAND2, "reset")


def test_the_defaults_and_a_second_open_of_the_same_name() -> None:
    name = unique_name("url")
    sim = open_url(f"PROPSIM://{name}")
    assert (sim.faults.corrupt, sim.faults.reset_on_open, sim.faults.mute) == (0.0, True, False)
    assert sim.max_version == 2 and sim.script == ()
    assert open_url(f"propsim://{name}?version=1&mute=1") is sim  # reused as it is
    assert sim.max_version == 2 and not sim.faults.mute


def test_a_url_without_a_name_makes_a_new_prop_each_time() -> None:
    first, second = open_url("propsim://?seed=1"), open_url("propsim://")
    assert first is not second and first.name != second.name
    assert lookup(first.name) is first


@pytest.mark.parametrize(
    ("query", "error"),
    [
        ("colour=red", "propsim option 'colour' is not known, expected one of boot_delay, "
                       "corrupt, drop, mute, reset_on_open, script, seed, usb_serial, version"),
        ("corrupt=2", "propsim option corrupt='2' is not a chance between 0 and 1"),
        ("drop=often", "propsim option drop='often' is not a chance between 0 and 1"),
        ("seed=-1", "propsim option seed='-1' is not a whole number"),
        ("mute=yes", "propsim option mute='yes' is not 0 or 1"),
        ("version=3", "protocol version 3 is not known, expected one of 1, 2"),
    ],
)
def test_a_bad_option_is_one_clear_error(query: str, error: str) -> None:
    name = unique_name("url")
    with pytest.raises(PortURLError) as raised:
        open_url(f"propsim://{name}?{query}")
    assert str(raised.value) == error
    assert lookup(name) is None


def test_another_scheme_is_refused() -> None:
    with pytest.raises(PortURLError, match=r"URL 'loop://x' is not a propsim:// URL"):
        open_url("loop://x")
