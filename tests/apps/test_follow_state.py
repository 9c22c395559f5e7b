"""The log-follow session saved as JSON and rebuilt: ``Follower.state``/``from_state``.

A follower rebuilt from its state at any line of a real-format game log (missions with
several bombs, a second game session, module ids used again, a lost line the module is
picked up after, edgework and Twitch Plays codes given from outside, a file that started
over) gives the very advice, line for line, and ends in the very state of a follower
that read the log without a break. A state that cannot be rebuilt is refused in one line.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from gamelog_builder import (
    BombSpec,
    game_log,
    sample_index,
    sample_messages,
    sample_names,
    simulated_messages,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_sizes import examples

from defuser.apps.follow import follower as follower_mod
from defuser.apps.follow.advice import Advice, LostTrack
from defuser.apps.follow.follower import Follower
from defuser.apps.follow.following import FollowNotice, LogFollowing
from defuser.apps.follow.saved import SavedFollowError
from defuser.apps.follow.tail import LogTail
from defuser.engine import modlog
from defuser.engine.game import SavedGameError
from edgework import SerialNumber

#: The edgework and Twitch Plays codes a follower of module lines alone is given.
_GIVEN: dict[str, Any] = {
    "serial": SerialNumber.parse("AB3CD4"), "batteries": 5, "twitch": {1: "7", 2: "12"},
}


#: How the lines a follower keeps to be rebuilt from begin.
_READ = ("[Exploding Mittens #", "[BombGenerator] Generating", "[SerialNumber]",
         "[BatteryWidget]", "[IndicatorWidget]", "[PortWidget]", "[State]")


def _holders(batteries: int) -> list[int]:
    return [2] * (batteries // 2) + [1] * (batteries % 2)


def _without_a_click(messages: list[str], index: int) -> list[str]:
    """``messages`` without the ``index``-th click (its first line and the lines after)."""
    starts = [i for i, m in enumerate(messages)
              if m.startswith(("You drew", "You discarded", "You played a "))]
    cut = starts[index]
    end = cut + 1
    while end < len(messages) and not messages[end].startswith("You"):
        end += 1
    return messages[:cut] + messages[end:]


@cache
def _scenarios() -> dict[str, tuple[list[str], bool]]:
    """Game logs by name: their lines, and whether their follower is given edgework."""
    bombs = (("AB3CD4", [2, 2, 1]), ("KZ5LG7", [1]), ("EU2TT5", [2]))
    mission = [BombSpec(serial, holders, {n: simulated_messages(serial, holders, 7 + n, n)},
                        seed=n) for n, (serial, holders) in enumerate(bombs, start=1)]
    # More widget lines than a bomb may have: a notice the next session carries.
    mission[1].ports = ["Parallel"] * 100
    index = sample_index()
    samples = []
    for number, name in enumerate(sample_names()[:3]):
        entry = index[name]
        messages = sample_messages(name)
        if number == 1:
            messages = _without_a_click(messages, -3)
        batteries = entry["batteries"]
        assert isinstance(batteries, int)
        samples.append(BombSpec(str(entry["serial"]), _holders(batteries), {1: messages},
                                seed=number))
    module_lines = [
        modlog.line(n, m)
        for n in (1, 2) for m in simulated_messages("AB3CD4", [2, 2, 1], 30 + n, n)
    ]
    return {
        "a MultipleBombs mission, then a second game session": (
            game_log(mission, seed=3, multiple_bombs=True).lines
            + game_log(mission[:1], seed=4).lines, False),
        "real modules, one id on three bombs, a lost line": (
            game_log(samples, seed=5).lines, False),
        "module lines alone, edgework given": (module_lines, True),
    }


def _follower(given_edgework: bool) -> Follower:
    return Follower(**_GIVEN) if given_edgework else Follower()


@cache
def _uninterrupted(name: str, restart_at: int | None) -> tuple[list[list[Any]], Any]:
    """Each line's advice (as JSON) and the final state of a follower never saved."""
    lines, given_edgework = _scenarios()[name]
    follower = _follower(given_edgework)
    advice = []
    for number, line in enumerate(lines):
        if number == restart_at:
            follower.restart()
        advice.append([a.to_json() for a in follower.feed(line)])
    return advice, _json(follower.state())


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


@settings(max_examples=examples(25), deadline=None)
@given(st.data())
def test_a_follower_rebuilt_at_any_line_goes_on_as_if_never_saved(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(_scenarios())), label="log")
    lines, given_edgework = _scenarios()[name]
    saved_at = data.draw(st.integers(0, len(lines)), label="saved at")
    # The file starting over (the follower restarted) at one of a few places.
    restart_at = data.draw(st.sampled_from((None, len(lines) // 3, len(lines) * 2 // 3)),
                           label="restart at")
    expected, final = _uninterrupted(name, restart_at)
    follower = _follower(given_edgework)
    for number, line in enumerate(lines[:saved_at]):
        if number == restart_at:
            follower.restart()
        follower.feed(line)
    state = _json(follower.state())
    rebuilt = Follower.from_state(state)
    assert _json(rebuilt.state()) == state
    advice = []
    for number, line in enumerate(lines[saved_at:], start=saved_at):
        if number == restart_at:
            rebuilt.restart()
        advice.append([a.to_json() for a in rebuilt.feed(line)])
    assert advice == expected[saved_at:]
    assert _json(rebuilt.state()) == final


def test_the_logs_cover_what_a_state_must_carry() -> None:
    # The scenarios hold what could go wrong in a rebuild: a second game session, an id
    # started again, a module picked up after a lost line, advice on given edgework.
    sessions = set()
    for name, (lines, given_edgework) in _scenarios().items():
        follower = _follower(given_edgework)
        advice = follower.feed_all(lines)
        sessions.add(follower.session)
        if "lost line" in name:
            assert LostTrack() in [a.event for a in advice]
            assert len({a.bomb.number for a in advice if a.bomb is not None}) == 3
        if "second game session" in name:
            assert follower.begun[2] and follower.notices()
            # Only the lines the reader reads are kept: no Unity trailer, no blank
            # line, no other module's line.
            kept = [text for _, text in follower.kept or ()]
            assert kept and all(text.startswith(_READ) for text in kept)
            assert any(text.startswith("[BatteryWidget]") for text in kept)
        if given_edgework:
            assert {a.reply.twitch for a in advice} == {"7", "12"}
            assert all(a.given for a in advice)
    assert sessions == {1, 2}


def _saved() -> dict[str, Any]:
    lines, _ = _scenarios()["a MultipleBombs mission, then a second game session"]
    follower = Follower()
    follower.feed_all(lines[: len(lines) // 3])
    state: dict[str, Any] = _json(follower.state())
    assert state["modules"]
    return state


def _refusal(state: Any) -> str:
    with pytest.raises(SavedFollowError) as caught:
        Follower.from_state(state)
    assert isinstance(caught.value, SavedGameError)
    text = str(caught.value)
    assert "\n" not in text
    return text


def test_a_state_of_another_version_or_shape_is_refused_in_one_line() -> None:
    state = _saved()
    assert "not version 2 of a log follower's state" in _refusal({**state, "version": 1})
    assert "not version 2" in _refusal([state])
    missing = dict(state)
    del missing["begun"]
    assert "incomplete or malformed (KeyError('begun'))" in _refusal(missing)
    assert "incomplete or malformed" in _refusal({**state, "lines": [["x", "y"]]})
    assert "incomplete or malformed" in _refusal({**state, "serial": "??"})


def test_a_state_whose_lines_do_not_replay_to_it_is_refused() -> None:
    state = _saved()
    tampered = _json(state)
    tampered["modules"][0]["solved"] = not tampered["modules"][0]["solved"]
    assert "do not replay to its modules" in _refusal(tampered)
    shuffled = {**state, "lines": state["lines"][::-1]}
    assert "out of order" in _refusal(shuffled)
    early = {**state, "line": state["lines"][-1][0] - 1}
    assert "before its last kept line" in _refusal(early)


def test_a_session_too_long_to_keep_says_it_cannot_be_rebuilt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(follower_mod, "MAX_KEPT_LINES", 20)
    lines, _ = _scenarios()["module lines alone, edgework given"]
    follower = Follower(**_GIVEN)
    follower.feed_all(lines[:40])
    state = _json(follower.state())
    assert state["lines"] is None and state["modules"]
    assert "holds no lines to rebuild from" in _refusal(state)
    # A new game session is kept again from its start.
    follower.restart()
    follower.feed_all(lines[:5])
    assert Follower.from_state(_json(follower.state())).line == 5


def _following(tail: LogTail, follower: Follower, path: Path, seen: list[Any]) -> LogFollowing:
    def emit(advice: Advice) -> None:
        seen.append(advice.to_json())

    def notice(told: FollowNotice) -> None:
        seen.append([told.kind.value, told.session, told.missing, told.restart])

    return LogFollowing(follower, emit, notice)


def _growing_log(path: Path, lines: list[str], step: int) -> None:
    """Write step ``step`` of a log that grows (ending mid-line), is rotated, grows on."""
    text = "".join(line + "\n" for line in lines)
    # The second look ends inside a module's click line.
    middle = text.index("[Exploding Mittens #1] You ", len(text) // 2) + 30
    cuts = [0, len(text) // 4 + 7, middle, middle + 500, len(text) * 3 // 4 + 1, len(text)]
    if step == 2:
        # Rotated: the rest of a line and more written to the old file, which is moved;
        # the game goes on in a new file of the same name.
        with path.open("a") as old:
            old.write(text[cuts[2]:cuts[3]])
        path.rename(path.with_name("Player-prev.log"))
        path.write_text(text[cuts[3]:cuts[4]])
        return
    with path.open("a") as log:
        log.write(text[cuts[step + (step > 2)]:cuts[step + 1 + (step > 2)]])


def test_a_front_end_goes_on_reading_the_log_from_where_its_saved_follower_was(
    tmp_path: Path,
) -> None:
    # The follower and the log's tail are saved while a line is half written, rebuilt,
    # and go on through the rest of that line, a rotation and more lines: the same
    # advice and notices as a front end that never stopped.
    lines, _ = _scenarios()["real modules, one id on three bombs, a lost line"]
    runs: list[list[Any]] = []
    for saved in (False, True):
        folder = tmp_path / str(saved)
        folder.mkdir()
        path = folder / "Player.log"
        seen: list[Any] = []
        tail, follower = LogTail(path), Follower()
        following = _following(tail, follower, path, seen)
        for step in range(4):
            _growing_log(path, lines, step)
            following.take(tail.read())
            if saved and step == 1:
                # Saved with a click line half written, just before the log is rotated.
                state = _json({"tail": tail.state(), "follower": follower.state()})
                assert state["tail"]["partial"]
                tail = LogTail.from_state(state["tail"])
                following = _following(tail, Follower.from_state(state["follower"]), path,
                                       seen)
        runs.append(seen)
    assert runs[0] == runs[1]
    assert any(isinstance(item, list) and item[0] == "restarted" for item in runs[0])
    assert len([item for item in runs[0] if isinstance(item, dict)]) > 20


def test_a_bad_tail_state_is_refused_in_one_line(tmp_path: Path) -> None:
    state = _json(LogTail(tmp_path / "Player.log").state())
    assert LogTail.from_state(state).state() == state
    for bad, words in (
        ({**state, "version": 0}, "not version 1 of a log tail's state"),
        ({**state, "offset": "x"}, "incomplete or malformed"),
        ({**state, "partial": "not base64!"}, "incomplete or malformed"),
        ({**state, "tail": "QUJD"}, "holds more bytes before it or after it"),
    ):
        with pytest.raises(SavedFollowError) as caught:
            LogTail.from_state(bad)
        assert words in str(caught.value) and "\n" not in str(caught.value)
