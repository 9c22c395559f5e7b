"""The one incremental log reader: lines in, typed events out, shared by analyze and follow."""

from __future__ import annotations

from gamelog_builder import BombSpec, game_log, sample_messages

from defuser.apps.follow.follower import Follower
from defuser.engine import modlog
from defuser.logs.reader import iter_lines, read_log
from defuser.logs.stream import (
    BombStarted,
    EdgeworkLine,
    EdgeworkRead,
    LineProblem,
    LogEvent,
    LogReader,
    ModuleLineRead,
    ModuleStarted,
    NoSerial,
    SerialRead,
    SerialUnread,
    SessionStarted,
    agrees,
    edgework_key,
)
from edgework import Card, CardType, RuleLetter, Ruleset, SerialNumber, TableLetter


def _events(lines: list[str]) -> list[LogEvent]:
    reader = LogReader()
    out: list[LogEvent] = []
    for number, text in enumerate(lines, start=1):
        out += reader.feed(number, text)
    return out + reader.finish()


def test_a_bomb_its_edgework_and_a_module_come_as_typed_events_in_order() -> None:
    lines = game_log([BombSpec("AB3CD4", [2, 1], {1: sample_messages("sample01.log")[:4]})]).lines
    events = _events(lines)
    kinds = [type(e) for e in events]
    assert kinds[0] is BombStarted
    assert kinds.count(BombStarted) == 1 and EdgeworkRead in kinds
    started = kinds.index(ModuleStarted)
    assert all(k is ModuleLineRead for k in kinds[started + 1 :])
    (bomb_event,) = [e for e in events if isinstance(e, BombStarted)]
    assert bomb_event.bomb.serial == "AB3CD4" and bomb_event.bomb.batteries == 3
    reads = [e for e in events if isinstance(e, ModuleLineRead)]
    assert isinstance(reads[0].message, modlog.TableMessage)
    assert reads[0].instance.bomb is bomb_event.bomb


def test_a_table_line_is_held_until_the_ids_next_line_says_which_instance() -> None:
    opening = [
        modlog.table(TableLetter.A),
        modlog.initial_discard(Card.RED_CIRCLE, CardType.YEP),
        modlog.rule(RuleLetter.B),
    ]
    lines = [modlog.line(1, m) for m in opening]
    reader = LogReader()
    for number, text in enumerate(lines, start=1):
        reader.feed(number, text)
    # A table line of an id that has begun makes no event on its own...
    assert reader.feed(4, modlog.line(1, modlog.table(TableLetter.A))) == []
    # ...the opening discard after it starts a new instance that begins with it.
    events = reader.feed(5, modlog.line(1, opening[1]))
    assert [type(e) for e in events] == [ModuleStarted, ModuleLineRead, ModuleLineRead]
    assert [e.line.number for e in events if isinstance(e, ModuleLineRead)] == [4, 5]
    # Held at the end of the log, it stays in the running instance.
    reader.feed(6, modlog.line(1, modlog.table(TableLetter.A)))
    (last,) = reader.finish()
    assert isinstance(last, ModuleLineRead) and last.line.number == 6


def test_a_new_session_closes_the_bombs_before_it() -> None:
    first = game_log([BombSpec("AB3CD4", [2], {1: sample_messages("sample01.log")[:4]})])
    second = game_log([BombSpec("KZ5LG7", [1], {1: sample_messages("sample02.log")[:4]})])
    events = _events(first.lines + second.lines)
    sessions = [i for i, e in enumerate(events) if isinstance(e, SessionStarted)]
    assert len(sessions) == 1
    after = [e.instance for e in events[sessions[0] :] if isinstance(e, ModuleStarted)]
    assert [i.bomb.serial for i in after] == ["KZ5LG7"]
    assert all(b.serial == "KZ5LG7" for i in after for b in i.choices)
    # Bomb numbers count within a session; read_log keeps every session's bombs.
    assert after[0].bomb.number == 1
    assert [b.serial for b in read_log(first.data + second.data).bombs] == ["AB3CD4", "KZ5LG7"]


def test_an_unreadable_module_line_is_a_problem_event() -> None:
    (event,) = _events(["[Exploding Mittens #x] Strike!"])
    assert isinstance(event, LineProblem) and event.problem.line == 1


def test_analyze_and_follow_read_the_same_instances_and_bombs() -> None:
    built = game_log([
        BombSpec("5M3ES3", [2, 1], {1: sample_messages("sample01.log")}),
        BombSpec("MG9NE9", [2], {2: sample_messages("sample02.log"),
                                 3: sample_messages("sample03.log")}),
    ], mission=True)
    game = read_log(built.data)
    analysed = {
        m.module_id: [game.bombs[c].serial for c in m.bomb_choices] for m in game.modules
    }
    follower = Follower()
    follower.feed_all(iter_lines([built.data]))
    followed = {
        module_id: [b.serial for b in module.instance.choices]
        for module_id, module in follower.modules.items()
    }
    assert analysed == followed
    assert analysed[1] == ["5M3ES3", "MG9NE9"]


def test_a_module_is_never_given_a_bomb_of_an_earlier_session() -> None:
    first = game_log([BombSpec("AB3CD4", [2], {})])
    second = game_log([BombSpec("KZ5LG7", [1], {1: sample_messages("sample02.log")})])
    game = read_log(first.data + second.data)
    (module,) = game.modules
    assert [game.bombs[c].serial for c in module.bomb_choices] == ["KZ5LG7"]


def test_an_edgework_key_is_a_typed_value_of_what_the_module_reads() -> None:
    # Table, last digit and N: bombs that differ only in what the module does not read
    # (the serial's other characters, batteries giving the same N) have equal keys.
    key = edgework_key("AB3CD4", 2)
    assert key == SerialRead(TableLetter.B, 4, 11)
    assert key == edgework_key(SerialNumber.parse("EF7GH4"), 7)
    assert edgework_key(None, 2) == NoSerial(11) and edgework_key(None, None) == NoSerial(None)
    assert edgework_key("??", 3) == SerialUnread("??", 3)
    # Only a read serial number can disagree with a module's start-up.
    rules = Ruleset(TableLetter.B, 4)
    discard = Card.RED_CIRCLE
    rule = rules.rule(discard)
    other = next(letter for letter in RuleLetter if letter != rule)
    assert agrees(key, "B", discard, rule) and agrees(key, None, None, None)
    assert not agrees(key, "A", discard, rule) and not agrees(key, "B", discard, other)
    for unknown in (NoSerial(11), SerialUnread("??", 3)):
        assert agrees(unknown, "A", discard, other)


def test_each_edgework_line_comes_with_its_typed_kind() -> None:
    lines = game_log([BombSpec("AB3CD4", [2, 1], {})], unity_trailers=False).lines
    kinds = [e.kind for e in _events(lines) if isinstance(e, EdgeworkRead)]
    assert kinds == [EdgeworkLine.BATTERY, EdgeworkLine.BATTERY, EdgeworkLine.INDICATOR,
                     EdgeworkLine.INDICATOR, EdgeworkLine.PORT, EdgeworkLine.PORT,
                     EdgeworkLine.SERIAL]
