"""``defuser.strategy.reasons`` on its own: over simulated games, each reason names the
click it explains and says about the mitten only what the player's belief holds."""

from __future__ import annotations

import random

from defuser.engine.actions import ActionKind
from defuser.engine.simulator import Module
from defuser.strategy.belief import Observation
from defuser.strategy.reasons import reason_line, reason_parts
from defuser.strategy.values import action_values, best_action, recommend
from edgework import CardType, Ruleset, TableLetter


def test_each_reason_names_its_click_and_the_mitten_as_the_belief_has_it() -> None:
    configs = [
        (Ruleset(TableLetter.A, 3), 9), (Ruleset(TableLetter.C, 0), 11),
        (Ruleset(TableLetter.D, 7), 13),
    ]
    seen: set[str] = set()
    for seed in range(24):
        rules, n = configs[seed % len(configs)]
        module = Module(rules, n, random.Random(500 + seed))
        obs = Observation.start(rules, n, module.discard_top, module.hand)
        while not module.solved:
            values = action_values(obs)
            best = best_action(values)
            head, why = reason_parts(obs, best, values)
            line = reason_line(obs, best, values)
            assert line == f"{head}: {why}" == recommend(obs).reason
            assert reason_line(obs, best, values) == line  # a function of what is seen
            action = best.action
            if action.kind is ActionKind.PLAY:
                assert action.slot is not None
                card = obs.hand[action.slot - 1]
                assert head.startswith(f"Play {action.slot} ({card.code}")
                assert (", a Defuse)" in head) == (rules.type_of(card) is CardType.DEFUSE)
            else:
                assert head == action.kind.value.capitalize()
            p = obs.belief.mitten_on_top
            if "the mitten is on top" in why:
                assert p == 1
            if "the mitten is not on top" in why:
                assert p == 0
            if "the mitten may be on top" in why or "if the mitten is on top (" in why:
                assert 0 < p < 1
            assert why.endswith(".")
            seen.add(head.split(" ")[0])
            obs = obs.after(module.act(action))
    assert seen == {"Play", "Discard", "Draw"}
