"""The bomb's edge and the manual's lookups it keys.

Serial number, batteries and the other widgets; the 16 card faces; Tables A-F as data;
the 200 configurations (table, last digit, N) they select.
This package uses only the standard library and imports nothing else from the project.
"""

from edgework.cards import ALL_CARDS, SHAPE_GLYPHS, Card, CardType, Colour, Shape, parse_hand
from edgework.configs import CONFIGS, Config
from edgework.errors import (
    EdgeworkError,
    FaultError,
    InputError,
    InvalidBatteriesError,
    InvalidCardError,
    InvalidEdgeworkError,
    InvalidSerialError,
    InvalidTableError,
    MisuseError,
    MittensError,
)
from edgework.serial_number import SerialNumber
from edgework.tables import (
    CARD_TABLES,
    DEFUSE_FACES,
    INTERVALS,
    MAX_INTERVAL,
    MIN_INTERVAL,
    MITTEN_FACES,
    PLAIN_FACES,
    RULE_LETTERS,
    RULE_PREDICATES,
    RULE_TEXTS,
    TABLE_CONDITIONS,
    TABLE_E,
    TABLE_E_ROWS,
    TABLE_LETTERS,
    RuleLetter,
    Ruleset,
    TableLetter,
    card_type,
    interval_for,
    legal_mask,
    rule_admits,
    rule_letter,
    table_for,
    table_traits,
)
from edgework.widgets import Batteries, Edgework, Indicator, PortPlate

__all__ = [
    "ALL_CARDS",
    "CARD_TABLES",
    "CONFIGS",
    "DEFUSE_FACES",
    "INTERVALS",
    "MAX_INTERVAL",
    "MIN_INTERVAL",
    "MITTEN_FACES",
    "PLAIN_FACES",
    "RULE_LETTERS",
    "RULE_PREDICATES",
    "RULE_TEXTS",
    "SHAPE_GLYPHS",
    "TABLE_CONDITIONS",
    "TABLE_E",
    "TABLE_E_ROWS",
    "TABLE_LETTERS",
    "Batteries",
    "Card",
    "CardType",
    "Colour",
    "Config",
    "Edgework",
    "EdgeworkError",
    "FaultError",
    "Indicator",
    "InputError",
    "InvalidBatteriesError",
    "InvalidCardError",
    "InvalidEdgeworkError",
    "InvalidSerialError",
    "InvalidTableError",
    "MisuseError",
    "MittensError",
    "PortPlate",
    "RuleLetter",
    "Ruleset",
    "SerialNumber",
    "Shape",
    "TableLetter",
    "card_type",
    "interval_for",
    "legal_mask",
    "parse_hand",
    "rule_admits",
    "rule_letter",
    "table_for",
    "table_traits",
]

__version__ = "0.1.0"
