"""Nothing outside the rulebook decides a click rule on its own.

:class:`defuser.engine.board.Board` (with :mod:`defuser.engine.deck` for the hidden
deck's cycle) is the one statement of what a click does; every other library module
asks it. Each layer once had its own copies: a Defuse told apart by
``CardType.DEFUSE`` (the wording layers, the log follower's safe click, the replay's
cycle check), room by ``len(hand) < HAND_SIZE`` (the follower's lost draw), an empty
slot by ``slot > len(hand)`` (the trainer's explanation), the lone-Defuse exception by
the card type of the only legal slot, the draw checks in the opposite order to the
module's, the legal slots worked out card by card with ``Ruleset.is_legal`` (the log
replay's words), the hand a draw or a play leaves rebuilt by hand (the log replay, the
belief, the follower's repairs), and Table E read cell by cell, or searched for a rule's
digits, outside ``edgework/tables.py`` (the web page's rule in force, the follower's
words). The check below scans every library module (``edgework/``, ``defuser/``,
``hardware/`` outside the firmware) for such a decision and allows only the uses
listed in :data:`ALLOWED`, each with the reason it is not a click rule.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Final

import pytest
from source_helpers import tree_of

ROOT = Path(__file__).resolve().parents[2]
#: The library: every Python module of these folders (the firmware is C and its tools).
LIBRARY: Final = ("edgework", "defuser", "hardware")
#: The rulebook and the module that states the hand's size: every rule lives there.
RULEBOOK: Final = ("defuser/engine/board.py", "defuser/engine/rules.py")
#: Table E's home: the one place that reads a rule letter from it (``rule_letter``) and
#: the digits that give one (``rule_digits``).
TABLE_E_HOME: Final = "edgework/tables.py"
_OPENING = "the start-up lists the opening deal's three cards (how the module deals)"
_SLOT = "a play names a hand slot, 1 to 3: the click's vocabulary, not what it does"
_RULE_OF_A_TYPE = (
    "Table E read by its own row (a card type, no card): a question about the table itself"
)
#: (module, function or class, what was found): why that use is not a click rule.
ALLOWED: Final[dict[tuple[str, str, str], str]] = {
    ("edgework/cards.py", "CardType.is_plain", "CardType.DEFUSE"):
        "the card types themselves: the deck deals every type but Defuse and mitten",
    ("edgework/tables.py", "<module>", "CardType.DEFUSE"):
        "the transcribed card tables: a cell's card type",
    ("defuser/engine/deck.py", "deal_kind", "CardType.DEFUSE"):
        "the deck's kind of a dealt face, which its cycle counts",
    ("defuser/engine/actions.py", "Action.__post_init__", "a comparison with HAND_SIZE"):
        _SLOT,
    ("defuser/engine/actions.py", "Action.play", "a comparison with HAND_SIZE"): _SLOT,
    ("defuser/engine/simulator.py", "Module.__init__", "a comparison with HAND_SIZE"):
        "a start hand given to the simulator has at most three cards, checked as given",
    ("defuser/apps/table_checks.py", "_defuses_exist", "CardType.DEFUSE"):
        "checks the transcribed tables: every table has a Defuse face",
    ("defuser/trainer/skills.py", "<module>", "CardType.DEFUSE"):
        "the drill's Table E skills, one per card type row",
    ("defuser/logs/check/module.py", "_note_the_ending", "a comparison with HAND_SIZE"):
        _OPENING,
    ("defuser/logs/check/replayer.py", "_at_hand", "a comparison with HAND_SIZE"): _OPENING,
    ("defuser/logs/check/startup.py", "hand_card", "a comparison with HAND_SIZE"): _OPENING,
    ("defuser/strategy/belief.py", "Observation.opening", "a comparison with HAND_SIZE"):
        "an opening is reported with one to three cards (the opening deal's size)",
    ("defuser/strategy/belief.py", "Observation._card_in", "a comparison with HAND_SIZE"):
        "a reported play names a hand slot holding a card: it reads that card",
    ("defuser/strategy/belief.py", "Observation._card_in",
     "a slot compared with the hand's length"):
        "a reported play names a hand slot holding a card: it reads that card",
    ("defuser/strategy/dp/states.py", "add_row", "a comparison with HAND_SIZE"):
        "the DP's hand index holds no 4-card hand; whether a draw deals is the verdict",
    ("defuser/strategy/dp/arrays.py", "_hand_layout", "a comparison with HAND_SIZE"):
        "the DP's hand index holds no 4-card hand; whether a draw deals is the verdict",
    ("defuser/engine/deck.py", "opening_has_legal_plain", "Ruleset.is_legal, not the board"):
        "the opening deal's re-roll (the deck's start-up), which asks of plain cards alone",
    ("defuser/engine/deck.py", "opening_distribution", "Ruleset.is_legal, not the board"):
        "the opening deal's re-roll (the deck's start-up), which asks of plain cards alone",
    ("defuser/apps/table_checks.py", "_no_plain_legal",
     "Ruleset.is_legal, not the board"):
        "checks the transcribed tables: every rule set admits some plain face",
    ("defuser/logs/check/startup.py", "hand_card", "a hand rebuilt with a card added"):
        _OPENING,
    ("defuser/trainer/focus.py", "Focus._by_area", "a Table E cell looked up"):
        _RULE_OF_A_TYPE,
    ("defuser/apps/table_io.py", "render_compact", "a Table E cell looked up"):
        "renders Table E's column for one digit, row by row: the table itself",
}


def restated_rules(tree: ast.AST, *, table_e_home: bool = False) -> list[str]:
    """The places in ``tree`` that decide a click rule without the board: a Defuse told
    apart by its card type, a hand's size compared with ``HAND_SIZE``, a slot compared
    with a hand's length (an empty slot), a card's legality asked of the rule set
    (``rules.is_legal(card, discard)``: the board's legal slots say it), a hand rebuilt
    after a draw or a play (``Board.after``, ``played_from``), or, unless the tree is
    ``table_e_home``, a cell of Table E looked up or a row of it searched for a letter
    (``rule_letter``, ``rule_digits``)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.expr):
            whats = _transitions(node) + ([] if table_e_home else _table_e_reads(node))
            found += [f"line {node.lineno}: {what}" for what in whats]
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
        if isinstance(node, ast.Compare) and _slot_against_hand(node):
            found.append(f"line {node.lineno}: a slot compared with the hand's length")
    return sorted(found, key=lambda where: int(where.split(":")[0].removeprefix("line ")))


def _transitions(node: ast.AST) -> list[str]:
    """What ``node`` works out that the board answers: a card's legality asked of the
    rule set, or the hand a draw or a play leaves."""
    if (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        and node.func.attr == "is_legal" and len(node.args) == 2
    ):
        return ["Ruleset.is_legal, not the board"]
    if isinstance(node, ast.Tuple):
        starred = [e.value for e in node.elts if isinstance(e, ast.Starred)]
        first = node.elts[0] if node.elts else None
        if isinstance(first, ast.Starred) and _is_hand(first.value) and len(starred) == 1 < len(
            node.elts
        ):
            return ["a hand rebuilt with a card added"]
        if len(starred) == len(node.elts) >= 2 and all(_is_hand_slice(e) for e in starred):
            return ["a hand rebuilt without a card"]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        if _is_hand(node.left) and isinstance(node.right, ast.Tuple):
            return ["a hand rebuilt with a card added"]
        if _is_hand_slice(node.left) and _is_hand_slice(node.right):
            return ["a hand rebuilt without a card"]
    return []


def _is_hand(node: ast.AST) -> bool:
    """Whether ``node`` names a hand: ``hand`` or ``something.hand``."""
    return (isinstance(node, ast.Name) and node.id == "hand") or (
        isinstance(node, ast.Attribute) and node.attr == "hand"
    )


def _is_hand_slice(node: ast.AST) -> bool:
    """Whether ``node`` is a slice of a hand (``hand[:slot]``)."""
    return isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice) and _is_hand(
        node.value
    )


def _table_e_reads(node: ast.AST) -> list[str]:
    """A cell of Table E looked up (``TABLE_E[kind][digit]``), or a row of it searched
    for a letter (a comprehension over ``enumerate(TABLE_E[kind])`` with a condition)."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Subscript) and (
        _is_table_e(node.value.value)
    ):
        return ["a Table E cell looked up"]
    if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
        for generator in node.generators:
            source = generator.iter
            if (
                generator.ifs and isinstance(source, ast.Call)
                and isinstance(source.func, ast.Name) and source.func.id == "enumerate"
                and source.args and isinstance(source.args[0], ast.Subscript)
                and _is_table_e(source.args[0].value)
            ):
                return ["a Table E row searched for a letter"]
    return []


def _is_table_e(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id == "TABLE_E"


def _slot_against_hand(node: ast.Compare) -> bool:
    """Whether a comparison sets a slot against ``len(...hand...)``."""
    sides = [node.left, *node.comparators]
    hand_length = any(
        isinstance(side, ast.Call) and isinstance(side.func, ast.Name)
        and side.func.id == "len" and "hand" in ast.unparse(side)
        for side in sides
    )
    return hand_length and any("slot" in ast.unparse(side) for side in sides)


def _scopes(tree: ast.AST) -> list[tuple[int, int, str]]:
    """Every function and class of ``tree``: its first and last line, its dotted name."""
    out: list[tuple[int, int, str]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}.{child.name}" if prefix else child.name
                out.append((child.lineno, child.end_lineno or child.lineno, name))
                visit(child, name)
            else:
                visit(child, prefix)

    visit(tree, "")
    return out


def findings(path: str) -> list[tuple[str, str, int]]:
    """Each restated rule of a module: the innermost function or class around it
    (``<module>`` outside any), what was found, and its line."""
    tree = tree_of(ROOT / path)
    scopes = _scopes(tree)
    out = []
    for found in restated_rules(tree, table_e_home=path == TABLE_E_HOME):
        where, what = found.split(": ", 1)
        line = int(where.removeprefix("line "))
        around = [s for s in scopes if s[0] <= line <= s[1]]
        scope = max(around)[2] if around else "<module>"
        out.append((scope, what, line))
    return out


def library_modules() -> list[str]:
    """Every library module outside the rulebook, as a path from the repository root."""
    paths = []
    for folder in LIBRARY:
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if "firmware" not in relative.parts and relative.as_posix() not in RULEBOOK:
                paths.append(relative.as_posix())
    return paths


@pytest.mark.parametrize("path", library_modules())
def test_the_library_asks_the_rulebook(path: str) -> None:
    restated = [
        f"line {line}: {what} in {scope}"
        for scope, what, line in findings(path)
        if (path, scope, what) not in ALLOWED
    ]
    assert restated == []


def test_every_allowed_use_is_still_there() -> None:
    """The allowlist stays short: an entry whose use is gone is removed with it."""
    used = {
        (path, scope, what)
        for path in sorted({key[0] for key in ALLOWED})
        for scope, what, _ in findings(path)
    }
    assert sorted(set(ALLOWED) - used) == []


def test_the_scan_covers_the_library() -> None:
    modules = library_modules()
    for expected in (
        "defuser/apps/tracking.py",
        "defuser/logs/check/cycle.py",
        "defuser/trainer/explaining.py",
        "defuser/strategy/reasons.py",
        "edgework/tables.py",
        "hardware/protocol.py",
    ):
        assert expected in modules
    assert not any("firmware" in m for m in modules)
    assert not set(RULEBOOK) & set(modules)


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


def test_the_check_finds_an_empty_slot_told_by_hand() -> None:
    source = (
        "def wasted(question, option):\n"
        "    hand = question.facts.get('hand')\n"
        "    return option.action.slot > len(hand)\n"
    )
    tree = ast.parse(source)
    assert restated_rules(tree) == ["line 3: a slot compared with the hand's length"]
    assert [name for _, _, name in _scopes(tree)] == ["wasted"]


def test_the_check_finds_legal_slots_worked_out_by_hand() -> None:
    """The log replay's words once listed the legal slots card by card with the rule
    set; the board's ``legal_slots`` say it (``Board.is_legal(card)``, one argument,
    is the board's own answer)."""
    source = (
        "legal = [i + 1 for i, c in enumerate(hand) if rules.is_legal(c, discard)]\n"
        "fine = board.is_legal(card)\n"
    )
    assert restated_rules(ast.parse(source)) == ["line 1: Ruleset.is_legal, not the board"]


def test_the_check_finds_a_hand_rebuilt_after_a_click() -> None:
    """The log replay once put a drawn card in the hand itself, and took a played card
    out of it; ``Board.after`` and ``played_from`` say where it goes."""
    source = (
        "hand = (*s.hand, card)[:HAND_SIZE]\n"
        "hand = new.hand if full else (*new.hand, card)\n"
        "left = hand[:i] + hand[i + 1 :]\n"
        "rest = (*hand[:slot], *hand[slot + 1:])\n"
        "more = obs.hand + (card,)\n"
        "changed = (*hand[:slot], face, *hand[slot + 1:])\n"
        "shown = (module.discard_top, *module.hand)\n"
    )
    assert restated_rules(ast.parse(source)) == [
        "line 1: a hand rebuilt with a card added",
        "line 2: a hand rebuilt with a card added",
        "line 3: a hand rebuilt without a card",
        "line 4: a hand rebuilt without a card",
        "line 5: a hand rebuilt with a card added",
    ]


def test_the_check_finds_table_e_read_outside_its_home() -> None:
    """The web page once looked up the rule in force in Table E itself, and the log
    follower searched a row for the digits that give a rule; ``rule_letter`` and
    ``rule_digits`` in ``edgework/tables.py`` are the one home of both."""
    source = (
        "letter = TABLE_E[kind][serial.last_digit]\n"
        "digits = [str(d) for d, x in enumerate(TABLE_E[kind]) if x == rule]\n"
        "row = list(TABLE_E[kind])\n"
    )
    tree = ast.parse(source)
    assert restated_rules(tree) == [
        "line 1: a Table E cell looked up",
        "line 2: a Table E row searched for a letter",
    ]
    assert restated_rules(tree, table_e_home=True) == []
