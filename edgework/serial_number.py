"""The bomb's serial number and the facts the manual reads from it.

Vanilla serials have six characters: two letters-or-digits, a digit, two letters, a
digit, never using O or Y. Modded bombs may show any six letters and digits; parsing
with ``strict=False`` accepts those as long as there is a digit for Table E.
"""

from __future__ import annotations

from dataclasses import dataclass

from edgework.errors import InvalidSerialError
from edgework.tables import VOWELS, TableLetter, table_for

_POSITION_NAMES = ("1st", "2nd", "3rd", "4th", "5th", "6th")


@dataclass(frozen=True, slots=True)
class SerialNumber:
    """A six-character serial number, stored upper-case."""

    text: str

    def __post_init__(self) -> None:
        t = self.text
        if not (len(t) == 6 and t.isascii() and t.isalnum() and t == t.upper()
                and any(ch.isdigit() for ch in t)):
            raise InvalidSerialError(
                f"serial number {t!r} is not a parsed serial, expected 6 upper-case letters "
                "and digits with a digit (use SerialNumber.parse for user input)"
            )

    @classmethod
    def parse(cls, text: str, *, strict: bool = True) -> SerialNumber:
        """Read a serial number; ``strict`` demands the vanilla shape.

        Raises :class:`InvalidSerialError` naming the input and what is expected.
        """
        raw = text.strip()
        # Check length and ASCII before upper-casing: str.upper() can change the length
        # of non-ASCII text ('ß' becomes 'SS'), which let 5-character input through.
        if len(raw) != 6:
            raise InvalidSerialError(
                f"serial number {raw!r} has {len(raw)} characters, expected 6 (like AB3CD4)"
            )
        for ch in raw:
            if not (ch.isascii() and ch.isalnum()):
                raise InvalidSerialError(
                    f"serial number {raw!r} contains {ch!r}, expected only letters and digits"
                )
        value = raw.upper()
        if not any(ch.isdigit() for ch in value):
            raise InvalidSerialError(
                f"serial number {raw!r} has no digit, expected at least one (Table E needs it)"
            )
        if strict:
            for ch in "OY":
                if ch in value:
                    raise InvalidSerialError(
                        f"serial number {raw!r} contains {ch}, which vanilla serials never use",
                        vanilla_only=True,
                    )
            for pos, want_digit, want_letter in (
                (2, True, False),
                (3, False, True),
                (4, False, True),
                (5, True, False),
            ):
                ch = value[pos]
                if want_digit and not ch.isdigit():
                    raise InvalidSerialError(
                        f"serial number {raw!r} has {ch!r} as its {_POSITION_NAMES[pos]} "
                        f"character, expected a digit (vanilla shape: 2 letters-or-digits, "
                        f"digit, 2 letters, digit, like AB3CD4)",
                        vanilla_only=True,
                    )
                if want_letter and not ch.isalpha():
                    raise InvalidSerialError(
                        f"serial number {raw!r} has {ch!r} as its {_POSITION_NAMES[pos]} "
                        f"character, expected a letter (vanilla shape: 2 letters-or-digits, "
                        f"digit, 2 letters, digit, like AB3CD4)",
                        vanilla_only=True,
                    )
        return cls(value)

    def __str__(self) -> str:
        return self.text

    @property
    def letters(self) -> str:
        """The serial's letters, in order."""
        return "".join(ch for ch in self.text if ch.isalpha())

    @property
    def digits(self) -> str:
        """The serial's digits, in order."""
        return "".join(ch for ch in self.text if ch.isdigit())

    @property
    def last_digit(self) -> int:
        """The last digit character of the serial (Table E's column)."""
        return int(self.digits[-1])

    @property
    def vowels(self) -> str:
        """The vowels (A, E, I, O, U) among the serial's letters, in order."""
        return "".join(ch for ch in self.text if ch in VOWELS)

    @property
    def has_vowel(self) -> bool:
        """Whether one of the letters is A, E, I, O or U."""
        return bool(self.vowels)

    @property
    def repeated(self) -> str:
        """The characters that occur twice or more, in order of first occurrence."""
        return "".join(ch for i, ch in enumerate(self.text) if self.text.count(ch) > 1
                       and self.text.index(ch) == i)

    @property
    def has_repeat(self) -> bool:
        """Whether some character (letter or digit) occurs twice or more."""
        return len(set(self.text)) < len(self.text)

    @property
    def table(self) -> TableLetter:
        """The letter of the card table (A-D) that this serial selects."""
        return table_for(self.has_vowel, self.has_repeat)
