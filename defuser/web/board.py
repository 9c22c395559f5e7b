"""The expert's board: a bomb's edgework and its modules, read from the page's address.

Contract: the whole state of the board lives in the URL's query, so a refresh, the back
button, a closed tab or a restarted server never loses it and a link can be shared:

* ``serial``, ``batteries`` (a count, or batteries and holders such as ``3B 2H``) and
  ``edgework`` (the Twitch Plays notation, pasted whole; its serial and batteries win over
  the other two when it gives them);
* one ``m`` per Exploding Mittens module on the bomb: the lines reported so far, in the
  language of ``mittens live`` (``start RC BH GS YT``, ``drew GS``, ``played 2``,
  ``strike draw``, ...), joined by ``;``;
* one ``tp`` per module (optional): its Twitch Plays module number.

:func:`evaluate` resumes each module's
:class:`~defuser.apps.live_session.LiveSession` (the session ``mittens live`` uses) from its
lines and returns plain data (the JSON API sends it as is; the HTML page is rendered from
it). A line that no longer fits, after the edgework was corrected, is named with the
reason; the session holds it and the lines after it. A report, ``undo`` and ``redo`` go to
that session too (:func:`attempt`), which says what kind of line each is and why one is
refused; the board asks it rather than knowing the verbs.
"""

from __future__ import annotations

import math
import re
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from defuser.apps.live_session import LineKind, LiveSession, SessionReply, line_kind
from defuser.strategy.belief import Observation
from edgework import (
    ALL_CARDS,
    MITTEN_FACES,
    RULE_TEXTS,
    TABLE_CONDITIONS,
    Batteries,
    Card,
    Edgework,
    EdgeworkError,
    Ruleset,
    SerialNumber,
)

#: At most this many modules on one board, and this many lines per module (a module is
#: solved in a few dozen clicks; the bound keeps an address, and the work it asks, small).
MAX_MODULES: Final = 12
MAX_LINES: Final = 200
#: At most this many lines on a whole board (each request replays them).
MAX_BOARD_LINES: Final = 1200
#: The longest line of a module accepted from an address.
MAX_LINE_CHARS: Final = 120


@dataclass(frozen=True)
class BoardQuery:
    """The board as its address gives it (see the module docstring)."""

    serial: str = ""
    batteries: str = ""
    edgework: str = ""
    modules: tuple[tuple[str, ...], ...] = ((),)
    twitch: tuple[int | None, ...] = ()
    #: Per module, the lines taken back by undo, most recent last (what redo brings back).
    undone: tuple[tuple[str, ...], ...] = ()
    #: Per module, the faces clicked so far for an opening state not yet complete.
    pending: tuple[str, ...] = ()
    #: A line refused by the last report, with its module (the reason is worked out again
    #: when the board is shown, so an address cannot make the page say anything else).
    rejected: tuple[int, str] | None = None

    @classmethod
    def from_params(cls, params: Mapping[str, Sequence[str]]) -> BoardQuery:
        """Read the query parameters (each name with all its values)."""
        modules = _within_board(_line_lists(params.get("m", ()), MAX_MODULES)) or ((),)
        count = len(modules)
        twitch = tuple(_module_number(t) for t in list(params.get("tp", ()))[:count])
        undone = _line_lists(params.get("u", ()), count)
        pending = tuple(" ".join(p.split()[:4])[:20] for p in list(params.get("p", ()))[:count])
        return cls(
            _first(params, "serial"), _first(params, "batteries"), _first(params, "edgework"),
            modules, twitch, undone, pending, _rejected(params, count),
        )

    def twitch_number(self, index: int) -> int | None:
        """The Twitch Plays number of module ``index`` (0-based), if given."""
        return self.twitch[index] if index < len(self.twitch) else None

    def undone_of(self, index: int) -> tuple[str, ...]:
        """Module ``index``'s lines that redo would bring back."""
        return self.undone[index] if index < len(self.undone) else ()

    def pending_of(self, index: int) -> str:
        """Module ``index``'s faces clicked towards an opening state."""
        return self.pending[index] if index < len(self.pending) else ""

    def to_params(self) -> list[tuple[str, str]]:
        """The query parameters that give this board back (the canonical address)."""
        params: list[tuple[str, str]] = [
            (name, value)
            for name, value in (
                ("serial", self.serial), ("batteries", self.batteries),
                ("edgework", self.edgework),
            )
            if value
        ]
        count = len(self.modules)
        params += [("m", ";".join(lines)) for lines in self.modules]
        if any(self.twitch_number(i) for i in range(count)):
            params += [("tp", str(self.twitch_number(i) or "")) for i in range(count)]
        if any(self.undone_of(i) for i in range(count)):
            params += [("u", ";".join(self.undone_of(i))) for i in range(count)]
        if any(self.pending_of(i) for i in range(count)):
            params += [("p", self.pending_of(i)) for i in range(count)]
        if self.rejected is not None:
            index, line = self.rejected
            params += [("rm", str(index)), ("rl", line)]
        return params


def _first(params: Mapping[str, Sequence[str]], name: str) -> str:
    values = params.get(name, ())
    return values[0].strip()[:200] if values else ""


def _module_number(text: str) -> int | None:
    text = text.strip().lstrip("!#")
    return int(text) if text.isdigit() and 0 < int(text) < 1000 else None


def _line_lists(values: Sequence[str], most: int) -> tuple[tuple[str, ...], ...]:
    return tuple(
        tuple(line.strip()[:MAX_LINE_CHARS] for line in raw.split(";") if line.strip())[
            :MAX_LINES
        ]
        for raw in list(values)[:most]
    )


def _within_board(modules: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    kept: list[tuple[str, ...]] = []
    room = MAX_BOARD_LINES
    for lines in modules:
        kept.append(lines[:room])
        room -= len(kept[-1])
    return tuple(kept)


def _rejected(params: Mapping[str, Sequence[str]], count: int) -> tuple[int, str] | None:
    index = _first(params, "rm")
    if not index.isdigit() or int(index) >= count:
        return None
    return int(index), _first(params, "rl")[:MAX_LINE_CHARS]


@dataclass(frozen=True)
class EdgeReading:
    """The edgework as read from the query: values where they parse, errors where not."""

    serial: SerialNumber | None
    batteries: Batteries | None
    errors: Mapping[str, str]

    def to_json(self) -> dict[str, Any]:
        """The ``edgework`` object of the board's JSON."""
        serial, batteries = self.serial, self.batteries
        out: dict[str, Any] = {
            "serial": None if serial is None else str(serial),
            "table": None if serial is None else serial.table,
            "last_digit": None if serial is None else serial.last_digit,
            "why_table": None if serial is None else TABLE_CONDITIONS[serial.table],
            "mitten_face": None if serial is None else MITTEN_FACES[serial.table].code,
            "batteries": None if batteries is None else batteries.count,
            "interval": None if batteries is None else batteries.interval,
            "errors": dict(self.errors),
        }
        return out


def read_edgework(query: BoardQuery) -> EdgeReading:
    """The serial and batteries the query gives, each error worded for its field."""
    errors: dict[str, str] = {}
    serial: SerialNumber | None = None
    batteries: Batteries | None = None
    if query.edgework:
        try:
            edge = Edgework.parse(query.edgework)
            serial, batteries = edge.serial, edge.batteries
        except EdgeworkError as exc:
            errors["edgework"] = str(exc)
    if serial is None and query.serial:
        try:
            serial = SerialNumber.parse(query.serial)
        except EdgeworkError as exc:
            errors["serial"] = str(exc)
    if batteries is None and query.batteries:
        try:
            batteries = holders(query.batteries) or Batteries.parse(query.batteries)
        except EdgeworkError as exc:
            errors["batteries"] = str(exc)
    return EdgeReading(serial, batteries, errors)


_HOLDER: Final = re.compile(r"(?:(\d+)\s*(?:x\s*)?)?(AA|D)\b", re.IGNORECASE)


def holders(text: str) -> Batteries | None:
    """Batteries written as holders (``1AA 1D``, ``2 x AA``, ``AA D``), or None if the text
    is not in that form. An AA holder holds 2 batteries, a D holder 1."""
    found = _HOLDER.findall(text)
    if not found or re.sub(r"[\s,+&]", "", _HOLDER.sub("", text)):
        return None
    aa = sum(int(n or 1) for n, kind in found if kind.upper() == "AA")
    d = sum(int(n or 1) for n, kind in found if kind.upper() == "D")
    return Batteries.from_holders(aa, d)


def evaluate(query: BoardQuery) -> dict[str, Any]:
    """The whole board as plain data: the edgework and every module's advice."""
    edge = read_edgework(query)
    modules = []
    for index, lines in enumerate(query.modules):
        module = evaluate_module(edge, lines, index + 1, query.twitch_number(index))
        module["undone"] = list(query.undone_of(index))
        module["pending"] = query.pending_of(index)
        rejected = query.rejected
        module["rejected"] = (
            refusal(edge, query, index, rejected[1])
            if rejected is not None and rejected[0] == index
            else None
        )
        modules.append(module)
    return {"edgework": edge.to_json(), "modules": modules, "faces": faces(edge.serial)}


#: Why a line that asks rather than reports (``help``, ``state``, ``quit``) is refused.
NOT_A_REPORT: Final = (
    "that is not a report of what the module did (help: the Keys section below)"
)


def module_session(edge: EdgeReading, query: BoardQuery, index: int) -> LiveSession:
    """Module ``index``'s live session, resumed from its lines and its redo list."""
    return LiveSession.resume(
        edge.serial, edge.batteries, query.modules[index], query.undone_of(index)
    )


def attempt(
    edge: EdgeReading, query: BoardQuery, index: int, line: str
) -> tuple[LiveSession | None, str | None]:
    """Module ``index``'s session after ``line`` (a report, ``undo`` or ``redo``), or
    why the line cannot be added to it now: a line that asks rather than reports, a
    module already at its most lines, or the session's own reason."""
    kind = line_kind(line)
    if kind.asks:
        return None, NOT_A_REPORT
    lines = query.modules[index]
    if kind not in (LineKind.UNDO, LineKind.REDO) and len(lines) >= MAX_LINES:
        return None, f"a module holds at most {MAX_LINES} lines"
    session = module_session(edge, query, index)
    reply = session.handle(line)
    return (session, None) if reply.ok else (None, reply.error or "")


def refusal(edge: EdgeReading, query: BoardQuery, index: int, line: str) -> dict[str, Any] | None:
    """Why ``line`` cannot be added to module ``index`` now, or None if it can."""
    _, why = attempt(edge, query, index, line)
    return None if why is None else {"line": line, "error": why}


#: How many module evaluations are remembered: a report evaluates the module before and
#: after its line, and the page that follows shows the latter again.
MEMO_SIZE: Final = 512
_memo: OrderedDict[tuple[object, ...], dict[str, Any]] = OrderedDict()
_memo_lock = threading.Lock()


def evaluate_module(
    edge: EdgeReading, lines: Sequence[str], number: int, twitch: int | None
) -> dict[str, Any]:
    """One module: its lines replayed, the advice for where it stands (remembered)."""
    batteries = edge.batteries
    key = (
        None if edge.serial is None else str(edge.serial),
        None if batteries is None else (batteries.count, batteries.holders),
        tuple(lines), number, twitch,
    )
    with _memo_lock:
        found = _memo.get(key)
        if found is not None:
            _memo.move_to_end(key)
            return dict(found)
    found = _replay(edge, lines, number, twitch)
    with _memo_lock:
        _memo[key] = found
        if len(_memo) > MEMO_SIZE:
            _memo.popitem(last=False)
    return dict(found)


def _replay(
    edge: EdgeReading, lines: Sequence[str], number: int, twitch: int | None
) -> dict[str, Any]:
    session = LiveSession.resume(edge.serial, edge.batteries, lines)
    reply = session.handle("state")
    failed: dict[str, Any] | None = None
    if session.held:
        failed = {"index": session.held_at, "line": session.held[0],
                  "error": session.held_reason}
    live = reply.to_json()
    live["ok"], live["error"] = True, None
    return {
        "number": number,
        "twitch_number": twitch,
        "lines": list(lines),
        "applied": len(lines) - len(session.held),
        "failed": failed,
        "live": live,
        "view": module_view(reply, twitch),
    }


def module_view(reply: SessionReply, twitch: int | None) -> dict[str, Any]:
    """What the page draws for one module beyond the live JSON: cards, badge, gauge."""
    obs, rec = reply.observation, reply.recommendation
    started = obs is not None and obs.discard is not None
    view: dict[str, Any] = {
        "started": started, "solved": bool(obs is not None and obs.solved),
        "badge": _badge(reply), "why": rec.why or rec.reason,
        "twitch_command": None, "discard": None, "hand": [], "options": [],
        "clicks": 0 if obs is None else obs.clicks,
        "strikes": 0 if obs is None else obs.strikes,
        "cycle": None,
    }
    if obs is None or obs.discard is None:
        return view
    rules = obs.rules
    legal = set(obs.legal_slots)
    view["discard"] = {
        **card_json(obs.discard, rules),
        "rule": rules.rule(obs.discard),
        "rule_text": RULE_TEXTS[rules.rule(obs.discard)],
    }
    view["hand"] = [
        {**card_json(card, rules), "slot": slot, "legal": slot in legal}
        for slot, card in enumerate(obs.hand, start=1)
    ]
    view["options"] = [value.to_json() for value in rec.values]
    view["cycle"] = _cycle(obs)
    if rec.action is not None and twitch is not None:
        view["twitch_command"] = f"!{twitch} {rec.action}"
    return view


def _badge(reply: SessionReply) -> dict[str, Any]:
    rec, obs = reply.recommendation, reply.observation
    if rec.action is None:
        solved = obs is not None and obs.solved
        text = "SOLVED" if solved else "WAITING" if reply.ok else "STOPPED"
        return {"text": text, "card": None, "expected_clicks": None}
    card = None
    if rec.action.slot is not None and obs is not None:
        card = obs.hand[rec.action.slot - 1].code
    clicks = rec.expected_clicks
    return {
        "text": str(rec.action).upper(),
        "card": card,
        "expected_clicks": None if clicks is None or math.isinf(clicks) else round(clicks, 2),
    }


def _cycle(obs: Observation) -> dict[str, Any]:
    belief = obs.belief
    known = belief.deals_until_on_top
    return {
        "interval": belief.interval,
        "deals_until_on_top": known,
        "on_top_probability": round(float(belief.mitten_on_top), 4),
        "defuse_next_probability": round(float(belief.defuse_next), 4),
        "words": belief.describe(),
    }


def card_json(card: Card, rules: Ruleset | None) -> dict[str, Any]:
    """A face as the page draws it: code, shape, colour, words, and its type if known."""
    return {
        "code": card.code,
        "shape": card.shape.word,
        "colour": card.colour.word,
        "words": f"{card.colour.word} {card.shape.word}",
        "type": None if rules is None else str(rules.type_of(card)),
    }


def faces(serial: SerialNumber | None) -> list[dict[str, Any]]:
    """The sixteen faces in a 4x4 grid (rows by shape), typed under the serial's table."""
    rules = None if serial is None else Ruleset(serial.table, serial.last_digit)
    return [card_json(card, rules) for card in ALL_CARDS]
