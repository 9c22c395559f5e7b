"""Replay one Exploding Mittens module from its log and check every line against the spec.

Contract: :func:`check_module` takes a module instance's lines (from
:mod:`defuser.logs.reader`) and what is known of its bomb (serial number, batteries, each
possibly unknown) and returns a :class:`ModuleCheck`: the replay, action by action, and
every line that contradicts the module's behaviour (docs/rules.md), each with
its 1-based line number and what was expected. It never raises on a malformed, tampered
or truncated log: a line it cannot read is reported and the replay goes on.

How it decides. The log leaves some things open: the serial's last digit and N when the
edgework is not in the log, the table when the serial is not, where the first mitten
comes before any countdown line, and which slot a played card left when the hand held
two cards of that face. The checker keeps every hypothesis the log allows (a beam of
replay states, each a full assignment of those unknowns) and scores each by the number
of lines that contradict it. A genuine log has a hypothesis with no contradiction, so it
is reported clean; a tampered line costs every hypothesis at least one contradiction, and
the cheapest explanation names the tampered line rather than the many lines a wrong
hypothesis would blame. When a line contradicts a state, the replay continues from the
most plausible repairs (the model's own value for a countdown, the log's face for a card,
both readings of a play) so that one bad line does not make every later line look bad.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from defuser.engine import deck, modlog
from defuser.engine.rules import HAND_SIZE, blocking_slots
from defuser.logs.reader import ModuleLine
from edgework import (
    MAX_INTERVAL,
    MIN_INTERVAL,
    RULE_TEXTS,
    TABLE_LETTERS,
    Card,
    CardType,
    InvalidCardError,
    Ruleset,
    SerialNumber,
    interval_for,
)

#: A hypothesis more than this many contradictions behind the best one is dropped.
MARGIN: Final = 3
#: The most hypotheses kept after each line (the cheapest ones).
BEAM: Final = 600

#: Messages that start an action (one click of the player).
ACTION_STARTS: Final = frozenset(
    {
        "drew",
        "draw_mitten_strike",
        "hand_full_strike",
        "discarded",
        "discard_blocked",
        "played",
        "invalid_play",
        "solved",
    }
)
#: Messages that report a strike (a blocked discard counts once, at its first line).
STRIKE_STARTS: Final = frozenset(
    {"draw_mitten_strike", "hand_full_strike", "discard_blocked", "invalid_play"}
)

_ORDINAL_SLOT: Final = {ordinal: i + 1 for i, (ordinal, _) in enumerate(modlog.SLOT_EXCLAMATIONS)}
_SLOT_EXCLAIM: Final = {i + 1: excl for i, (_, excl) in enumerate(modlog.SLOT_EXCLAMATIONS)}
_ORDINAL_WORD: Final = {i + 1: ordinal for i, (ordinal, _) in enumerate(modlog.SLOT_EXCLAMATIONS)}

# Replay stages: what the next line of the module is expected to be.
_START, _DISCARD0, _RULE0, _HAND, _IDLE, _COMING, _RULE_PLAY, _RULE_NOW, _BLOCKING = range(9)


class Inconsistency(NamedTuple):
    """A line that contradicts the module's behaviour, and what was expected."""

    line: int
    message: str


class _State(NamedTuple):
    """One hypothesis: the unknowns it assumes and the module's state under them."""

    table: str
    digit: int
    #: N, or ``None`` while the log has not yet needed it (before the first mitten).
    n: int | None
    #: The smallest N the log allows so far when ``n`` is ``None``.
    n_min: int
    stage: int
    discard: Card | None
    hand: tuple[Card, ...]
    #: Deals until the mitten is on top (0: on top now); ``None`` before the first deal.
    until: int | None
    first_cycle: bool
    #: The line that dealt this cycle's Defuse, 0 while it has not come.
    defuse_line: int
    #: The countdown the next ``(The Exploding Mitten is coming in k draws.)`` must say.
    coming: int
    #: The line of the action whose remaining lines are awaited.
    pending_line: int
    #: The slots a blocked discard must list, ``None`` when it should not have struck.
    blocking: tuple[int, ...] | None
    listed: int
    solved_line: int
    deals: int


@dataclass(frozen=True, slots=True)
class LineRecord:
    """One module line as the chosen replay read it: the state before and after."""

    number: int
    name: str | None
    fields: dict[str, Any]
    before: _State
    after: _State
    problems: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One action of the player as the replay understands it.

    ``kind`` is the first message's name (``drew``, ``discarded``, ``played``,
    ``draw_mitten_strike``, ``hand_full_strike``, ``discard_blocked``,
    ``invalid_play``, ``solved``). ``before``/``after`` are the replay states around
    it; ``card`` is the card the action moved or named.
    """

    line: int
    last_line: int
    kind: str
    card: Card | None
    countdown: int | None
    blocking_listed: tuple[int, ...]
    before: _State
    after: _State
    #: The slot a play (or an invalid play, or the solve) took its card from, as the
    #: replay chose it when equal faces leave it open; ``None`` for draws and discards.
    slot: int | None = None

    @property
    def action(self) -> str:
        """The click: ``draw``, ``discard`` or ``play``."""
        if self.kind in ("drew", "draw_mitten_strike", "hand_full_strike"):
            return "draw"
        if self.kind in ("discarded", "discard_blocked"):
            return "discard"
        return "play"

    @property
    def command(self) -> str:
        """The Twitch Plays command of the click: ``draw``, ``discard``, ``play 2``."""
        if self.action != "play":
            return self.action
        return f"play {self.slot}" if self.slot is not None else "play"

    @property
    def outcome(self) -> str:
        """``ok``, ``strike`` or ``solved``."""
        if self.kind in STRIKE_STARTS:
            return "strike"
        return "solved" if self.kind == "solved" else "ok"


@dataclass(slots=True)
class ModuleCheck:
    """The replay of one module and what contradicts the spec."""

    module_id: int
    first_line: int
    last_line: int
    serial: str | None
    batteries: int | None
    table: str | None
    #: Where the table came from: ``serial`` or ``log``.
    table_source: str
    last_digit: int | None
    digit_candidates: tuple[int, ...]
    interval: int | None
    interval_candidates: tuple[int, ...]
    solved: bool
    strikes: int
    actions: int
    inconsistencies: list[Inconsistency]
    notes: list[str] = field(default_factory=list)
    records: list[LineRecord] = field(default_factory=list)
    steps: list[ReplayStep] = field(default_factory=list)
    replayed: bool = True

    @property
    def rules(self) -> Ruleset | None:
        """The rule set of the chosen replay, when it could be replayed."""
        if self.table is None or self.last_digit is None:
            return None
        return Ruleset(self.table, self.last_digit)

    @property
    def opening(self) -> tuple[Card, tuple[Card, ...]] | None:
        """The opening discard top and hand as the start-up lines gave them."""
        state = None
        for record in self.records:
            if record.name in ACTION_STARTS:
                state = record.before
                break
            state = record.after
        if state is None or state.discard is None:
            return None
        return state.discard, state.hand


# --------------------------------------------------------------------------- reading


def read_message(message: str) -> tuple[str | None, dict[str, Any]]:
    """Which module message this is and its fields as values (cards, types, numbers).

    Returns ``(None, {})`` for text the module never writes.
    """
    found = modlog.classify(message)
    if found is None:
        return None, {}
    name, raw = found
    fields: dict[str, Any] = {}
    try:
        for key, value in raw.items():
            if key == "face":
                fields["face"] = Card.parse(value)
            elif key == "type":
                fields["type"] = CardType(value)
            elif key in ("k", "n"):
                fields[key] = int(value)
            elif key == "ordinal":
                fields["slot"] = _ORDINAL_SLOT[value]
            else:
                fields[key] = value
    except (InvalidCardError, ValueError, KeyError):
        return None, {}
    return name, fields


@functools.cache
def _all_messages() -> tuple[str, ...]:
    """Every message the module can write (for spotting a line cut short)."""
    out: list[str] = []
    faces = list(Card)
    kinds = list(CardType)
    out += [modlog.table(t) for t in TABLE_LETTERS]
    for card in faces:
        out.append(modlog.invalid_play(card))
        for kind in kinds:
            out += [
                modlog.initial_discard(card, kind),
                modlog.drew(card, kind),
                modlog.discarded(card, kind),
                modlog.played(card, kind),
            ]
            out += [modlog.hand_card(n, card, kind) for n in range(1, HAND_SIZE + 1)]
    for letter in "ABCDEFGHIJKL":
        out += [modlog.rule(letter), modlog.rule_now(letter)]
    out += [modlog.mitten_coming(k) for k in range(0, 100)]
    out += [modlog.blocking_slot(s) for s in range(1, HAND_SIZE + 1)]
    out += [
        modlog.draw_mitten_strike(),
        modlog.hand_full_strike(),
        modlog.discard_blocked(),
        modlog.strike(),
        modlog.solved(),
    ]
    return tuple(out)


def is_cut_short(message: str) -> bool:
    """Whether ``message`` is the beginning of some message the module writes."""
    return any(full.startswith(message) for full in _all_messages())


# --------------------------------------------------------------------------- the replay


@functools.cache
def _ruleset(table: str, digit: int) -> Ruleset:
    return Ruleset(table, digit)


def _words(card: Card) -> str:
    return card.words


def _slot_words(hand: Sequence[Card], slots: Iterable[int]) -> str:
    return ", ".join(f"slot {s} ({hand[s - 1].words})" for s in slots)


def _ordinal_line(slot: int) -> str:
    return modlog.blocking_slot(slot)


class _Context:
    """What is fixed for the whole module: the known edgework, for messages."""

    def __init__(self, serial: SerialNumber | None, batteries: int | None) -> None:
        self.serial = serial
        self.batteries = batteries

    def table_reason(self, table: str) -> str:
        if self.serial is None:
            return f"the types the log gives follow Table {table}"
        s = self.serial
        vowel = f"a vowel ({s.vowels[0]})" if s.has_vowel else "no vowel"
        repeat = f"a repeated character ({s.repeated[0]})" if s.has_repeat else "no repeat"
        return f"serial number {s} has {vowel} and {repeat}, which selects Table {table}"

    def digit_reason(self, digit: int) -> str:
        if self.serial is None:
            return f"last digit {digit} (inferred from the log's rule letters)"
        return f"last digit {digit} of serial number {self.serial}"

    def n_reason(self, n: int) -> str:
        if self.batteries is None:
            return f"N = {n}, inferred from the log's countdown"
        return f"N = {n} from {self.batteries} batteries"


def _rule_why(ctx: _Context, s: _State, rules: Ruleset, discard: Card) -> str:
    letter = rules.rule(discard)
    return (
        f"rule {letter} ({RULE_TEXTS[letter]}) with {discard.words}, a(n) "
        f"{rules.type_of(discard).value} card, on the discard pile"
    )


def _type_problem(rules: Ruleset, card: Card, claimed: CardType) -> str | None:
    actual = rules.type_of(card)
    if actual is claimed:
        return None
    return (
        f"{card.words} is a(n) {actual.value} card in Table {rules.table}, "
        f"but the line calls it a(n) {claimed.value} card"
    )


def _remove(hand: tuple[Card, ...], card: Card) -> list[tuple[Card, ...]]:
    """Every hand that playing one ``card`` can leave (orders differ with duplicates)."""
    results: list[tuple[Card, ...]] = []
    for i, c in enumerate(hand):
        if c == card:
            left = hand[:i] + hand[i + 1 :]
            if left not in results:
                results.append(left)
    return results


Branch = tuple[_State, list[str]]


class _Replayer:
    """The transition function of the beam: one line, one state, its successors."""

    def __init__(self, ctx: _Context) -> None:
        self.ctx = ctx

    # -- dispatch ---------------------------------------------------------------

    def step(self, s: _State, line: int, name: str | None, f: dict[str, Any],
             text: str, cut_short: bool) -> list[Branch]:
        if s.solved_line:
            return [(s, [
                f"the module was solved at line {s.solved_line}; nothing responds after "
                "the solve"
            ])]
        if name is None:
            if cut_short:
                return [(s, [])]
            return [(s, [f"{text!r} is not a line the module writes"])]
        stage = s.stage
        if stage == _START:
            if name == "table":
                return [self.table_line(s, f["table"])]
            if name == "initial_discard":
                out = self.initial_discard(s._replace(stage=_DISCARD0), f)
                return [(st, ["the start-up's first line 'You should use Table X.' is "
                              "missing", *m]) for st, m in out]
            return [(s, ["the module's start-up is missing before this line"])]
        if stage == _DISCARD0:
            if name == "initial_discard":
                return self.initial_discard(s, f)
            return [(s, ["expected the opening discard line 'The card on the discard pile "
                         "is a ...' here"])]
        if stage == _RULE0:
            if name in ("rule", "rule_now"):
                return [self.rule_line(s._replace(stage=_HAND), f["rule"], name)]
            return self.missing(s._replace(stage=_HAND), line, name, f, text,
                                "the start-up's rule line 'The rule used is X.'")
        if stage == _HAND:
            if name == "hand_card":
                return self.hand_card(s, line, f)
            if name in ACTION_STARTS and len(s.hand) < HAND_SIZE:
                out = self.step(s._replace(stage=_IDLE), line, name, f, text, cut_short)
                msg = (f"the start-up listed {len(s.hand)} hand card(s), expected "
                       f"{HAND_SIZE}")
                return [(st, [msg, *m]) for st, m in out]
            return self.step(s._replace(stage=_IDLE), line, name, f, text, cut_short)
        if stage == _COMING:
            if name == "mitten_coming":
                return [self.coming_line(s, f["k"])]
            return self.missing(s._replace(stage=_IDLE), line, name, f, text,
                                f"the countdown line after the deal at line {s.pending_line}")
        if stage == _RULE_PLAY:
            if name in ("rule", "rule_now"):
                return [self.rule_line(s._replace(stage=_IDLE), f["rule"], name)]
            return self.missing(s._replace(stage=_IDLE), line, name, f, text,
                                f"'The rule used is X.' after the play at line "
                                f"{s.pending_line}")
        if stage == _RULE_NOW:
            if name in ("rule", "rule_now"):
                return [self.rule_line(s._replace(stage=_COMING), f["rule"], name)]
            return self.missing(s._replace(stage=_COMING), line, name, f, text,
                                f"'The rule used now is X.' after the discard at line "
                                f"{s.pending_line}")
        if stage == _BLOCKING:
            if name == "blocking_slot":
                return [self.blocking_line(s, f)]
            if name == "strike":
                return [self.blocking_end(s)]
            return self.missing(s._replace(stage=_IDLE, blocking=()), line, name, f, text,
                                f"'Strike!' closing the blocked discard at line "
                                f"{s.pending_line}")
        return self.idle(s, line, name, f)

    def missing(self, s: _State, line: int, name: str, f: dict[str, Any], text: str,
                what: str) -> list[Branch]:
        out = self.step(s, line, name, f, text, False)
        return [(st, [f"expected {what} before this line", *m]) for st, m in out]

    def idle(self, s: _State, line: int, name: str, f: dict[str, Any]) -> list[Branch]:
        if name == "drew":
            return self.drew(s, line, f["face"], f["type"])
        if name == "discarded":
            return self.discarded(s, line, f["face"], f["type"])
        if name == "played":
            return self.played(s, line, f["face"], f["type"])
        if name == "invalid_play":
            return [self.invalid_play(s, f["face"])]
        if name == "draw_mitten_strike":
            return [self.mitten_strike(s)]
        if name == "hand_full_strike":
            return [self.hand_full(s)]
        if name == "discard_blocked":
            return [self.discard_blocked(s, line)]
        if name == "solved":
            return self.solved(s, line)
        what = {
            "table": "a second start-up line 'You should use Table X.'",
            "initial_discard": "a start-up line in the middle of the game",
            "hand_card": "a start-up hand card in the middle of the game",
            "rule": "a rule line that follows no play",
            "rule_now": "a rule line that follows no discard",
            "mitten_coming": "a countdown line that follows no deal",
            "blocking_slot": "a blocking-card line outside a blocked discard",
            "strike": "a 'Strike!' line outside a blocked discard",
        }.get(name, "an unexpected line")
        return [(s, [f"{what}"])]

    # -- start-up ---------------------------------------------------------------

    def table_line(self, s: _State, claimed: str) -> Branch:
        problems = []
        if claimed != s.table:
            problems.append(
                f"the line says Table {claimed}, expected Table {s.table}: "
                f"{self.ctx.table_reason(s.table)}"
            )
        return s._replace(stage=_DISCARD0), problems

    def initial_discard(self, s: _State, f: dict[str, Any]) -> list[Branch]:
        rules = _ruleset(s.table, s.digit)
        card: Card = f["face"]
        problems = []
        bad_type = _type_problem(rules, card, f["type"])
        if bad_type:
            problems.append(bad_type)
        if card not in deck.opening_discards(rules):
            problems.append(
                f"the opening discard is never the Exploding Mitten ({card.words} in "
                f"Table {s.table})"
            )
        return [(s._replace(stage=_RULE0, discard=card), problems)]

    def rule_line(self, s: _State, letter: str, name: str) -> Branch:
        problems = []
        rules = _ruleset(s.table, s.digit)
        assert s.discard is not None
        expected = rules.rule(s.discard)
        wording_now = s.stage == _COMING  # a discard just happened
        if wording_now and name == "rule":
            problems.append(
                "after a discard the module writes 'The rule used now is X.', not "
                "'The rule used is X.'"
            )
        elif not wording_now and name == "rule_now":
            problems.append(
                "'The rule used now is X.' follows only a discard; here the module writes "
                "'The rule used is X.'"
            )
        if letter != expected:
            kind = rules.type_of(s.discard)
            problems.append(
                f"the line says rule {letter}, expected rule {expected}: Table E gives "
                f"{expected} for a(n) {kind.value} card ({s.discard.words}) on the discard "
                f"pile with {self.ctx.digit_reason(s.digit)}"
            )
        return s, problems

    def hand_card(self, s: _State, line: int, f: dict[str, Any]) -> list[Branch]:
        rules = _ruleset(s.table, s.digit)
        card: Card = f["face"]
        problems = []
        if f["n"] != len(s.hand) + 1:
            problems.append(f"the line says Card #{f['n']}, expected Card #{len(s.hand) + 1}")
        bad_type = _type_problem(rules, card, f["type"])
        if bad_type:
            problems.append(bad_type)
        if len(s.hand) >= HAND_SIZE:
            problems.append(f"the start-up hand has only {HAND_SIZE} cards")
            return [(s._replace(stage=_IDLE), problems)]
        hand = (*s.hand, card)
        if len(hand) == HAND_SIZE:
            assert s.discard is not None
            if HAND_SIZE not in deck.REROLL_SLOTS and not rules.type_of(card).is_plain:
                problems.append(
                    f"card #3 is never re-rolled at start-up, so it is always a plain card, "
                    f"not a(n) {rules.type_of(card).value} card"
                )
            elif not deck.opening_has_legal_plain(rules, s.discard, hand):
                problems.append(
                    "the opening hand has no legal plain card, but the module re-rolls until "
                    f"it has one ({_rule_why(self.ctx, s, rules, s.discard)})"
                )
        return [(s._replace(hand=hand, stage=_HAND if len(hand) < HAND_SIZE else _IDLE),
                 problems)]

    # -- the deck ---------------------------------------------------------------

    def deal(self, s: _State, line: int, card: Card, via_draw: bool) -> list[Branch]:
        """The deck's top card is dealt: check it against the cycle and move the deck.

        Returns states with ``until``, ``first_cycle``, ``defuse_line``, ``coming`` and
        ``deals`` updated (the hand and discard are the caller's).
        """
        rules = _ruleset(s.table, s.digit)
        if s.until is None:
            # The first deal: the mitten is the k-th card dealt, k in 2..N-1, so it is
            # u0 = k-1 deals away at the start. Every u0 the log allows is kept.
            out: list[Branch] = []
            for u0 in deck.first_mitten_distances(s.n if s.n is not None else MAX_INTERVAL):
                n_min = max(s.n_min, u0 + 2)
                out += self.deal(s._replace(until=u0, n_min=n_min), line, card, via_draw)
            return out
        problems: list[str] = []
        deals = s.deals + 1
        if s.until == 0:
            # Only a discard reaches here (a draw strikes): the mitten is dealt.
            ns = [s.n] if s.n is not None else list(range(s.n_min, MAX_INTERVAL + 1))
            if card != rules.mitten:
                problems.append(
                    f"the Exploding Mitten ({rules.mitten.words}) was on top of the deck, so "
                    f"the discard must reveal it, not {card.words}"
                )
            out = []
            for interval in ns:
                out.append((
                    s._replace(n=interval, until=deck.cycle_length(interval), first_cycle=False,
                               defuse_line=0, coming=0, deals=deals),
                    list(problems),
                ))
            return out
        kind = rules.type_of(card)
        n = s.n
        new = s._replace(until=s.until - 1, coming=s.until, deals=deals)
        if card == rules.mitten:
            problems.append(
                f"the Exploding Mitten ({card.words}) cannot be dealt here: it is "
                f"{s.until} deal(s) away (it is dealt only when the countdown has said 1)"
            )
        elif kind is CardType.DEFUSE:
            if s.defuse_line:
                problems.append(
                    f"a second Defuse in one cycle: this cycle's Defuse was dealt at line "
                    f"{s.defuse_line}, and each cycle holds exactly one"
                )
            elif (
                not s.first_cycle
                and n is not None
                and deck.place_in_cycle(n, s.until) not in deck.defuse_places(n)
            ):
                problems.append(
                    "a Defuse is never the first card dealt after a mitten (its place in a "
                    "full cycle is the 2nd to the (N-1)-th deal)"
                )
            else:
                new = new._replace(defuse_line=line)
        elif not s.first_cycle and not s.defuse_line and s.until == 1:
            problems.append(
                f"this is the last deal before the mitten and this cycle's Defuse has not "
                f"come yet, so it must be a Defuse ({_faces(rules.defuse_faces)}), "
                f"not {card.words}"
            )
        if (
            via_draw
            and kind is not CardType.DEFUSE
            and len(s.hand) == 2
            and s.discard is not None
            and not any(rules.is_legal(c, s.discard) for c in s.hand)
        ):
            legal_plain = [c for c in rules.plain_faces if rules.is_legal(c, s.discard)]
            if legal_plain and card not in legal_plain:
                problems.append(
                    f"a draw into two unplayable cards always gives a playable card "
                    f"({_faces(legal_plain)} under rule {rules.rule(s.discard)}), "
                    f"not {card.words}"
                )
        return [(new, problems)]

    def coming_line(self, s: _State, k: int) -> Branch:
        if k == s.coming:
            return s._replace(stage=_IDLE), []
        if s.coming == 0:
            why = "right after the Exploding Mitten is discarded the module writes 0"
        elif not s.first_cycle and s.n is not None and s.coming == s.n - 1:
            why = (
                f"the first deal after a mitten leaves it {s.n - 2} deals away, so the line "
                f"says N-1 ({self.ctx.n_reason(s.n)})"
            )
        elif s.first_cycle:
            why = "the first mitten's place, fixed by the other countdown lines, gives this"
        else:
            why = "the previous countdown, less one deal, gives this"
        return s._replace(stage=_IDLE), [
            f"the line says the mitten is coming in {k} draws, expected {s.coming}: {why}"
        ]

    # -- actions ----------------------------------------------------------------

    def drew(self, s: _State, line: int, card: Card, claimed: CardType) -> list[Branch]:
        rules = _ruleset(s.table, s.digit)
        problems = []
        bad_type = _type_problem(rules, card, claimed)
        if bad_type:
            problems.append(bad_type)
        if s.until == 0:
            problems.append(
                "the Exploding Mitten was on top of the deck, so a draw strikes "
                "('You were going to draw an Exploding Mitten. Strike!')"
            )
            hand = (*s.hand, card)[:HAND_SIZE]
            return [(s._replace(hand=hand, stage=_COMING, coming=1, pending_line=line),
                     problems)]
        full = len(s.hand) >= HAND_SIZE
        if full:
            problems.append(
                f"the hand held {HAND_SIZE} cards ({' '.join(c.words for c in s.hand)}), so "
                "a draw strikes ('Your hand was full. Strike!')"
            )
        out = []
        for new, deal_problems in self.deal(s, line, card, via_draw=True):
            hand = new.hand if full else (*new.hand, card)
            out.append((new._replace(hand=hand, stage=_COMING, pending_line=line),
                        problems + deal_problems))
        return out

    def discarded(self, s: _State, line: int, card: Card, claimed: CardType) -> list[Branch]:
        rules = _ruleset(s.table, s.digit)
        assert s.discard is not None
        problems = []
        bad_type = _type_problem(rules, card, claimed)
        if bad_type:
            problems.append(bad_type)
        blocking = blocking_slots(rules, s.discard, s.hand)
        if blocking:
            problems.append(
                f"discarding was not allowed: {_slot_words(s.hand, blocking)} could be "
                f"played under {_rule_why(self.ctx, s, rules, s.discard)}, so the module "
                "strikes instead"
            )
        out = []
        for new, deal_problems in self.deal(s, line, card, via_draw=False):
            base = new._replace(stage=_RULE_NOW, pending_line=line)
            out.append((base._replace(discard=card), problems + deal_problems))
            if s.until == 0 and card != rules.mitten:
                # The face may be what was altered: the mitten really went to the pile.
                out.append((base._replace(discard=rules.mitten), problems + deal_problems))
        return out

    def played(self, s: _State, line: int, card: Card, claimed: CardType) -> list[Branch]:
        rules = _ruleset(s.table, s.digit)
        assert s.discard is not None
        problems = []
        bad_type = _type_problem(rules, card, claimed)
        if bad_type:
            problems.append(bad_type)
        base = s._replace(stage=_RULE_PLAY, pending_line=line)
        legal = rules.is_legal(card, s.discard)
        held = card in s.hand
        if held and legal and not (rules.type_of(card) is CardType.DEFUSE and s.until == 0):
            return [(base._replace(hand=h, discard=card), problems) for h in _remove(s.hand, card)]
        if not held:
            problems.append(
                f"{card.words} is not in the hand ({_hand_words(s.hand)})"
            )
        elif not legal:
            problems.append(
                f"{card.words} cannot be played under {_rule_why(self.ctx, s, rules, s.discard)}"
                f" ({_legal_words(rules, s.discard, s.hand)}); the module strikes instead"
            )
        else:
            problems.append(
                "the Exploding Mitten was on top of the deck, so playing a Defuse solves the "
                "module ('You played a Defuse card when an Exploding Mitten was at the top "
                "of the deck. Module solved!')"
            )
        # Repairs: the log is right about the card (it moved anyway), or it names the
        # wrong card and one of the legal cards was played.
        out: list[Branch] = []
        if held:
            out += [(base._replace(hand=h, discard=card), problems)
                    for h in _remove(s.hand, card)]
        else:
            out.append((base._replace(discard=card), problems))
        for other in dict.fromkeys(c for c in s.hand if rules.is_legal(c, s.discard)):
            if other != card:
                out += [(base._replace(hand=h, discard=other), problems)
                        for h in _remove(s.hand, other)]
        return out

    def invalid_play(self, s: _State, card: Card) -> Branch:
        rules = _ruleset(s.table, s.digit)
        assert s.discard is not None
        problems = []
        if card not in s.hand:
            problems.append(f"{card.words} is not in the hand ({_hand_words(s.hand)})")
        elif rules.type_of(card) is CardType.DEFUSE and s.until == 0:
            problems.append(
                "the Exploding Mitten was on top of the deck, so playing a Defuse solves the "
                "module"
            )
        elif rules.is_legal(card, s.discard):
            problems.append(
                f"{card.words} is legal under {_rule_why(self.ctx, s, rules, s.discard)}, "
                "so playing it succeeds"
            )
        return s, problems

    def mitten_strike(self, s: _State) -> Branch:
        if s.until is None:
            return s, [
                "no card has been dealt yet and the first card dealt is never the "
                "Exploding Mitten, so it cannot be on top"
            ]
        if s.until != 0:
            return s, [
                f"the Exploding Mitten was not on top of the deck: it is {s.until} deal(s) "
                "away by the countdown"
            ]
        return s, []

    def hand_full(self, s: _State) -> Branch:
        problems = []
        if s.until == 0:
            problems.append(
                "the Exploding Mitten was on top of the deck, and that check comes first: "
                "the strike says 'You were going to draw an Exploding Mitten. Strike!'"
            )
        elif len(s.hand) < HAND_SIZE:
            problems.append(
                f"the hand held only {len(s.hand)} card(s) ({_hand_words(s.hand)}), so it "
                "was not full"
            )
        return s, problems

    def discard_blocked(self, s: _State, line: int) -> Branch:
        rules = _ruleset(s.table, s.digit)
        assert s.discard is not None
        blocking = blocking_slots(rules, s.discard, s.hand)
        base = s._replace(stage=_BLOCKING, pending_line=line, listed=0)
        if blocking:
            return base._replace(blocking=blocking), []
        legal = [i + 1 for i, c in enumerate(s.hand) if rules.is_legal(c, s.discard)]
        why = (
            f"the only legal card, {_slot_words(s.hand, legal)}, is a Defuse, and a lone "
            "legal Defuse never blocks a discard"
            if legal
            else f"no card in the hand ({_hand_words(s.hand)}) is legal"
        )
        return base._replace(blocking=None), [
            f"discarding was allowed: {why} under {_rule_why(self.ctx, s, rules, s.discard)}"
        ]

    def blocking_line(self, s: _State, f: dict[str, Any]) -> Branch:
        slot: int = f["slot"]
        problems = []
        if f["exclamation"] != _SLOT_EXCLAIM[slot]:
            problems.append(
                f"the {_ORDINAL_WORD[slot]} card's line ends '{_SLOT_EXCLAIM[slot]}', "
                f"not '{f['exclamation']}'"
            )
        new = s._replace(listed=s.listed + 1)
        if s.blocking is None:
            return new, problems
        rules = _ruleset(s.table, s.digit)
        assert s.discard is not None
        if s.listed < len(s.blocking):
            want = s.blocking[s.listed]
            if slot != want:
                problems.append(
                    f"expected '{_ordinal_line(want)}': the blocking cards are "
                    f"{_slot_words(s.hand, s.blocking)} under "
                    f"{_rule_why(self.ctx, s, rules, s.discard)}"
                )
        else:
            problems.append(
                f"the blocking cards are only {_slot_words(s.hand, s.blocking)} under "
                f"{_rule_why(self.ctx, s, rules, s.discard)}"
            )
        return new, problems

    def blocking_end(self, s: _State) -> Branch:
        problems = []
        if s.blocking is not None and s.listed < len(s.blocking):
            missing = s.blocking[s.listed :]
            problems.append(
                f"the list of blocking cards misses {_slot_words(s.hand, missing)} "
                f"(expected '{_ordinal_line(missing[0])}' before 'Strike!')"
            )
        return s._replace(stage=_IDLE, blocking=(), listed=0), problems

    def solved(self, s: _State, line: int) -> list[Branch]:
        rules = _ruleset(s.table, s.digit)
        problems = []
        if s.until is None:
            problems.append(
                "no card has been dealt yet and the first card dealt is never the "
                "Exploding Mitten, so it cannot be on top for the solve"
            )
        elif s.until != 0:
            problems.append(
                f"the Exploding Mitten was not on top of the deck (it is {s.until} deal(s) "
                "away by the countdown), so a Defuse cannot solve the module"
            )
        defuses = [c for c in s.hand if rules.type_of(c) is CardType.DEFUSE]
        if not defuses:
            problems.append(f"there is no Defuse in the hand ({_hand_words(s.hand)})")
            return [(s._replace(solved_line=line), problems)]
        out = []
        for card in dict.fromkeys(defuses):
            for hand in _remove(s.hand, card):
                out.append((s._replace(solved_line=line, hand=hand, discard=card), problems))
        return out


def _faces(cards: Iterable[Card]) -> str:
    return ", ".join(c.words for c in cards)


def _hand_words(hand: Sequence[Card]) -> str:
    return "hand: " + (", ".join(c.words for c in hand) if hand else "empty")


def _legal_words(rules: Ruleset, discard: Card, hand: Sequence[Card]) -> str:
    legal = [i + 1 for i, c in enumerate(hand) if rules.is_legal(c, discard)]
    if not legal:
        return "no card in the hand is legal"
    return "legal: " + _slot_words(hand, legal)


# --------------------------------------------------------------------------- driver


_Trail = tuple[Any, ...]  # (parent trail, LineRecord) or ()


def check_module(
    lines: Sequence[ModuleLine],
    *,
    module_id: int = 1,
    serial: str | None = None,
    batteries: int | None = None,
    last_event_line: int | None = None,
    file_last_line: int | None = None,
) -> ModuleCheck:
    """Replay one module's lines and list every contradiction with its line number.

    ``serial``/``batteries`` are the bomb's edgework when the log showed it (``None``
    when unknown: then the table comes from the log, and the last digit and N are
    inferred). ``last_event_line`` is the file's last module or bomb line and
    ``file_last_line`` its last non-blank line: an action cut short after them, or an
    unreadable last line, is the file's truncation and is noted, not reported.
    """
    notes: list[str] = []
    parsed_serial: SerialNumber | None = None
    if serial is not None:
        try:
            parsed_serial = SerialNumber.parse(serial, strict=False)
        except ValueError as exc:
            notes.append(f"the bomb's serial number could not be used ({exc}); the table "
                         "and last digit are inferred from the log")
    ctx = _Context(parsed_serial, batteries)
    read = [(ml, *read_message(ml.message)) for ml in lines]
    cut_note = ""
    if read and read[-1][1] is None and file_last_line is not None:
        last_line = read[-1][0]
        if last_line.number >= file_last_line and is_cut_short(last_line.message):
            # The file ends inside this line: truncation, not a line the module wrote.
            read.pop()
            cut_note = f"line {last_line.number} is cut short (the file ends inside it); ignored"
    strikes = sum(1 for _, name, _ in read if name in STRIKE_STARTS)
    actions = sum(1 for _, name, _ in read if name in ACTION_STARTS)
    solved = any(name == "solved" for _, name, _ in read)
    first = lines[0].number if lines else 0
    last = lines[-1].number if lines else 0
    result = ModuleCheck(
        module_id=module_id, first_line=first, last_line=last,
        serial=parsed_serial.text if parsed_serial else serial, batteries=batteries,
        table=None, table_source="serial" if parsed_serial else "log", last_digit=None,
        digit_candidates=(), interval=interval_for(batteries) if batteries is not None else None,
        interval_candidates=(), solved=solved, strikes=strikes, actions=actions,
        inconsistencies=[], notes=notes,
    )
    if cut_note:
        result.notes.append(cut_note)
    opening = [name for _, name, _ in read[:2]]
    if "initial_discard" not in opening:
        result.replayed = False
        ends_file = last >= (last_event_line or 0)
        if not read or (opening == ["table"] and ends_file):
            result.notes.append("the log ends inside the start-up; the file looks truncated")
        elif opening[:1] == ["table"]:
            result.inconsistencies.append(Inconsistency(
                read[1][0].number if len(read) > 1 else first,
                "expected the opening discard line 'The card on the discard pile is a ...' "
                "after the table line; without it the module cannot be replayed",
            ))
        else:
            # The module writes its start-up before anything else, so lines without it
            # are not a game of the module (an altered id, or an excerpt of a log).
            result.inconsistencies.append(Inconsistency(
                first, "this module's lines begin without its start-up ('You should use "
                "Table X.', the opening discard, the rule and the hand), which the module "
                "always writes first; it cannot be replayed"
            ))
        return result

    claimed_table = next((f["table"] for _, name, f in read[:1] if name == "table"), None)
    if parsed_serial is not None:
        tables: list[tuple[str, int]] = [(parsed_serial.table, 0)]
        digits = [parsed_serial.last_digit]
    else:
        tables = [(t, 0) for t in TABLE_LETTERS]
        digits = list(range(10))
    n_known = interval_for(batteries) if batteries is not None else None
    beam: dict[_State, tuple[int, _Trail]] = {}
    for table, _ in tables:
        for digit in digits:
            state = _State(
                table=table, digit=digit, n=n_known, n_min=MIN_INTERVAL, stage=_START,
                discard=None, hand=(), until=None, first_cycle=True, defuse_line=0,
                coming=0, pending_line=0, blocking=(), listed=0, solved_line=0, deals=0,
            )
            beam[state] = (0, ())
    replayer = _Replayer(ctx)
    for ml, name, fields in read:
        new_beam: dict[_State, tuple[int, _Trail]] = {}
        for state, (cost, trail) in beam.items():
            for after, problems in replayer.step(state, ml.number, name, fields,
                                                 ml.message, False):
                total = cost + len(problems)
                known = new_beam.get(after)
                if known is not None and known[0] <= total:
                    continue
                record = LineRecord(ml.number, name, fields, state, after, tuple(problems))
                new_beam[after] = (total, (trail, record))
        beam = _prune(new_beam)
    best_cost = min(cost for cost, _ in beam.values())
    finals = [(s, t) for s, (c, t) in beam.items() if c == best_cost]
    best_state, best_trail = finals[0]
    records: list[LineRecord] = []
    link: _Trail = best_trail
    while link:
        link, record = link
        records.append(record)
    records.reverse()
    result.records = records
    for record in records:
        if record.problems:
            result.inconsistencies.append(Inconsistency(record.number, "; ".join(record.problems)))
    if best_state.stage not in (_IDLE, _HAND) and not best_state.solved_line:
        what = {
            _START: "the start-up", _DISCARD0: "the start-up", _RULE0: "the start-up",
            _COMING: "the countdown line", _RULE_PLAY: "the rule line",
            _RULE_NOW: "the rule line", _BLOCKING: "the end of the blocked discard",
        }.get(best_state.stage, "more lines")
        if last_event_line is not None and last > 0 and last < last_event_line:
            result.inconsistencies.append(Inconsistency(
                last, f"the action at line {best_state.pending_line} is incomplete: expected "
                f"{what} after this line"
            ))
        else:
            result.notes.append(
                f"the log ends inside the action at line {best_state.pending_line} "
                f"(expected {what}); the file looks truncated"
            )
    elif best_state.stage == _HAND and len(best_state.hand) < HAND_SIZE:
        result.notes.append("the log ends inside the start-up; the file looks truncated")
    result.table = best_state.table
    result.last_digit = best_state.digit
    result.digit_candidates = tuple(sorted({s.digit for s, _ in finals}))
    ns: set[int] = set()
    for s, _ in finals:
        if s.n is not None:
            ns.add(s.n)
        else:
            ns.update(range(s.n_min, MAX_INTERVAL + 1))
    result.interval_candidates = tuple(sorted(ns))
    if n_known is None:
        result.interval = result.interval_candidates[0] if len(ns) == 1 else None
    if parsed_serial is None:
        source = f"Table {result.table} from the log's 'You should use Table' line"
        if claimed_table is not None and claimed_table != result.table:
            source = f"Table {result.table} from the cards' types"
        notes.append(
            f"serial number unknown: {source}; last digit "
            f"{_candidates(result.digit_candidates)} from the rule letters (Table E)"
        )
    if batteries is None:
        notes.append(
            f"batteries unknown: N {_candidates(result.interval_candidates)} from the "
            "countdown lines"
        )
    result.steps = build_steps(records)
    return result


def _candidates(values: Sequence[int]) -> str:
    if len(values) == 1:
        return f"= {values[0]}"
    return "is one of " + ", ".join(str(v) for v in values)


def _prune(beam: dict[_State, tuple[int, _Trail]]) -> dict[_State, tuple[int, _Trail]]:
    """Keep the hypotheses within :data:`MARGIN` of the best, at most :data:`BEAM`."""
    if not beam:
        return beam
    best = min(cost for cost, _ in beam.values())
    kept = [(s, v) for s, v in beam.items() if v[0] <= best + MARGIN]
    if len(kept) > BEAM:
        kept.sort(key=lambda item: item[1][0])
        kept = kept[:BEAM]
    return dict(kept)


def build_steps(records: Sequence[LineRecord]) -> list[ReplayStep]:
    """Group the replay's lines into the player's actions."""
    steps: list[ReplayStep] = []
    i = 0
    while i < len(records):
        record = records[i]
        if record.name not in ACTION_STARTS:
            i += 1
            continue
        j = i + 1
        while j < len(records) and records[j].name not in ACTION_STARTS and records[j].name \
                not in ("table", "initial_discard", "hand_card"):
            j += 1
        group = records[i:j]
        countdown = next((r.fields["k"] for r in group if r.name == "mitten_coming"), None)
        listed = tuple(r.fields["slot"] for r in group if r.name == "blocking_slot")
        card = record.fields.get("face")
        if record.name == "solved" and record.after.discard is not None:
            card = record.after.discard
        steps.append(ReplayStep(
            line=record.number, last_line=group[-1].number, kind=record.name or "",
            card=card, countdown=countdown, blocking_listed=listed,
            before=record.before, after=group[-1].after,
            slot=_slot_of(record.name, card, record.before.hand, record.after.hand),
        ))
        i = j
    return steps


def _slot_of(
    name: str | None, card: Card | None, before: tuple[Card, ...], after: tuple[Card, ...]
) -> int | None:
    """Which slot a play took ``card`` from, given the hands before and after it."""
    if name not in ("played", "invalid_play", "solved") or card is None or card not in before:
        return None
    if name != "invalid_play":
        for i, held in enumerate(before):
            if held == card and before[:i] + before[i + 1 :] == after:
                return i + 1
    return before.index(card) + 1
