"""A naive module written straight from the spec, to check the simulator against.

Contract: imports nothing from the project. Card lookups come from ``oracle_manual``
(which reads the players' manual text); everything else is the spec's "Actions and
outcomes", "The deck" and "Commands and log lines" sections written out plainly, with
log messages spelled out here again rather than borrowed from the simulator.

The deck is kept differently from the simulator: as absolute deal numbers (the deal
on which the next mitten comes, the deal on which the cycle's Defuse comes) instead of
countdowns. The oracle does not pick random faces; it is told the card each deal
produced and checks that it is one the spec allows at that moment
(:meth:`NaiveModule.allowed_faces`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import oracle_manual as manual
from oracle_manual import Face

PLAIN_EXCLUDED = frozenset({"Defuse", "Exploding Mitten"})
ORDINALS = {1: "first card! Woah!", 2: "second card! Wow!", 3: "third card! Wacky!"}


def words(face: Face) -> str:
    """``<colour> <shape>``, as the module writes a face."""
    return f"{face[0]} {face[1]}"


@dataclass
class Outcome:
    """What the oracle says one click does."""

    kind: str  # "ok", "strike", "solved", "nothing"
    strike: str | None = None  # "mitten-on-top", "hand-full", "discard-blocked", "invalid-play"
    blocking: list[int] = field(default_factory=list)
    deals: bool = False  # whether the click takes the deck's top card


@dataclass
class NaiveModule:
    """The module as the spec describes it, with the deck as absolute deal numbers."""

    table: str
    digit: int
    n: int
    discard: Face
    hand: list[Face]
    next_mitten_deal: int  # the deal number (1-based) on which the mitten is dealt
    defuse_deal: int | None  # the deal number of this cycle's Defuse, if still ahead
    module_id: int = 1
    deals: int = 0
    mittens_dealt: int = 0
    strikes: int = 0
    solved: bool = False
    log: list[str] = field(default_factory=list)

    @classmethod
    def start(
        cls,
        table: str,
        digit: int,
        n: int,
        discard: Face,
        hand: list[Face],
        p: int,
        q: int,
        module_id: int = 1,
    ) -> NaiveModule:
        """Start-up as the spec words it: cycle position ``p``, Defuse position ``q``."""
        mitten_deal, defuse_deal = cls.first_cycle(n, p, q)
        oracle = cls(table, digit, n, discard, list(hand), mitten_deal, defuse_deal, module_id)
        oracle.say(f"You should use Table {table}.")
        oracle.say(
            f"The card on the discard pile is a {words(discard)}, which is a(n) "
            f"{oracle.type_of(discard)} card."
        )
        oracle.say(f"The rule used is {oracle.rule_of(discard)}.")
        for i, card in enumerate(hand, start=1):
            oracle.say(f"Card #{i} is a {words(card)}, which is a(n) {oracle.type_of(card)} card.")
        return oracle

    @staticmethod
    def first_cycle(n: int, p: int, q: int) -> tuple[int, int | None]:
        """The spec's first cycle: the mitten is card N-p, the Defuse card q-p+1 if q >= p."""
        assert 1 <= p <= n - 2 and 0 <= q <= n - 2
        return n - p, (q - p + 1 if q >= p else None)

    # ------------------------------------------------------------ lookups

    def type_of(self, face: Face) -> str:
        return manual.card_type(self.table, face)

    def rule_of(self, discard: Face) -> str:
        return manual.rule_letter(self.table, self.digit, discard)

    def legal(self, face: Face) -> bool:
        return manual.is_legal(self.table, self.digit, face, self.discard)

    def is_plain(self, face: Face) -> bool:
        return self.type_of(face) not in PLAIN_EXCLUDED

    def say(self, message: str) -> None:
        self.log.append(f"[Exploding Mittens #{self.module_id}] {message}")

    def mitten_on_top(self) -> bool:
        return self.deals + 1 == self.next_mitten_deal

    # ------------------------------------------------------------ the spec's checks

    def predict(self, kind: str, slot: int | None = None) -> Outcome:
        """The outcome of a click, before any card is known."""
        if self.solved:
            return Outcome("nothing")
        if kind == "draw":
            if self.mitten_on_top():
                return Outcome("strike", "mitten-on-top")
            if len(self.hand) == 3:
                return Outcome("strike", "hand-full")
            return Outcome("ok", deals=True)
        if kind == "discard":
            legal = [i for i, c in enumerate(self.hand, start=1) if self.legal(c)]
            if len(legal) == 1 and self.type_of(self.hand[legal[0] - 1]) == "Defuse":
                legal = []
            if legal:
                return Outcome("strike", "discard-blocked", legal)
            return Outcome("ok", deals=True)
        assert slot is not None
        if slot > len(self.hand):
            return Outcome("nothing")
        card = self.hand[slot - 1]
        if self.type_of(card) == "Defuse" and self.mitten_on_top():
            return Outcome("solved")
        if self.legal(card):
            return Outcome("ok")
        return Outcome("strike", "invalid-play")

    def allowed_faces(self, kind: str) -> set[Face]:
        """The faces the next deal may produce for a ``draw`` or ``discard``."""
        deal = self.deals + 1
        if deal == self.next_mitten_deal:
            return {manual.mitten_face(self.table)}
        if deal == self.defuse_deal:
            return {f for f in manual.ALL_FACES if self.type_of(f) == "Defuse"}
        plain = {f for f in manual.ALL_FACES if self.is_plain(f)}
        if kind == "draw" and len(self.hand) == 2 and not any(self.legal(c) for c in self.hand):
            return {f for f in plain if self.legal(f)}
        return plain

    def apply(
        self, kind: str, slot: int | None, dealt: Face | None, new_defuse_place: int | None
    ) -> Outcome:
        """Carry out a click. ``dealt`` is the card a deal produced; after the mitten,
        ``new_defuse_place`` is where (2..N-1 deals later) the new cycle's Defuse lies."""
        outcome = self.predict(kind, slot)
        if outcome.kind == "nothing":
            return outcome
        if outcome.kind == "strike":
            self.strikes += 1
            if outcome.strike == "mitten-on-top":
                self.say("You were going to draw an Exploding Mitten. Strike!")
            elif outcome.strike == "hand-full":
                self.say("Your hand was full. Strike!")
            elif outcome.strike == "discard-blocked":
                self.say(
                    "You tried to click on the discard pile, but you still could've played:"
                )
                for s in outcome.blocking:
                    self.say("... the " + ORDINALS[s])
                self.say("Strike!")
            else:
                assert slot is not None
                self.say(f"The {words(self.hand[slot - 1])} card was invalid. Strike!")
            return outcome
        if outcome.kind == "solved":
            assert slot is not None
            self.solved = True
            self.discard = self.hand.pop(slot - 1)
            self.say(
                "You played a Defuse card when an Exploding Mitten was at the top of the "
                "deck. Module solved!"
            )
            return outcome
        if kind == "play":
            assert slot is not None
            card = self.hand.pop(slot - 1)
            self.discard = card
            self.say(f"You played a {words(card)}, which is a(n) {self.type_of(card)} card.")
            self.say(f"The rule used is {self.rule_of(card)}.")
            return outcome
        assert dealt is not None
        assert dealt in self.allowed_faces(kind), f"{dealt} not allowed for {kind}"
        self.deals += 1
        if self.deals == self.next_mitten_deal:
            assert new_defuse_place is not None and 2 <= new_defuse_place <= self.n - 1
            self.mittens_dealt += 1
            self.next_mitten_deal = self.deals + self.n
            self.defuse_deal = self.deals + new_defuse_place
            coming = 0
        else:
            if self.deals == self.defuse_deal:
                self.defuse_deal = None
            coming = self.next_mitten_deal - self.deals
        if kind == "draw":
            self.hand.append(dealt)
            self.say(f"You drew a {words(dealt)}, which is a(n) {self.type_of(dealt)} card.")
        else:
            self.discard = dealt
            self.say(
                f"You discarded a {words(dealt)}, which is a(n) {self.type_of(dealt)} card."
            )
            self.say(f"The rule used now is {self.rule_of(dealt)}.")
        self.say(f"(The Exploding Mitten is coming in {coming} draws.)")
        return outcome
