"""Follow a KTaNE game log while it is written and advise every Exploding Mittens module.

Contract. :class:`LogTail` reads a growing file: it returns each complete line once,
keeps a line still being written until its end arrives, waits for a file that does not
exist yet, and starts again from the top when the file is truncated, replaced
(rotated) or rewritten. :class:`Follower` takes those lines one at a time and returns
an :class:`Advice` for every module whose visible state changed: the bomb's edgework
from the bomb generator's lines (as :mod:`defuser.logs.reader` reads them), each
module's start-up and clicks from its ``[Exploding Mittens #<id>]`` lines, and the
optimal policy's next click (:func:`defuser.strategy.values.recommend`).

Only what the defuser can see informs the advice: the cards shown, each click and
whether it struck. The module's ``(The Exploding Mitten is coming in N draws.)`` lines
describe the hidden deck and are skipped unread, as are the rule lines (the rules give
them) and the list of blocking cards (the hand gives it). So the advice for a log is
the same with those lines deleted.

Sessions, bombs and modules. ``Initialize engine version`` (the game starting again
and writing to the same file) or a truncated file forgets everything. A bomb starts at
its ``[BombGenerator] Generating bomb`` line; a module belongs to the bomb being
generated when its first line appears, and when several bombs were generated one after
another before any module wrote (a mission with several bombs), to whichever of them
its start-up agrees with (table and rule letters), the latest on a tie. A ``You should
use Table`` line from a module id that has already played starts a new instance. When
two equal faces are in the hand, the log does not say which slot a play took; the
follower takes the slot it advised if that holds the face, else the leftmost one.
Bombs without edgework lines (a log of module lines only) use the ``fallback``
edgework given to the follower, if any.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from defuser.apps.live_session import SessionReply
from defuser.engine import modlog
from defuser.errors import DefuserError
from defuser.logs.reader import MAX_LINE_CHARS, game_line
from defuser.strategy.belief import Observation
from defuser.strategy.values import Recommendation, recommend
from defuser.streams import printable
from edgework import Card, EdgeworkError, Ruleset, SerialNumber, interval_for

#: The line Unity writes first when the game starts: a new session in the same file.
SESSION_START: Final = "Initialize engine version"
#: How many bytes before the read position are compared to notice a rewritten file.
_FINGERPRINT: Final = 64
#: The most bytes taken from the file in one read (the rest waits for the next call).
_MAX_READ: Final = 16 << 20
#: Module messages that move nothing the defuser can see or that the rules imply.
_SKIPPED: Final = (
    modlog.MittenComingMessage, modlog.RuleNowMessage, modlog.BlockingSlotMessage,
    modlog.StrikeMessage,
)


# --------------------------------------------------------------------------- the file


class LogTail:
    """New complete lines of a file that another program is appending to."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._identity: tuple[int, int] | None = None
        self._offset = 0
        self._partial = b""
        self._tail = b""

    def _restart(self) -> None:
        self._offset, self._partial, self._tail = 0, b"", b""

    def read(self) -> tuple[list[str], bool]:
        """The complete lines written since the last call, and whether the file started
        over (truncated, replaced or rewritten: the lines then come from its top).

        A missing or unreadable file gives no lines; it is tried again next time.
        """
        try:
            with self.path.open("rb") as handle:
                stat = os.fstat(handle.fileno())
                identity = (stat.st_dev, stat.st_ino)
                replaced = self._identity is not None and identity != self._identity
                restarted = replaced or stat.st_size < self._offset
                if not restarted and self._tail:
                    handle.seek(self._offset - len(self._tail))
                    restarted = handle.read(len(self._tail)) != self._tail
                if restarted:
                    self._restart()
                self._identity = identity
                handle.seek(self._offset)
                # Bounded reads: a huge file (or a device) is taken a piece at a time.
                data = handle.read(_MAX_READ)
        except OSError:
            return [], False
        if not data:
            return [], restarted
        self._offset += len(data)
        self._tail = (self._tail + data)[-_FINGERPRINT:]
        chunks = (self._partial + data).split(b"\n")
        self._partial = chunks.pop()[:MAX_LINE_CHARS]  # a line never ending is cut
        # Control characters from the file never reach the terminal.
        lines = [
            printable(c[:MAX_LINE_CHARS].rstrip(b"\r").decode("utf-8", errors="replace"))
            for c in chunks
        ]
        return lines, restarted


# --------------------------------------------------------------------------- the game


@dataclass(slots=True)
class BombInfo:
    """One bomb as its generator lines described it."""

    number: int
    line: int | None = None
    serial: str | None = None
    holders: list[int] = field(default_factory=list)
    #: Whether the log showed this bomb's widgets (its generator line or its serial).
    logged: bool = False

    @property
    def batteries(self) -> int | None:
        """The battery count, 0 for a logged bomb with no holder, ``None`` if unknown."""
        if self.holders:
            return sum(self.holders)
        return 0 if self.logged else None


@dataclass(slots=True)
class _Module:
    """One module instance: its start-up, and its observation under each possible bomb."""

    module_id: int
    candidates: list[int]
    table: str | None = None
    discard: Card | None = None
    rule: str | None = None
    hand: list[Card] = field(default_factory=list)
    #: bomb index -> the module as the defuser sees it, if that bomb is the module's.
    views: dict[int, Observation] = field(default_factory=dict)
    started: bool = False
    lost: str = ""
    #: What edgework the log did not show and the module needs (``serial``,
    #: ``batteries``); a front end says how to give it.
    needs: tuple[str, ...] = ()
    advised: Recommendation | None = None
    lines: int = 0


@dataclass(frozen=True, slots=True)
class Advice:
    """A change on one module: what happened at ``line`` and the best next click."""

    line: int
    session: int
    bomb: BombInfo | None
    module_id: int
    event: str
    reply: SessionReply
    #: Whether the module's bomb is certain (several bombs of a mission may fit).
    bomb_certain: bool = True
    #: The edgework the log did not show and the advice needs (``serial``, ``batteries``).
    needs: tuple[str, ...] = ()
    #: The serial number and battery count in use: the log's, else the options' ones.
    serial: str | None = None
    batteries: int | None = None
    #: Which of the two came from the options (``serial``, ``batteries``), not the log.
    given: tuple[str, ...] = ()

    @property
    def solved(self) -> bool:
        """Whether the module is solved."""
        obs = self.reply.observation
        return obs is not None and obs.solved

    def to_json(self) -> dict[str, Any]:
        """One JSON object: where, which bomb and module, what happened, the advice."""
        bomb = self.bomb
        return {
            "line": self.line,
            "session": self.session,
            "bomb": None if bomb is None else {
                "number": bomb.number,
                "serial": self.serial,
                "batteries": self.batteries,
                "given": list(self.given),
                "certain": self.bomb_certain,
            },
            "module": self.module_id,
            "event": self.event,
            "solved": self.solved,
            **self.reply.to_json(),
        }


class Follower:
    """Reads a game log line by line and advises each Exploding Mittens module."""

    def __init__(self, *, serial: SerialNumber | None = None, batteries: int | None = None) -> None:
        self.fallback_serial = serial
        self.fallback_batteries = batteries
        self.session = 0
        self._new_session()

    def _new_session(self) -> None:
        self.session += 1
        self.line = 0
        self.bombs: list[BombInfo] = []
        self._group_start = 0
        self._modules_since_bomb = False
        self.modules: dict[int, _Module] = {}

    def restart(self) -> None:
        """The file started over (truncated or replaced): forget everything."""
        self._new_session()

    # ------------------------------------------------------------ lines

    def feed_all(self, lines: Iterable[str]) -> list[Advice]:
        """Feed several lines; every change they make, in order."""
        out: list[Advice] = []
        for line in lines:
            out += self.feed(line)
        return out

    def feed(self, text: str) -> list[Advice]:
        """Read one complete line; the changes it makes (none for most lines)."""
        self.line += 1
        if text.startswith(SESSION_START) and self.line > 1:
            self._new_session()
            self.line = 1
            return []
        if "[" not in text:
            return []
        tag = text.find("[Exploding Mittens #")
        if tag >= 0:
            match = modlog.LINE_PATTERN.match(text, tag)
            if match is None:
                return []
            return self._module_line(int(match.group("id")), match.group("message").rstrip())
        kind, value = game_line(text)
        if kind == "bomb":
            self.bombs.append(BombInfo(len(self.bombs) + 1, self.line, logged=True))
            if self._modules_since_bomb:
                self._group_start, self._modules_since_bomb = len(self.bombs) - 1, False
            return []
        if kind is None:
            return []
        bomb = self.bombs[-1] if self.bombs else None
        if bomb is None or (kind == "serial" and bomb.serial is not None):
            bomb = BombInfo(len(self.bombs) + 1, None, logged=True)
            self.bombs.append(bomb)
            if self._modules_since_bomb:
                self._group_start, self._modules_since_bomb = len(self.bombs) - 1, False
        if kind == "serial":
            bomb.serial = value
        elif kind == "battery" and value.isascii() and value.isdigit():
            bomb.holders.append(int(value))
        return []

    # ------------------------------------------------------------ modules

    def _module_line(self, module_id: int, text: str) -> list[Advice]:
        message = modlog.parse(text)
        if message is None or isinstance(message, _SKIPPED):
            return []
        self._modules_since_bomb = True
        module = self.modules.get(module_id)
        if isinstance(message, modlog.TableMessage):
            # A table line from an id that has played begins its next instance; a
            # repeated table line right at the start is the same start-up.
            if module is None or module.lines > 1 or module.started:
                module = self._new_module(module_id)
            module.table = message.table
            module.lines = 1
            return []
        if module is None:
            module = self._new_module(module_id)
        module.lines += 1
        if module.lost:
            return []
        if not module.started:
            return self._start_up(module, message)
        if isinstance(message, modlog.RuleMessage):
            return []
        return self._act(module, message)

    def _start_up(self, module: _Module, message: modlog.Message) -> list[Advice]:
        """A line of a module whose start-up is not complete yet."""
        if isinstance(message, modlog.OpeningDiscardMessage):
            module.discard = message.card
            return []
        if isinstance(message, modlog.RuleMessage):
            module.rule = message.rule
            return []
        if isinstance(message, modlog.HandCardMessage):
            module.hand.append(message.card)
            if len(module.hand) < 3:
                return []
            return self._start(module)
        out = self._start(module)
        if module.lost:
            return out
        return out + self._act(module, message)

    def _new_module(self, module_id: int) -> _Module:
        if not self.bombs:
            self.bombs.append(BombInfo(1))
            self._group_start = 0
        module = _Module(module_id, list(range(self._group_start, len(self.bombs))))
        self.modules[module_id] = module
        return module

    def _edge(self, bomb: BombInfo) -> tuple[SerialNumber | None, int | None]:
        serial: SerialNumber | None = self.fallback_serial
        if bomb.serial is not None:
            try:
                serial = SerialNumber.parse(bomb.serial, strict=False)
            except EdgeworkError:
                serial = None
        batteries = bomb.batteries if bomb.batteries is not None else self.fallback_batteries
        return serial, batteries

    def _start(self, module: _Module) -> list[Advice]:
        module.started = True
        if module.discard is None or not module.hand:
            module.lost = "the module's start-up (its discard and hand) is not in the log"
            return [self._advice(module, "start")]
        missing = ""
        for index in module.candidates:
            serial, batteries = self._edge(self.bombs[index])
            if serial is None or batteries is None:
                module.needs = tuple(
                    w for w, v in (("serial", serial), ("batteries", batteries)) if v is None
                )
                missing = "the log has not shown this bomb's " + " and ".join(
                    {"serial": "serial number"}.get(w, w) for w in module.needs
                )
                continue
            rules = Ruleset(serial.table, serial.last_digit)
            if module.table is not None and module.table != rules.table:
                continue
            if module.rule is not None and rules.rule(module.discard) != module.rule:
                continue
            try:
                module.views[index] = Observation.start(
                    rules, interval_for(batteries), module.discard, module.hand
                )
            except DefuserError:
                continue
        if not module.views:
            module.lost = missing or (
                "no bomb's serial number agrees with this module's table and rule lines"
            )
        return [self._advice(module, "start")]

    def _act(self, module: _Module, message: modlog.Message) -> list[Advice]:
        event = ""
        kept: dict[int, Observation] = {}
        for index, obs in module.views.items():
            try:
                event, after = self._apply(module, obs, message)
            except DefuserError:
                continue
            kept[index] = after
        if not kept:
            module.lost = (
                f"line {self.line} does not follow from what the module showed before; "
                "advice stops for this module"
            )
            module.views = {}
            return [self._advice(module, "lost track")]
        module.views = kept
        return [self._advice(module, event)]

    def _slot(self, module: _Module, obs: Observation, card: Card) -> int:
        """The slot holding ``card``: the advised one if it does, else the leftmost."""
        advised = module.advised.action if module.advised is not None else None
        if advised is not None and advised.slot is not None:
            slot = advised.slot
            if slot <= len(obs.hand) and obs.hand[slot - 1] == card:
                return slot
        if card not in obs.hand:
            raise DefuserError(f"{card.code} is not in the hand")
        return obs.hand.index(card) + 1

    def _apply(
        self, module: _Module, obs: Observation, message: modlog.Message
    ) -> tuple[str, Observation]:
        match message:
            case modlog.DrewMessage(card=card):
                return f"drew {card.code}", obs.drew(card)
            case modlog.DiscardedMessage(card=card):
                return f"discarded {card.code}", obs.discarded(card)
            case modlog.PlayedMessage(card=card):
                slot = self._slot(module, obs, card)
                return f"played {slot} ({card.code})", obs.played(slot)
            case modlog.InvalidPlayMessage(card=card):
                slot = self._slot(module, obs, card)
                return f"strike play {slot} ({card.code})", obs.strike_play(slot)
            case modlog.DrawMittenStrikeMessage() | modlog.HandFullStrikeMessage():
                return "strike draw", obs.strike_draw()
            case modlog.DiscardBlockedMessage():
                return "strike discard", obs.strike_discard()
            case modlog.SolvedMessage():
                defuses = obs.defuse_slots()
                advised = module.advised.action if module.advised is not None else None
                if advised is not None and advised.slot in defuses:
                    return "solved", obs.solve(advised.slot)
                return "solved", obs.solve(defuses[0] if defuses else None)
        raise DefuserError(f"a start-up line ({message.name}) in the middle of the game")

    def _advice(self, module: _Module, event: str) -> Advice:
        chosen = max(module.views) if module.views else None
        bomb = self.bombs[chosen] if chosen is not None else self.bombs[module.candidates[-1]]
        if chosen is None:
            rec = Recommendation(None, None, module.lost)
            reply = SessionReply(False, module.lost, None, rec)
        else:
            obs = module.views[chosen]
            rec = recommend(obs)
            reply = SessionReply(True, None, obs, rec)
        module.advised = rec
        certain = len({(o.rules.table, o.rules.last_digit, o.interval)
                       for o in module.views.values()}) <= 1
        needs = module.needs if chosen is None else ()
        serial, batteries = self._edge(bomb)
        given = tuple(
            what for what, logged, used in (
                ("serial", bomb.serial, serial), ("batteries", bomb.batteries, batteries)
            ) if logged is None and used is not None
        )
        return Advice(self.line, self.session, bomb, module.module_id, event, reply, certain,
                      needs, serial.text if serial is not None else bomb.serial, batteries,
                      given)


# --------------------------------------------------------------------------- the loop


def follow(
    path: str | Path,
    emit: Callable[[Advice], None],
    *,
    follower: Follower | None = None,
    poll: float = 0.25,
    stop: Callable[[], bool] = lambda: False,
    catch_up: bool = True,
) -> Follower:
    """Follow ``path`` until ``stop()`` says so, calling ``emit`` for every change.

    With ``catch_up`` the lines already in the file are read first without a word, and
    then the latest advice of each module still in play is emitted once: a long log
    from earlier games does not flood the screen. ``stop`` is asked each time the file
    has nothing new.
    """
    follower = follower if follower is not None else Follower()
    tail = LogTail(path)
    lines, _ = tail.read()
    if catch_up:
        latest: dict[int, Advice] = {}
        for advice in follower.feed_all(lines):
            latest[advice.module_id] = advice
        for advice in latest.values():
            if not advice.solved and advice.session == follower.session:
                emit(advice)
    else:
        for advice in follower.feed_all(lines):
            emit(advice)
    while True:
        lines, restarted = tail.read()
        if restarted:
            follower.restart()
        if not lines:
            if stop():
                # One last look: the writer may have finished just before it said so.
                lines, restarted = tail.read()
                if restarted:
                    follower.restart()
                for advice in follower.feed_all(lines):
                    emit(advice)
                return follower
            time.sleep(poll)
            continue
        for advice in follower.feed_all(lines):
            emit(advice)
