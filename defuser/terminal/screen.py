"""The expert's screen on a terminal: the move first, cards as coloured shapes, a cycle gauge.

Contract: these functions build rich renderables for a person at a terminal; they never
print. Text wraps at word boundaries to the console's width (the caller prints with
``soft_wrap=False``). The move is drawn as a reverse-video badge in the colour of its
click (draw, discard, play) so that it is the first thing the eye finds; cards are
their shape glyph in their colour followed by their code; the cycle is one compact
gauge line. Piped output and ``--json`` never use this module: their text stays the
plain lines of :meth:`defuser.apps.live_session.Reply.lines`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text

from defuser.engine.actions import Action
from defuser.strategy.belief import CycleBelief, Observation, odds
from defuser.strategy.values import Recommendation
from defuser.terminal.style import COLOUR_STYLES
from edgework import SHAPE_GLYPHS, Card

#: The badge style of each kind of click: the move must stand out from everything else.
MOVE_STYLES: dict[str, str] = {
    "play": "bold reverse green",
    "draw": "bold reverse cyan",
    "discard": "bold reverse yellow",
}
#: Width of the cycle gauge's bar, in cells.
GAUGE_CELLS = 10
#: Indent of the lines under the move.
INDENT = 3


def card_chip(card: Card) -> Text:
    """A card as the module shows it: its shape in its colour, then its code (``■ GS``)."""
    return Text(f"{SHAPE_GLYPHS[card.shape]} {card.code}", style=COLOUR_STYLES[card.colour])


def hand_row(hand: Sequence[Card], legal: Sequence[int] = ()) -> Text:
    """The hand as ``1 ■ GS  2 ● RC``; legal slots' numbers are bold, the rest dim."""
    text = Text()
    if not hand:
        return text.append("empty", style="dim")
    for slot, card in enumerate(hand, start=1):
        if slot > 1:
            text.append("  ")
        text.append(f"{slot} ", style="bold" if slot in legal else "dim")
        text.append_text(card_chip(card))
    return text


def move_badge(action: Action, card: Card | None = None) -> Text:
    """The move as a badge (`` PLAY 2 `` in reverse video), then the card it plays."""
    kind = action.kind.value
    # The reverse video covers the badge's words only: as the line's own style it would
    # run to the end of the line, and a card of the badge's colour would vanish in it.
    text = Text()
    text.append(f" {str(action).upper()} ", style=MOVE_STYLES.get(kind, "bold reverse"))
    if card is not None:
        text.append(" ")
        text.append_text(card_chip(card))
    return text


def reason_words(rec: Recommendation) -> str:
    """The reason without its leading ``Play 3 (GC):`` (the badge already says it)."""
    return rec.reason.partition(": ")[2] or rec.reason


def gauge(belief: CycleBelief) -> Text:
    """The cycle in one line: a bar (the chance the mitten is on top now; once its phase
    is known, how near it is: full on top, empty just after one was dealt), the deals
    until it can be on top, and whether a Defuse may still come before it."""
    top = belief.mitten_on_top
    known = belief.deals_until_on_top
    if known is not None:
        # The phase is known: the bar is how near the mitten is, full when on top.
        cycle = belief.interval - 1
        filled = math.ceil(GAUGE_CELLS * max(cycle - known, 0) / cycle)
    else:
        filled = math.ceil(float(top) * GAUGE_CELLS) if top else 0
    text = Text("mitten ")
    text.append("█" * filled, style="bold red" if known == 0 else "red")
    text.append("░" * (GAUGE_CELLS - filled), style="dim")
    if known == 0:
        text.append(" on top now", style="bold red")
    elif known is not None:
        text.append(f" on top in {known} deal{'s' if known != 1 else ''}")
    else:
        text.append(f" on top: {odds(top)}" if top else " not on top")
        soonest = min(m for (m, _), _ in belief.support)
        if soonest > 0:
            text.append(f", can be in {soonest} deal{'s' if soonest != 1 else ''}")
    if not belief.defuse_possible:
        text.append(" · no Defuse before it", style="dim")
    elif belief.defuse_next == 1:
        text.append(" · the Defuse is next", style="bold green")
    else:
        text.append(f" · Defuse: {odds(belief.defuse_next)} next", style="green")
    return text


def state_line(obs: Observation) -> Text:
    """Discard top and rule, the hand with its legal slots, strikes and clicks."""
    assert obs.discard is not None
    text = Text("discard ")
    text.append_text(card_chip(obs.discard))
    text.append(f" rule {obs.rules.rule(obs.discard)} · hand ")
    text.append_text(hand_row(obs.hand, obs.legal_slots))
    strikes = obs.strikes
    text.append(f" · {strikes} strike{'' if strikes == 1 else 's'}",
                style="bold red" if strikes else "")
    return text


def advice(obs: Observation | None, rec: Recommendation) -> RenderableType:
    """The best move as the expert must see it: the badge, why, the state, the gauge."""
    if rec.action is None or obs is None or obs.discard is None:
        return Text(rec.reason)
    card = obs.hand[rec.action.slot - 1] if rec.action.slot is not None else None
    badge = move_badge(rec.action, card)
    clicks = rec.expected_clicks
    if clicks is not None and not math.isinf(clicks):
        badge.append(f"   about {clicks:.1f} clicks to the solve", style="dim")
    below = (Text(reason_words(rec)), state_line(obs), gauge(obs.belief))
    return Group(badge, *(Padding(item, (0, 0, 0, INDENT), expand=False) for item in below))


def error(message: str) -> Text:
    """A rejected line: it changed nothing."""
    return Text("✗ ", style="bold red").append(message, style="red")
