"""The beam's transition function: one line, one state, its successors.

Contract: :func:`step` takes a replay state and one module line and returns every
successor state the line allows, each with the contradictions it costs. What the line
must be depends on the state's :class:`~defuser.logs.check.state.Stage`; each stage
has one handler, and at :attr:`Stage.IDLE` each click message has one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from defuser.engine import modlog
from defuser.engine.rules import HAND_SIZE
from defuser.logs.check import clicks, startup
from defuser.logs.check.cycle import coming_line
from defuser.logs.check.messages import ACTION_STARTS
from defuser.logs.check.state import Branch, Context, ReplayLine, ReplayState, Stage

Handler = Callable[[Context, ReplayState, ReplayLine], list[Branch]]


def step(
    ctx: Context, s: ReplayState, number: int, message: modlog.Message | None, text: str,
) -> list[Branch]:
    """The successors of ``s`` after line ``number`` (its ``message``, or ``None`` for
    text the module never writes)."""
    if s.solved_line:
        return [(s, [
            f"the module was solved at line {s.solved_line}; nothing responds after "
            "the solve"
        ])]
    if message is None:
        return [(s, [f"{text!r} is not a line the module writes"])]
    return _STAGES[s.stage](ctx, s, ReplayLine(number, message, text))


def _step(ctx: Context, s: ReplayState, ln: ReplayLine) -> list[Branch]:
    return step(ctx, s, ln.number, ln.message, ln.text)


def _missing(ctx: Context, s: ReplayState, ln: ReplayLine, what: str) -> list[Branch]:
    """The line is not the one expected: it costs one finding and is read from ``s``."""
    return [(st, [f"expected {what} before this line", *m]) for st, m in _step(ctx, s, ln)]


def _at_start(ctx: Context, s: ReplayState, ln: ReplayLine) -> list[Branch]:
    message = ln.message
    if isinstance(message, modlog.TableMessage):
        return [startup.table_line(ctx, s, message.table)]
    if isinstance(message, modlog.OpeningDiscardMessage):
        out = startup.initial_discard(ctx, s.evolve(stage=Stage.OPENING_DISCARD), message)
        return [(st, ["the start-up's first line 'You should use Table X.' is "
                      "missing", *m]) for st, m in out]
    return [(s, ["the module's start-up is missing before this line"])]


def _at_opening_discard(ctx: Context, s: ReplayState, ln: ReplayLine) -> list[Branch]:
    if isinstance(ln.message, modlog.OpeningDiscardMessage):
        return startup.initial_discard(ctx, s, ln.message)
    return [(s, ["expected the opening discard line 'The card on the discard pile "
                 "is a ...' here"])]


def _rule_expected(
    ctx: Context, s: ReplayState, ln: ReplayLine, then: Stage, what: str
) -> list[Branch]:
    """A rule line is due; after it the replay goes on at ``then``."""
    if isinstance(ln.message, modlog.RuleMessage | modlog.RuleNowMessage):
        return [startup.rule_line(ctx, s.evolve(stage=then), ln.message)]
    return _missing(ctx, s.evolve(stage=then), ln, what)


def _at_opening_rule(ctx: Context, s: ReplayState, ln: ReplayLine) -> list[Branch]:
    return _rule_expected(ctx, s, ln, Stage.HAND, "the start-up's rule line 'The rule used is X.'")


def _at_hand(ctx: Context, s: ReplayState, ln: ReplayLine) -> list[Branch]:
    if isinstance(ln.message, modlog.HandCardMessage):
        return startup.hand_card(ctx, s, ln.number, ln.message)
    out = _step(ctx, s.evolve(stage=Stage.IDLE), ln)
    if type(ln.message) in ACTION_STARTS and len(s.hand) < HAND_SIZE:
        msg = f"the start-up listed {len(s.hand)} hand card(s), expected {HAND_SIZE}"
        return [(st, [msg, *m]) for st, m in out]
    return out


def _at_coming(ctx: Context, s: ReplayState, ln: ReplayLine) -> list[Branch]:
    if isinstance(ln.message, modlog.MittenComingMessage):
        return [coming_line(ctx, s, ln.message.k)]
    return _missing(ctx, s.evolve(stage=Stage.IDLE), ln,
                    f"the countdown line after the deal at line {s.pending_line}")


def _at_rule_after_play(ctx: Context, s: ReplayState, ln: ReplayLine) -> list[Branch]:
    return _rule_expected(ctx, s, ln, Stage.IDLE,
                          f"'The rule used is X.' after the play at line {s.pending_line}")


def _at_rule_after_discard(ctx: Context, s: ReplayState, ln: ReplayLine) -> list[Branch]:
    return _rule_expected(
        ctx, s, ln, Stage.COMING,
        f"'The rule used now is X.' after the discard at line {s.pending_line}",
    )


def _at_blocking(ctx: Context, s: ReplayState, ln: ReplayLine) -> list[Branch]:
    if isinstance(ln.message, modlog.BlockingSlotMessage):
        return [clicks.blocking_line(ctx, s, ln.message)]
    if isinstance(ln.message, modlog.StrikeMessage):
        return [clicks.blocking_end(ctx, s)]
    return _missing(ctx, s.evolve(stage=Stage.IDLE, blocking=()), ln,
                    f"'Strike!' closing the blocked discard at line {s.pending_line}")


def _at_idle(ctx: Context, s: ReplayState, ln: ReplayLine) -> list[Branch]:
    """The first line of the player's next click; anything else is out of place."""
    match ln.message:
        case modlog.DrewMessage(card=card, kind=kind):
            return clicks.drew(ctx, s, ln.number, card, kind)
        case modlog.DiscardedMessage(card=card, kind=kind):
            return clicks.discarded(ctx, s, ln.number, card, kind)
        case modlog.PlayedMessage(card=card, kind=kind):
            return clicks.played(ctx, s, ln.number, card, kind)
        case modlog.InvalidPlayMessage(card=card):
            return [clicks.invalid_play(ctx, s, card)]
        case modlog.DrawMittenStrikeMessage():
            return [clicks.mitten_strike(ctx, s)]
        case modlog.HandFullStrikeMessage():
            return [clicks.hand_full(ctx, s)]
        case modlog.DiscardBlockedMessage():
            return [clicks.discard_blocked(ctx, s, ln.number)]
        case modlog.SolvedMessage():
            return clicks.solved(ctx, s, ln.number)
    return [(s, [_OUT_OF_PLACE.get(type(ln.message), "an unexpected line")])]


#: At :attr:`Stage.IDLE`, what each line that starts no click is out of place as.
_OUT_OF_PLACE: Final[dict[type[modlog.Message], str]] = {
    modlog.TableMessage: "a second start-up line 'You should use Table X.'",
    modlog.OpeningDiscardMessage: "a start-up line in the middle of the game",
    modlog.HandCardMessage: "a start-up hand card in the middle of the game",
    modlog.RuleMessage: "a rule line that follows no play",
    modlog.RuleNowMessage: "a rule line that follows no discard",
    modlog.MittenComingMessage: "a countdown line that follows no deal",
    modlog.BlockingSlotMessage: "a blocking-card line outside a blocked discard",
    modlog.StrikeMessage: "a 'Strike!' line outside a blocked discard",
}


_STAGES: Final[dict[Stage, Handler]] = {
    Stage.START: _at_start,
    Stage.OPENING_DISCARD: _at_opening_discard,
    Stage.OPENING_RULE: _at_opening_rule,
    Stage.HAND: _at_hand,
    Stage.IDLE: _at_idle,
    Stage.COMING: _at_coming,
    Stage.RULE_AFTER_PLAY: _at_rule_after_play,
    Stage.RULE_AFTER_DISCARD: _at_rule_after_discard,
    Stage.BLOCKING: _at_blocking,
}
