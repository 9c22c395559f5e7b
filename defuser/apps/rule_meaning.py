"""What a Table F condition means, read from its English wording.

Contract: :func:`meaning` reads one condition in English ("Its color matches the card in
the discard pile.", "Same shape as the Exploding Mitten.", "Not red.") and returns the
:class:`Meaning` it states: which attribute of the hand card is compared (its colour,
its shape, or both), whether it must match or differ, and against what (the discard
top, the Exploding Mitten face, or a named colour). It returns ``None`` for text it
cannot read as such a condition (another language, an "or", two named colours). It
never raises. ``mittens verify`` compares a transcription's conditions with the
canonical ones by meaning, so a reworded condition passes and a changed one fails.

The reading is by keywords, deliberately small: the twelve conditions of Table F only
ever compare colour and/or shape, equal or not, with the discard top, the mitten face
or one colour, and their rewordings keep those words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

COLOURS: Final = ("red", "blue", "green", "yellow")

#: Words that turn "matches" into "does not match".
_NEGATIONS: Final = frozenset(
    {"not", "no", "never", "neither", "nor", "different", "differs", "differ", "unlike",
     "mismatch", "mismatches", "doesn", "isn", "don", "aren", "cannot"}
)
#: Words that say "the same card": colour and shape both match.
_IDENTICAL: Final = frozenset({"identical", "exact", "exactly", "same card", "same face"})


@dataclass(frozen=True, slots=True)
class Meaning:
    """One Table F condition: ``attributes`` of the hand card ``equal`` (or not) to
    those of ``reference`` (``discard``, ``mitten`` or a colour name)."""

    attributes: frozenset[str]
    equal: bool
    reference: str

    def words(self) -> str:
        """The meaning in plain words: ``colour differs from the discard top``."""
        what = " and ".join(sorted(self.attributes))
        if self.reference in COLOURS:
            return f"the card is {'' if self.equal else 'not '}{self.reference}"
        against = {"discard": "the discard top", "mitten": "the Exploding Mitten face"}[
            self.reference
        ]
        if self.attributes == {"colour", "shape"}:
            if self.equal:
                return f"identical to {against} (same colour and shape)"
            return f"shares neither colour nor shape with {against}"
        return f"{what} {'matches' if self.equal else 'differs from'} {against}"


def meaning(text: str) -> Meaning | None:
    """The meaning of an English Table F condition, or ``None`` if it cannot be read."""
    lowered = text.lower().replace("colour", "color").replace("’", "'")
    lowered = re.sub(r"n't\b", " not", lowered)
    words = re.findall(r"[a-z]+", lowered)
    if not words or "or" in words:
        return None
    joined = " ".join(words)
    named = [c for c in COLOURS if c in words]
    if len(named) > 1:
        return None
    negated = any(w in _NEGATIONS for w in words)
    if "mitten" in words or "exploding" in words:
        reference = "mitten"
    elif named:
        reference = named[0]
    else:
        reference = "discard"
    attributes: set[str] = set()
    if "shape" in words or "shapes" in words:
        attributes.add("shape")
    if "color" in words or "colors" in words or named:
        attributes.add("colour")
    if any(phrase in joined for phrase in _IDENTICAL) or "identical" in words:
        attributes |= {"colour", "shape"}
    if not attributes:
        return None
    if named and attributes != {"colour"}:
        return None
    return Meaning(frozenset(attributes), not negated, reference)
