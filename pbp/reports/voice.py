"""A player's prose (the プレイング) as the lines a story can use: every sentence of it, each classified as speech (a
quoted line, with the tone its last mark gives), intent (a plan: told as what the character tried) or thought (the
rest: told as inner voice). The story uses each line once; the entry itself is never changed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: A sentence longer than this is cut (with …) in the story; the entry keeps all of it.
LINE_LIMIT = 160
#: At most this many lines of one entry reach one story (a wall of text must not drown the round).
MAX_LINES = 14

_QUOTE = re.compile(r"「([^「」]*)」|『([^『』]*)』|“([^“”]*)”|\"([^\"]*)\"")
_END = re.compile(r"(?<=[。！？!?…])(?![。！？!?…」』”\"）)])|(?<=[.])\s+|\n+")
#: A quote's tail that only says how it was said (「…」と叫ぶ): part of the speech, not a sentence of its own.
_TAG_TAIL = re.compile(r"\s*(?:と|って|──|——)[^。！？!?]{0,12}[。！？!?]?\s*")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff66-\uff9f]")
#: A Japanese sentence that ends on a plain verb or a will/wish form reads as a plan.
_PLAN_JA = re.compile(r"(?:[うくすつぬむぶぐる]|たい|よう|つもり|しよう|する)$")
_NOT_PLAN_JA = re.compile(r"(?:ない|いる|ある|なる|である)$")
_PLAN_EN = re.compile(
    r"^(?:I(?:'ll| will| am going to|'m going to| mean to| want to)|Let's|Going to|Aim|Cover|Hold|Fire|Take|Move|"
    r"Strike|Attack|Stay|Keep|Protect|Shoot|Fly|Charge|Get|Draw|Stop|Find|Watch)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Line:
    """One sentence of a player's prose. `kind`: speech | intent | thought; `tone` (speech): shout | murmur | ask |
    say; `ja`: written in Japanese (an English story sets it off as foreign words)."""

    kind: str
    text: str
    tone: str = "say"
    ja: bool = True

    @property
    def told(self) -> str:
        """The words as the story prints them: a plan inside a sentence of the narrator's, a Japanese line in 「」 or
        （） without its closing 。 (the brackets close it)."""
        return self.bare if self.kind == "intent" else self.text.removesuffix("。") if self.ja else self.text

    @property
    def bare(self) -> str:
        """The text without its closing mark (a plan told inside another sentence)."""
        return self.text.rstrip("。．.!！?？ ")


def is_japanese(text: str) -> bool:
    return bool(_CJK.search(text))


def _tone(text: str) -> str:
    end = text.rstrip()[-1:] if text.strip() else ""
    if end in "！!":
        return "shout"
    if end in "？?":
        return "ask"
    if end in "…‥" or text.strip().startswith(("…", "‥")) or text.rstrip().endswith(("——", "...")):
        return "murmur"
    return "say"


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= LINE_LIMIT else text[: LINE_LIMIT - 1].rstrip() + "…"


def _classify(sentence: str) -> Line:
    ja = is_japanese(sentence)
    bare = sentence.rstrip("。．.!！?？ ")
    if ja:
        plan = bool(_PLAN_JA.search(bare)) and not _NOT_PLAN_JA.search(bare) and not sentence.endswith(("！", "!"))
    else:
        plan = bool(_PLAN_EN.match(bare))
    return Line("intent" if plan else "thought", _cut(sentence), ja=ja)


def split_prose(prose: str | None) -> list[Line]:
    """Every sentence of a prose, in order: quoted lines as speech, the rest split at sentence ends. Empty or blank
    prose gives no lines; a sentence with no letter at all (only emoji, only marks) is kept as a thought."""
    text = (prose or "").strip()
    lines: list[Line] = []
    pos = 0
    for m in _QUOTE.finditer(text):
        lines += _sentences(text[pos : m.start()])
        said = next(g for g in m.groups() if g is not None).strip()
        if said:
            lines.append(Line("speech", _cut(said), _tone(said), is_japanese(said)))
        tail = _TAG_TAIL.match(text, m.end())
        pos = tail.end() if tail else m.end()
    lines += _sentences(text[pos:])
    return lines[:MAX_LINES]


def _sentences(chunk: str) -> list[Line]:
    return [_classify(s.strip()) for s in _END.split(chunk) if s and s.strip(" 　\t\r\n、,")]
