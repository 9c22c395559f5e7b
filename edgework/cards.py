"""Card faces: four shapes times four colours, and the six card types.

A face is a :class:`Card`, an ``IntEnum`` whose value is ``shape * 4 + colour``. Its
short code is the colour initial followed by the shape initial (``RC`` is the red
circle), and its words are ``<colour> <shape>`` in lower case, as the module's log
writes them. :meth:`Card.parse` reads either form, in any case and order.
"""

from __future__ import annotations

import enum
from typing import Final

from edgework.errors import InvalidCardError


class Shape(enum.IntEnum):
    """A card's shape, in the order of the manual's table rows."""

    CIRCLE = 0
    HEART = 1
    TRIANGLE = 2
    SQUARE = 3

    @property
    def initial(self) -> str:
        """The one-letter code of this shape (``C``, ``H``, ``T``, ``S``)."""
        return self.name[0]

    @property
    def word(self) -> str:
        """The shape in lower-case words, as the module logs it."""
        return self.name.lower()

    def __repr__(self) -> str:
        return f"Shape.{self.name}"


class Colour(enum.IntEnum):
    """A card's colour, in the order of the manual's table columns."""

    RED = 0
    BLUE = 1
    GREEN = 2
    YELLOW = 3

    @property
    def initial(self) -> str:
        """The one-letter code of this colour (``R``, ``B``, ``G``, ``Y``)."""
        return self.name[0]

    @property
    def word(self) -> str:
        """The colour in lower-case words, as the module logs it."""
        return self.name.lower()

    def __repr__(self) -> str:
        return f"Colour.{self.name}"


class CardType(enum.Enum):
    """What a face means under the active table; the value is the module's own name."""

    NOPE = "Nope"
    YEP = "Yep"
    DEFUSE = "Defuse"
    DOUBLE_PLAY = "Double Play"
    ATTACK = "Attack"
    EXPLODING_MITTEN = "Exploding Mitten"

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"CardType.{self.name}"

    @property
    def card_words(self) -> str:
        """The type with its article, for prose: ``a Yep card``, ``an Attack card``."""
        return _TYPE_WORDS[self]

    @property
    def is_plain(self) -> bool:
        """True for the four types the deck deals at random (not Defuse, not mitten)."""
        return self not in (CardType.DEFUSE, CardType.EXPLODING_MITTEN)

    @classmethod
    def parse(cls, text: str) -> CardType:
        """Read a type name, forgiving case, spacing and the manual's ``Expl. Mitten``."""
        key = " ".join(text.replace(".", " ").replace("_", " ").split()).lower()
        found = _TYPE_NAMES.get(key)
        if found is None:
            names = ", ".join(t.value for t in cls)
            raise InvalidCardError(f"card type {text!r} is not known, expected one of {names}")
        return found


#: Each type's :attr:`CardType.card_words`, made once (findings word types all the time).
_TYPE_WORDS: Final[dict[CardType, str]] = {
    t: f"{'an' if t.value[0] in 'AEIOU' else 'a'} {t.value} card" for t in CardType
}
_TYPE_NAMES: Final[dict[str, CardType]] = {t.value.lower(): t for t in CardType}
_TYPE_NAMES.update(
    {
        "expl mitten": CardType.EXPLODING_MITTEN,
        "mitten": CardType.EXPLODING_MITTEN,
        "exploding mittens": CardType.EXPLODING_MITTEN,
        "doubleplay": CardType.DOUBLE_PLAY,
    }
)


class Card(enum.IntEnum):
    """One of the 16 faces; ``value == shape * 4 + colour``."""

    RED_CIRCLE = 0
    BLUE_CIRCLE = 1
    GREEN_CIRCLE = 2
    YELLOW_CIRCLE = 3
    RED_HEART = 4
    BLUE_HEART = 5
    GREEN_HEART = 6
    YELLOW_HEART = 7
    RED_TRIANGLE = 8
    BLUE_TRIANGLE = 9
    GREEN_TRIANGLE = 10
    YELLOW_TRIANGLE = 11
    RED_SQUARE = 12
    BLUE_SQUARE = 13
    GREEN_SQUARE = 14
    YELLOW_SQUARE = 15

    @classmethod
    def of(cls, shape: Shape, colour: Colour) -> Card:
        """The face with this shape and colour."""
        return cls(int(shape) * 4 + int(colour))

    @property
    def shape(self) -> Shape:
        """This face's shape."""
        return _SHAPES[self]

    @property
    def colour(self) -> Colour:
        """This face's colour."""
        return _COLOURS[self]

    @property
    def code(self) -> str:
        """The two-letter code: colour initial then shape initial (``RC``)."""
        return _CODES[self]

    @property
    def words(self) -> str:
        """``<colour> <shape>`` in lower case (``red circle``), as the module logs it."""
        return _WORDS[self]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.{self.name}"

    def __format__(self, spec: str) -> str:
        return format(self.code, spec)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a face from a code (``RC``, ``rc``) or words (``red circle``, ``Circle Red``).

        Raises :class:`InvalidCardError` naming the input and the accepted forms.
        """
        key = " ".join(text.replace(",", " ").replace("-", " ").replace("_", " ").split())
        key = key.lower()
        found = _CARD_NAMES.get(key)
        if found is None:
            raise InvalidCardError(
                f"card {text!r} is not a card face, expected a code like RC or GS "
                "(colour R/B/G/Y then shape C/H/T/S) or words like 'red circle'"
            )
        return found


# Each face's parts, worked out once by value: they are on the path of every log line
# the simulator writes and the log checker reads (an enum lookup costs microseconds).
_SHAPES: Final[tuple[Shape, ...]] = tuple(Shape(value // 4) for value in range(16))
_COLOURS: Final[tuple[Colour, ...]] = tuple(Colour(value % 4) for value in range(16))
_CODES: Final[tuple[str, ...]] = tuple(
    c.initial + s.initial for c, s in zip(_COLOURS, _SHAPES, strict=True)
)
_WORDS: Final[tuple[str, ...]] = tuple(
    f"{c.word} {s.word}" for c, s in zip(_COLOURS, _SHAPES, strict=True)
)


def _card_names() -> dict[str, Card]:
    names: dict[str, Card] = {}
    for card in Card:
        colour, shape = card.colour.word, card.shape.word
        names[card.code.lower()] = card
        names[f"{colour} {shape}"] = card
        names[f"{shape} {colour}"] = card
        names[f"{colour}{shape}"] = card
    return names


_CARD_NAMES: Final[dict[str, Card]] = _card_names()

ALL_CARDS: Final[tuple[Card, ...]] = tuple(Card)

SHAPE_GLYPHS: Final[dict[Shape, str]] = {
    Shape.CIRCLE: "●",
    Shape.HEART: "♥",
    Shape.TRIANGLE: "▲",
    Shape.SQUARE: "■",
}


def parse_hand(text: str) -> tuple[Card, ...]:
    """Read zero or more faces separated by spaces or commas.

    Codes may be separated (``"BH GS"``, ``"BH,GS"``); words are read two at a time
    when they do not form codes (``"blue heart, green square"``).
    """
    parts = [p for chunk in text.split(",") for p in chunk.split()]
    cards: list[Card] = []
    i = 0
    while i < len(parts):
        word = parts[i]
        if word.lower() in _CARD_NAMES and len(word) == 2:
            cards.append(_CARD_NAMES[word.lower()])
            i += 1
            continue
        if i + 1 < len(parts):
            pair = f"{word} {parts[i + 1]}".lower()
            if pair in _CARD_NAMES:
                cards.append(_CARD_NAMES[pair])
                i += 2
                continue
        cards.append(Card.parse(word))
        i += 1
    return tuple(cards)
