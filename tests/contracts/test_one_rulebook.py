"""The layers that word a click ask the rulebook and state no rule of their own.

``strategy/reasons``, ``strategy/answer``, ``strategy/explain`` and
``trainer/situations`` explain clicks in words; whether a card is a Defuse that solves,
whether the hand has room, which cards block a discard and why a click strikes are
:class:`defuser.engine.board.Board`'s answers. Each of these modules once had its own
copy: a Defuse told apart by ``CardType.DEFUSE``, room by ``len(hand) < HAND_SIZE``, the
lone-Defuse exception by the card type of the only legal slot, the draw checks in the
opposite order to the module's.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WORDING = (
    "defuser/strategy/reasons.py",
    "defuser/strategy/answer.py",
    "defuser/strategy/explain.py",
    "defuser/trainer/situations.py",
)


def restated_rules(tree: ast.AST) -> list[str]:
    """The places in ``tree`` that decide a click rule without the board: a Defuse told
    apart by its card type, or a hand's size compared with ``HAND_SIZE``."""
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr == "DEFUSE"
            and isinstance(node.value, ast.Name)
            and node.value.id == "CardType"
        ):
            found.append(f"line {node.lineno}: CardType.DEFUSE")
        if isinstance(node, ast.Compare) and any(
            isinstance(n, ast.Name) and n.id == "HAND_SIZE"
            for n in ast.walk(node)
        ):
            found.append(f"line {node.lineno}: a comparison with HAND_SIZE")
    return found


@pytest.mark.parametrize("path", WORDING)
def test_wording_layers_ask_the_board(path: str) -> None:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    assert restated_rules(tree) == []


def test_the_check_finds_a_restated_rule() -> None:
    """The check is not vacuous: the copies it was written against are found."""
    source = (
        "room = len(obs.hand) < HAND_SIZE\n"
        "if rules.type_of(card) is CardType.DEFUSE:\n"
        "    pass\n"
    )
    assert restated_rules(ast.parse(source)) == [
        "line 1: a comparison with HAND_SIZE",
        "line 2: CardType.DEFUSE",
    ]
