"""The expert's live session: read what the defuser reports, answer the best safe move.

Contract: :class:`LiveSession` turns one input line into one :class:`SessionReply` and never
raises for bad input: a line that cannot be read, or that contradicts the rules or the
history, gives ``ok=False`` with the reason (and the error itself as ``cause``, for a
front end that words errors its own way), and changes nothing. It sees only what the
defuser reports (the solver never sees hidden state). It is sans-I/O and needs no clock:
lines in, replies out; :meth:`LiveSession.state` is its state as JSON and
:meth:`LiveSession.from_state` rebuilds the very same session from it, so the terminal
(:mod:`defuser.commands.live`) and a web page can drive it alike.

Commands, one per line, case-insensitive, cards as codes (``GS``) or words
(``green square``); every line is first read through
:func:`defuser.apps.live_words.expand`, so the short forms of ``mittens play`` and the web
board (``p2``, ``d RC``, ``dr GS``, ``!7 p2``) mean the same here:

* ``serial AB3CD4`` (``serial AB3OD4 lenient`` for a modded bomb's serial), ``batteries 3``
  (or ``3B 2H``), ``edgework "<TP string>"``: set the edgework; a correction keeps the
  module: its reported lines are replayed on the new edgework (those that no longer fit
  are dropped, and ``undo`` brings everything back);
* ``start <discard> <hand cards...>``: the opening state (discard top, then 1-3 cards);
  it also starts a new module on the same bomb;
* ``drew GS``, ``discarded RC`` (the card that landed on the pile), ``played 2``,
  ``strike draw``, ``strike discard``, ``strike play 2``, ``solved``;
* ``twitch 7``: the module's Twitch Plays code, so that the advice is the whole chat
  command (``!7 play 3``); a chat command typed as a report (``!7 p3``) sets it too;
* ``undo`` (it says what it took back), ``redo`` (the line undo took back last, again),
  ``state``, ``help``, ``quit``.

Each line is of one :class:`LineKind`, told by its first word (:func:`line_kind`, the one
list of the session's verbs and their aliases): a front end asks it whether a line reports
what the module did or only asks (``help``, ``state``, ``quit``), and every reply names the
kind of line it answers. A bug inside the session (a :class:`~edgework.errors.MisuseError`
or any other exception) is not bad input: it propagates to the front end's error boundary.

The web board keeps a module as its lines in the page's address and rebuilds the session
from them for every report (:meth:`LiveSession.resume`): the lines are replayed (each one
change that ``undo`` can take back), with the lines ``redo`` would bring back; after a
corrected edgework, the first line that no longer fits and the lines after it are *held*:
kept, not applied. While lines are held the module takes no new report: ``undo`` takes back
the last held line, ``redo`` adds to them. The board reads the session back as
:attr:`LiveSession.history` plus :attr:`LiveSession.held`, and :attr:`LiveSession.redoable`.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from defuser.apps.live_words import expand, twitch_code
from defuser.engine.actions import Action, ActionKind
from defuser.errors import DefuserError, InvalidCommandError, NoOpeningStateError
from defuser.strategy.belief import Observation
from defuser.strategy.values import Recommendation, recommend
from edgework import Batteries, Card, Edgework, EdgeworkError, Ruleset, SerialNumber, parse_hand
from edgework.errors import InvalidSerialError

if TYPE_CHECKING:
    # The events are imported where a line reports one: a first answer reads none.
    from defuser.engine.events import Event

#: How many changes ``undo`` can take back, one after another (older ones are forgotten).
UNDO_DEPTH: Final = 100

#: How a defuser gives the opening state in a session.
_START_SYNTAX: Final = "start <discard> <hand cards>"

#: What can be typed once the module is solved.
AFTER_SOLVE: Final = (
    f"Next: '{_START_SYNTAX}' for another module on this bomb, 'undo' if that was not "
    "the solve, or 'quit'."
)

HELP: Final = """\
Commands (one per line, any case; cards as codes like GS or words like 'green square'):
  serial AB3CD4             set the serial number (a correction keeps the module)
  batteries 3               set the batteries (or '3B 2H'); N = batteries mod 5 + 9
  edgework "<TP string>"    set both from Twitch Plays edgework, e.g. "3B 2H // AB3CD4"
  serial AB3OD4 lenient     a modded bomb's serial (any 6 letters and digits)
  start RC BH GS YT         the opening state: discard top, then the 1-3 hand cards
  drew GS    (dr GS)        a draw put GS in the hand
  discarded RC  (d RC)      a discard put RC on the pile
  played 2   (p2, 2)        slot 2 was played (it is the new discard top)
  strike draw | strike discard | strike play 2   (strike dr, strike d, strike p2)
                            that click struck (nothing moved)
  solved                    the Defuse solved the module
  twitch 7                  the module's Twitch Plays code: advice as '!7 play 3'
  undo                      take back the last line that changed something (up to 100)
  redo                      bring back the line undo took back last
                            (Tab completes commands and cards; Ctrl-C clears the line)
  state                     show where things stand
  help                      this text
  quit                      leave"""


class LineKind(Enum):
    """What a line of the session is, told by its first word (see :func:`line_kind`)."""

    EMPTY = "empty"
    QUIT = "quit"
    HELP = "help"
    STATE = "state"
    UNDO = "undo"
    REDO = "redo"
    TWITCH = "twitch"
    SERIAL = "serial"
    BATTERIES = "batteries"
    EDGEWORK = "edgework"
    START = "start"
    #: A report of what happened on the module: drew, discarded, played, strike, solved.
    EVENT = "event"
    #: No verb of the session (the reply is an error naming the verbs it knows).
    UNKNOWN = "unknown"

    @property
    def asks(self) -> bool:
        """The line asks rather than reports (``help``, ``state``, ``quit``): it never
        changes the session, so it never enters a module's history."""
        return self in _ASKING

    @property
    def sets_edgework(self) -> bool:
        """The line sets the bomb's edgework (``serial``, ``batteries``, ``edgework``)."""
        return self in _EDGEWORK_KINDS


_ASKING: Final = frozenset({LineKind.QUIT, LineKind.HELP, LineKind.STATE})
_EDGEWORK_KINDS: Final = frozenset({LineKind.SERIAL, LineKind.BATTERIES, LineKind.EDGEWORK})

#: Every verb of the session with its aliases: the one list of them.
_VERB_KINDS: Final[dict[str, LineKind]] = {
    **dict.fromkeys(("quit", "exit", "q"), LineKind.QUIT),
    **dict.fromkeys(("help", "?", "h"), LineKind.HELP),
    "state": LineKind.STATE,
    "undo": LineKind.UNDO,
    "redo": LineKind.REDO,
    "twitch": LineKind.TWITCH,
    "serial": LineKind.SERIAL,
    "batteries": LineKind.BATTERIES,
    "edgework": LineKind.EDGEWORK,
    "start": LineKind.START,
    **dict.fromkeys(
        ("drew", "draw", "drawn", "discarded", "discard", "played", "play", "strike",
         "struck", "solved", "solve"),
        LineKind.EVENT,
    ),
}


def line_kind(line: str) -> LineKind:
    """The kind of ``line`` as the session reads it (short forms expanded first)."""
    words = expand(line).split(maxsplit=1)
    if not words:
        return LineKind.EMPTY
    return _VERB_KINDS.get(words[0].lower(), LineKind.UNKNOWN)


@dataclass(frozen=True, slots=True)
class LineOutcome:
    """What one line did to the session: its kind, whether it changed the session (so
    that ``undo`` can take it back), a note for people and the help text to show."""

    kind: LineKind
    changed: bool = False
    #: What the line did, for people (``Table A, N=13``, ``undone``); empty if nothing.
    note: str = ""
    #: Help text to show (``help``).
    help: str = ""

    @property
    def quit(self) -> bool:
        """The line ends the session (``quit``)."""
        return self.kind is LineKind.QUIT


@dataclass(frozen=True, slots=True)
class SessionReply:
    """The answer to one input line."""

    ok: bool
    error: str | None
    observation: Observation | None
    recommendation: Recommendation
    #: What the line did, for people (``Table A, N=13``, ``undone``); empty if nothing.
    note: str = ""
    #: Help text to show (``help``); never part of the JSON object.
    help: str = ""
    quit: bool = False
    #: The error behind ``ok=False``, for a front end to word (see :func:`error_hint`).
    cause: Exception | None = None
    #: The module's Twitch Plays code (``7``), when known: the advice is then a chat command.
    twitch: str | None = None

    @property
    def chat_command(self) -> str | None:
        """The advice as a Twitch Plays chat command (``!7 play 3``), when the code is known."""
        action = self.recommendation.action
        if self.twitch is None or action is None:
            return None
        return f"!{self.twitch} {action}"
    #: A card to play whose slot is not certain (a follower that cannot tell which of
    #: two equal cards was played): the advice names it, and gives no command.
    play_card: Card | None = None
    #: The kind of line this replies to (``None``: a reply to no typed line, such as a
    #: followed log's advice).
    kind: LineKind | None = None

    def to_json(self) -> dict[str, Any]:
        """The protocol object: exactly the documented keys."""
        obs = self.observation
        rec = self.recommendation
        started = obs is not None and obs.discard is not None
        mitten: dict[str, Any] = {
            "known": False,
            "on_top_probability": None,
            "deals_until_on_top": None,
        }
        if obs is not None:
            belief = obs.belief
            mitten = {
                "known": belief.deals_until_on_top is not None,
                "on_top_probability": round(float(belief.mitten_on_top), 6),
                "deals_until_on_top": belief.deals_until_on_top,
            }
        action = rec.action
        kind = "none" if action is None else action.kind.value
        if action is None and self.play_card is not None:
            kind = "play"
        return {
            "ok": self.ok,
            "error": self.error,
            "state": {
                "discard": (
                    obs.discard.code if obs is not None and obs.discard is not None else None
                ),
                "hand": [c.code for c in obs.hand] if obs is not None else [],
            },
            "legal_slots": list(obs.legal_slots) if obs is not None and started else [],
            "discard_allowed": bool(obs is not None and obs.discard_allowed),
            "draw_safe": bool(obs is not None and obs.draw_safe),
            "mitten": mitten,
            "recommendation": {
                "action": kind,
                "slot": None if action is None else action.slot,
                "command": None if action is None else str(action),
                "reason": rec.reason,
                "expected_clicks": _clicks(rec.expected_clicks),
            },
        }

    def lines(self) -> list[str]:
        """One or two short lines for a person (plus the help text when asked)."""
        if self.help:
            return [self.help]
        if not self.ok:
            return [f"error: {self.error}"]
        out: list[str] = []
        if self.note:
            out.append(self.note)
        rec = self.recommendation
        obs = self.observation
        if rec.action is None:
            return out or [rec.reason]
        command = self.chat_command or str(rec.action)
        if obs is None:
            return [f"{command}: {rec.why or rec.reason}"]
        first = f"{command}: {rec.why or rec.reason}"
        if rec.action.slot is not None:
            card = obs.hand[rec.action.slot - 1]
            first = f"{command} ({card.code}): {rec.why or rec.reason}"
        second = f"  cycle: {obs.belief.describe()}"
        if rec.expected_clicks is not None:
            clicks = "?" if math.isinf(rec.expected_clicks) else f"{rec.expected_clicks:.1f}"
            second += f"; about {clicks} clicks to the solve"
        return [first, second] if not out else [out[0], first]


def error_hint(exc: Exception) -> str:
    """What the session adds to an error's own words: the syntax of ``start`` when the
    opening state is missing, else nothing. A front end that words errors its own way
    (from :attr:`SessionReply.cause`) adds this too."""
    if isinstance(exc, NoOpeningStateError):
        return f" ({_START_SYNTAX})"
    if isinstance(exc, InvalidSerialError) and exc.vanilla_only:
        return " (for a modded bomb's serial, give it alone: 'serial <serial> lenient')"
    return ""


class _Saved(NamedTuple):
    """A session state to go back to: the edgework, the module, and its lines (the list
    object then and its length, as later changes only append to it or replace it), the
    line as given whose change it undoes, and that line as read (filled in once the line
    has changed something)."""

    serial: SerialNumber | None
    batteries: Batteries | None
    observation: Observation | None
    lines: list[str]
    length: int
    twitch: str | None
    given: str
    line: str = ""


def _clicks(x: float | None) -> float | None:
    if x is None or math.isinf(x) or math.isnan(x):
        return None
    return round(x, 4)


class LiveSession:
    """One expert session: the edgework, the module's visible history, undo and redo."""

    def __init__(
        self,
        serial: SerialNumber | None = None,
        batteries: Batteries | None = None,
        *,
        lenient_serial: bool = False,
        undo_depth: int = UNDO_DEPTH,
    ) -> None:
        """A session on this edgework (either may come later, by a line), whose ``undo``
        takes back up to ``undo_depth`` changes."""
        self.lenient = lenient_serial
        #: The module's Twitch Plays code (``7``, or letters with letter codes), if known.
        self.twitch: str | None = None
        self.serial = serial
        self.batteries = batteries
        self.observation: Observation | None = self._fresh()
        #: The lines that made the module what it is, since its edgework or its
        #: ``start`` (what :meth:`state` saves).
        self.module_lines: list[str] = []
        # Only the last undo_depth changes can be taken back, so a session of any length
        # holds a bounded amount of memory.
        self._undo: deque[_Saved] = deque(maxlen=undo_depth)
        #: The lines ``undo`` took back, as given, the last one last (what ``redo`` brings
        #: back); any other change forgets them.
        self._redo: list[str] = []
        #: Lines kept but not applied (see :meth:`resume`): the first no longer fits.
        self.held: list[str] = []
        #: Why the first held line does not fit, and its place among the module's lines.
        self.held_reason: str | None = None
        self.held_at = 0

    def state(self) -> dict[str, Any]:
        """The session as JSON: its edgework and the lines that made the module."""
        return {
            "serial": None if self.serial is None else self.serial.text,
            "batteries": None if self.batteries is None else str(self.batteries),
            "lenient_serial": self.lenient,
            "module": list(self.module_lines),
            "twitch": self.twitch,
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> LiveSession:
        """The session :meth:`state` describes (its undo history starts empty)."""
        lenient = bool(state.get("lenient_serial", False))
        serial, batteries = state.get("serial"), state.get("batteries")
        session = cls(
            None if serial is None else SerialNumber.parse(serial, strict=not lenient),
            None if batteries is None else Batteries.parse(batteries),
            lenient_serial=lenient,
        )
        for line in state.get("module", []):
            reply = session.handle(line)
            if not reply.ok:
                raise InvalidCommandError(f"the saved line {line!r} does not apply: {reply.error}")
        twitch = state.get("twitch")
        session.twitch = None if twitch is None else twitch_code(str(twitch))
        session._undo.clear()
        return session

    @classmethod
    def resume(
        cls,
        serial: SerialNumber | None,
        batteries: Batteries | None,
        lines: Sequence[str],
        redo: Sequence[str] = (),
    ) -> LiveSession:
        """The session that ``lines`` make on this edgework, each line one change that
        ``undo`` can take back, with ``redo`` (the last one last) for ``redo``. The first
        line that no longer fits and the lines after it are held (see the module
        docstring)."""
        session = cls(serial, batteries, undo_depth=max(UNDO_DEPTH, len(lines)))
        for index, line in enumerate(lines):
            try:
                session._line(line)
            except (DefuserError, EdgeworkError) as exc:
                session._hold(list(lines[index:]), exc, index)
                break
        session._redo = list(redo)
        return session

    @property
    def history(self) -> list[str]:
        """The lines, as given, whose changes ``undo`` can take back, oldest first."""
        return [saved.given for saved in self._undo]

    @property
    def redoable(self) -> list[str]:
        """The lines ``redo`` would bring back, as given, the next one last."""
        return list(self._redo)

    # ------------------------------------------------------------ state

    def _fresh(self) -> Observation | None:
        if self.serial is None or self.batteries is None:
            return None
        rules = Ruleset(self.serial.table, self.serial.last_digit)
        return Observation.new(rules, self.batteries.interval)

    def recommendation(self) -> Recommendation:
        """The optimal policy's answer for the current state."""
        obs = self.observation
        if obs is None:
            return Recommendation(
                None,
                None,
                f"Give the {self._missing()} first ('serial AB3CD4', 'batteries 3' or "
                "'edgework ...').",
            )
        if obs.discard is None:
            return Recommendation(None, None, f"Give the opening state: {_START_SYNTAX}.")
        return recommend(obs)

    def _missing(self) -> str:
        """What the edgework still lacks: ``serial``, ``batteries`` or both."""
        missing = [
            what
            for what, value in (("serial", self.serial), ("batteries", self.batteries))
            if value is None
        ]
        return " and ".join(missing)

    def edge_note(self) -> str:
        """What the edgework gives: table, Table E column and N."""
        parts = []
        if self.serial is not None:
            parts.append(
                f"serial {self.serial}: Table {self.serial.table}, "
                f"last digit {self.serial.last_digit}"
            )
        if self.batteries is not None:
            parts.append(f"{self.batteries.count} batteries: N={self.batteries.interval}")
        return "; ".join(parts) if parts else "no edgework yet"

    # ------------------------------------------------------------ lines

    def handle(self, line: str) -> SessionReply:
        """Answer one input line; bad or contradictory input changes nothing. Only the
        session's bad input is an error reply: any other exception is a bug, and
        propagates."""
        try:
            outcome = self._line(line)
        except (DefuserError, EdgeworkError) as exc:
            return SessionReply(
                False, _reason(exc), self.observation, self.recommendation(),
                cause=exc, twitch=self.twitch, kind=line_kind(line),
            )
        try:
            rec = self.recommendation()
        except (DefuserError, EdgeworkError) as exc:  # pragma: no cover - defensive
            failed = Recommendation(None, None, str(exc))
            return SessionReply(False, str(exc), self.observation, failed, kind=outcome.kind)
        return SessionReply(
            True, None, self.observation, rec, outcome.note, outcome.help, outcome.quit,
            twitch=self.twitch, kind=outcome.kind,
        )

    def _line(self, line: str, *, keep_redo: bool = False) -> LineOutcome:
        """Apply one line as given, recording it for ``undo`` when it changed something
        (and forgetting what ``redo`` could bring back, unless ``keep_redo``); bad input
        raises and changes nothing."""
        saved = _Saved(self.serial, self.batteries, self.observation, self.module_lines,
                       len(self.module_lines), self.twitch, line)
        text = expand(line)
        try:
            outcome = self._apply(text)
            self._chat_prefix(line, outcome.changed)
        except (DefuserError, EdgeworkError):
            self._restore(saved)
            raise
        if outcome.changed:
            self._undo.append(saved._replace(line=" ".join(text.split())))
            if not keep_redo:
                self._redo.clear()
        return outcome

    def _chat_prefix(self, line: str, changed: bool) -> None:
        """A report typed as a chat command (``!7 p3``) names the module's code."""
        code = twitch_code(line.split()[0]) if changed and line.strip().startswith("!") else None
        if code is not None:
            self.twitch = code

    def _apply(self, line: str) -> LineOutcome:
        """Apply a line (already expanded): what it did."""
        text = line.strip()
        kind = line_kind(text)
        # Any whitespace separates the verb from the rest (a tab as well as a space).
        verb, *tail = text.split(maxsplit=1) or [""]
        verb = verb.lower()
        rest = tail[0].strip() if tail else ""
        if kind in _ASKING or kind is LineKind.EMPTY:
            return self._ask(kind, verb, rest)
        if kind is LineKind.UNDO:
            return self._undo_last(rest)
        if kind is LineKind.REDO:
            return self._redo_last(rest)
        if self.held:
            raise InvalidCommandError(
                f"line {self.held_at + 1} no longer fits; undo back to it or correct the "
                "edgework first"
            )
        if kind is LineKind.TWITCH:
            return self._set_twitch(rest)
        if kind.sets_edgework:
            return self._edgework(kind, rest)
        if kind is LineKind.START:
            return self._start(rest)
        if kind is LineKind.UNKNOWN:
            raise InvalidCommandError(
                f"command {text!r} is not known, expected one of serial, batteries, edgework, "
                "start, drew, discarded, played, strike, solved, undo, state, help, quit"
            )
        return self._report(verb, rest, text)

    def _ask(self, kind: LineKind, verb: str, rest: str) -> LineOutcome:
        """A line that changes nothing: empty, ``quit``, ``help`` or ``state``."""
        if kind is LineKind.QUIT and rest:
            # Only the bare word leaves: a garbled line that merely starts with "q"
            # must not end a session that a program is driving.
            raise InvalidCommandError(
                f"{verb} {rest!r}: {verb} takes nothing after it (type just '{verb}')"
            )
        if kind is LineKind.HELP:
            return LineOutcome(kind, help=HELP)
        if kind is LineKind.STATE:
            return LineOutcome(kind, note=self._state_note())
        return LineOutcome(kind)

    def _edgework(self, kind: LineKind, rest: str) -> LineOutcome:
        """``serial``, ``batteries`` or ``edgework``: set the bomb's edgework."""
        if kind is LineKind.SERIAL:
            return self._set_edge(kind, self._serial(rest), self.batteries)
        if kind is LineKind.BATTERIES:
            batteries = Batteries.parse(_need(rest, "batteries", "a count like 3 or '3B 2H'"))
            return self._set_edge(kind, self.serial, batteries)
        edge = Edgework.parse(
            _unquote(_need(rest, "edgework", 'a TP string like "3B 2H // AB3CD4"')),
            strict=not self.lenient,
        )
        return self._set_edge(
            kind, edge.serial or self.serial, edge.batteries or self.batteries
        )

    def _report(self, verb: str, rest: str, text: str) -> LineOutcome:
        """A report of what happened on the module (``drew GS``, ``played 2``, ...)."""
        obs = self.observation
        if obs is None:
            raise InvalidCommandError(
                f"{verb!r} needs the edgework first: give the {self._missing()}"
            )
        self.observation = obs.apply(_EVENT_VERBS[verb](obs, verb, rest))
        self.module_lines.append(text)
        if self.observation.solved:
            note = f"Solved in {self.observation.clicks} clicks. {AFTER_SOLVE}"
            return LineOutcome(LineKind.EVENT, changed=True, note=note)
        return LineOutcome(LineKind.EVENT, changed=True)

    def _serial(self, rest: str) -> SerialNumber:
        """``serial AB3CD4``, or ``serial AB3OD4 lenient`` (the session reads leniently
        from then on, as with the command line's lenient option)."""
        words = _need(rest, "serial", "a serial number like AB3CD4").split()
        if len(words) == 2 and words[1].lower() == "lenient":
            serial = SerialNumber.parse(words[0], strict=False)
            self.lenient = True
            return serial
        try:
            return SerialNumber.parse(rest, strict=not self.lenient)
        except InvalidSerialError as exc:
            if not exc.vanilla_only:
                raise
            raise InvalidSerialError(
                f"{exc}; for a modded bomb's serial, type 'serial {rest} lenient'"
            ) from None

    def _set_twitch(self, rest: str) -> LineOutcome:
        if rest.lower() in ("off", "none", "-"):
            self.twitch = None
            note = "no Twitch Plays code: the advice is the bare command"
            return LineOutcome(LineKind.TWITCH, changed=True, note=note)
        code = twitch_code(_need(rest, "twitch", "the module's Twitch Plays code, like 7"))
        if code is None:
            raise InvalidCommandError(
                f"twitch {rest!r} is not a Twitch Plays module code, expected a number or "
                "letters like 7 or EM (or 'twitch off')"
            )
        self.twitch = code
        note = f"Twitch Plays module {code}: the advice is its chat command"
        return LineOutcome(LineKind.TWITCH, changed=True, note=note)

    def _undo_last(self, rest: str) -> LineOutcome:
        """``undo``: the last held line taken back, else the last change."""
        if rest:
            raise InvalidCommandError(f"undo {rest!r}: undo takes nothing after it")
        if self.held:
            line = self.held.pop()
            self._redo.append(line)
            if not self.held:
                self.held_reason = None
            return LineOutcome(LineKind.UNDO, note=f"undid '{line}', which was not applied")
        if not self._undo:
            raise InvalidCommandError("there is nothing to undo")
        saved = self._undo.pop()
        self._restore(saved)
        self._redo.append(saved.given)
        return LineOutcome(LineKind.UNDO, note=f"undid '{saved.line}'; now {self._where()}")

    def _redo_last(self, rest: str) -> LineOutcome:
        """``redo``: the line undo took back last, again (held if lines are held, or if
        it no longer fits)."""
        if rest:
            raise InvalidCommandError(f"redo {rest!r}: redo takes nothing after it")
        if not self._redo:
            raise InvalidCommandError("there is nothing to redo")
        line = self._redo.pop()
        if self.held:
            self.held.append(line)
            return LineOutcome(LineKind.REDO, note=f"redid '{line}', held: not applied")
        try:
            self._line(line, keep_redo=True)
        except (DefuserError, EdgeworkError) as exc:
            self._hold([line], exc, len(self._undo))
            return LineOutcome(LineKind.REDO, note=f"redid '{line}', held: {self.held_reason}")
        return LineOutcome(LineKind.REDO, note=f"redid '{line}'; now {self._where()}")

    def _hold(self, lines: list[str], exc: DefuserError | EdgeworkError, at: int) -> None:
        """Keep ``lines`` without applying them: the first does not fit, for ``exc``."""
        self.held, self.held_reason, self.held_at = lines, _reason(exc), at

    def _where(self) -> str:
        """Where things stand now, for a note."""
        return self._state_note() if self.observation is not None else self.edge_note()

    def _set_edge(
        self, kind: LineKind, serial: SerialNumber | None, batteries: Batteries | None
    ) -> LineOutcome:
        # Re-sending the same edgework keeps the game. Another serial or battery count is
        # most often a correction: the module's lines are replayed on it (``start`` begins
        # a new module when it really is another bomb).
        same = (serial, _count(batteries)) == (self.serial, _count(self.batteries))
        self.serial, self.batteries = serial, batteries
        if same and self.observation is not None:
            return LineOutcome(kind, note=f"{self.edge_note()} (unchanged)")
        lines, self.module_lines = self.module_lines, []
        self.observation = self._fresh()
        if not lines or self.observation is None:
            return LineOutcome(kind, True, f"{self.edge_note()}; new module")
        return LineOutcome(kind, True, f"{self.edge_note()}; {self._replay(lines)}")

    def _replay(self, lines: list[str]) -> str:
        """Apply the module's reported lines again on the new edgework, up to the first
        that no longer fits; say how it went."""
        for index, line in enumerate(lines):
            try:
                self._apply(line)
            except (DefuserError, EdgeworkError) as exc:
                dropped = len(lines) - index
                return (
                    f"replayed {_plural(index, 'reported line')}; '{line}' no longer fits "
                    f"({exc}), so it and the {_plural(dropped - 1, 'line')} after it were "
                    "dropped ('undo' brings them back)"
                )
        return f"the module's {_plural(len(lines), 'reported line')} replayed on it"

    def _start(self, rest: str) -> LineOutcome:
        cards = parse_hand(_need(rest, "start", "the discard top then 1-3 hand cards"))
        if len(cards) < 2:
            raise InvalidCommandError(
                f"start {rest!r} gives {len(cards)} card, expected the discard top then "
                "1-3 hand cards"
            )
        obs = self._fresh()
        if obs is None:
            raise InvalidCommandError(
                f"start needs the edgework first: give the {self._missing()}"
            )
        self.observation = obs.opening(cards[0], cards[1:])
        self.module_lines = [f"start {rest}"]
        rule = obs.rules.rule(cards[0])
        note = f"new module: discard {cards[0].code} (rule {rule})"
        return LineOutcome(LineKind.START, changed=True, note=note)

    def _restore(self, saved: _Saved) -> None:
        """Back to a saved state (the module's lines: the list then, cut to its length)."""
        self.serial, self.batteries, self.observation = (
            saved.serial, saved.batteries, saved.observation
        )
        self.twitch = saved.twitch
        del saved.lines[saved.length :]
        self.module_lines = saved.lines

    def _state_note(self) -> str:
        obs = self.observation
        if obs is None or obs.discard is None:
            return self.edge_note()
        hand = " ".join(f"{i}:{c.code}" for i, c in enumerate(obs.hand, start=1)) or "empty"
        legal = ",".join(str(s) for s in obs.legal_slots) or "none"
        rule = obs.rules.rule(obs.discard)
        return (
            f"discard {obs.discard.code} (rule {rule}); hand {hand}; legal {legal}; "
            f"{_plural(obs.clicks, 'click')}, {_plural(obs.strikes, 'strike')}"
        )


def _drew(obs: Observation, verb: str, rest: str) -> Event:
    from defuser.engine.events import Drew

    return Drew(Card.parse(_need(rest, verb, "the card drawn, like GS")))


def _discarded(obs: Observation, verb: str, rest: str) -> Event:
    from defuser.engine.events import Discarded

    return Discarded(Card.parse(_need(rest, verb, "the card that landed on the pile, like RC")))


def _played(obs: Observation, verb: str, rest: str) -> Event:
    from defuser.engine.events import Played

    return Played(_slot(obs, _need(rest, verb, "a slot 1-3")))


def _solved(obs: Observation, verb: str, rest: str) -> Event:
    from defuser.engine.events import Solved

    return Solved(_slot(obs, rest) if rest else None)


def _struck(obs: Observation, verb: str, rest: str) -> Event:
    from defuser.engine.events import Struck

    words = _need(rest, verb, "the click that struck: 'strike draw', 'strike discard' or "
                  "'strike play <1-3>'").split()
    kind = _CLICK_WORDS.get(words[0].lower()) if words else None
    if kind is ActionKind.PLAY and len(words) >= 2:
        return Struck(Action.play(_slot(obs, " ".join(words[1:]))))
    if kind is not None and kind is not ActionKind.PLAY and len(words) == 1:
        return Struck(Action(kind))
    raise InvalidCommandError(
        f"strike {rest!r} is not a strike, expected 'strike draw', 'strike discard' or "
        "'strike play <1-3>'"
    )


_CLICK_WORDS: Final = {kind.value: kind for kind in ActionKind}

#: The verbs that report what happened on the module (aliases included), each with
#: the reader of the rest of its line.
_EVENT_VERBS: Final[dict[str, Callable[[Observation, str, str], Event]]] = {
    **dict.fromkeys(("drew", "draw", "drawn"), _drew),
    **dict.fromkeys(("discarded", "discard"), _discarded),
    **dict.fromkeys(("played", "play"), _played),
    **dict.fromkeys(("strike", "struck"), _struck),
    **dict.fromkeys(("solved", "solve"), _solved),
}


def _reason(exc: DefuserError | EdgeworkError) -> str:
    """A bad line's error as the session words it (with the syntax that helps)."""
    return str(exc) + error_hint(exc)


def _plural(count: int, word: str) -> str:
    """``1 strike``, ``2 strikes``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def _count(batteries: Batteries | None) -> int | None:
    return None if batteries is None else batteries.count


def _need(rest: str, verb: str, what: str) -> str:
    if not rest:
        raise InvalidCommandError(f"{verb} needs {what}")
    return rest


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def _slot(obs: Observation, text: str) -> int:
    """A slot number 1-3, or a card in the hand named by code or words."""
    word = text.strip()
    if word in ("1", "2", "3"):
        return int(word)
    try:
        card = Card.parse(word)
    except EdgeworkError:
        raise InvalidCommandError(
            f"slot {word!r} is not a slot, expected 1, 2 or 3 (or a card in the hand)"
        ) from None
    if card not in obs.hand:
        hand = " ".join(c.code for c in obs.hand) or "empty"
        raise InvalidCommandError(f"{card.code} is not in the hand ({hand})")
    return obs.hand.index(card) + 1

