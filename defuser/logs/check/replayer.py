"""The beam's transition function: one line, one state, its successors.

Contract: :func:`step` takes a replay state and one module line and returns every
successor state the line allows, each with the contradictions it costs. What the line
must be depends on the state's :class:`~defuser.logs.check.state.Stage`; each stage
has one handler, and at :attr:`Stage.IDLE` each click message has one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from defuser.engine.rules import HAND_SIZE
from defuser.logs.check import clicks, startup
from defuser.logs.check.cycle import coming_line
from defuser.logs.check.messages import ACTION_STARTS, RULE_MESSAGES
from defuser.logs.check.state import Branch, Context, Line, ReplayState, Stage

Handler = Callable[[Context, ReplayState, Line], list[Branch]]


def step(
    ctx: Context, s: ReplayState, number: int, name: str | None, fields: dict[str, Any],
    text: str,
) -> list[Branch]:
    """The successors of ``s`` after line ``number`` (message ``name``, or ``None`` for
    text the module never writes)."""
    if s.solved_line:
        return [(s, [
            f"the module was solved at line {s.solved_line}; nothing responds after "
            "the solve"
        ])]
    if name is None:
        return [(s, [f"{text!r} is not a line the module writes"])]
    return _STAGES[s.stage](ctx, s, Line(number, name, fields, text))


def _step(ctx: Context, s: ReplayState, ln: Line) -> list[Branch]:
    return step(ctx, s, ln.number, ln.name, ln.fields, ln.text)


def _missing(ctx: Context, s: ReplayState, ln: Line, what: str) -> list[Branch]:
    """The line is not the one expected: it costs one finding and is read from ``s``."""
    return [(st, [f"expected {what} before this line", *m]) for st, m in _step(ctx, s, ln)]


def _at_start(ctx: Context, s: ReplayState, ln: Line) -> list[Branch]:
    if ln.name == "table":
        return [startup.table_line(ctx, s, ln.fields["table"])]
    if ln.name == "initial_discard":
        out = startup.initial_discard(ctx, s.evolve(stage=Stage.OPENING_DISCARD), ln.fields)
        return [(st, ["the start-up's first line 'You should use Table X.' is "
                      "missing", *m]) for st, m in out]
    return [(s, ["the module's start-up is missing before this line"])]


def _at_opening_discard(ctx: Context, s: ReplayState, ln: Line) -> list[Branch]:
    if ln.name == "initial_discard":
        return startup.initial_discard(ctx, s, ln.fields)
    return [(s, ["expected the opening discard line 'The card on the discard pile "
                 "is a ...' here"])]


def _rule_expected(
    ctx: Context, s: ReplayState, ln: Line, then: Stage, what: str
) -> list[Branch]:
    """A rule line is due; after it the replay goes on at ``then``."""
    if ln.name in RULE_MESSAGES:
        return [startup.rule_line(ctx, s.evolve(stage=then), ln.fields["rule"], ln.name)]
    return _missing(ctx, s.evolve(stage=then), ln, what)


def _at_opening_rule(ctx: Context, s: ReplayState, ln: Line) -> list[Branch]:
    return _rule_expected(ctx, s, ln, Stage.HAND, "the start-up's rule line 'The rule used is X.'")


def _at_hand(ctx: Context, s: ReplayState, ln: Line) -> list[Branch]:
    if ln.name == "hand_card":
        return startup.hand_card(ctx, s, ln.number, ln.fields)
    out = _step(ctx, s.evolve(stage=Stage.IDLE), ln)
    if ln.name in ACTION_STARTS and len(s.hand) < HAND_SIZE:
        msg = f"the start-up listed {len(s.hand)} hand card(s), expected {HAND_SIZE}"
        return [(st, [msg, *m]) for st, m in out]
    return out


def _at_coming(ctx: Context, s: ReplayState, ln: Line) -> list[Branch]:
    if ln.name == "mitten_coming":
        return [coming_line(ctx, s, ln.fields["k"])]
    return _missing(ctx, s.evolve(stage=Stage.IDLE), ln,
                    f"the countdown line after the deal at line {s.pending_line}")


def _at_rule_after_play(ctx: Context, s: ReplayState, ln: Line) -> list[Branch]:
    return _rule_expected(ctx, s, ln, Stage.IDLE,
                          f"'The rule used is X.' after the play at line {s.pending_line}")


def _at_rule_after_discard(ctx: Context, s: ReplayState, ln: Line) -> list[Branch]:
    return _rule_expected(
        ctx, s, ln, Stage.COMING,
        f"'The rule used now is X.' after the discard at line {s.pending_line}",
    )


def _at_blocking(ctx: Context, s: ReplayState, ln: Line) -> list[Branch]:
    if ln.name == "blocking_slot":
        return [clicks.blocking_line(ctx, s, ln.fields)]
    if ln.name == "strike":
        return [clicks.blocking_end(ctx, s)]
    return _missing(ctx, s.evolve(stage=Stage.IDLE, blocking=()), ln,
                    f"'Strike!' closing the blocked discard at line {s.pending_line}")


#: At :attr:`Stage.IDLE`, how each click's first line is replayed.
_CLICKS: Final[dict[str, Handler]] = {
    "drew": lambda ctx, s, ln: clicks.drew(
        ctx, s, ln.number, ln.fields["face"], ln.fields["type"]),
    "discarded": lambda ctx, s, ln: clicks.discarded(
        ctx, s, ln.number, ln.fields["face"], ln.fields["type"]),
    "played": lambda ctx, s, ln: clicks.played(
        ctx, s, ln.number, ln.fields["face"], ln.fields["type"]),
    "invalid_play": lambda ctx, s, ln: [clicks.invalid_play(ctx, s, ln.fields["face"])],
    "draw_mitten_strike": lambda ctx, s, ln: [clicks.mitten_strike(ctx, s)],
    "hand_full_strike": lambda ctx, s, ln: [clicks.hand_full(ctx, s)],
    "discard_blocked": lambda ctx, s, ln: [clicks.discard_blocked(ctx, s, ln.number)],
    "solved": lambda ctx, s, ln: clicks.solved(ctx, s, ln.number),
}

#: At :attr:`Stage.IDLE`, what each line that starts no click is out of place as.
_OUT_OF_PLACE: Final = {
    "table": "a second start-up line 'You should use Table X.'",
    "initial_discard": "a start-up line in the middle of the game",
    "hand_card": "a start-up hand card in the middle of the game",
    "rule": "a rule line that follows no play",
    "rule_now": "a rule line that follows no discard",
    "mitten_coming": "a countdown line that follows no deal",
    "blocking_slot": "a blocking-card line outside a blocked discard",
    "strike": "a 'Strike!' line outside a blocked discard",
}


def _at_idle(ctx: Context, s: ReplayState, ln: Line) -> list[Branch]:
    handler = _CLICKS.get(ln.name)
    if handler is not None:
        return handler(ctx, s, ln)
    return [(s, [_OUT_OF_PLACE.get(ln.name, "an unexpected line")])]


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
