"""Values that cross a module's seam are typed, not text compared by value: what the
log-follow session reports on a module, the letters of a stored answer and of the
stats' heatmaps, a drill's focus. The text a person or a JSON reader sees is made at
the edge, from the typed value, and reads as it always did. What is passed in to be
called is typed by what it must do: the prop's port (a protocol, not ``Any``), the
web pages' renderer (a protocol, not ``Callable[..., Response]``)."""

from __future__ import annotations

import collections.abc
import dataclasses
import json
import sqlite3
import typing
from pathlib import Path

import pytest
import serial
from gamelog_builder import BombSpec, game_log, simulated_messages

from defuser.apps.follow.advice import (
    Advice,
    FollowEvent,
    LostTrack,
    Moved,
    Narrowed,
    Started,
    event_json,
)
from defuser.apps.follow.follower import Follower
from defuser.apps.follow.following import FollowNotice, FollowNoticeKind
from defuser.apps.follow.tail import Missing, Restart, TailRead, Unreadable
from defuser.apps.tracking import Candidate, ClickKind, LoggedClick, OtherLine, Tracked, View
from defuser.dashboard.follow_words import advice_json, event_words
from defuser.engine import modlog
from defuser.logs.analysis import BombAnalysis, EdgeSource, analyse_bytes, to_json
from defuser.logs.check.module import ModuleCheck, TableSource
from defuser.logs.judge import ClickJudgement, ClickRating, ModuleJudgement
from defuser.logs.stream import (
    EdgeFact,
    EdgeworkKey,
    EdgeworkLine,
    EdgeworkRead,
    NoSerial,
    SerialRead,
    SerialUnread,
    edgework_key,
)
from defuser.trainer.drill_session import DrillOptions, open_session
from defuser.trainer.focus import Focus
from defuser.trainer.model import DrillMode
from defuser.trainer.report import Heatmap, build_scheduler, heatmaps
from defuser.trainer.session import Drill, kinds_for
from defuser.trainer.skills import SkillTable, skill_table
from defuser.trainer.store import AnswerRecord, AnswerRow, StatsDatabaseError, Store
from defuser.web.drillroutes import DrillPages
from defuser.web.logroutes import LogPages
from defuser.web.render import Render
from defuser.web.statsroutes import StatsPages
from edgework import TABLE_LETTERS, Card, CardType, RuleLetter, TableLetter
from hardware.device import Device
from hardware.transport import Link, Port, open_port


def test_a_follow_advice_carries_a_typed_event() -> None:
    hints = typing.get_type_hints(Advice)
    assert hints["event"] == FollowEvent
    assert str not in typing.get_args(hints["event"])
    act = typing.get_type_hints(Tracked.act)["return"]
    assert str not in typing.get_args(act)


def test_every_event_of_a_followed_game_is_typed_and_its_json_is_its_notation() -> None:
    log = game_log([BombSpec("AB3CD4", [2, 1], {
        1: simulated_messages("AB3CD4", [2, 1], 5, 1)}, seed=11)])
    advice = Follower().feed_all(log.lines)
    assert advice and isinstance(advice[0].event, Started)
    assert isinstance(advice[-1].event, Moved)
    assert advice[-1].event.line == LoggedClick(ClickKind.SOLVED)
    for a in advice:
        assert not isinstance(a.event, str)
        assert advice_json(a)["event"] == event_words(a.event)
        assert a.to_json()["event"] == event_json(a.event)


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (Started(), "start"),
        (LostTrack(), "lost track"),
        (Narrowed(RuleLetter.K), "rule K"),
        (Narrowed(), "blocked"),
        (Moved(LoggedClick(ClickKind.DREW, Card.GREEN_SQUARE)), "drew GS"),
        (Moved(LoggedClick(ClickKind.DISCARDED, Card.RED_CIRCLE)), "discarded RC"),
        (Moved(LoggedClick(ClickKind.PLAYED, Card.YELLOW_CIRCLE, (1, 3))), "played 1 or 3 (YC)"),
        (Moved(LoggedClick(ClickKind.STRIKE_PLAY, Card.BLUE_HEART, (2,))), "strike play 2 (BH)"),
        (Moved(LoggedClick(ClickKind.PLAYED, Card.BLUE_HEART)), "played ? (BH)"),
        (Moved(LoggedClick(ClickKind.STRIKE_DRAW)), "strike draw"),
        (Moved(LoggedClick(ClickKind.STRIKE_DISCARD)), "strike discard"),
        (Moved(LoggedClick(ClickKind.SOLVED)), "solved"),
        (Moved(LoggedClick(ClickKind.STRIKE_DRAW), picked_up=True), "strike draw; picked up again"),
        (Moved(OtherLine(modlog.HandCardMessage(1, Card.RED_CIRCLE, CardType.NOPE))),
         "hand_card"),
    ],
)
def test_the_json_notation_of_each_event(event: FollowEvent, text: str) -> None:
    assert event_words(event) == text


def test_trainer_letters_are_typed_where_they_are_kept() -> None:
    rule = typing.get_type_hints(AnswerRow)["rule"]
    assert set(typing.get_args(rule)) == {RuleLetter, type(None)}
    for hints in (typing.get_type_hints(Focus), typing.get_type_hints(DrillOptions)):
        assert hints["tables"] == tuple[SkillTable, ...]
        assert hints["rules"] == tuple[RuleLetter, ...]
    assert typing.get_type_hints(Heatmap)["table"] == SkillTable
    assert set(typing.get_args(SkillTable)) == {TableLetter, typing.Literal["E"]}


def test_a_stored_rule_reads_back_as_its_letter_and_a_foreign_one_is_refused(
    tmp_path: Path,
) -> None:
    path = tmp_path / "stats.sqlite3"
    with Store.open(path) as store:  # type: ignore[union-attr]
        session = store.start_session("rule", None)
        store.record(session, AnswerRecord(
            at=1_800_000_000.0, kind="rule", skill="rule:Attack:3", rule=RuleLetter.K,
            question={"text": "q"}, expected="K", given="K", grade="right", correct=True,
            seconds=1.0))
        (row,) = store.answers()
    assert row.rule is RuleLetter.K
    with sqlite3.connect(path) as db:
        db.execute("UPDATE answers SET rule = 'k'")
    db.close()
    refused = r"\(answer 1: rule 'k' is not a rule letter A-L\); it was left untouched"
    with Store.open(path) as store, pytest.raises(  # type: ignore[union-attr]
        StatsDatabaseError, match=refused
    ):
        store.answers()


def test_the_drill_focus_letters_become_typed_at_the_command_line_and_in_a_state() -> None:
    assert [skill_table(t) for t in "aBCdE"] == [*TABLE_LETTERS, "E"]
    assert skill_table("b") is TableLetter.B
    with pytest.raises(ValueError):
        skill_table("F")
    drill = Drill(DrillMode.MIXED, store=None, seed=1, tables=(TableLetter.C, "E"),
                  rules=(RuleLetter.L,), clock=lambda: 0.0)
    state = json.loads(json.dumps(drill.state()))
    assert (state["tables"], state["rules"]) == (["C", "E"], ["L"])
    focus = Drill.from_state(state, None, clock=lambda: 0.0).focus
    assert focus.tables == (TableLetter.C, "E") and focus.tables[0] is TableLetter.C
    assert focus.rules == (RuleLetter.L,) and focus.rules[0] is RuleLetter.L


def test_the_stats_heatmaps_are_named_by_typed_tables() -> None:
    maps = heatmaps([], build_scheduler([]))
    assert [m.table for m in maps] == [*TABLE_LETTERS, "E"]
    assert all(m.table is letter for m, letter in zip(maps, TABLE_LETTERS, strict=False))


def test_the_prop_link_takes_a_typed_port() -> None:
    opener = collections.abc.Callable[[str], Port]
    assert typing.get_type_hints(Link.open)["opener"] == opener
    assert typing.get_type_hints(Link.__init__)["port"] is Port
    assert typing.get_type_hints(Device.__init__)["opener"] == opener
    port = open_port("loop://")
    try:
        assert isinstance(port, serial.SerialBase)
        assert all(callable(getattr(port, name)) for name in
                   ("read", "write", "flush", "reset_input_buffer", "close"))
        assert port.in_waiting == 0
    finally:
        port.close()


def test_the_web_route_groups_take_one_typed_renderer() -> None:
    for pages in (LogPages, StatsPages, DrillPages):
        assert typing.get_type_hints(pages.__init__)["render"] is Render


def test_the_follow_session_names_restarts_notices_and_edgework_by_enums() -> None:
    assert typing.get_type_hints(TailRead)["restarted"] == Restart | None
    assert typing.get_type_hints(FollowNotice)["kind"] is FollowNoticeKind
    assert typing.get_type_hints(FollowNotice)["restart"] == Restart | None
    assert typing.get_type_hints(TailRead)["missing"] == Missing | None
    assert typing.get_type_hints(Missing)["why"] is Unreadable
    hints = typing.get_type_hints(Advice)
    assert hints["needs"] == hints["given"] == tuple[EdgeFact, ...]
    lines = [modlog.line(1, m) for m in simulated_messages("AB3CD4", [2, 1], 8)]
    advice = Follower(batteries=3).feed_all(lines)[0]
    assert advice.needs == (EdgeFact.SERIAL,) and advice.given == (EdgeFact.BATTERIES,)
    assert advice.to_json()["bomb"]["given"] == ["batteries"]


def test_a_logs_ratings_needs_and_sources_are_enums_written_as_their_words() -> None:
    """A judged click's rating, the edgework a module needs to be judged, and where a
    bomb's edgework and a module's table came from are enums (the judge and the follower
    share one ``EdgeFact``); the JSON document writes the same words as before."""
    assert typing.get_type_hints(ClickJudgement)["verdict"] is ClickRating
    assert typing.get_type_hints(ModuleJudgement)["needs"] == EdgeFact | None
    counts = vars(ModuleJudgement)["counts"]
    assert isinstance(counts, property) and counts.fget is not None
    assert typing.get_type_hints(counts.fget)["return"] == dict[ClickRating, int]
    hints = typing.get_type_hints(BombAnalysis)
    assert hints["serial_source"] is hints["batteries_source"] is EdgeSource
    assert typing.get_type_hints(ModuleCheck)["table_source"] is TableSource
    messages = simulated_messages("AB3CD4", [2, 1], 8)
    analysis = analyse_bytes("\n".join(modlog.line(1, m) for m in messages).encode(),
                             batteries=3)
    bomb = analysis.bombs[0]
    assert (bomb.serial_source, bomb.batteries_source) == (EdgeSource.UNKNOWN, EdgeSource.GIVEN)
    module = bomb.modules[0]
    assert module.check.table_source is TableSource.LOG
    assert module.judgement is not None
    assert all(isinstance(j.verdict, ClickRating) for j in module.judgement.judgements.values())
    text = json.dumps(to_json([analysis]))
    assert '"serial_source": "unknown", "batteries_source": "given"' in text
    assert '"table_source": "log"' in text
    assert '"verdicts": {"best": ' in text and '"verdict": "best"' in text


def test_the_log_stream_keys_bombs_and_names_edgework_lines_by_typed_values() -> None:
    # What a module reads of a bomb is a union of frozen dataclasses that mypy checks at
    # every consumer (analyze's and follow's grouping), not a tuple told apart at run
    # time; an edgework line's kind is an enum.
    members = typing.get_args(EdgeworkKey)
    assert members == (SerialRead, NoSerial, SerialUnread)
    for key in (edgework_key("AB3CD4", 2), edgework_key(None, 2), edgework_key("??", 2)):
        assert dataclasses.is_dataclass(key) and hash(key) == hash(dataclasses.replace(key))
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(key, dataclasses.fields(key)[0].name, None)
    assert typing.get_type_hints(View)["key"] == typing.get_type_hints(Candidate)["key"]
    assert typing.get_type_hints(EdgeworkRead)["kind"] is EdgeworkLine
    assert typing.get_type_hints(edgework_key)["return"] == EdgeworkKey


def test_a_drill_mode_is_typed_from_the_command_line_to_the_session() -> None:
    """The mode is a DrillMode wherever a session holds or takes it; text only at the
    boundaries (the --mode word, the web form, a saved state, the stored session row)."""
    for function in (Drill.__init__, open_session, kinds_for):
        assert typing.get_type_hints(function)["mode"] is DrillMode
    drill = Drill(DrillMode.GAME, store=None, seed=1)
    assert drill.mode is DrillMode.GAME and drill.state()["mode"] == "game"
    assert Drill.from_state(drill.state(), store=None).mode is DrillMode.GAME
