"""Fuzzing the command line: hostile stdin for every stdin command, hostile option values.

Seeded (``derandomize``) and small, so the run is the same every time and takes seconds.
Each run goes through ``main`` in this process with byte-level standard streams
(:func:`cli_helpers.run_cli_bytes`), and
must end in a documented exit status with no exception escaping (no traceback); JSON
output must be valid UTF-8, one object per line, and where the docs promise one answer
per input line (``live --json``, ``solve --batch --json``) the count must match.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run_cli_bytes
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from defuser.streams import printable

FUZZ = settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def json_objects(data: bytes) -> list[object]:
    """stdout as JSON objects, one per line (the bytes must be UTF-8)."""
    return [json.loads(line) for line in data.decode("utf-8").splitlines()]


def input_lines_of(data: bytes) -> list[str]:
    """The lines a command sees, as the docs describe them (see defuser.streams)."""
    parts = data.split(b"\n")
    if parts and parts[-1] == b"":
        parts.pop()
    lines = []
    for index, raw in enumerate(parts):
        if index == 0 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        lines.append(printable(raw.removesuffix(b"\r").decode("utf-8", "replace")))
    return lines


WORDS = [
    "serial AB3CD4", "batteries 3", "start RC BH GS YT", "drew GS", "discarded RC",
    "played 2", "strike draw", "strike play 9", "solved", "undo", "state", "help",
    "edgework \"3B 2H // KT4RE7\"", "draw", "discard", "play 1", "play 4", "!1 play 2",
    "AB3CD4 3 RC BH GS", "KT4RE7 0 YS", "Z 99 QQ", "# comment", "A", "B 1 3", "1/5",
    "20%", "Defuse", "none discard", "nan", "inf", "-1", "9" * 60, "quit-not", "q x",
]

#: A stdin line: a known command, arbitrary text, or arbitrary bytes (no newline).
LINE = st.one_of(
    st.sampled_from(WORDS),
    st.text(max_size=40).map(lambda t: t.replace("\n", " ")),
).map(lambda t: t.encode("utf-8", "surrogatepass")) | st.binary(max_size=30).map(
    lambda b: b.replace(b"\n", b" ")
)
STDIN = st.tuples(
    st.booleans(), st.lists(LINE, max_size=12), st.sampled_from([b"\n", b"\r\n"]), st.booleans()
).map(
    lambda t: (b"\xef\xbb\xbf" if t[0] else b"")
    + t[2].join(t[1])
    + (t[2] if t[3] and t[1] else b"")
)

QUIT = {"quit", "exit", "q"}


@FUZZ
@given(data=STDIN)
def test_live_json_answers_every_line(data: bytes) -> None:
    run = run_cli_bytes(["live", "--json"], data)
    assert run.code == 0, run.err
    objects = json_objects(run.out)
    lines = input_lines_of(data)
    expected = len(lines)
    for number, line in enumerate(lines, start=1):
        if line.strip().lower() in QUIT:
            expected = number
            break
    assert len(objects) == expected


@FUZZ
@given(data=STDIN)
def test_solve_batch_json_answers_every_state_line(data: bytes) -> None:
    run = run_cli_bytes(["solve", "--batch", "--json"], data)
    assert run.code in (0, 1), run.err
    objects = json_objects(run.out)
    states = [ln for ln in input_lines_of(data) if ln.strip() and not ln.strip().startswith("#")]
    assert len(objects) == len(states)
    assert run.code == (1 if any("error" in o for o in objects if isinstance(o, dict)) else 0)


@FUZZ
@given(data=STDIN)
def test_play_json_never_breaks(data: bytes) -> None:
    run = run_cli_bytes(["play", "--seed", "5", "--json"], data)
    assert run.code == 0, run.err
    objects = json_objects(run.out)
    assert objects[0]["event"] == "start"  # type: ignore[index]
    assert objects[-1]["event"] == "end"  # type: ignore[index]


@FUZZ
@given(data=STDIN)
def test_drill_json_never_breaks(
    data: bytes, memory_path: Path
) -> None:
    db = memory_path / "fuzz.db"  # each answer is synced: in memory where possible
    run = run_cli_bytes(["drill", "--seed", "2", "--count", "3", "--json", "--db", str(db)], data)
    assert run.code == 0, run.err
    json_objects(run.out)


@FUZZ
@given(data=STDIN | st.binary(max_size=200))
def test_verify_stdin_never_breaks(data: bytes) -> None:
    run = run_cli_bytes(["verify", "-", "--json"], data)
    assert run.code in (0, 1, 2), run.err
    if run.code == 2:
        assert len(run.err.decode("utf-8").strip().splitlines()) == 1
    else:
        json_objects(run.out)


# ---------------------------------------------------------------- option values

#: Values that broke some option once, or could: tried on every option below.
HOSTILE_VALUES = [
    "", " ", "inf", "-inf", "nan", "1e308", "1e400", "-1", "0", "1", "3B 2H",
    "99999999999999999999", "9" * 500, "-" * 3, "AB3CD4", "\x1b[2J", "\u00b2",
    "../../etc/passwd", "no-such-dir/x", "x" * 300, "\ufeffAB3CD4", "\udcff",
    "RC", "red circle", "B 1 3", "0x10", "1_000", "\u0663",
]
HOSTILE = st.one_of(st.sampled_from(HOSTILE_VALUES), st.text(max_size=12))

#: (argv before the value, the option, argv after it, stdin): each takes a hostile value.
OPTION_CASES = [
    (["solve", "--batteries", "3", "--discard", "RC"], "--serial", [], b""),
    (["solve", "--serial", "AB3CD4", "--discard", "RC"], "--batteries", [], b""),
    (["solve", "--serial", "AB3CD4", "--batteries", "3"], "--discard", [], b""),
    (["solve", "--serial", "AB3CD4", "--batteries", "3", "--discard", "RC"], "--hand", [], b""),
    (["solve"], "--edgework", ["--discard", "RC", "--json"], b""),
    (["tables"], "--serial", [], b""),
    (["tables"], "--format", [], b""),
    (["play"], "--seed", ["--json"], b"draw\n"),
    (["play", "--seed", "1"], "--strikes", ["--json"], b"draw\n"),
    (["play", "--seed", "1"], "--batteries", [], b"draw\n"),
    (["play", "--seed", "1"], "--edgework", [], b"draw\n"),
    (["live"], "--serial", ["--json"], b"state\n"),
    (["live"], "--batteries", ["--json"], b"state\n"),
    (["drill", "--count", "1"], "--seed", ["--json"], b"A\n"),
    (["drill", "--seed", "1"], "--count", ["--json"], b""),
    (["drill", "--seed", "1", "--count", "1"], "--time-limit", ["--json"], b"A\n"),
    (["drill", "--seed", "1", "--count", "1"], "--mode", ["--json"], b"A\n"),
    (["drill", "--seed", "1", "--count", "1"], "--minutes", ["--json"], b"A\n"),
    (["stats"], "--export", [], b""),
    (["log", "analyze"], "--serial", [], b""),
    (["log", "analyze"], "--batteries", [], b""),
]


def check_option(
    case: tuple[list[str], str, list[str], bytes],
    value: str,
    tmp_path: Path,
) -> None:
    """Run one option with one value: a documented exit status, never a traceback."""
    before, option, after, stdin = case
    args = [*before, option, value, *after]
    if args[0] in ("drill", "stats"):
        args += ["--db", str(tmp_path / "fuzz.db")]
    if args[0] == "log":
        log = tmp_path / "g.log"
        log.write_text("[Exploding Mittens #1] You should use Table A.\n", encoding="utf-8")
        args.append(str(log))
    # --export writes relative names in the working directory: tmp_path
    run = run_cli_bytes(args, stdin, cwd=tmp_path if args[0] == "stats" else None)
    assert run.code in (0, 1, 2), (args, run.err)
    err = run.err.decode("utf-8")
    assert "Traceback" not in err
    if run.code == 2:
        assert len(err.strip().splitlines()) == 1, (args, err)
    if "--json" in args and run.code == 0:
        json_objects(run.out)


@pytest.mark.parametrize("case", OPTION_CASES, ids=lambda c: f"{c[0][0]}{c[1]}")
def test_every_hostile_value_on_every_option(
    case: tuple[list[str], str, list[str], bytes],
    tmp_path: Path,
) -> None:
    for value in HOSTILE_VALUES:
        check_option(case, value, tmp_path)


@FUZZ
@given(case=st.sampled_from(OPTION_CASES), value=HOSTILE)
def test_random_option_values_end_cleanly(
    case: tuple[list[str], str, list[str], bytes],
    value: str,
    tmp_path: Path,
) -> None:
    check_option(case, value, tmp_path)
