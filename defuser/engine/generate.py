"""Random vanilla edgework for practice games: serial numbers, batteries, widgets.

Contract: every function takes the caller's :class:`random.Random` and returns values
the edgework model accepts in strict (vanilla) mode. Serial numbers have the vanilla
shape (two letters-or-digits, a digit, two letters, a digit) and never use O or Y. The
edge carries :data:`WIDGETS` widgets as in the base game's free play, each a battery
holder, an indicator or a port plate with equal chance; a battery holder is an AA
holder (2 batteries) or a D holder (1) with equal chance, so a bomb has 0 to 10
batteries and every mitten interval 9..13 occurs.
"""

from __future__ import annotations

import random
import string
from typing import Final

from edgework import Batteries, Edgework, Indicator, PortPlate, SerialNumber

#: Letters a vanilla serial number may use: A-Z without O and Y.
SERIAL_LETTERS: Final = "".join(ch for ch in string.ascii_uppercase if ch not in "OY")
SERIAL_DIGITS: Final = string.digits

#: Widgets on a free-play bomb's edge.
WIDGETS: Final = 5

#: The base game's indicator labels.
INDICATOR_LABELS: Final[tuple[str, ...]] = (
    "BOB", "CAR", "CLR", "FRK", "FRQ", "IND", "MSA", "NSA", "SIG", "SND", "TRN",
)

#: A port plate carries ports of one of these groups only.
PORT_GROUPS: Final[tuple[tuple[str, ...], ...]] = (
    ("DVI", "PS2", "RJ45", "StereoRCA"),
    ("Parallel", "Serial"),
)


def random_serial(rng: random.Random) -> SerialNumber:
    """A vanilla serial number, each character uniform over what its position allows."""
    either = SERIAL_LETTERS + SERIAL_DIGITS
    chars = [
        rng.choice(either),
        rng.choice(either),
        rng.choice(SERIAL_DIGITS),
        rng.choice(SERIAL_LETTERS),
        rng.choice(SERIAL_LETTERS),
        rng.choice(SERIAL_DIGITS),
    ]
    return SerialNumber.parse("".join(chars), strict=True)


def random_holders(rng: random.Random, holders: int) -> Batteries:
    """Batteries in ``holders`` holders, each AA (2) or D (1) with equal chance."""
    aa = sum(rng.random() < 0.5 for _ in range(holders))
    return Batteries.from_holders(aa=aa, d=holders - aa)


def random_batteries(rng: random.Random) -> Batteries:
    """Batteries of a free-play edge: each of the widgets is a holder with chance 1/3."""
    holders = sum(rng.randrange(3) == 0 for _ in range(WIDGETS))
    return random_holders(rng, holders)


def random_edgework(rng: random.Random) -> Edgework:
    """A whole free-play edge: serial number, batteries, indicators and port plates."""
    serial = random_serial(rng)
    kinds = [rng.randrange(3) for _ in range(WIDGETS)]
    batteries = random_holders(rng, kinds.count(0))
    labels = rng.sample(INDICATOR_LABELS, kinds.count(1))
    indicators = tuple(Indicator(label, rng.random() < 0.5) for label in labels)
    plates: list[PortPlate] = []
    for _ in range(kinds.count(2)):
        group = rng.choice(PORT_GROUPS)
        plates.append(PortPlate(tuple(p for p in group if rng.random() < 0.5)))
    return Edgework(serial, batteries, indicators, tuple(plates))


def new_seed() -> int:
    """A fresh random seed for a game, small enough to type back in."""
    return random.SystemRandom().randrange(1, 10**9)


def build_edgework(edge: Edgework, seed: int) -> Edgework:
    """The edge of a practice game: a missing serial number or battery count filled in
    at random from the game's seed, so the seed replays the edge too.

    A Twitch Plays edgework string without a battery part gives no battery count, as
    ``--batteries`` left out does (Twitch Plays writes ``0B 0H`` for a bomb without
    batteries, so a string lacking the part says nothing about them).
    """
    rng = random.Random(f"edgework:{seed}")
    serial = edge.serial if edge.serial is not None else random_serial(rng)
    batteries = edge.batteries if edge.batteries is not None else random_batteries(rng)
    return Edgework(serial, batteries, edge.indicators, edge.port_plates)
