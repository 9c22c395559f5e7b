"""Bombs attributed as the game generates them, in every mission layout.

One bomb after another (each round its own), a mission generating several bombs at
once with each serial number after its own widgets, and the MultipleBombs mod's layout
(every bomb's widgets first, then all the serial numbers in the order the bombs were
generated), with the game's round lines and without them; read by ``log analyze`` and
by ``--follow`` through the same reader.
"""

from __future__ import annotations

import itertools

import pytest
from gamelog_builder import BombSpec, game_log, simulated_messages
from gamelog_stress import endless_ids, many_bombs

from defuser.apps.follow.follower import Follower
from defuser.logs import analysis, stream
from defuser.logs.analysis import analyse_bytes
from defuser.logs.check.module import check_module
from defuser.logs.reader import read_log

#: Two bombs that need different advice: other tables, digits and N.
FIRST = ("AB3CD4", [2, 2, 1])  # Table B, last digit 4, 5 batteries: N = 9
SECOND = ("KZ5LG7", [1])  # Table D, last digit 7, 1 battery: N = 10


def _bombs(modules_per_bomb: int = 1) -> list[BombSpec]:
    specs = []
    module_id = 1
    for bomb, (serial, holders) in enumerate((FIRST, SECOND)):
        modules = {}
        for _ in range(modules_per_bomb):
            modules[module_id] = simulated_messages(serial, holders, 30 + module_id, module_id)
            module_id += 1
        specs.append(BombSpec(serial, holders, modules, seed=100 + bomb))
    return specs


LAYOUTS = {
    "in sequence": {},
    "in sequence, no round lines": {"rounds": False},
    "mission, serials with each bomb": {"mission": True},
    "MultipleBombs": {"multiple_bombs": True},
    "MultipleBombs, no round lines": {"multiple_bombs": True, "rounds": False},
}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_each_bomb_gets_its_own_edgework(layout: str) -> None:
    built = game_log(_bombs(), seed=3, **LAYOUTS[layout])  # type: ignore[arg-type]
    game = read_log(built.data)
    assert [(b.serial, b.batteries) for b in game.bombs] == [("AB3CD4", 5), ("KZ5LG7", 1)]
    assert [b.number for b in game.bombs] == [1, 2]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_analyze_finds_no_inconsistency_and_the_right_bomb(layout: str) -> None:
    built = game_log(_bombs(2), seed=5, **LAYOUTS[layout])  # type: ignore[arg-type]
    result = analyse_bytes(built.data)
    assert result.inconsistency_count == 0
    placed = {m.check.module_id: b.serial for b in result.bombs for m in b.modules}
    assert placed == {1: "AB3CD4", 2: "AB3CD4", 3: "KZ5LG7", 4: "KZ5LG7"}
    for bomb in result.bombs:
        for module in bomb.modules:
            assert module.check.interval == (9 if bomb.serial == "AB3CD4" else 10)


def test_the_multiple_bombs_layout_was_misread_before() -> None:
    # The layout itself: every widget before the first serial number.
    lines = game_log(_bombs(), multiple_bombs=True).lines
    serials = [i for i, line in enumerate(lines) if "Randomizing Serial Number" in line]
    widgets = [i for i, line in enumerate(lines) if "Randomizing Battery Widget" in line]
    assert max(widgets) < min(serials) and serials[1] - serials[0] < 10


def test_a_module_whose_lines_fit_two_bombs_is_not_called_certain() -> None:
    # Two bombs with the same table, digit and N: the lines cannot tell them apart.
    specs = [
        BombSpec("AB3CD4", [2, 2, 1], {1: simulated_messages("AB3CD4", [2, 2, 1], 4, 1)}),
        BombSpec("EF5GH4", [2, 2, 2, 2, 2], {}),
    ]
    result = analyse_bytes(game_log(specs, multiple_bombs=True).data)
    (module,) = [m for b in result.bombs for m in b.modules]
    assert module.bomb_candidates == 2
    assert any(n.startswith("bomb not certain") and "bombs 1, 2" in n for n in module.check.notes)
    document = analysis.to_json([result])
    (entry,) = [m for b in document["files"][0]["bombs"] for m in b["modules"]]
    assert entry["bomb_certain"] is False and entry["bomb_candidates"] == 2


def test_a_module_on_one_bomb_of_a_mission_is_certain() -> None:
    result = analyse_bytes(game_log(_bombs(), multiple_bombs=True).data)
    assert all(m.bomb_candidates == 1 for b in result.bombs for m in b.modules)


def test_many_bombs_then_many_modules_costs_one_check_per_distinct_edgework(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 300 bombs of one round, then 300 modules each with a whole start-up: each module
    # is replayed once per distinct (table, digit, N) its start-up agrees with, never
    # once per bomb, and the bombs a module may be on are shared, not copied.
    calls = []
    def counting(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return check_module(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("defuser.logs.analysis.check_module", counting)
    data = "\n".join(many_bombs(300, 300, edgework=True)).encode()
    game = read_log(data)
    assert len({id(m.bomb_choices) for m in game.modules}) == 1
    result = analyse_bytes(data, judge_decisions=False)
    assert len(result.modules) == 300
    # Table and opening rule leave at most the 5 values of N for a digit or two.
    assert len(calls) <= 300 * 10
    assert result.inconsistency_count == 0


def test_a_follower_fed_endless_distinct_ids_keeps_a_bounded_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(stream, "MAX_OPEN", 40)
    follower = Follower()
    last = 0
    for line in itertools.islice(endless_ids(), 7 * 300):
        follower.feed(line)
        if line.startswith("[Exploding Mittens #"):
            last = int(line[len("[Exploding Mittens #"):].split("]")[0])
        assert len(follower.reader.open) <= 40
        assert len(follower.modules) <= 40 and len(follower.latest) <= 40
    assert len(follower.reader.bombs.round) <= 1
    (notice,) = follower.notices()
    assert notice.startswith("module instances no longer read, more than 40 open at once: ")
    # The modules still open are the latest ones, each still advised.
    assert last > 250 and sorted(follower.modules) == list(range(last - 39, last + 1))
    assert all(a.reply.ok for a in follower.latest.values())


def test_analyze_and_follow_bound_the_bombs_of_one_round(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(stream, "MAX_BOMBS", 50)
    lines = list(many_bombs(80, 3, edgework=True))
    game = read_log("\n".join(lines).encode())
    assert len(game.bombs) == 50
    # 30 bombs past the bound, each a generator, a battery and a serial number line.
    assert any(p.message.startswith("lines of bombs past the first 50 not read: 90,")
               for p in game.problems)
    assert [b.serial for b in game.bombs] == [
        line.rsplit(" ", 1)[1] for line in lines if "Serial Number" in line][:50]
    follower = Follower()
    follower.feed_all(lines)
    assert len(follower.reader.bombs.round) == 50
    assert follower.notices() == [
        "lines of bombs past 50 in one round not read: 90, the first on line 103"]
    # The serial numbers still go to the bombs kept, in their order.
    serials = [line.rsplit(" ", 1)[1] for line in lines if "Serial Number" in line]
    assert [b.serial for b in follower.reader.bombs.round] == serials[:50]
