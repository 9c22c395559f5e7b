"""The bomb's edge widgets and the Twitch Plays one-line edgework notation.

The notation joins parts with `` // ``: batteries and holders (``3B 2H``), indicators
(``*FRK, CAR``; ``*`` marks a lit one), port plates (``[Parallel, Serial] [Empty]``) and
the serial number last. A part is left out when the bomb has none of it. Parsing then
printing gives the canonical form; printing then parsing gives the same value back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from edgework.errors import InvalidBatteriesError, InvalidEdgeworkError
from edgework.serial_number import SerialNumber
from edgework.tables import interval_for

MAX_BATTERIES: Final = 99

#: Port names as the notation spells them, keyed by a forgiving lower-case form.
PORT_NAMES: Final[dict[str, str]] = {
    "dvi": "DVI",
    "dvi-d": "DVI",
    "parallel": "Parallel",
    "ps2": "PS2",
    "ps/2": "PS2",
    "rj45": "RJ45",
    "rj-45": "RJ45",
    "serial": "Serial",
    "stereorca": "StereoRCA",
    "stereo rca": "StereoRCA",
    "rca": "StereoRCA",
}
CANONICAL_PORTS: Final[tuple[str, ...]] = ("DVI", "Parallel", "PS2", "RJ45", "Serial", "StereoRCA")


@dataclass(frozen=True, slots=True)
class Batteries:
    """A battery count, and the number of holders when known.

    An AA holder carries 2 batteries and a D holder 1, so ``holders`` holders carry
    between ``holders`` and ``2 * holders`` batteries.
    """

    count: int
    holders: int | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.count <= MAX_BATTERIES:
            raise InvalidBatteriesError(
                f"batteries {self.count} is out of range, expected 0 to {MAX_BATTERIES}"
            )
        if self.holders is not None:
            h = self.holders
            if h < 0 or not h <= self.count <= 2 * h:
                raise InvalidBatteriesError(
                    f"{self.count} batteries cannot fill {h} holder{'' if h == 1 else 's'}, "
                    f"expected between "
                    f"{h} and {2 * h} batteries (an AA holder has 2, a D holder 1)"
                )

    @classmethod
    def from_holders(cls, aa: int = 0, d: int = 0) -> Batteries:
        """Batteries from holders: ``aa`` AA holders (2 each) and ``d`` D holders (1)."""
        if aa < 0 or d < 0:
            raise InvalidBatteriesError(
                f"holders AA={aa} D={d} include a negative count, expected 0 or more"
            )
        return cls(2 * aa + d, aa + d)

    @classmethod
    def parse(cls, text: str) -> Batteries:
        """Read ``3``, ``3B``, ``3B 2H`` or ``3B2H``."""
        raw = text.strip()
        m = re.fullmatch(r"([0-9]+)\s*B?(?:\s*([0-9]+)\s*H)?", raw, re.IGNORECASE)
        if m is None or (m.group(2) is not None and "b" not in raw.lower()):
            raise InvalidBatteriesError(
                f"batteries {text!r} is not a battery count, expected a whole number 0-99 "
                "or batteries and holders like '3B 2H'"
            )
        # int() refuses more than 4300 digits (leading zeros included) with a bare
        # ValueError; a number that long is out of range anyway, so say so first.
        count_text = m.group(1).lstrip("0") or "0"
        holders_text = None if m.group(2) is None else m.group(2).lstrip("0") or "0"
        if len(count_text) > 4 or len(holders_text or "") > 4:
            raise InvalidBatteriesError(
                f"batteries {text!r} is out of range, expected 0 to {MAX_BATTERIES}"
            )
        holders = None if holders_text is None else int(holders_text)
        return cls(int(count_text), holders)

    @property
    def aa_holders(self) -> int | None:
        """How many holders are AA (2 batteries), when holders are known."""
        return None if self.holders is None else self.count - self.holders

    @property
    def d_holders(self) -> int | None:
        """How many holders are D (1 battery), when holders are known."""
        return None if self.holders is None else 2 * self.holders - self.count

    @property
    def interval(self) -> int:
        """N: every N-th card dealt is the Exploding Mitten."""
        return interval_for(self.count)

    def __str__(self) -> str:
        if self.holders is None:
            return f"{self.count}B"
        return f"{self.count}B {self.holders}H"


@dataclass(frozen=True, slots=True)
class Indicator:
    """A labelled indicator light, lit or unlit."""

    label: str
    lit: bool

    def __post_init__(self) -> None:
        if not (len(self.label) == 3 and self.label.isascii() and self.label.isalpha()
                and self.label.isupper()):
            raise InvalidEdgeworkError(
                f"indicator label {self.label!r} is not a label, expected 3 capital letters "
                "like FRK"
            )

    @classmethod
    def parse(cls, text: str) -> Indicator:
        """Read ``FRK`` (unlit), ``*FRK`` (lit), or ``lit FRK`` / ``unlit FRK``."""
        raw = text.strip()
        words = raw.split()
        lit = False
        if len(words) == 2 and words[0].lower() in ("lit", "unlit"):
            lit = words[0].lower() == "lit"
            label = words[1]
        elif len(words) == 1:
            label = words[0]
            if label.startswith("*"):
                lit, label = True, label[1:]
        else:
            label = ""
        if not re.fullmatch(r"[A-Za-z]{3}", label):
            raise InvalidEdgeworkError(
                f"indicator {text!r} is not an indicator, expected a 3-letter label like "
                "FRK, with * in front when lit (*FRK)"
            )
        return cls(label.upper(), lit)

    def __str__(self) -> str:
        return ("*" if self.lit else "") + self.label


@dataclass(frozen=True, slots=True)
class PortPlate:
    """One port plate: its ports in the order shown; an empty plate has none."""

    ports: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for port in self.ports:
            if port not in CANONICAL_PORTS:
                raise InvalidEdgeworkError(
                    f"port {port!r} is not a port name, expected one of "
                    f"{', '.join(CANONICAL_PORTS)}"
                )

    @classmethod
    def parse(cls, text: str) -> PortPlate:
        """Read ``[Parallel, Serial]`` or ``[Empty]`` (the brackets are optional)."""
        raw = text.strip()
        inner = raw[1:-1] if raw.startswith("[") and raw.endswith("]") else raw
        names = [n.strip() for n in inner.split(",") if n.strip()]
        if names and names[0].lower() == "empty" and len(names) == 1:
            return cls(())
        ports: list[str] = []
        for name in names:
            canonical = PORT_NAMES.get(name.lower())
            if canonical is None:
                raise InvalidEdgeworkError(
                    f"port {name!r} in plate {text!r} is not a port, expected one of "
                    f"{', '.join(CANONICAL_PORTS)} (or Empty for an empty plate)"
                )
            ports.append(canonical)
        if not ports:
            raise InvalidEdgeworkError(
                f"port plate {text!r} is empty, expected ports like [Parallel, Serial] or [Empty]"
            )
        return cls(tuple(ports))

    def __str__(self) -> str:
        return "[" + (", ".join(self.ports) if self.ports else "Empty") + "]"


_BATTERY_PART = re.compile(r"[0-9]+\s*B(\s*[0-9]+\s*H)?", re.IGNORECASE)
#: A battery part written without its ``B`` (``3``, ``3 2H``): 0-99 batteries.
_BARE_BATTERIES = re.compile(r"([0-9]{1,2})(\s+[0-9]+\s*H)?", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Edgework:
    """What is on the bomb's edge: serial number, batteries, indicators, port plates."""

    serial: SerialNumber | None = None
    batteries: Batteries | None = None
    indicators: tuple[Indicator, ...] = field(default=())
    port_plates: tuple[PortPlate, ...] = field(default=())

    @classmethod
    def parse(cls, text: str, *, strict: bool = True) -> Edgework:
        """Read the Twitch Plays notation, e.g. ``3B 2H // *FRK, CAR // [Serial] // AB1CD2``.

        ``strict`` is passed on to :meth:`SerialNumber.parse`.
        """
        parts = [p.strip() for p in text.split("//")]
        if not any(parts):
            raise InvalidEdgeworkError(
                f"edgework {text!r} is empty, expected parts joined by ' // ' like "
                "'3B 2H // *FRK // [Serial] // AB1CD2'"
            )
        serial: SerialNumber | None = None
        batteries: Batteries | None = None
        indicators: tuple[Indicator, ...] | None = None
        plates: tuple[PortPlate, ...] | None = None
        for index, part in enumerate(parts):
            if not part:
                raise InvalidEdgeworkError(
                    f"edgework {text!r} has an empty part, expected parts joined by ' // ' "
                    "with a missing part left out entirely"
                )
            last = index == len(parts) - 1
            if last and len(part) == 6 and part.isalnum():
                # The serial comes last. Test it before the battery pattern, which modded
                # serials such as 12B10H also match.
                serial = SerialNumber.parse(part, strict=strict)
            elif bare := _BARE_BATTERIES.fullmatch(part):
                # A count without its B: say how Twitch Plays writes it.
                meant = f"{bare.group(1)}B{bare.group(2) or ''}"
                raise InvalidEdgeworkError(
                    f"edgework {text!r} has {part!r} where the batteries go, expected a "
                    f"count then B (and holders then H): did you mean '{meant}'?"
                )
            elif _BATTERY_PART.fullmatch(part):
                if batteries is not None:
                    raise InvalidEdgeworkError(f"edgework {text!r} gives batteries twice")
                batteries = Batteries.parse(part)
            elif part.startswith("["):
                if plates is not None:
                    raise InvalidEdgeworkError(f"edgework {text!r} gives port plates twice")
                plates = tuple(PortPlate.parse(p) for p in re.findall(r"\[[^\]]*\]", part))
                if "".join(re.split(r"\[[^\]]*\]", part)).strip():
                    raise InvalidEdgeworkError(
                        f"port plates {part!r} are malformed, expected plates like "
                        "[Parallel, Serial] [Empty]"
                    )
            elif last and part.isalnum() and len(part) != 3:
                # Not a 3-letter indicator label: a mistyped serial, so let the serial's
                # parser say what is wrong rather than calling it a bad indicator.
                serial = SerialNumber.parse(part, strict=strict)
            else:
                if indicators is not None:
                    raise InvalidEdgeworkError(f"edgework {text!r} gives indicators twice")
                indicators = tuple(Indicator.parse(p) for p in part.split(","))
        return cls(serial, batteries, indicators or (), plates or ())

    def __str__(self) -> str:
        parts: list[str] = []
        if self.batteries is not None:
            parts.append(str(self.batteries))
        if self.indicators:
            parts.append(", ".join(str(i) for i in self.indicators))
        if self.port_plates:
            parts.append(" ".join(str(p) for p in self.port_plates))
        if self.serial is not None:
            parts.append(str(self.serial))
        return " // ".join(parts)
