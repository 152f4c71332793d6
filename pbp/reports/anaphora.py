"""How a paragraph refers to a PC it has already named: by nothing (Japanese zero anaphora), by a pronoun, or by name.

A paragraph that names its PC in every sentence reads as a log (「ノアは息を止めた。ノアはカガチ壱を捕捉し、ノアの…」;
"Makoto took the blow. A jolt ran through Makoto. Makoto ignored the warnings."). A master writing a リプレイ names
a character when the scene turns to them and then lets the reader carry them: 「ノアは息を止めた。誰かが息を呑んだ
瞬間、カガチ壱を捕捉し…」; "Makoto took the blow. A jolt ran through him." This pass runs on each finished paragraph:

- Japanese: the **centre** is the character the last sentence was about: its topic, subject or
  owner (「Xは」「Xが」「Xの」); else, when something else is its subject
  (「咆哮の余波が真琴へ広がった」), the one it happened to. A sentence with no subject written
  (「ハヤチだけを見ていた」) and no name keeps the centre; a line of dialogue alone opens it again.
  A sentence about the centre PC leaves out its 「Xは」 or 「Xの」 at the head of the sentence or
  of a clause.
- A mention of a PC named a moment ago, with no other PC referred to since, says their pronoun (彼女 / 彼; she / he
  as subject, her / him after a preposition, her / his for "X's"), once between two names in Japanese, twice in
  English; a PC whose pronoun is `they` keeps the name (a "they" beside the enemies could be read as them).
- The name comes back once it was last written a window of characters ago, so a long paragraph still says whose
  it is; a sentence that turns the story to a PC keeps the name; a sentence that would become too curt (「叫んだ。」)
  or repeat one already written keeps its words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

#: Characters a sentence keeps without its name (「叫んだ。」 alone is too curt: the name stays).
MIN_LENGTH = 8
_BRACKET = re.compile('[「『（“"]')
_INNERMOST = re.compile(r'「[^「」『』（）]*」|『[^「」『』（）]*』|（[^「」『』（）]*）|“[^“”]*”|"[^"\n]*"')
_MASK = "\x02"
_SUBJECT = ("は", "が", "の", "も")
#: A subject particle after a word (「余波が」「芯は」), not inside one (「ながら」「だが、」「はず」「はじめ」).
_OVERT_SUBJECT = re.compile(r"(?<![なだ\x02])[がは](?![らずじ])")
#: What may follow a pronoun (彼女は, 彼女へ, 彼女めがけて, 彼女との …); not 「…のはノアだった」.
_PRONOUN_BEFORE = ("は", "が", "を", "へ", "に", "の", "め", "と", "も", "自")
#: After 「Xの」, what says where or how much of X rather than something X has: 「葵の分だけの沈黙」
#: 「葵の頭上から」「葵の姿もあった」 mean nothing without 葵 (「葵の照準レーザー」「葵の奥歯」 read as
#: hers). And 「のだ」「ので」「のに」.
_NOT_OWNED = (
    "分", "手前", "周", "前", "後", "背後", "横", "上", "下", "頭上", "足元", "方", "ため", "こと", "もの", "番", "側",
    "傍", "隣", "目の前", "姿", "名", "だ", "で", "に",
)  # fmt: skip
_JA_PRONOUNS = {"she": "彼女", "he": "彼"}
#: English pronouns by role: subject, object (after a preposition), possessive (for "X's").
_EN_PRONOUNS = {"she": ("she", "her", "her"), "he": ("he", "him", "his")}
#: After these a name is the object of a preposition ("ran through Makoto" -> "ran through him").
_PREPOSITIONS = frozenset((
    "at", "toward", "towards", "on", "onto", "upon", "through", "to", "into", "past", "for", "with", "from", "of",
    "by", "near", "beside", "behind", "around", "over", "under", "against", "after", "about", "across", "along",
))  # fmt: skip
_LIST_GLUE = re.compile(r"、|と|,? and |, | or ")
_LAST_WORD = re.compile(r"([A-Za-z]+)\s+$")


@dataclass(frozen=True)
class _Tongue:
    """A language's part in the pass."""

    sentence: re.Pattern[str]
    window: int  # characters after which a name is written again
    pronouns_between_names: int


_TONGUES = {
    "ja": _Tongue(re.compile(r"[^。！？!?]+[。！？!?]*"), 120, 1),
    "en": _Tongue(re.compile(r"[^.!?]+[.!?]*\s*"), 240, 2),
}


@dataclass
class _Reader:
    """What the reader holds so far in the paragraph."""

    centre: str | None = None
    last_pc: str | None = None  # the last PC referred to, by any means
    named_at: dict[str, int] = field(default_factory=dict)  # where each name was last written in full
    pronouns_since: dict[str, int] = field(default_factory=dict)  # pronouns said of a PC since their name
    #: The PCs referred to since each PC's name was last written: one of them sharing the PC's pronoun makes 彼女 / she
    #: ambiguous (「夕立は吹雪の手伝いを買って出た。彼女の顔には…」 reads as 夕立's face) until the name comes back.
    others_since: dict[str, set[str]] = field(default_factory=dict)

    def took(self, mentions: list[_Mention], written: int, pronouns: Mapping[str, str]) -> None:
        """What the reader holds after a sentence's mentions (`written`: where the sentence starts)."""
        for mention in mentions:
            if mention.name in pronouns:
                self.last_pc = mention.name
                for other, since in self.others_since.items():
                    if other != mention.name:
                        since.add(mention.name)
            if mention.how == "name":
                self.named_at[mention.name] = written + mention.at
                self.pronouns_since.pop(mention.name, None)
                self.others_since[mention.name] = set()
            elif mention.how == "pronoun":
                self.pronouns_since[mention.name] = self.pronouns_since.get(mention.name, 0) + 1
        here = {m.name for m in mentions if m.name in pronouns}
        for mention in mentions:  # a PC named beside another shares the reader's attention with them
            if mention.how == "name" and mention.name in pronouns:
                self.others_since[mention.name] |= here - {mention.name}


class _Mention(NamedTuple):
    name: str
    how: str  # "name", "dropped" or "pronoun"
    at: int  # where in the sentence as written


def _masked(text: str) -> str:
    """`text` with every bracketed or quoted span (speech, thoughts, titles; nested ones too) blanked, length kept."""
    if not _BRACKET.search(text):
        return text
    while (blanked := _INNERMOST.sub(lambda m: _MASK * len(m.group()), text)) != text:
        text = blanked
    return text


def first_sentence(text: str, locale: str = "ja") -> str:
    """The first sentence of `text` as `refer` cuts it (a line of dialogue and the words after it are one)."""
    m = _TONGUES[locale].sentence.search(_masked(text))
    return text[m.start() : m.end()].strip() if m else ""


def refer(
    paragraph: str,
    names: re.Pattern[str],
    pronouns: Mapping[str, str],
    fresh: Callable[[str], bool],
    openers: Collection[str] = (),
    locale: str = "ja",
) -> str:
    """`paragraph` with each PC referred to as the module's docstring says. `names` matches every unit's name
    (longest first); `pronouns` maps each PC's name to their pronoun (she, he or they); `fresh(sentence)` says
    whether a changed sentence may be written (it repeats none already written) and, when it may, records it;
    `openers` are the sentences that turn the story to a PC (「一方、葵は…」, stripped): they keep every name."""
    tongue = _TONGUES[locale]
    masked_all = _masked(paragraph)
    said = [n for n in names.findall(masked_all) if n in pronouns]
    if len(said) == len(set(said)):
        return paragraph  # no PC named twice: nothing to spare the reader
    reader = _Reader()
    openers = set(openers)
    out: list[str] = []
    written = 0
    for m in tongue.sentence.finditer(masked_all):
        text, masked = paragraph[m.start() : m.end()], m.group()
        found = list(names.finditer(masked))
        lead = _lead(masked, found) if locale == "ja" else None
        changed = text
        if any(f.group() in pronouns for f in found):
            spoken = len(masked) - len(masked.lstrip(_MASK))  # a line of dialogue may lead into an opener
            mentions = [_Mention(f.group(), "name", f.start()) for f in found]
            if not {text.strip(), text[spoken:].strip()} & openers:
                shorter, told = _shortened(text, masked, found, lead, pronouns, reader, written, locale)
                curt = any(m.how == "dropped" for m in told) and _narrated(shorter) < MIN_LENGTH
                if shorter != text and not curt and fresh(shorter):
                    changed, mentions = shorter, told
            reader.took(mentions, written, pronouns)
            if _listed(masked, found):
                reader.last_pc = None  # 「葵と真琴」, "Aoi and Makoto": a pronoun after a list could be either
        if lead is not None:
            reader.centre = lead.group()
        elif not found and masked.lstrip().startswith(_MASK) and not masked.strip(_MASK + "。！？!?　 "):
            reader.centre = None  # a line of dialogue alone: whoever spoke, the topic is open again
        out.append(changed)
        written += len(changed)
    return "".join(out)


def _glued(masked: str, a: re.Match[str], b: re.Match[str]) -> bool:
    """Whether two names stand side by side in one list (「葵と真琴」「葵、真琴」, "Aoi and Makoto")."""
    return a.group() != b.group() and _LIST_GLUE.fullmatch(masked[a.end() : b.start()]) is not None


def _listed(masked: str, found: list[re.Match[str]]) -> bool:
    """Whether the sentence ends its naming on a list of names: a pronoun after it could be any of them."""
    return len(found) > 1 and _glued(masked, found[-2], found[-1])


def _narrated(sentence: str) -> int:
    """How many characters of `sentence` are the narrator's (not a line or thought in brackets, not punctuation)."""
    return len(re.sub(r"[\x02。！？!?、——\s]", "", _masked(sentence)))


def _shortened(
    text: str,
    masked: str,
    found: list[re.Match[str]],
    lead: re.Match[str] | None,
    pronouns: Mapping[str, str],
    reader: _Reader,
    written: int,
    locale: str,
) -> tuple[str, list[_Mention]]:
    """The sentence with its mentions of known PCs left out or said as a pronoun, and how each was said."""
    tongue = _TONGUES[locale]
    pieces: list[str] = []
    mentions: list[_Mention] = []
    cursor, length, last_pc = 0, 0, reader.last_pc
    in_lists = {m for a, b in zip(found, found[1:], strict=False) if _glued(masked, a, b) for m in (a, b)}
    for f in found:
        name, (start, end) = f.group(), f.span()
        if name not in pronouns or start < cursor:
            continue
        listed = f in in_lists
        pieces.append(text[cursor:start])
        length += start - cursor
        recent = written + start - reader.named_at.get(name, -(10**9)) < tongue.window
        pronoun = pronouns[name]
        may_pronoun = (
            recent
            and last_pc == name
            and reader.pronouns_since.get(name, 0) < tongue.pronouns_between_names
            and not any(pronouns.get(o.group()) == pronoun for o in found if o.group() != name)
            and not any(pronouns.get(o) == pronoun for o in reader.others_since.get(name, ()))
        )
        change = None
        if listed:  # 「葵と真琴」: a list names everyone in it
            pass
        elif locale == "ja":
            if f is lead and name == reader.centre and recent and (cut := _cut(text, masked, start, name)):
                change = ("dropped", start + cut, "")
            elif may_pronoun and pronoun in _JA_PRONOUNS and text[end : end + 1] in _PRONOUN_BEFORE:
                change = ("pronoun", end, _JA_PRONOUNS[pronoun])
        elif may_pronoun and pronoun in _EN_PRONOUNS:
            change = _english(text, masked, start, end, _EN_PRONOUNS[pronoun])
        how, cursor, words = change or ("name", end, name)
        mentions.append(_Mention(name, how, length))
        pieces.append(words)
        length += len(words)
        last_pc = name
    pieces.append(text[cursor:])
    return "".join(pieces), mentions


def _english(text: str, masked: str, start: int, end: int, forms: tuple[str, str, str]) -> tuple[str, int, str] | None:
    """The pronoun for the name at start:end in an English sentence, where its role is plain: "X's" (her / his),
    the subject opening the sentence or a clause after 「;」 (she / he), the object of a preposition (her / him);
    None elsewhere ("Aoi and Makoto", "yet Makoto still …")."""
    subject, object_, possessive = forms
    head = masked[:start]
    if head.rstrip().endswith((_MASK, "*", "}", "”")):
        return None  # after a quoted line: a new sentence or its speech tag? (“…” Makoto's words / “…,” he said)
    opens = not head.strip()
    if text[end : end + 2] in ("'s", "’s"):
        word = possessive.capitalize() if opens else possessive
        return ("pronoun", end + 2, word)
    if text.startswith((" and ", " or "), end):
        return None
    if (opens or head.rstrip().endswith(";")) and re.match(r" [a-z]", text[end : end + 2]):
        return ("pronoun", end, subject.capitalize() if opens else subject)
    before = _LAST_WORD.search(head)
    if before is not None and before.group(1) in _PREPOSITIONS:
        return ("pronoun", end, object_)
    return None


def _lead(masked: str, found: list[re.Match[str]]) -> re.Match[str] | None:
    """The name a sentence is about: the first standing as its topic, subject or owner (「Xは」「Xが」「Xの」「Xも」);
    else, when something else is its subject (「咆哮の余波が真琴へ広がった」), the first named at all (the one it
    happened to); None when it names nobody or has no subject written (「ハヤチだけを見ていた」: the centre's act)."""
    for m in found:
        if masked[m.end() : m.end() + 1] in _SUBJECT:
            return m
    spans = [m.span() for m in found]
    for particle in _OVERT_SUBJECT.finditer(masked):
        if not any(start <= particle.start() < end for start, end in spans):
            return found[0] if found else None
    return None


def _cut(text: str, masked: str, at: int, name: str) -> int | None:
    """How many characters to leave out at `at` for the name standing as the topic (「Xは」, with its 「、」) or the
    owner (「Xの」) at the head of the sentence or of a clause (after 「、」, 「——」 or a quote), unless another topic
    owns that clause; None otherwise."""
    head = masked[:at].rstrip()
    if head and not head.endswith(("、", "——", "—", _MASK)):
        return None
    after = text[at + len(name) :]
    if after.startswith("は") and not after.startswith(("はず", "はじ")):
        return len(name) + (2 if after.startswith("は、") else 1)
    # 「咆哮は、葵の手前で」: another topic owns the clause, and without 「葵の」 the reader cannot say whose.
    if after.startswith("の") and not after.startswith(_NOT_OWNED, 1) and not head.endswith("は、"):
        return len(name) + 1
    return None
