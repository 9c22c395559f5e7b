"""How cards look on a terminal: the colours of the four suits, a card as rich text.

Contract: these build rich renderables and never print; rich is imported on first use,
so a command that only prints JSON never loads it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from edgework import SHAPE_GLYPHS, Card, Colour

if TYPE_CHECKING:
    from rich.text import Text

#: rich styles for the four colours (yellow is bold so it reads on light terminals too).
COLOUR_STYLES: dict[Colour, str] = {
    Colour.RED: "bold red",
    Colour.BLUE: "bold blue",
    Colour.GREEN: "bold green",
    Colour.YELLOW: "bold yellow",
}


def card_text(card: Card, *, words: bool = True, colour: bool = True) -> Text:
    """A card as rich text: code and shape glyph (in its colour), then the words."""
    from rich.text import Text

    text = Text()
    style = COLOUR_STYLES[card.colour] if colour else ""
    text.append(f"{card.code} {SHAPE_GLYPHS[card.shape]}", style=style)
    if words:
        text.append(f" {card.words}")
    return text
