"""The policies: never a risky click (checked against the simulator's hidden state),
consistent action values, the exact opening distribution, and a disk cache that survives
corruption and races. (The DP's own values: ``tests/strategy/dp``.)"""

from __future__ import annotations

import json
import math
import random
import threading
from pathlib import Path

import pytest
from engine_helpers import boards_made

from defuser.engine.actions import ActionKind
from defuser.engine.deck import Hidden, opening_distribution
from defuser.engine.simulator import Module, Outcome
from defuser.strategy import cache
from defuser.strategy.belief import Observation
from defuser.strategy.cache import DiskCache
from defuser.strategy.dp.iteration import solve
from defuser.strategy.dp.states import HAND_COUNT, state_index
from defuser.strategy.policy import OptimalPolicy, SafePolicy, make_policy
from defuser.strategy.solutions import SolutionStore, expected_clicks, solution_for
from defuser.strategy.values import action_values, best_action, recommend
from edgework import CardType, Ruleset, TableLetter

SMALL = (Ruleset(TableLetter.B, 7), 9)


# ---------------------------------------------------------------- safety


def _can_strike(module: Module, kind: ActionKind, slot: int | None) -> bool:
    hidden = module.reveal()
    rules = module.rules
    if kind is ActionKind.DRAW:
        return hidden.deals_until_mitten == 0 or len(module.hand) >= 3
    if kind is ActionKind.DISCARD:
        return bool(module.legal_slots) and not (
            len(module.legal_slots) == 1
            and rules.type_of(module.hand[module.legal_slots[0] - 1]) is CardType.DEFUSE
        )
    assert slot is not None
    card = module.hand[slot - 1]
    if rules.type_of(card) is CardType.DEFUSE and hidden.deals_until_mitten == 0:
        return False
    return not rules.is_legal(card, module.discard_top)


@pytest.mark.parametrize("name", ["optimal", "safe", "oracle"])
def test_no_policy_ever_recommends_a_click_that_can_strike(name: str) -> None:
    configs = [(Ruleset(TableLetter.A, 3), 9), (Ruleset(TableLetter.C, 0), 11), SMALL]
    for seed in range(90):
        rules, n = configs[seed % len(configs)]
        module = Module(rules, n, random.Random(1000 + seed))
        policy = make_policy(name, module.reveal)
        obs = Observation.start(rules, n, module.discard_top, module.hand)
        while not module.solved:
            action = policy.choose(obs)
            assert not _can_strike(module, action.kind, action.slot), (seed, action)
            result = module.act(action)
            assert result.outcome is not Outcome.STRIKE
            obs = obs.after(result)
            assert obs.clicks < 400
        assert module.strikes == 0


def test_action_values_agree_with_the_value_and_flag_risk() -> None:
    rules, n = SMALL
    rng = random.Random(7)
    for seed in range(30):
        module = Module(rules, n, random.Random(seed))
        obs = Observation.start(rules, n, module.discard_top, module.hand)
        while not module.solved:
            values = action_values(obs)
            rec = recommend(obs)
            best = best_action(values)
            assert rec.action == best.action and rec.expected_clicks == best.expected_clicks
            assert rec.reason.split(":")[0].lower().startswith(str(best.action).split()[0])
            sol = solution_for(rules, n)
            phase = sol.graph.find(obs.belief)
            assert obs.discard is not None
            here = sol.value(phase, state_index(obs.discard, obs.hand))
            # The cheapest safe click is the state's value to the bit (one arithmetic);
            # the best may be a preferred click within a tie of it.
            assert min(av.expected_clicks for av in values if av.safe) == here
            assert math.isclose(best.expected_clicks, here, rel_tol=1e-9)
            for av in values:
                # A risky click can be cheaper on average (a strike costs one click);
                # the optimum is over safe clicks only.
                assert not av.safe or av.expected_clicks >= here
                if av.action.kind is ActionKind.DRAW and len(obs.hand) < 3:
                    assert av.strike_probability == obs.belief.mitten_on_top
            # Mix in random clicks (strikes included) so odd beliefs are visited.
            action = rng.choice([av.action for av in values]) if rng.random() < 0.3 else rec.action
            assert action is not None
            obs = obs.after(module.act(action))


def test_safe_baseline_never_draws_blind() -> None:
    rules, n = SMALL
    for seed in range(40):
        module = Module(rules, n, random.Random(seed))
        obs = Observation.start(rules, n, module.discard_top, module.hand)
        policy = SafePolicy()
        while not module.solved:
            action = policy.choose(obs)
            if action.kind is ActionKind.DRAW:
                assert obs.belief.deals_until_on_top not in (None, 0)
            obs = obs.after(module.act(action))


def test_optimal_beats_safe_and_oracle_beats_optimal_in_expectation() -> None:
    rules, n = SMALL
    optimal = expected_clicks(rules, n)
    oracle = expected_clicks(rules, n, oracle=True)
    assert oracle < optimal
    # The exact expectation of the optimal policy is what its games average (loose).
    total = 0
    games = 300
    for seed in range(games):
        module = Module(rules, n, random.Random(50_000 + seed))
        obs = Observation.start(rules, n, module.discard_top, module.hand)
        policy = OptimalPolicy()
        while not module.solved:
            obs = obs.after(module.act(policy.choose(obs)))
        total += obs.clicks
    assert abs(total / games - optimal) < 2.0


# ---------------------------------------------------------------- openings


def test_opening_distribution_is_exact() -> None:
    rules = Ruleset(TableLetter.D, 5)
    dist = opening_distribution(rules)
    assert math.isclose(sum(dist.values()), 1.0, rel_tol=1e-12)
    for (discard, hand), _ in dist.items():
        assert discard != rules.mitten and len(hand) == 3
        assert any(rules.is_legal(c, discard) and rules.type_of(c).is_plain for c in hand)
        assert rules.type_of(hand[2]).is_plain  # slot 3 is never re-rolled
    # Compare one rare event with the simulator's start-up: a non-plain card in hand.
    exact = sum(
        w for (_, hand), w in dist.items() if not all(rules.type_of(c).is_plain for c in hand)
    )
    runs = 20_000
    seen = sum(
        1
        for seed in range(runs)
        if not all(rules.type_of(c).is_plain for c in Module(rules, 9, random.Random(seed)).hand)
    )
    sigma = math.sqrt(exact * (1 - exact) / runs)
    assert abs(seen / runs - exact) < 5 * sigma + 1e-9


# ---------------------------------------------------------------- cache


def test_cache_survives_corrupt_and_foreign_files(tmp_path: Path) -> None:
    rules, n = Ruleset(TableLetter.B, 2), 9
    name = f"policy-v1-player-{rules.table}{rules.last_digit}-n{n}.json"
    folder = tmp_path / "exploding-mittens"
    folder.mkdir()
    # Without the shipped solutions, so the disk cache is what is read.
    store = SolutionStore(DiskCache(folder), shipped=False)
    exact = solve(rules, n).cycle_value
    junks = (
        "{not json",
        '{"version": 1, "cycle_value": [1, 2]}',
        "[]",
        "",
        "\x00\xff",
        "[" * 100_000 + "]" * 100_000,
        '{"version": 1, "cycle_value": [' + ",".join(["1" + "0" * 400] * HAND_COUNT) + "]}",
        '{"version": 1, "cycle_value": [' + ",".join(["1" + "0" * 400 + ".5"] * HAND_COUNT)
        + "]}",
        '{"version": 1, "cycle_value": [' + ",".join(["1" * 5000] * HAND_COUNT) + "]}",
    )
    for junk in junks:
        (folder / name).write_text(junk, encoding="utf-8")
        store.clear()
        assert store.solution(rules, n).cycle_value == pytest.approx(exact, abs=1e-9)
        data = json.loads((folder / name).read_text(encoding="utf-8"))
        assert len(data["cycle_value"]) == HAND_COUNT  # rewritten whole
    # A wrong but well-formed entry only costs sweeps; the answer stays exact.
    data["cycle_value"] = [None if v is None else 50.0 for v in data["cycle_value"]]
    (folder / name).write_text(json.dumps(data), encoding="utf-8")
    store.clear()
    assert store.solution(rules, n).cycle_value == pytest.approx(exact, abs=1e-9)


def test_concurrent_writers_leave_a_complete_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    payloads = [{"writer": i, "data": list(range(2000))} for i in range(8)]
    threads = [threading.Thread(target=cache.default_cache().write_json,
                                args=("race.json", p)) for p in payloads]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    got = cache.default_cache().read_json("race.json")
    assert got in payloads
    leftovers = [
        p.name for p in (tmp_path / "exploding-mittens").iterdir() if p.name != "race.json"
    ]
    assert leftovers == []


def test_unwritable_cache_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert cache.default_cache().write_json("x.json", {"a": 1}) is False
    assert cache.default_cache().read_json("x.json") is None


def test_oracle_needs_the_hidden_state() -> None:
    with pytest.raises(ValueError, match="hidden state"):
        make_policy("oracle")
    with pytest.raises(ValueError, match="not known"):
        make_policy("reckless")
    hidden = Hidden(3, None)
    assert make_policy("oracle", lambda: hidden).name == "oracle"


def test_action_values_make_no_board_per_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """A play's value reads the state it leaves from the rulebook's ``played_from``, with
    no board made per play (issue 20: `mittens bench` weighs every play of every answer);
    the observation's own board is the only one."""
    observations = []
    for seed in range(12):
        module = Module(Ruleset(TableLetter.D, 6), 12, random.Random(seed))
        obs = Observation.start(module.rules, module.interval, module.discard_top, module.hand)
        for _ in range(4):
            obs.board  # noqa: B018 - made before counting
            observations.append(obs)
            obs = obs.after(module.act(OptimalPolicy().choose(obs)))
    made = boards_made(monkeypatch)
    plays = 0
    for obs in observations:
        values = action_values(obs)
        plays += sum(av.action.kind is ActionKind.PLAY for av in values)
    assert plays > 50 and made == []
