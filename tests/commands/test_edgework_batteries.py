"""Edgework without batteries means one thing in every command (issue 24, item 11): the
batteries are not given. Twitch Plays writes ``0B 0H`` for a bomb without batteries, so
a string without a battery part says nothing about them: ``solve`` answers without N,
``live`` asks for them, ``play`` draws them from the seed as for ``--batteries`` left
out. A bare number where the batteries go is refused with the form meant."""

from __future__ import annotations

import pytest
from cli_helpers import run_cli

from defuser.engine.generate import build_edgework
from edgework import Edgework, InvalidEdgeworkError


def test_solve_answers_without_n(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["solve", "--edgework", "*FRK // AB3CD4", "--discard", "RC"], monkeypatch)
    assert run.code == 0
    assert run.out.startswith("Serial AB3CD4 · batteries unknown, so N is unknown\n")


def test_live_asks_for_the_batteries(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = "start RC BH GS YT\nbatteries 3\nstart RC BH GS YT\n"
    run = run_cli(["live", "--edgework", "*FRK // AB3CD4", "--json"], monkeypatch, lines)
    assert run.code == 0
    first, _, third = run.out.splitlines()
    assert '"error": "start needs the edgework first: give the batteries"' in first
    assert '"ok": true' in third


def test_play_draws_them_from_the_seed() -> None:
    edge = Edgework.parse("*FRK // AB3CD4")
    assert edge.batteries is None
    built, plain = build_edgework(edge, 5), build_edgework(Edgework.parse("AB3CD4"), 5)
    assert built.batteries is not None and built.batteries == plain.batteries


@pytest.mark.parametrize(("part", "meant"), [("3", "3B"), ("3 2H", "3B 2H"), ("0", "0B")])
def test_a_bare_number_gets_the_battery_form(part: str, meant: str) -> None:
    text = f"{part} // *FRK // AB3CD4"
    with pytest.raises(InvalidEdgeworkError) as failed:
        Edgework.parse(text)
    assert str(failed.value) == (
        f"edgework {text!r} has {part!r} where the batteries go, expected a count then B "
        f"(and holders then H): did you mean '{meant}'?"
    )


@pytest.mark.parametrize("command", [["solve", "--discard", "RC"], ["play"], ["live"]])
def test_every_command_suggests_it(command: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli([*command, "--edgework", "3 // AB3CD4"], monkeypatch)
    assert run.code == 2
    assert run.err.startswith(f"mittens {command[0]}: error: Invalid value for '--edgework'")
    assert run.err.endswith("did you mean '3B'?\n")
