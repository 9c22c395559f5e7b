"""The log checker: genuine logs are clean, every kind of tampering is flagged at its line.

Genuine logs: the ten real samples (with and without their edgework), simulator games
over many seeds, truncated copies and logs wrapped in KTaNE noise. Tampered copies: one
line of a real sample altered in each way a log can lie (type, rule letter, play,
countdown, blocking list, Defuse placement, strikes, the solve, start-up).
"""

from __future__ import annotations

import random
import re
import typing

import pytest
from engine_helpers import ALL_ACTIONS
from gamelog_builder import (
    SAMPLES,
    BombSpec,
    game_log,
    sample_index,
    sample_messages,
    sample_names,
)

from defuser.engine.actions import Action
from defuser.engine.simulator import Module
from defuser.logs.analysis import analyse_bytes
from defuser.logs.check.module import ModuleCheck, check_module
from defuser.logs.check.state import ReplayState, Stage, StateChanges
from defuser.logs.reader import read_log
from edgework import TABLE_LETTERS, Card, CardType, Ruleset, SerialNumber, TableLetter, interval_for

INDEX = sample_index()
PREFIX = "[Exploding Mittens #1] "


def check_text(lines: list[str], name: str | None = None, *, edge: bool = True) -> ModuleCheck:
    """Check a single-module log given as full lines (with the module prefix)."""
    data = ("\n".join(lines) + "\n").encode()
    game = read_log(data)
    assert len(game.modules) == 1
    serial = batteries = None
    if name is not None and edge:
        serial = str(INDEX[name]["serial"])
        batteries = int(str(INDEX[name]["batteries"]))
    return check_module(
        game.modules[0].lines,
        serial=serial,
        batteries=batteries,
        last_event_line=game.last_event_line,
        file_last_line=game.line_count,
    )


def sample_lines(name: str) -> list[str]:
    """A sample's full lines."""
    return (SAMPLES / name).read_text().splitlines()


def tampered(name: str, line: int, message: str) -> list[str]:
    """The sample with line ``line`` (1-based) replaced by ``message``."""
    lines = sample_lines(name)
    lines[line - 1] = PREFIX + message
    return lines


def flagged(check: ModuleCheck) -> list[int]:
    """The lines the check blames."""
    return [item.line for item in check.inconsistencies]


# --------------------------------------------------------------------------- genuine logs


@pytest.mark.parametrize("edge", [True, False], ids=["edgework", "no-edgework"])
@pytest.mark.parametrize("name", sample_names())
def test_real_samples_have_no_inconsistency(name: str, edge: bool) -> None:
    check = check_text(sample_lines(name), name, edge=edge)
    assert check.inconsistencies == []
    assert check.solved is INDEX[name]["solved"]
    assert check.strikes == INDEX[name]["strikes"]
    serial = SerialNumber.parse(str(INDEX[name]["serial"]))
    assert check.table == serial.table
    assert check.last_digit == serial.last_digit
    assert serial.last_digit in check.digit_candidates
    n = interval_for(int(str(INDEX[name]["batteries"])))
    assert n in check.interval_candidates
    if edge:
        assert check.interval == n and check.notes == []
    else:
        assert any("inferred" in note or "unknown" in note for note in check.notes)


def test_n_is_inferred_from_the_countdown_after_a_mitten() -> None:
    check = check_text(sample_lines("sample01.log"), None)
    assert check.interval == 12 and check.interval_candidates == (12,)
    assert check.digit_candidates == (3,)
    # Sample 3 never sees a mitten: its first countdown (6) allows N = 9..13.
    check = check_text(sample_lines("sample03.log"), None)
    assert check.interval is None and check.interval_candidates == (9, 10, 11, 12, 13)


def _random_game(seed: int) -> tuple[Module, str, int]:
    rng = random.Random(seed)
    table, digit, batteries = rng.choice(TABLE_LETTERS), rng.randrange(10), rng.randrange(12)
    serial = {"A": "AAXCD", "B": "AEXCD", "C": "BBXCD", "D": "BCXDF"}[table] + str(digit)
    module = Module(Ruleset(table, digit), interval_for(batteries), random.Random(seed))
    careful = rng.random() < 0.5
    for _ in range(rng.randrange(5, 250)):
        if module.solved:
            break
        if careful and module.legal_slots:
            action = Action.play(rng.choice(module.legal_slots))
        elif careful:
            action = Action.draw() if rng.random() < 0.5 else Action.discard()
        else:
            action = rng.choice(ALL_ACTIONS)
        module.act(action)
    return module, serial, batteries


def test_simulator_logs_over_many_seeds_are_clean() -> None:
    for seed in range(300):
        module, serial, batteries = _random_game(seed)
        game = read_log(("\n".join(module.log) + "\n").encode())
        for edge in (True, False):
            check = check_module(
                game.modules[0].lines,
                serial=serial if edge else None,
                batteries=batteries if edge else None,
            )
            assert check.inconsistencies == [], (seed, edge, check.inconsistencies[:3])
            assert check.solved is module.solved
            assert check.strikes == module.strikes
            assert check.actions == sum(1 for r in module.history if r.log)


def test_truncated_copies_are_noted_not_blamed() -> None:
    data = (SAMPLES / "sample07.log").read_bytes()
    for cut in range(1, len(data), 13):
        analysis = analyse_bytes(data[:cut])
        for check in analysis.modules:
            assert check.inconsistencies == [], (cut, check.inconsistencies)


def test_a_hand_with_two_equal_faces_keeps_every_slot_order() -> None:
    # After line 29 of sample 9 the hand held two red triangles and a green square;
    # which red triangle was played is not logged, so the green square may be in slot 1
    # or 2 and either blocking line agrees with the log.
    for slot_line in ("... the first card! Woah!", "... the second card! Wow!"):
        check = check_text(tampered("sample09.log", 37, slot_line), "sample09.log")
        assert check.inconsistencies == []
    check = check_text(tampered("sample09.log", 37, "... the third card! Wacky!"),
                       "sample09.log")
    assert flagged(check) == [37]


# --------------------------------------------------------------------------- tampering

CASES = [
    # (id, sample, line, new message, words expected in the message)
    ("type", "sample02.log", 2,
     "The card on the discard pile is a blue circle, which is a(n) Nope card.", "Yep card"),
    ("hand-type", "sample02.log", 5,
     "Card #2 is a yellow square, which is a(n) Attack card.", "Double Play"),
    ("rule", "sample02.log", 10, "The rule used now is B.", "expected rule A"),
    ("rule-startup", "sample07.log", 3, "The rule used is F.", "expected rule E"),
    ("play-not-in-hand", "sample02.log", 7,
     "You played a red heart, which is a(n) Attack card.", "not in the hand"),
    ("play-illegal", "sample02.log", 7,
     "You played a yellow square, which is a(n) Double Play card.", "cannot be played"),
    ("countdown", "sample02.log", 11, "(The Exploding Mitten is coming in 7 draws.)",
     "expected 6"),
    ("countdown-first", "sample05.log", 15, "(The Exploding Mitten is coming in 8 draws.)",
     "expected 7"),
    ("countdown-zero", "sample01.log", 45, "(The Exploding Mitten is coming in 1 draws.)",
     "writes 0"),
    ("countdown-restart", "sample01.log", 48, "(The Exploding Mitten is coming in 10 draws.)",
     "expected 11"),
    ("blocking", "sample10.log", 12, "... the first card! Woah!", "third card"),
    ("blocking-exclamation", "sample10.log", 12, "... the third card! Wow!", "Wacky!"),
    ("second-defuse", "sample01.log", 25,
     "You discarded a yellow circle, which is a(n) Defuse card.", "second Defuse"),
    ("defuse-first-after-mitten", "sample01.log", 46,
     "You discarded a green square, which is a(n) Defuse card.", "never the first card"),
    ("mitten-drawn", "sample01.log", 13,
     "You drew a blue square, which is a(n) Exploding Mitten card.", "cannot be dealt here"),
    ("mitten-not-revealed", "sample01.log", 43,
     "You discarded a red circle, which is a(n) Nope card.", "must reveal it"),
    ("guaranteed-legal-draw", "sample01.log", 9,
     "You drew a blue circle, which is a(n) Yep card.", "playable card"),
    ("hand-full-with-mitten-on-top", "sample02.log", 28, "Your hand was full. Strike!",
     "comes first"),
    ("mitten-strike-before-any-deal", "sample09.log", 8,
     "You were going to draw an Exploding Mitten. Strike!", "first card dealt"),
    ("hand-full-with-room", "sample10.log", 9, "Your hand was full. Strike!", "only"),
    ("invalid-but-legal", "sample02.log", 7, "The blue circle card was invalid. Strike!",
     "is legal"),
    ("discard-while-blocked", "sample02.log", 9,
     "You tried to click on the discard pile, but you still could've played:",
     "discarding was allowed"),
    ("startup-slot-3", "sample02.log", 6,
     "Card #3 is a yellow circle, which is a(n) Defuse card.", "never re-rolled"),
    ("opening-discard-mitten", "sample02.log", 2,
     "The card on the discard pile is a blue square, which is a(n) Exploding Mitten card.",
     "never the Exploding Mitten"),
    ("rule-wording", "sample02.log", 10, "The rule used is A.", "rule used now"),
    ("not-a-module-line", "sample02.log", 20, "You shuffled the deck.", "not a line"),
    ("table", "sample02.log", 1, "You should use Table B.", "Table A"),
]


@pytest.mark.parametrize("edge", [True, False], ids=["edgework", "no-edgework"])
@pytest.mark.parametrize(("case", "name", "line", "message", "words"), CASES,
                         ids=[c[0] for c in CASES])
def test_each_tampering_is_flagged_at_its_line(
    case: str, name: str, line: int, message: str, words: str, edge: bool
) -> None:
    check = check_text(tampered(name, line, message), name, edge=edge)
    lines = flagged(check)
    assert lines, f"{case}: nothing flagged"
    assert lines[0] == line, (case, check.inconsistencies[:3])
    assert words in check.inconsistencies[0].message, check.inconsistencies[0].message


def test_a_solve_when_the_mitten_is_not_on_top_and_lines_after_the_solve() -> None:
    solve = PREFIX + ("You played a Defuse card when an Exploding Mitten was at the top of the "
                      "deck. Module solved!")
    lines = [*sample_lines("sample03.log")[:20], solve]
    check = check_text(lines, "sample03.log")
    assert flagged(check) == [21] and "not on top" in check.inconsistencies[0].message
    lines = [*sample_lines("sample03.log"), PREFIX + "You drew a red heart, which is a(n) "
             "Attack card."]
    check = check_text(lines, "sample03.log")
    assert flagged(check) == [len(lines)]
    assert "nothing responds after the solve" in check.inconsistencies[0].message


def test_a_missing_line_is_flagged_where_it_should_have_been() -> None:
    lines = sample_lines("sample02.log")
    del lines[10]  # the countdown after the discard at line 9
    check = check_text(lines, "sample02.log")
    assert flagged(check) == [11]
    assert "countdown" in check.inconsistencies[0].message


def test_a_cycle_without_its_defuse_is_flagged() -> None:
    # Sample 4's second cycle (N = 13) has its Defuse at line 52; make it a plain card.
    lines = tampered("sample04.log", 52, "You drew a blue heart, which is a(n) Nope card.")
    check = check_text(lines, "sample04.log")
    assert check.inconsistencies
    assert any("must be a Defuse" in i.message or "no Defuse" in i.message
               for i in check.inconsistencies)


_TYPES = [t.value for t in CardType]


def _single_line_tamperings(line: str) -> list[str]:
    """Every wrong type, wrong rule letter and wrong countdown of one line."""
    out: list[str] = []
    if m := re.search(r"which is a\(n\) (.+) card\.$", line):
        out += [line[: m.start(1)] + t + line[m.end(1):] for t in _TYPES if t != m.group(1)]
    if m := re.search(r"The rule used (?:now )?is ([A-L])\.$", line):
        out += [line[: m.start(1)] + x + line[m.end(1):] for x in "ABCDEFGHIJKL"
                if x != m.group(1)]
    if m := re.search(r"coming in (\d+) draws", line):
        k = int(m.group(1))
        out += [line[: m.start(1)] + str(k + d) + line[m.end(1):] for d in (-1, 1) if k + d >= 0]
    return out


@pytest.mark.parametrize(("name", "edge"), [("sample02.log", True), ("sample07.log", False)])
def test_every_wrong_type_rule_or_countdown_is_flagged_at_exactly_its_line(
    name: str, edge: bool
) -> None:
    lines = sample_lines(name)
    for index, line in enumerate(lines):
        for new in _single_line_tamperings(line):
            copy = list(lines)
            copy[index] = new
            check = check_text(copy, name, edge=edge)
            assert flagged(check) == [index + 1], (new, check.inconsistencies[:3])


# --------------------------------------------------------------------------- whole game logs


def test_interleaved_modules_and_several_bombs_in_one_game_log() -> None:
    specs = []
    for number, names in enumerate([["sample01.log"], ["sample07.log", "sample10.log"]]):
        modules = {}
        for offset, name in enumerate(names):
            modules[number * 2 + offset + 1] = sample_messages(name)
        info = INDEX[names[0]]
        batteries = int(str(info["batteries"]))
        holders = [2] * (batteries // 2) + [1] * (batteries % 2)
        specs.append(BombSpec(str(info["serial"]), holders, modules, seed=100 + number))
    # Both modules of bomb 2 share its edgework, so sample 10 must sit on a bomb like its own.
    specs[1].serial, specs[1].modules = "RP9CW7", {2: sample_messages("sample07.log")}
    specs.append(BombSpec("2C6VD3", [2, 2, 2, 2, 1], {3: sample_messages("sample10.log"),
                                                      4: sample_messages("sample06.log")}))
    specs[2].modules[4] = sample_messages("sample03.log")  # Table B... on a Table D bomb
    built = game_log(specs, seed=5)
    analysis = analyse_bytes(built.data)
    by_id = {m.module_id: m for m in analysis.modules}
    assert by_id[1].inconsistencies == [] and by_id[2].inconsistencies == []
    assert by_id[3].inconsistencies == []
    # Sample 3's lines on bomb 2C6VD3: the table line contradicts the serial.
    assert by_id[4].inconsistencies[0].line == built.numbers[(2, 4)][0]
    assert [b.serial for b in analysis.bombs] == ["5M3ES3", "RP9CW7", "2C6VD3"]
    assert [b.batteries for b in analysis.bombs] == [3, 0, 9]


def test_a_tampered_line_in_a_game_log_is_reported_with_its_file_line_number() -> None:
    messages = sample_messages("sample06.log")
    messages[20] = "(The Exploding Mitten is coming in 9 draws.)"  # says 3 in the real log
    other = sample_messages("sample08.log")
    built = game_log([BombSpec("FL7NL4", [1, 1], {1: messages}),
                      BombSpec("QH7WM6", [], {2: other})], seed=9)
    analysis = analyse_bytes(built.data)
    first, second = analysis.modules
    assert [i.line for i in first.inconsistencies] == [built.numbers[(0, 1)][20]]
    assert second.inconsistencies == []


def test_bad_bytes_inside_a_module_line_are_reported_not_fatal() -> None:
    built = game_log([BombSpec("5M3ES3", [2, 1], {1: sample_messages("sample01.log")})])
    target = built.numbers[(0, 1)][27]  # You drew a blue triangle, ...
    raw = built.data.split(b"\n")
    raw[target - 1] = raw[target - 1].replace(b"blue", b"bl\xffue")
    analysis = analyse_bytes(b"\n".join(raw))
    check = analysis.modules[0]
    assert check.inconsistencies and check.inconsistencies[0].line == target


def test_cards_and_types_round_trip_through_the_reader() -> None:
    from defuser.engine import modlog

    for card in Card:
        for kind in CardType:
            message = f"You drew a {card.words}, which is a(n) {kind.value} card."
            assert modlog.parse(message) == modlog.DrewMessage(card, kind)
    assert modlog.parse("You drew a purple circle, which is a(n) Yep card.") is None


def test_lines_of_a_module_without_its_start_up_are_flagged() -> None:
    lines = sample_lines("sample02.log")
    lines[27] = lines[27].replace("#1]", "#2]")  # a strike line moved to another module
    game = read_log(("\n".join(lines) + "\n").encode())
    checks = {m.module_id: check_module(m.lines, last_event_line=game.last_event_line,
                                        file_last_line=game.line_count)
              for m in game.modules}
    assert flagged(checks[2]) == [28] and not checks[2].replayed
    assert flagged(checks[1]) == []  # one mitten strike fewer is still a genuine game


def test_a_mission_generating_several_bombs_before_play() -> None:
    # All bombs are generated first; each module belongs to the bomb its lines fit.
    specs = [
        BombSpec("5M3ES3", [2, 1], {1: sample_messages("sample01.log")}),
        BombSpec("784TA1", [2, 2, 2, 2], {2: sample_messages("sample03.log")}),
        BombSpec("RP9CW7", [], {3: sample_messages("sample07.log")}),
    ]
    built = game_log(specs, seed=4, mission=True)
    analysis = analyse_bytes(built.data, judge_decisions=False)
    placed = {m.check.module_id: b.serial for b in analysis.bombs for m in b.modules}
    assert placed == {1: "5M3ES3", 2: "784TA1", 3: "RP9CW7"}
    assert analysis.inconsistency_count == 0


# --------------------------------------------------------------------------- the replay state


def test_evolve_is_replace_and_its_changes_name_every_field_with_its_type() -> None:
    assert typing.get_type_hints(StateChanges) == typing.get_type_hints(ReplayState)
    assert list(typing.get_type_hints(StateChanges)) == list(ReplayState._fields)
    state = ReplayState(
        table=TableLetter.A, digit=3, n=None, n_min=3, stage=Stage.START, discard=None, hand=(),
        until=None, first_cycle=True, defuse_line=0, coming=0, pending_line=0, blocking=(),
        listed=0, solved_line=0, deals=0,
    )
    changed = state.evolve(stage=Stage.IDLE, hand=(Card.RED_HEART,), deals=3)
    assert type(changed) is ReplayState
    assert changed == state._replace(stage=Stage.IDLE, hand=(Card.RED_HEART,), deals=3)
