"""The log-follow session: lines of a game log in, typed advice for every Exploding Mittens
module out.

Contract. :class:`Follower` is sans-I/O: it reads no file and keeps no clock; it takes
lines one at a time and returns an :class:`~defuser.apps.follow.advice.Advice` for every
module whose visible state changed: the bombs, their edgework and the module instances
as the one incremental log reader reads them (:class:`defuser.logs.stream.LogReader`,
the reader of ``mittens log analyze`` too), each module's start-up and clicks from its
typed messages, and the optimal policy's next click
(:func:`defuser.strategy.values.recommend`). It keeps the latest advice of each module
of the current game session (:attr:`Follower.latest`), which every front end shows.

Only what the defuser can see informs the advice: the cards shown, each click and
whether it struck. The module's ``(The Exploding Mitten is coming in N draws.)`` lines
describe the hidden deck and are skipped unread. The rule lines and a blocked discard's
list of slots follow from what the defuser sees; they are read only to rule out bombs
and hand orders the follower could not tell apart (:mod:`defuser.apps.tracking`), so
the advice for a module whose bomb and hand are certain is the same with them deleted.

Sessions, bombs and modules. A new session (the reader's
:class:`~defuser.logs.stream.SessionStarted`) or a file that started over forgets
everything, the latest advice too.
A module may be on any bomb the reader lists for it (a mission with several bombs);
the bombs with the same edgework are one candidate, each candidate its start-up agrees
with is kept, and :class:`~defuser.apps.tracking.Tracked` keeps every way the module
can be (bombs, hand orders) and advises only what is right on all of them, and picks a
module up again after a line that does not follow. Bombs without edgework lines (a log
of module lines only) use the ``fallback`` edgework given to the follower, if any.

State. :meth:`Follower.state` is JSON: where the follower is, each module's latest
advice, and what :meth:`Follower.from_state` rebuilds it from: the edgework and Twitch
Plays codes it was given, the reader's counts where the game session began, and the
session's lines that the reader reads (bombs, rounds, edgework, this module's lines;
at most :data:`MAX_KEPT_LINES`). ``from_state`` feeds those lines again, at their
numbers, to a new follower, checks that they replay to the saved state, and the
follower goes on from the log's next line exactly as the saved one would have; a state
that cannot be rebuilt is a :class:`~defuser.apps.follow.saved.SavedFollowError`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from defuser.apps.follow.advice import (
    Advice,
    FollowEvent,
    LostTrack,
    Moved,
    Narrowed,
    Started,
)
from defuser.apps.follow.saved import SavedFollowError
from defuser.apps.live_session import SessionReply
from defuser.apps.tracking import Candidate, Tracked, View, combine
from defuser.engine import modlog
from defuser.errors import DefuserError
from defuser.logs.stream import (
    EdgeFact,
    EdgeworkKey,
    EdgeworkRead,
    Instance,
    LoggedBomb,
    LogReader,
    ModuleClosed,
    ModuleLineRead,
    ModuleStarted,
    SessionStarted,
    agrees,
    edgework_key,
)
from defuser.strategy.belief import Observation
from defuser.strategy.values import Recommendation
from edgework import (
    TABLE_LETTERS,
    Card,
    EdgeworkError,
    InputError,
    RuleLetter,
    Ruleset,
    SerialNumber,
    TableLetter,
    interval_for,
)
from edgework.tables import rule_digits

#: The version of the shape of :meth:`Follower.state`, which :meth:`Follower.from_state`
#: reads (2: each module's event as typed fields, no words).
FOLLOW_STATE_VERSION: Final = 2
#: The most lines of one game session a follower keeps to be rebuilt from; past it,
#: that session's state can no longer be rebuilt (:meth:`Follower.from_state`).
MAX_KEPT_LINES: Final = 100_000

@dataclass(slots=True)
class _Module:
    """One module instance: its start-up, and every way it can be (:class:`Tracked`)."""

    instance: Instance
    table: TableLetter | None = None
    discard: Card | None = None
    rule: RuleLetter | None = None
    hand: list[Card] = field(default_factory=list)
    tracked: Tracked = field(default_factory=Tracked)
    started: bool = False
    lost: str = ""
    #: What edgework the log did not show and the module needs; a front end says how
    #: to give it.
    needs: tuple[EdgeFact, ...] = ()
    #: The last advice's words, to tell whether a narrowing line changed it.
    advised: str = ""
    #: The line after which the module is being picked up again (0: it is not).
    resyncing: int = 0

    @property
    def module_id(self) -> int:
        """The module's number in the log."""
        return self.instance.module_id


#: Module messages that move nothing the defuser can see: the countdown.
_SKIPPED: Final = (modlog.MittenComingMessage,)
#: Lines that the rules imply from what the defuser sees, but that tell apart the bombs
#: a module may be on, or the orders its hand may be in.
_NARROWING: Final = (
    modlog.RuleMessage, modlog.RuleNowMessage, modlog.BlockingSlotMessage, modlog.StrikeMessage,
)


class Follower:
    """The log-follow session: lines of a game log in, :class:`Advice` out.

    Sans-I/O: it reads no file and keeps no clock (:mod:`~defuser.apps.follow.following`
    does both), so any front end can feed it. Its bombs and module instances come from
    the one incremental reader (:class:`defuser.logs.stream.LogReader`); it keeps, per
    module id, the latest instance's visible state and its latest advice (:attr:`latest`,
    emptied when a game session begins or the file starts over), which the front ends
    show. :meth:`state` is its state as JSON, and
    :meth:`from_state` rebuilds the same follower from it.
    """

    def __init__(
        self,
        *,
        serial: SerialNumber | None = None,
        batteries: int | None = None,
        twitch: Mapping[int, str] | None = None,
    ) -> None:
        self.fallback_serial = serial
        self.fallback_batteries = batteries
        #: Each module's Twitch Plays code by its number in the log (the log never says
        #: which code Twitch Plays gave a module, so it comes from outside).
        self.twitch: dict[int, str] = dict(twitch or {})
        self.session = 1
        self.line = 0
        self.reader = LogReader(bounded_bombs=False)
        self.modules: dict[int, _Module] = {}
        self._edgework_lines = 0
        self._grouped: tuple[
            tuple[LoggedBomb, ...], int, dict[EdgeworkKey, list[LoggedBomb]]
        ] | None = None
        #: The latest advice of each module id (with its session).
        self.latest: dict[int, Advice] = {}
        #: The lines of this game session that the reader reads, with their numbers:
        #: what :meth:`from_state` replays (``None`` past :data:`MAX_KEPT_LINES`).
        self.kept: list[tuple[int, str]] | None = []
        #: Where this session began: its line number before its first line, and the
        #: reader's counts then (problems, what its bounds left out).
        self.begun: tuple[int, int, dict[str, tuple[int, int]]] = (0, 0, {})

    def restart(self) -> None:
        """The file started over (truncated or replaced): forget everything."""
        self.reader.reset()
        self._new_session(0)

    def _new_session(self, line: int) -> None:
        self.session += 1
        self.line = line
        self.modules = {}
        # Only the current session's advice is ever shown again.
        self.latest = {}
        self.kept = []
        self.begun = (line, self.reader.problems, dict(self.reader.over))

    # ------------------------------------------------------------ lines

    def feed_all(self, lines: Iterable[str]) -> list[Advice]:
        """Feed several lines; every change they make, in order."""
        out: list[Advice] = []
        for line in lines:
            out += self.feed(line)
        return out

    def catch_up(self, lines: Iterable[str]) -> list[Advice]:
        """Feed the lines already written without a word; then the latest advice of each
        module of this session still in play (a long log from earlier games does not
        flood the screen)."""
        self.feed_all(lines)
        return [
            advice for advice in self.latest.values()
            if not advice.solved and advice.session == self.session
        ]

    def feed(self, text: str) -> list[Advice]:
        """Read one complete line; the changes it makes (none for most lines)."""
        self.line += 1
        out: list[Advice] = []
        for event in self.reader.feed(self.line, text):
            if isinstance(event, SessionStarted):
                self._new_session(1)
                out = []
            elif isinstance(event, ModuleStarted):
                self.modules[event.instance.module_id] = _Module(event.instance)
            elif isinstance(event, EdgeworkRead):
                self._edgework_lines += 1
            elif isinstance(event, ModuleClosed):
                self._close(event.instance)
            elif isinstance(event, ModuleLineRead) and event.message is not None:
                out += self._module_line(self.modules[event.instance.module_id], event.message)
        for advice in out:
            self.latest[advice.module_id] = advice
        if self.reader.took_line and self.kept is not None:
            if len(self.kept) < MAX_KEPT_LINES:
                self.kept.append((self.line, text))
            else:
                self.kept = None
        return out

    def _close(self, instance: Instance) -> None:
        """The reader no longer reads an instance (too many open): forget it."""
        module = self.modules.get(instance.module_id)
        if module is not None and module.instance is instance:
            del self.modules[instance.module_id]
            self.latest.pop(instance.module_id, None)

    def notices(self) -> list[str]:
        """What the bounds left out so far, one line each (counted by the reader)."""
        return [
            f"{what}: {count:,}, the first on line {first}"
            for what, (first, count) in self.reader.over.items()
        ]

    def state(self) -> dict[str, Any]:
        """The session as JSON: where it is, and each module's latest advice; with what
        :meth:`from_state` rebuilds it from (the version of this shape, the edgework
        and Twitch Plays codes given, where the game session began, and the lines of
        it that the reader reads, ``None`` past :data:`MAX_KEPT_LINES`)."""
        line, problems, over = self.begun
        return {
            "version": FOLLOW_STATE_VERSION,
            "session": self.session,
            "line": self.line,
            "notices": self.notices(),
            "modules": [
                self.latest[m].to_json() for m in sorted(self.latest)
                if self.latest[m].session == self.session
            ],
            "serial": None if self.fallback_serial is None else self.fallback_serial.text,
            "batteries": self.fallback_batteries,
            "twitch": {str(module): code for module, code in sorted(self.twitch.items())},
            "begun": {
                "line": line,
                "problems": problems,
                "over": [[what, first, count] for what, (first, count) in over.items()],
            },
            "lines": None if self.kept is None else [[n, text] for n, text in self.kept],
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Follower:
        """The follower :meth:`state` describes, ready for the log's next line: every
        later line gets the same advice as from the follower that was saved.

        The game session's kept lines are fed again, at their numbers, to a new
        follower with the saved edgework and Twitch Plays codes and the reader's counts
        from where the session began; the replay must reach the saved modules and
        notices. Raises :class:`SavedFollowError` for a state of another version or
        shape, one without its lines (a session longer than :data:`MAX_KEPT_LINES`),
        or one whose lines do not replay to it.
        """
        if not isinstance(state, dict) or state.get("version") != FOLLOW_STATE_VERSION:
            raise SavedFollowError(f"follow state is not version {FOLLOW_STATE_VERSION} of "
                                   "a log follower's state")
        if "lines" in state and state["lines"] is None:
            raise SavedFollowError(
                f"follow state holds no lines to rebuild from: its game session had more "
                f"than {MAX_KEPT_LINES:,} lines to keep"
            )
        try:
            follower = cls._replayed(state)
            same = _as_json(follower.state()) == _as_json(state)
        except SavedFollowError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, InputError) as exc:
            raise SavedFollowError(f"follow state is incomplete or malformed ({exc!r})") from exc
        if not same:
            raise SavedFollowError("follow state's lines do not replay to its modules, "
                                   "notices and line")
        return follower

    @classmethod
    def _replayed(cls, state: dict[str, Any]) -> Follower:
        """A follower with the saved edgework, its session's lines fed again."""
        serial, batteries = state["serial"], state["batteries"]
        follower = cls(
            serial=None if serial is None else SerialNumber.parse(str(serial), strict=False),
            batteries=None if batteries is None else int(batteries),
            twitch={int(module): str(code) for module, code in state["twitch"].items()},
        )
        begun, reader = state["begun"], follower.reader
        follower.session = int(state["session"])
        follower.line = int(begun["line"])
        reader.problems = int(begun["problems"])
        reader.over = {str(what): (int(first), int(count))
                       for what, first, count in begun["over"]}
        follower.begun = (follower.line, reader.problems, dict(reader.over))
        # A session begun by the game's start-up line has read that line already.
        reader.fed = follower.line > 0
        for number, text in state["lines"]:
            if int(number) <= follower.line:
                raise SavedFollowError(f"follow state's line {number} is out of order")
            follower.line = int(number) - 1
            follower.feed(str(text))
        if int(state["line"]) < follower.line:
            raise SavedFollowError(f"follow state is at line {state['line']}, before its "
                                   f"last kept line {follower.line}")
        follower.line = int(state["line"])
        reader.fed = follower.line > 0
        return follower

    # ------------------------------------------------------------ modules

    def _module_line(self, module: _Module, message: modlog.Message) -> list[Advice]:
        if isinstance(message, _SKIPPED):
            return []
        if isinstance(message, modlog.TableMessage):
            # The instance's own table line; one kept inside a running instance (a
            # repeated start-up line) moves nothing.
            if not module.started and module.discard is None:
                module.table = message.table
            return []
        if module.lost:
            return []
        if not module.started:
            return self._start_up(module, message)
        if isinstance(message, _NARROWING):
            return self._narrow(module, message)
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
        if module.lost or isinstance(message, _NARROWING):
            return out
        return out + self._act(module, message)

    def _edge(self, bomb: LoggedBomb) -> tuple[SerialNumber | None, int | None]:
        serial: SerialNumber | None = self.fallback_serial
        if bomb.serial is not None:
            try:
                serial = SerialNumber.parse(bomb.serial, strict=False)
            except EdgeworkError:
                serial = None
        batteries = bomb.batteries if bomb.batteries is not None else self.fallback_batteries
        return serial, batteries

    def _groups(self, choices: tuple[LoggedBomb, ...]) -> dict[EdgeworkKey, list[LoggedBomb]]:
        """The bombs a module may be on, by what the module reads of them (one table
        per mission, made again when an edgework line came since)."""
        cached = self._grouped
        if cached is not None and cached[0] is choices and cached[1] == self._edgework_lines:
            return cached[2]
        groups: dict[EdgeworkKey, list[LoggedBomb]] = {}
        for bomb in choices:
            groups.setdefault(edgework_key(*self._edge(bomb)), []).append(bomb)
        self._grouped = (choices, self._edgework_lines, groups)
        return groups

    def _start(self, module: _Module) -> list[Advice]:
        module.started = True
        if module.discard is None or not module.hand:
            module.lost = "the module's start-up (its discard and hand) is not in the log"
            return [self._advice(module, Started())]
        missing = ""
        for key, bombs in self._groups(module.instance.choices).items():
            serial, batteries = self._edge(bombs[-1])
            if serial is None or batteries is None:
                module.needs = tuple(
                    w for w, v in ((EdgeFact.SERIAL, serial), (EdgeFact.BATTERIES, batteries))
                    if v is None
                )
                missing = "the log has not shown this bomb's " + " and ".join(
                    "serial number" if w is EdgeFact.SERIAL else str(w) for w in module.needs
                )
                continue
            if not agrees(key, module.table, module.discard, module.rule):
                continue
            rules = Ruleset(serial.table, serial.last_digit)
            try:
                obs = Observation.start(rules, interval_for(batteries), module.discard,
                                        module.hand)
            except DefuserError:
                continue
            module.tracked.views.append(View(key, tuple(bombs), obs))
        if not module.tracked.views:
            module.lost = missing or (
                "no bomb's serial number agrees with this module's table and rule lines"
                + _implied(module)
            )
        return [self._advice(module, Started())]

    def _narrow(self, module: _Module, message: modlog.Message) -> list[Advice]:
        """A rule line or a blocked discard's slots: the views they leave out go; the
        advice is given again when that changed it."""
        if not module.tracked.narrow(message):
            return []
        advice = self._advice(module, _narrowed(message))
        before = module.advised
        module.advised = _words_of(advice)
        return [advice] if module.advised != before else []

    def _act(self, module: _Module, message: modlog.Message) -> list[Advice]:
        tracked = module.tracked
        was_resyncing = tracked.resync is not None
        line = tracked.act(message, self.line)
        if line is None:
            module.resyncing = self.line
            return [self._advice(module, LostTrack())]
        picked_up = False
        if was_resyncing and (tracked.resync is None or tracked.resync.picked_up()) and (
            module.resyncing
        ):
            module.resyncing = 0
            picked_up = True
        return [self._advice(module, Moved(line, picked_up))]

    def _advice(self, module: _Module, event: FollowEvent) -> Advice:
        if module.lost:
            bomb = module.instance.bomb
            rec = Recommendation(None, None, module.lost)
            reply = SessionReply(False, module.lost, None, rec)
            return self._advice_for(module, event, bomb, reply, (), module.needs)
        combined = combine(module.tracked)
        view = combined.view
        candidates = combined.candidates
        bomb = candidates[-1].bombs[-1] if candidates else module.instance.bomb
        obs = view.obs if view is not None else None
        reply = SessionReply(True, None, obs, combined.recommendation,
                             play_card=combined.play_card,
                             twitch=self.twitch.get(module.module_id))
        advice = self._advice_for(module, event, bomb, reply, candidates, ())
        module.advised = _words_of(advice)
        return advice

    def _advice_for(
        self, module: _Module, event: FollowEvent, bomb: LoggedBomb, reply: SessionReply,
        candidates: Sequence[Candidate], needs: tuple[EdgeFact, ...],
    ) -> Advice:
        serial, batteries = self._edge(bomb)
        given = tuple(
            what for what, logged, used in (
                (EdgeFact.SERIAL, bomb.serial, serial),
                (EdgeFact.BATTERIES, bomb.batteries, batteries),
            ) if logged is None and used is not None
        )
        count = sum(len(c.bombs) for c in candidates)
        return Advice(self.line, self.session, bomb, module.module_id, event, reply,
                      count <= 1, needs, serial.text if serial is not None else bomb.serial,
                      batteries, given, max(count, 1))


def _as_json(value: Any) -> Any:
    """``value`` as JSON reads it back (tuples as lists, keys as text)."""
    return json.loads(json.dumps(value))


def _narrowed(message: modlog.Message) -> Narrowed:
    if isinstance(message, modlog.RuleMessage | modlog.RuleNowMessage):
        return Narrowed(message.rule)
    return Narrowed()


def _words_of(advice: Advice) -> str:
    rec = advice.reply.recommendation
    return f"{rec.action} {rec.reason}"


def _implied(module: _Module) -> str:
    """What a module's start-up lines imply about its bomb, in words (``: they imply
    Table D and last digit 7``), or nothing when they do not say."""
    table, discard, rule = module.table, module.discard, module.rule
    if table not in TABLE_LETTERS or discard is None:
        return ""
    assert table is not None  # narrowed by the check above
    parts = [f"Table {table}"]
    if rule is not None:
        digits = [str(d) for d in rule_digits(table, discard, rule)]
        if digits:
            head = ", ".join(digits[:-1]) + " or " if len(digits) > 1 else ""
            parts.append(f"last digit {head}{digits[-1]}")
    return ": they imply " + " and ".join(parts)
