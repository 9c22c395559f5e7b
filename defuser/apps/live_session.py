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
* ``undo`` (it says what it took back), ``state``, ``help``, ``quit``.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
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
                            (Tab completes commands and cards; Ctrl-C clears the line)
  state                     show where things stand
  help                      this text
  quit                      leave"""


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
    object then and its length, as later changes only append to it or replace it), and
    the line whose change it undoes (filled in once the line has changed something)."""

    serial: SerialNumber | None
    batteries: Batteries | None
    observation: Observation | None
    lines: list[str]
    length: int
    twitch: str | None
    line: str = ""


def _clicks(x: float | None) -> float | None:
    if x is None or math.isinf(x) or math.isnan(x):
        return None
    return round(x, 4)


class LiveSession:
    """One expert session: the edgework, the module's visible history, and undo."""

    def __init__(
        self,
        serial: SerialNumber | None = None,
        batteries: Batteries | None = None,
        *,
        lenient_serial: bool = False,
    ) -> None:
        """A session on this edgework (either may come later, by a line)."""
        self.lenient = lenient_serial
        #: The module's Twitch Plays code (``7``, or letters with letter codes), if known.
        self.twitch: str | None = None
        self.serial = serial
        self.batteries = batteries
        self.observation: Observation | None = self._fresh()
        #: The lines that made the module what it is, since its edgework or its
        #: ``start`` (what :meth:`state` saves).
        self.module_lines: list[str] = []
        # Only the last UNDO_DEPTH changes can be taken back, so a session of any length
        # holds a bounded amount of memory.
        self._undo: deque[_Saved] = deque(maxlen=UNDO_DEPTH)

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
        """Answer one input line; bad or contradictory input changes nothing."""
        saved = _Saved(self.serial, self.batteries, self.observation, self.module_lines,
                       len(self.module_lines), self.twitch)
        text = expand(line)
        try:
            note, help_text, quit_, changed = self._apply(text)
            self._chat_prefix(line, changed)
        except (DefuserError, EdgeworkError) as exc:
            self._restore(saved)
            return SessionReply(
                False, str(exc) + error_hint(exc), self.observation, self.recommendation(),
                cause=exc, twitch=self.twitch,
            )
        except Exception as exc:  # pragma: no cover - the session must never crash
            self._restore(saved)
            return SessionReply(
                False, f"internal error: {type(exc).__name__}: {exc}", self.observation,
                self.recommendation(),
            )
        if changed:
            self._undo.append(saved._replace(line=" ".join(text.split())))
        try:
            rec = self.recommendation()
        except (DefuserError, EdgeworkError) as exc:  # pragma: no cover - defensive
            failed = Recommendation(None, None, str(exc))
            return SessionReply(False, str(exc), self.observation, failed)
        return SessionReply(
            True, None, self.observation, rec, note, help_text, quit_, twitch=self.twitch
        )

    def _chat_prefix(self, line: str, changed: bool) -> None:
        """A report typed as a chat command (``!7 p3``) names the module's code."""
        code = twitch_code(line.split()[0]) if changed and line.strip().startswith("!") else None
        if code is not None:
            self.twitch = code

    def _apply(self, line: str) -> tuple[str, str, bool, bool]:
        """Apply a line: (note, help text, quit?, changed?)."""
        text = line.strip()
        if not text:
            return "", "", False, False
        # Any whitespace separates the verb from the rest (a tab as well as a space).
        verb, *tail = text.split(maxsplit=1)
        verb = verb.lower()
        rest = tail[0].strip() if tail else ""
        if verb in ("quit", "exit", "q"):
            # Only the bare word leaves: a garbled line that merely starts with "q"
            # must not end a session that a program is driving.
            if rest:
                raise InvalidCommandError(
                    f"{verb} {rest!r}: {verb} takes nothing after it (type just '{verb}')"
                )
            return "", "", True, False
        if verb in ("help", "?", "h"):
            return "", HELP, False, False
        if verb == "state":
            return self._state_note(), "", False, False
        if verb == "undo":
            return self._undo_last(rest)
        if verb == "twitch":
            return self._set_twitch(rest)
        if verb == "serial":
            return self._set_edge(self._serial(rest), self.batteries)
        if verb == "batteries":
            batteries = Batteries.parse(_need(rest, "batteries", "a count like 3 or '3B 2H'"))
            return self._set_edge(self.serial, batteries)
        if verb == "edgework":
            edge = Edgework.parse(
                _unquote(_need(rest, "edgework", 'a TP string like "3B 2H // AB3CD4"')),
                strict=not self.lenient,
            )
            return self._set_edge(edge.serial or self.serial, edge.batteries or self.batteries)
        if verb == "start":
            return self._start(rest)
        if verb not in _EVENT_VERBS:
            raise InvalidCommandError(
                f"command {text!r} is not known, expected one of serial, batteries, edgework, "
                "start, drew, discarded, played, strike, solved, undo, state, help, quit"
            )
        obs = self.observation
        if obs is None:
            raise InvalidCommandError(
                f"{verb!r} needs the edgework first: give the {self._missing()}"
            )
        self.observation = obs.apply(_EVENT_VERBS[verb](obs, verb, rest))
        self.module_lines.append(text)
        if self.observation.solved:
            return f"Solved in {self.observation.clicks} clicks. {AFTER_SOLVE}", "", False, True
        return "", "", False, True

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

    def _set_twitch(self, rest: str) -> tuple[str, str, bool, bool]:
        if rest.lower() in ("off", "none", "-"):
            self.twitch = None
            return "no Twitch Plays code: the advice is the bare command", "", False, True
        code = twitch_code(_need(rest, "twitch", "the module's Twitch Plays code, like 7"))
        if code is None:
            raise InvalidCommandError(
                f"twitch {rest!r} is not a Twitch Plays module code, expected a number or "
                "letters like 7 or EM (or 'twitch off')"
            )
        self.twitch = code
        return f"Twitch Plays module {code}: the advice is its chat command", "", False, True

    def _undo_last(self, rest: str) -> tuple[str, str, bool, bool]:
        if rest:
            raise InvalidCommandError(f"undo {rest!r}: undo takes nothing after it")
        if not self._undo:
            raise InvalidCommandError("there is nothing to undo")
        saved = self._undo.pop()
        self._restore(saved)
        where = self._state_note() if self.observation is not None else self.edge_note()
        return f"undid '{saved.line}'; now {where}", "", False, False

    def _set_edge(
        self, serial: SerialNumber | None, batteries: Batteries | None
    ) -> tuple[str, str, bool, bool]:
        # Re-sending the same edgework keeps the game. Another serial or battery count is
        # most often a correction: the module's lines are replayed on it (``start`` begins
        # a new module when it really is another bomb).
        same = (serial, _count(batteries)) == (self.serial, _count(self.batteries))
        self.serial, self.batteries = serial, batteries
        if same and self.observation is not None:
            return f"{self.edge_note()} (unchanged)", "", False, False
        lines, self.module_lines = self.module_lines, []
        self.observation = self._fresh()
        if not lines or self.observation is None:
            return f"{self.edge_note()}; new module", "", False, True
        return f"{self.edge_note()}; {self._replay(lines)}", "", False, True

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

    def _start(self, rest: str) -> tuple[str, str, bool, bool]:
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
        return f"new module: discard {cards[0].code} (rule {rule})", "", False, True

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

