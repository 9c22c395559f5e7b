"""Build realistic KTaNE game logs around Exploding Mittens lines, for the log tests.

A game log holds much more than this module's lines: Unity repeats every message with
a blank line and a ``(Filename: ... Line: N)`` trailer, the bomb generator announces
each bomb, widgets log their randomisation, other modules log their own lines, and the
bomb logs strikes. :func:`game_log` wraps given module lines in all of that, and can
interleave the lines of several modules of one bomb at random, keeping each module's
own order. It returns the bytes and, for each module, the line numbers its lines got.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

from defuser.engine import modlog
from defuser.engine.actions import Action
from defuser.engine.simulator import Module
from defuser.strategy.belief import Observation
from defuser.strategy.values import recommend
from edgework import Batteries, Edgework, SerialNumber

SAMPLES = Path("/work/shared/samples/real-module-logs")
if not SAMPLES.is_dir():
    SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "samples" / "real-module-logs"

TRAILER = (
    "(Filename: C:/buildslave/unity/build/artifacts/generated/common/runtime/"
    "DebugBindings.gen.cpp Line: 51)"
)

NOISE = (
    "[Wires #{n}] Cut wire 3. Correct.",
    "[The Button #{n}] Holding the button, strip is blue.",
    "[Bomb] Strike from Wires! 1 / 3 strikes",
    "[PaceMaker] PacingEvent: OneStrikeLeft",
    "Kept Ypsilon alive: {n} frames",
    "[Keypad #{n}] Pressed Ϙ: correct.",
)


def sample_names() -> list[str]:
    """The ten real sample logs' file names."""
    return sorted(p.name for p in SAMPLES.glob("sample*.log"))


def sample_index() -> dict[str, dict[str, object]]:
    """``index.json``: serial, batteries, solved, strikes and lines of each sample."""
    data: dict[str, dict[str, object]] = json.loads((SAMPLES / "index.json").read_text())
    return data


def sample_messages(name: str) -> list[str]:
    """A sample's module messages, without the ``[Exploding Mittens #1] `` prefix."""
    prefix = "[Exploding Mittens #1] "
    return [line[len(prefix):] for line in (SAMPLES / name).read_text().splitlines()]


@dataclass
class BombSpec:
    """One bomb of a generated log; ``modules`` maps a module id to its messages."""

    serial: str | None
    holders: list[int]
    modules: dict[int, list[str]]
    seed: int = 1
    indicators: list[str] = field(default_factory=lambda: ["unlit FRK", "lit CAR"])
    ports: list[str] = field(default_factory=lambda: ["Parallel, Serial", ""])


@dataclass
class BuiltLog:
    """A generated game log and where each module's lines ended up (1-based)."""

    data: bytes
    lines: list[str]
    #: (bomb index, module id) -> line number of each of the module's messages.
    numbers: dict[tuple[int, int], list[int]]


def game_log(
    bombs: list[BombSpec],
    *,
    seed: int = 0,
    unity_trailers: bool = True,
    interleave: bool = True,
    newline: str = "\n",
    mission: bool = False,
    multiple_bombs: bool = False,
    rounds: bool = True,
) -> BuiltLog:
    """A whole game log with these bombs, in KTaNE's own format, noise included.

    ``mission`` generates every bomb first and then lets all their modules write, as a
    mission with several bombs at once does; otherwise each bomb is generated and
    played in turn, a round each. ``multiple_bombs`` is the MultipleBombs mod's layout
    of such a mission: every bomb's widgets first, then all the serial numbers, in the
    order the bombs were generated. ``rounds`` writes the game's round lines
    (``[State] Enter GameplayState`` before a round's bombs, ``OnRoundEnd()`` after).
    """
    writer = _LogWriter(bombs, random.Random(seed), unity_trailers, interleave, rounds,
                        multiple_bombs)
    if mission or multiple_bombs:
        writer.round_start()
        for bomb in bombs:
            writer.header(bomb)
        if multiple_bombs:
            writer.emit(f"[MultipleBombs] Bombs generated: {len(bombs)}")
            for bomb in bombs:
                if bomb.serial is not None:
                    writer.emit(f"[SerialNumber] Randomizing Serial Number: {bomb.serial}")
        writer.play(list(range(len(bombs))))
        if multiple_bombs:
            writer.emit("[MultipleBombs] All bombs solved, what a winner!")
        writer.round_end()
    else:
        for index, bomb in enumerate(bombs):
            writer.round_start()
            writer.header(bomb)
            writer.play([index])
            writer.round_end()
    text = newline.join(writer.out) + newline
    return BuiltLog(text.encode("utf-8"), writer.out, writer.numbers)


class _LogWriter:
    """The lines of one generated game log, in the game's order (see :func:`game_log`)."""

    def __init__(self, bombs: list[BombSpec], rng: random.Random, unity_trailers: bool,
                 interleave: bool, rounds: bool, multiple_bombs: bool) -> None:
        self.bombs, self.rng = bombs, rng
        self.trailers, self.interleave = unity_trailers, interleave
        self.rounds, self.serials_last = rounds, multiple_bombs
        self.out = ["Initialize engine version: 2017.4.22f1", "[Startup] Loading mods"]
        self.numbers: dict[tuple[int, int], list[int]] = {}

    def emit(self, text: str) -> int:
        self.out.append(text)
        number = len(self.out)
        if self.trailers:
            self.out.extend(["", TRAILER, ""])
        return number

    def noise(self) -> None:
        for _ in range(self.rng.randrange(0, 3)):
            self.emit(self.rng.choice(NOISE).format(n=self.rng.randrange(1, 9)))

    def header(self, bomb: BombSpec) -> None:
        emit = self.emit
        emit(f"[BombGenerator] Generating bomb with seed {bomb.seed}")
        emit("[BombGenerator] Generator settings: Time: 300, NumStrikes: 3, FrontFaceOnly: False")
        for holder in bomb.holders:
            emit("[WidgetGenerator] Added widget: BatteryWidget at Bottom")
            emit(f"[BatteryWidget] Randomizing Battery Widget: {holder}")
        for indicator in bomb.indicators:
            emit(f"[IndicatorWidget] Randomizing Indicator Widget: {indicator}")
        for ports in bomb.ports:
            emit(f"[PortWidget] Randomizing Port Widget: {ports}")
        if bomb.serial is not None and not self.serials_last:
            emit(f"[SerialNumber] Randomizing Serial Number: {bomb.serial}")
        self.noise()

    def round_start(self) -> None:
        if self.rounds:
            self.emit("[State] Enter GameplayState")
            self.emit("[PaceMaker] Round start! Mission: Free Play Pacing Enabled: False")

    def round_end(self) -> None:
        if self.rounds:
            self.emit("[State] OnRoundEnd()")
            self.emit("[MenuPage] ReturnToSetupRoom")

    def play(self, indexes: list[int]) -> None:
        bombs, rng = self.bombs, self.rng
        queues = {(i, mid): list(msgs) for i in indexes for mid, msgs in bombs[i].modules.items()}
        for key in queues:
            self.numbers[key] = []
        while any(queues.values()):
            live = [key for key, q in queues.items() if q]
            key = rng.choice(live) if self.interleave else live[0]
            message = queues[key].pop(0)
            self.numbers[key].append(self.emit(f"[Exploding Mittens #{key[1]}] {message}"))
            if rng.random() < 0.3:
                self.noise()
        for i in indexes:
            self.emit("[Bomb] Bomb solved" if i % 2 == 0 else "[Bomb] Boom")


def simulated_module(serial: str, holders: list[int], seed: int, module_id: int = 1) -> Module:
    """A seeded simulated module on a bomb with this serial and these battery holders."""
    batteries = Batteries(sum(holders), len(holders))
    return Module.from_edgework(Edgework(SerialNumber.parse(serial), batteries), seed, module_id)


def simulated_messages(
    serial: str, holders: list[int], seed: int, module_id: int = 1, blunders: float = 0.2
) -> list[str]:
    """One module's log messages: a player who follows the policy but sometimes clicks
    at random (strikes included), until the solve."""
    module = simulated_module(serial, holders, seed, module_id)
    rng = random.Random(seed)
    obs = Observation.start(module.rules, module.interval, module.discard_top, module.hand)
    while not module.solved:
        action = recommend(obs).action
        assert action is not None
        if rng.random() < blunders:
            slots = [Action.play(s) for s in range(1, len(module.hand) + 1)]
            action = rng.choice([Action.draw(), Action.discard(), *slots])
        obs = obs.after(module.act(action))
    messages = []
    for line in module.log:
        match = modlog.LINE_PATTERN.match(line)
        assert match is not None
        messages.append(match.group("message"))
    return messages
