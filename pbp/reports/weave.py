"""A PC's プレイング woven into the round's story, as a master weaves it: every line of dialogue quoted verbatim with
the player's own stage direction, the intent told as the attempt (the dice tell how it went), one line of inner
voice; notes to the master never, the rest left for the GM to restore. What became of each line is read back from
the story itself (`line_fates`), the generated one or the GM's edit alike, for the GM's review.

The reading (`playing.read_playing`) decides what a line is; this module decides where it goes. A line in the other
language than the story's is never translated: Japanese dialogue in an English story is quoted and marked as the
player's own words; a Japanese plan is told in English from the PC's orders instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from pbp.reports.playing import Piece, Reading

#: How many of a PC's plans a round tells (each before one of their actions): a wall of plans reads as a list.
MAX_INTENTS = 2
#: A told plan must read as a past attempt (〜ようとした, 〜つもりだった, 〜ていた, 〜たかった).
_PAST = ("た", "だ")

#: What became of a line, as the GM's review shows it.
QUOTED, TOLD, NOTE, LEFT_OUT = "quoted", "told", "note to the GM", "left out"


class Teller(Protocol):
    """What the weave needs of the narrator."""

    ja: bool

    def say(self, slot: str, **context: str) -> str: ...

    def name(self, uid: str | None) -> str: ...

    def player_text(self, text: str, ja: bool) -> str: ...

    def order_target(self, uid: str) -> str | None: ...

    def sometimes(self, key: str) -> bool: ...


@dataclass
class PlayerWords:
    """One PC's reading in one story, and what the story has used of it so far."""

    uid: str
    reading: Reading | None
    used: set[int] = field(default_factory=set)  # the pieces this story has used
    intents: int = 0

    def _next(self, kinds: tuple[str, ...], usable: Any) -> tuple[int, Piece] | None:
        if self.reading is None:
            return None
        for k, piece in enumerate(self.reading.pieces):
            if k not in self.used and piece.kind in kinds and usable(piece):
                return k, piece
        return None

    def inner(self, teller: Teller) -> str:
        """The first line of inner voice in the story's language, as the PC's unspoken words in （）."""
        found = self._next(("inner",), lambda p: p.ja == teller.ja and p.text.strip())
        if found is None:
            return ""
        k, piece = found
        self.used.add(k)
        text = teller.player_text(piece.text.rstrip("。．. "), piece.ja)
        return teller.say("thought.any", n=teller.name(self.uid), text=text)

    def intent(self, teller: Teller, *, turn: bool = False) -> str:
        """The next plan, told as the attempt: the player's own clause in a Japanese story; in an English story an
        English player's sentence as written, else the target of the PC's orders. At most MAX_INTENTS a round.
        `turn`: a shared scene turns to this PC, which the sentence says (一方、…; Meanwhile, …)."""
        if self.reading is None or self.intents >= MAX_INTENTS:
            return ""
        n = teller.name(self.uid)
        if teller.ja:
            found = self._next(("action",), lambda p: p.ja and p.told.endswith(_PAST))
        else:
            found = self._next(("action",), lambda p: not p.ja and p.text.strip())
        if found is not None:
            k, piece = found
            self.used.add(k)
            self.intents += 1
            plan = piece.told if teller.ja else f"{piece.told}."  # English: the player's, as the attempt (as_attempt)
            subject = n if piece.subject in (None, n) else str(piece.subject)
            slot = "intent.turn" if turn else "intent.told"
            return teller.say(slot, n=subject, plan=teller.player_text(plan, piece.ja))
        target = teller.order_target(self.uid)
        if self.intents or not target or not teller.sometimes(f"order\x1f{self.uid}"):
            return ""  # the attack itself shows the aim: the orders' intent is told on some rounds only
        self.intents += 1
        return teller.say("intent.order_turn" if turn else "intent.order", n=n, t=teller.name(target))

    def speech(self, teller: Teller, count: int | None, *, known: bool = False) -> str:
        """The next `count` lines of dialogue (None: all that are left), each verbatim, with the player's stage
        direction where they wrote one. `known`: the sentence before was about this PC, so even the first line
        needs no "X said"."""
        said: list[str] = []
        while count is None or len(said) < count:
            found = self._next(("speech",), lambda p: bool(p.text.strip()))
            if found is None:
                break
            k, piece = found
            self.used.add(k)
            said.append(self._line(teller, piece, tagged=not (said or known)))
        return " ".join(x for x in said if x) if not teller.ja else "".join(said)

    def _line(self, teller: Teller, piece: Piece, *, tagged: bool) -> str:
        """One line of dialogue: with the player's stage direction where they wrote one; else said by name when it
        is the first of a run (`tagged`), bare after it: the speaker is known, and a tag on every line is a log."""
        n, text = teller.name(self.uid), teller.player_text(piece.text, piece.ja)
        direction = piece.direction if piece.ja == teller.ja else ""
        if direction:
            slot = "speech.direction_clause" if direction.endswith(_PAST) else "speech.direction_manner"
            return teller.say(slot, n=n, text=text, direction=teller.player_text(direction, piece.ja))
        return teller.say(f"speech.{piece.tone}" if tagged else "speech.bare", n=n, text=text)


def line_fates(reading: Reading, story: str) -> list[tuple[str, str, str]]:
    """Every line of an entry with what became of it in `story` (Markdown, generated or edited): quoted (its words
    are there verbatim), told (its clause is there as narration), a note to the GM (never in a story), else left
    out. (kind, the line as the preview shows it, its fate), in the entry's order, notes last."""
    plain = story.replace("\\", "")  # the story's escapes (\*) are not the player's

    def fate(piece: Piece) -> str:
        if piece.kind in ("speech", "inner") and piece.text.strip() and piece.text.rstrip("。．. ") in plain:
            return QUOTED
        if any(len(x) > 1 and x in plain for x in (piece.told, piece.plain)):
            return TOLD
        return LEFT_OUT

    lines = [(p.kind, p.source, fate(p)) for p in reading.pieces]
    return lines + [("note", note, NOTE) for note in reading.notes]
