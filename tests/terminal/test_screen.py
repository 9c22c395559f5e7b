"""The expert's screen on a terminal: word wrap, the move first, cards as shapes, the gauge.

Rendered into a recording console of a given width, as a terminal would show it; the
docs' example of the screen is checked against the real rendering.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.console import Console

from defuser.apps.live_session import LiveSession
from defuser.engine.actions import Action
from defuser.engine.deck import Hidden
from defuser.strategy.belief import CycleBelief
from defuser.terminal import screen
from defuser.terminal.live_view import screen_reply
from edgework import Batteries, Card, SerialNumber

DOCS = Path(__file__).resolve().parents[2] / "docs" / "live.md"


def _render(lines: list[str], width: int, colour: bool = False) -> Console:
    console = Console(width=width, record=True, color_system="truecolor" if colour else None,
                      force_terminal=colour, highlight=False, markup=False)
    session = LiveSession(SerialNumber.parse("AB3CD4"), Batteries(3))
    for line in lines:
        for item in screen_reply(session.handle(line)):
            console.print(item, soft_wrap=False)
    return console


GAME = ["start YC YT GT GC", "played 3", "discarded blue triangle", "discarded RS",
        "played 1", "bogus line with many words to wrap around the edge of a narrow screen"]


@pytest.mark.parametrize("width", [40, 60, 80])
def test_text_wraps_at_word_boundaries_to_the_width(width: int) -> None:
    text = _render(GAME, width).export_text()
    words = set()
    for line in text.splitlines():
        assert len(line) <= width
        words.update(line.split())
    # Every word of every reason is on the screen whole: nothing is cut mid-word.
    session = LiveSession(SerialNumber.parse("AB3CD4"), Batteries(3))
    for line in GAME:
        reply = session.handle(line)
        source = reply.error if not reply.ok else screen.reason_words(reply.recommendation)
        for word in (source or "").split():
            assert word in words, (word, width)


def test_the_move_is_a_coloured_badge_and_cards_are_coloured_shapes() -> None:
    console = _render(GAME[:1], 80, colour=True)
    html = console.export_text(styles=True)
    # Reverse video (7) marks the move; the card after it is its shape then its code.
    assert re.search(r"\x1b\[[0-9;]*7[0-9;]*m PLAY 3 ", html)
    plain = _render(GAME[:1], 80).export_text()
    assert plain.splitlines()[1].startswith(" PLAY 3  ● GC")
    chip = screen.card_chip(Card.GREEN_CIRCLE)
    assert chip.plain == "● GC" and "green" in str(chip.style)


def test_the_gauge_shows_the_chance_the_deals_and_the_defuse() -> None:
    session = LiveSession(SerialNumber.parse("AB3CD4"), Batteries(3))
    session.handle("start YC YT GT GC")
    session.handle("played 3")
    obs = session.handle("discarded blue triangle").observation
    assert obs is not None
    gauge = screen.gauge(obs.belief).plain
    assert gauge.startswith("mitten █░░░░░░░░░ on top: 1 in 10")
    assert "Defuse: 9 in 100 next" in gauge
    obs = session.handle("discarded RH").observation  # the mitten: the phase is known
    assert obs is not None
    assert "on top in 11 deals" in screen.gauge(obs.belief).plain


def test_the_docs_example_is_the_real_screen() -> None:
    docs = DOCS.read_text(encoding="utf-8")
    section = docs[docs.index("## On a terminal"):]
    block = section[section.index("```text\n") + 8 : section.index("```\n", 10)]
    shown = _render(GAME[:1], 80).export_text()
    # The first line of the real output is the session's note ("new module: ...").
    assert shown.splitlines()[1:] == block.splitlines()


def test_the_badge_s_reverse_video_ends_with_its_words() -> None:
    # Issue 24: the badge's style was the whole line's, so 'PLAY 1 ▲ GT' drew the green
    # card in a green bar to the end of the line, where it disappeared.
    badge = screen.move_badge(Action.play(1), Card.GREEN_TRIANGLE)
    assert badge.plain == " PLAY 1  ▲ GT" and not str(badge.style)
    for span in badge.spans:
        reversed_ = "reverse" in str(span.style)
        assert reversed_ == (badge.plain[span.start:span.end] == " PLAY 1 ")
    console = Console(width=40, record=True, color_system="truecolor", force_terminal=True)
    console.print(badge, soft_wrap=False)
    coloured = console.export_text(styles=True)
    # After the badge's words the reverse video (7) is off: the card and the rest of
    # the line are drawn normally.
    assert re.search(r"\x1b\[[0-9;]*7[0-9;]*m PLAY 1 \x1b\[0m", coloured)
    assert not re.search(r"\x1b\[[0-9;]*7[0-9;]*m[^\x1b]*▲ GT", coloured)


def test_the_gauge_shows_how_near_a_known_mitten_is() -> None:
    # Issue 24: the bar was the chance the mitten is on top now, empty for the whole
    # second half of the game even when it was known to be on top in 1 deal.
    near = CycleBelief.point(9, Hidden(1, None))
    far = CycleBelief.point(9, Hidden(8, None))
    on_top = CycleBelief.point(9, Hidden(0, None))
    bars = [screen.gauge(b).plain.split()[1] for b in (far, near, on_top)]
    assert bars == ["░" * 10, "█" * 9 + "░", "█" * 10]
    assert "on top in 1 deal" in screen.gauge(near).plain
