"""One followed module: every way it can be, given its log lines, and advice for all.

Contract: :class:`Tracked` takes one module instance's typed log messages
(:mod:`defuser.engine.modlog`) and keeps every *view* of the module its lines allow: a
bomb's edgework (the bombs of the mission with that table, last digit and N) and the
module as the defuser sees it there, in each hand order the lines allow. The lines
narrow the views: the start-up's table and rule lines, the rule after every click, the
slots a blocked discard lists; each click's line becomes the typed event the belief
reads (:func:`defuser.logs.check.messages.event_of`, the log's one table of clicks)
and goes through :meth:`~defuser.strategy.belief.Observation.apply`.
:meth:`Tracked.act` returns the click a line shows as a typed :class:`LoggedClick`
(its kind, card and possible slots), never as text. :func:`combine` gives the advice
for all views at once, never resting on a guess that could strike:

- one view, or views that all advise the same click: that click;
- views that advise playing the same card from different slots (two equal cards were
  in the hand, and the log does not say which was played): the card, with the slots it
  may be in, and no command (typed as is, a slot could strike);
- views of several bombs that advise differently: a click that cannot strike on any of
  them, else what to check (the serial number) and the click for each bomb.

When a line does not follow from any view, the module is picked up again from the
lines after it (:class:`Resync`): the visible states one changed or lost line away
from the last one that the line fits are kept (a line fits a state when the rulebook,
:class:`~defuser.engine.board.Board`, allows its click there with the mitten on top
or not, and a dealt card is a face that deal can bring; so is a lost draw's card),
every later line narrows them, and once one visible state is left the module is
advised again. The deck's cycle is not known after such a line (a lost line may have
been a deal), so until the mitten is seen on the pile again the advice only plays
legal cards and discards, which cannot strike; from the mitten on, the cycle is exact
again and the optimal policy advises.

Bounds: at most :data:`MAX_STATES` states are kept while picking a module up again
(the first ones, in a fixed order); :attr:`Tracked.dropped` counts the rest.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from defuser.engine import modlog
from defuser.engine.actions import Action, ActionKind
from defuser.engine.board import ON_TOP_VALUES, Board, Effect, played_from
from defuser.engine.deck import DealKind, deal_kind
from defuser.engine.events import Drew, Event, Played, Solved, Struck
from defuser.engine.simulator import Outcome
from defuser.errors import DefuserError
from defuser.logs.check import messages
from defuser.logs.stream import EdgeworkKey, LoggedBomb
from defuser.strategy.belief import CycleBelief, Observation
from defuser.strategy.values import Recommendation, recommend
from edgework import Card, Ruleset

#: The most visible states kept while a module is picked up again.
MAX_STATES: Final = 512
_DRAW: Final = Action.draw()


class ClickKind(enum.StrEnum):
    """What a click a followed module's log shows did."""

    DREW = "drew"
    DISCARDED = "discarded"
    PLAYED = "played"
    STRIKE_PLAY = "strike play"
    STRIKE_DRAW = "strike draw"
    STRIKE_DISCARD = "strike discard"
    SOLVED = "solved"

    @classmethod
    def of(cls, click: messages.Click) -> ClickKind:
        """The kind of a click of the log's message table
        (:data:`defuser.logs.check.messages.CLICKS`)."""
        if click.outcome is Outcome.SOLVED:
            return cls.SOLVED
        if click.outcome is Outcome.STRIKE:
            return cls(f"strike {click.kind.value}")
        return cls(click.kind.past_tense)


@dataclass(frozen=True, slots=True)
class LoggedClick:
    """A click the log shows: its kind, the card that moved (a draw, a discard, a
    play), and for a play the slots the card may have been in (empty: none fits)."""

    kind: ClickKind
    card: Card | None = None
    slots: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class OtherLine:
    """A line in a click's place that is not a click (a start-up line again, read
    while the module is picked up)."""

    message: modlog.Message



@dataclass(frozen=True, slots=True)
class View:
    """One way the module can be: an edgework, the bombs that have it (latest last),
    and the module as the defuser sees it on them."""

    key: EdgeworkKey
    bombs: tuple[LoggedBomb, ...]
    obs: Observation


@dataclass(frozen=True, slots=True)
class Candidate:
    """An edgework the module may be on: the bombs with it, the rules and N."""

    key: EdgeworkKey
    bombs: tuple[LoggedBomb, ...]
    rules: Ruleset
    interval: int


@dataclass(frozen=True, slots=True)
class _State:
    """A visible state while a module is picked up again (the cycle is not known)."""

    candidate: Candidate
    discard: Card
    hand: tuple[Card, ...]
    #: The deals since the mitten was seen on the pile (``None``: not seen since the
    #: line that did not follow).
    since_mitten: tuple[DealKind, ...] | None = None
    solved: bool = False

    def dealt(self, card: Card) -> tuple[DealKind, ...] | None:
        """The deals since the mitten, after ``card`` was dealt."""
        kind = deal_kind(self.candidate.rules, card)
        if kind is DealKind.MITTEN:
            return ()
        return None if self.since_mitten is None else (*self.since_mitten, kind)

    @property
    def board(self) -> Board:
        """The visible module."""
        return Board(self.candidate.rules, self.discard, self.hand)


@dataclass(slots=True)
class Resync:
    """A module being picked up again after line ``line`` did not follow."""

    line: int
    states: list[_State]

    def picked_up(self) -> bool:
        """Whether the lines since have determined one visible state."""
        return len({(s.discard, s.hand) for s in self.states}) == 1


@dataclass(slots=True)
class Tracked:
    """A followed module's views (see the module's contract)."""

    views: list[View] = field(default_factory=list)
    resync: Resync | None = None
    #: The slots a blocked discard listed so far (until its ``Strike!`` line).
    blocking: list[int] = field(default_factory=list)
    #: States not kept while picking the module up again (past :data:`MAX_STATES`).
    dropped: int = 0

    @property
    def candidates(self) -> list[Candidate]:
        """The edgeworks still possible, in the order of their latest bombs."""
        seen: dict[EdgeworkKey, Candidate] = {}
        if self.resync is not None:
            for state in self.resync.states:
                seen.setdefault(state.candidate.key, state.candidate)
        for view in self.views:
            seen.setdefault(view.key, Candidate(view.key, view.bombs, view.obs.rules,
                                                view.obs.interval))
        return sorted(seen.values(), key=lambda c: c.bombs[-1].number)

    # ------------------------------------------------------------ lines

    def act(self, message: modlog.Message, line: int) -> LoggedClick | OtherLine | None:
        """Apply one click's first line to every view; the click it shows, or ``None``
        when it follows from no view (the module is then being picked up again)."""
        if self.resync is not None:
            return self._resync_act(message)
        out: dict[tuple[EdgeworkKey, tuple[Card, ...]], View] = {}
        slots: set[int] = set()
        for view in self.views:
            for slot, obs in _applied(view.obs, message):
                out.setdefault((view.key, obs.hand), replace(view, obs=obs))
                if slot is not None:
                    slots.add(slot)
        if not out:
            self._lose(message, line)
            return None
        self.views = list(out.values())
        return _shown(message, sorted(slots))

    def narrow(self, message: modlog.Message) -> bool:
        """A line that moves nothing but tells views apart (a rule line, a blocked
        discard's slots); whether it left out a view. A line no view fits leaves
        the views as they are."""
        if isinstance(message, modlog.BlockingSlotMessage):
            self.blocking.append(message.slot)
            return False
        if isinstance(message, modlog.StrikeMessage):
            listed, self.blocking = tuple(self.blocking), []
            if not listed:
                return False
            return self._keep(lambda board: board.blocking_slots == listed)
        if isinstance(message, modlog.RuleMessage | modlog.RuleNowMessage):
            letter = message.rule
            return self._keep(lambda board: board.rules.rule(board.discard) == letter)
        return False

    def _keep(self, fits: _Fits) -> bool:
        if self.resync is not None:
            kept_states = [s for s in self.resync.states if fits(s.board)]
            if kept_states and len(kept_states) < len(self.resync.states):
                self.resync.states = kept_states
                return True
            return False
        kept = [v for v in self.views if v.obs.started and fits(v.obs.board)]
        if kept and len(kept) < len(self.views):
            self.views = kept
            return True
        return False

    # ------------------------------------------------------------ picking up again

    def _lose(self, message: modlog.Message, line: int) -> None:
        """The line follows from no view: keep the visible states one changed or lost
        line away from each view's that the line fits."""
        states: dict[tuple[EdgeworkKey, Card, tuple[Card, ...]], _State] = {}
        for view in self.views:
            obs = view.obs
            if obs.discard is None:
                continue
            candidate = Candidate(view.key, view.bombs, obs.rules, obs.interval)
            for discard, hand in _repairs(obs.rules, obs.discard, obs.hand):
                for state in _visible(_State(candidate, discard, hand), message):
                    states.setdefault((candidate.key, state.discard, state.hand), state)
        self.views = []
        self.resync = Resync(line, self._bounded(list(states.values())))
        self._resume()

    def _bounded(self, states: list[_State]) -> list[_State]:
        if len(states) > MAX_STATES:
            self.dropped += len(states) - MAX_STATES
            return states[:MAX_STATES]
        return states

    def _resync_act(self, message: modlog.Message) -> LoggedClick | OtherLine | None:
        assert self.resync is not None
        states: dict[tuple[EdgeworkKey, Card, tuple[Card, ...]], _State] = {}
        slots: set[int] = set()
        for state in self.resync.states:
            for slot, after in _visible_slots(state, message):
                states.setdefault((after.candidate.key, after.discard, after.hand), after)
                if slot is not None:
                    slots.add(slot)
        if not states:
            # Nothing fits: start again from every state, one more line away.
            self._lose_again(message)
            self._resume()
            return _shown(message, [])
        self.resync.states = self._bounded(list(states.values()))
        self._resume()
        return _shown(message, sorted(slots))

    def _lose_again(self, message: modlog.Message) -> None:
        assert self.resync is not None
        states: dict[tuple[EdgeworkKey, Card, tuple[Card, ...]], _State] = {}
        for state in self.resync.states:
            rules = state.candidate.rules
            for discard, hand in _repairs(rules, state.discard, state.hand):
                for after in _visible(replace(state, discard=discard, hand=hand,
                                              since_mitten=None), message):
                    states.setdefault((after.candidate.key, after.discard, after.hand), after)
        self.resync.states = self._bounded(list(states.values()))

    def _resume(self) -> None:
        """Once one visible state is left and the mitten was seen on the pile since,
        the cycle is exact again: the module is advised as before."""
        assert self.resync is not None
        if all(s.solved for s in self.resync.states):
            self.resync.states = self.resync.states[:1]
        if not self.resync.picked_up():
            return
        views = []
        for state in self.resync.states:
            c = state.candidate
            belief = CycleBelief.new_cycle(c.interval)
            if state.since_mitten is None and not state.solved:
                return
            try:
                for kind in state.since_mitten or ():
                    belief = belief.after_deal(kind)
            except DefuserError:
                continue
            obs = Observation(c.rules, c.interval, belief, state.discard, state.hand,
                              solved=state.solved)
            views.append(View(c.key, c.bombs, obs))
        if views:
            self.views, self.resync = views, None


_Fits = Callable[[Board], bool]


# --------------------------------------------------------------------------- applying


def _events(message: modlog.Message, hand: Sequence[Card]) -> list[tuple[int | None, Event]]:
    """Every click ``message`` (a click's first line) can be on a module holding
    ``hand``, as the event it shows, with the slot it took (a play: each slot holding
    the card); empty for a line that starts no click."""
    click = messages.click_of(message)
    if click is None:
        return []
    card = messages.moved_card(message)
    if click.kind is not ActionKind.PLAY or click.outcome is Outcome.SOLVED:
        slots: list[int | None] = [None]
    else:
        slots = [slot for slot, held in enumerate(hand, start=1) if held is card]
    out: list[tuple[int | None, Event]] = []
    for slot in slots:
        event = messages.event_of(click, card, slot)
        assert event is not None  # a click's first line names its card
        out.append((slot, event))
    return out


def _applied(obs: Observation, message: modlog.Message) -> list[tuple[int | None, Observation]]:
    """Every way ``message`` (a click's first line) follows from ``obs``, with the slot
    it took; empty when it does not follow (the belief's :meth:`Observation.apply`
    says)."""
    out: list[tuple[int | None, Observation]] = []
    for slot, event in _events(message, obs.hand):
        try:
            out.append((slot, obs.apply(event)))
        except DefuserError:
            continue
    return out


def _shown(message: modlog.Message, slots: Sequence[int]) -> LoggedClick | OtherLine:
    """The click a module's first line of a click shows (``slots``: where the card
    played may have been); any other line as it is."""
    click = messages.click_of(message)
    if click is None:
        return OtherLine(message)
    where = tuple(slots) if click.kind is ActionKind.PLAY and click.outcome is not (
        Outcome.SOLVED) else ()
    return LoggedClick(ClickKind.of(click), messages.moved_card(message), where)


def _repairs(
    rules: Ruleset, discard: Card, hand: tuple[Card, ...]
) -> Iterable[tuple[Card, tuple[Card, ...]]]:
    """The visible states one changed or lost line away: as it was, a hand card
    changed, a card played unseen (it went onto the pile), a card drawn unseen, a card
    discarded unseen."""
    yield discard, hand
    for slot in range(len(hand)):
        for face in Card:
            if face is not hand[slot]:
                yield discard, (*hand[:slot], face, *hand[slot + 1:])
    for slot in range(1, len(hand) + 1):
        yield played_from(hand, slot)
    board = Board(rules, discard, hand)
    if board.on_top_if(_DRAW, Effect.DEAL):
        for face in Card:
            if face in board.deal_faces(deal_kind(rules, face), draw=True):
                yield discard, board.after(_DRAW, face).hand
    for face in Card:
        if face is not discard:
            yield face, hand


def _visible(state: _State, message: modlog.Message) -> list[_State]:
    return [after for _, after in _visible_slots(state, message)]


def _visible_slots(state: _State, message: modlog.Message) -> list[tuple[int | None, _State]]:
    """Every way ``message`` follows from a visible state by the rules alone (the cycle
    being unknown), with the slot it took."""
    board = state.board
    out: list[tuple[int | None, _State]] = []
    for slot, event in _events(message, state.hand):
        after = _visible_after(state, board, event)
        if after is not None:
            out.append((slot, after))
    return out


def _visible_after(state: _State, board: Board, event: Event) -> _State | None:
    """The visible state after ``event``, or ``None`` when the rulebook allows it on
    ``board`` neither with the mitten on top nor without (the cycle being unknown)."""
    if isinstance(event, Solved):
        # The Defuse played goes onto the pile (the first one, as the belief's
        # Observation.solve takes when the log does not say which).
        slot = next((s for s in range(1, len(board.hand) + 1)
                     if board.on_top_if(Action.play(s), Effect.SOLVE)), None)
        if slot is None:
            return None
        solved = board.solve(slot)
        return replace(state, discard=solved.discard, hand=solved.hand, solved=True)
    action = event.action
    if isinstance(event, Struck):
        fits = any(board.verdict(action, mitten_on_top=on_top).strike is event.reason
                   for on_top in ON_TOP_VALUES)
        return state if fits else None
    if isinstance(event, Played):
        if not board.on_top_if(action, Effect.PLAY):
            return None
        played = board.after(action)
        return replace(state, discard=played.discard, hand=played.hand)
    card = event.card
    if not board.on_top_if(action, Effect.DEAL) or card not in board.deal_faces(
        deal_kind(board.rules, card), draw=isinstance(event, Drew)
    ):
        return None
    dealt = board.after(action, card)
    return replace(state, discard=dealt.discard, hand=dealt.hand,
                   since_mitten=state.dealt(card))


# --------------------------------------------------------------------------- advice


@dataclass(frozen=True, slots=True)
class Combined:
    """The advice for every view of a module at once (see :func:`combine`)."""

    recommendation: Recommendation
    #: The view whose state is shown (the latest bomb's); ``None`` while the module is
    #: being picked up again.
    view: View | None
    #: A card to play whose slot the log leaves open (no command is given then).
    play_card: Card | None
    candidates: list[Candidate]


def combine(tracked: Tracked) -> Combined:
    """The advice for all of ``tracked``'s views: a click right under every one of them,
    or what to check (see the module's contract)."""
    candidates = tracked.candidates
    if tracked.resync is not None:
        return Combined(_picking_up(tracked.resync), None, None, candidates)
    views = sorted(tracked.views, key=lambda v: v.bombs[-1].number)
    shown = views[-1]
    recs = [recommend(v.obs) for v in views]
    first = recs[-1]
    if all(r.action == first.action for r in recs):
        return Combined(_for_all(first, recs, candidates), shown, None, candidates)
    if len(candidates) == 1:
        cards = {_card_of(v.obs, r.action) for v, r in zip(views, recs, strict=True)}
        card = cards.pop() if len(cards) == 1 else None
        if card is not None:
            return Combined(_which_slot(card, views, first), shown, card, candidates)
    safe = _safe_everywhere(views, recs)
    if safe is not None:
        return Combined(safe, shown, None, candidates)
    return Combined(_check_the_bomb(views, recs), shown, None, candidates)


def _card_of(obs: Observation, action: Action | None) -> Card | None:
    if action is None or action.slot is None:
        return None
    return obs.hand[action.slot - 1]


def _bomb_words(candidates: Sequence[Candidate]) -> str:
    numbers = sorted({b.number for c in candidates for b in c.bombs})
    named = ", ".join(str(n) for n in numbers[:5])
    if len(numbers) > 5:
        named += f" and {len(numbers) - 5:,} more"
    return f"bombs {named}"


def _for_all(first: Recommendation, recs: list[Recommendation],
             candidates: list[Candidate]) -> Recommendation:
    """One click advised by every view."""
    if len(candidates) == 1:
        return first
    clicks = {r.expected_clicks for r in recs}
    note = (f" (the bomb is not certain: {_bomb_words(candidates)} fit this module's "
            "lines; this is the best click on each)")
    return replace(
        first,
        expected_clicks=first.expected_clicks if len(clicks) == 1 else None,
        reason=first.reason + note, why=first.why + note,
    )


def _which_slot(card: Card, views: list[View], first: Recommendation) -> Recommendation:
    """Play ``card``, whose slot differs between the hand orders the log allows."""
    slots = sorted({s for v in views for s, held in enumerate(v.obs.hand, 1) if held is card})
    where = " or ".join(str(s) for s in slots)
    return Recommendation(
        None, first.expected_clicks,
        f"Play the {card.code} ({card.words}), in slot {where}: two equal cards were in "
        f"the hand and the log does not say which one was played, so check which slot "
        f"holds the {card.code} before typing play. {first.why}".rstrip(),
        first.values, first.why,
    )


def _safe_everywhere(views: list[View], recs: list[Recommendation]) -> Recommendation | None:
    """A click advised on some view that cannot strike on any, if there is one."""
    candidates = _candidates_of(views)
    if len(candidates) > 1:
        note = (f" (the bomb is not certain: {_bomb_words(candidates)} fit this module's "
                "lines; this click cannot strike on any of them)")
    else:
        note = (" (the log leaves the hand's order open; this click cannot strike in any "
                "order it allows)")
    for rec in reversed(recs):
        action = rec.action
        if action is not None and all(_safe(action, r) for r in recs):
            return replace(rec, expected_clicks=None, reason=rec.reason + note,
                           why=rec.why + note)
    return None


def _safe(action: Action, rec: Recommendation) -> bool:
    return any(av.action == action and av.safe for av in rec.values)


def _candidates_of(views: list[View]) -> list[Candidate]:
    seen = {v.key: Candidate(v.key, v.bombs, v.obs.rules, v.obs.interval) for v in views}
    return list(seen.values())


def _check_the_bomb(views: list[View], recs: list[Recommendation]) -> Recommendation:
    """No click is safe on every bomb the module may be on: what to check."""
    parts = []
    for view, rec in zip(views, recs, strict=True):
        serial = view.bombs[-1].serial or "?"
        what = str(rec.action) if rec.action is not None else rec.reason
        parts.append(f"on the bomb with serial number {serial}, {what}")
    unique = list(dict.fromkeys(parts))
    return Recommendation(
        None, None,
        "Check the bomb's serial number first: the log does not say which bomb this "
        "module is on, and no click is safe on all of them; " + "; ".join(unique) + ".",
    )


def _picking_up(resync: Resync) -> Recommendation:
    """Advice while a module is picked up again: only clicks that cannot strike."""
    actions = {_safe_click(s.board) for s in resync.states}
    since = (
        f"line {resync.line} did not follow from what the module showed before, so the "
        "deck's cycle is not known until the mitten is seen on the pile again"
    )
    if len(actions) == 1:
        (action,) = actions
        if action is not None:
            return Recommendation(
                action, None, f"{action.kind.value.capitalize()}: it cannot strike; {since}.",
                why=f"it cannot strike; {since}",
            )
    return Recommendation(
        None, None,
        f"Picking the module up again: {since}, and the lines since have not shown "
        "which cards it holds; follow your own reading of the module until they do.",
    )


def _safe_click(board: Board) -> Action | None:
    """A click that cannot strike whatever the deck holds: a legal card (a plain one
    first), else the discard."""
    legal = board.legal_slots
    defuses = board.defuse_slots()
    plain = [s for s in legal if s not in defuses]
    if plain:
        return Action.play(plain[0])
    if board.discard_allowed:
        return Action.discard()
    return Action.play(legal[0]) if legal else None
