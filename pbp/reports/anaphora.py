"""How a Japanese paragraph refers to a PC it has already named: by nothing (zero anaphora), by 彼女 / 彼, or by name.

A paragraph that names its PC in every sentence reads as a log (「ノアは息を止めた。ノアはカガチ壱を捕捉し、ノアの…」).
A master writing a リプレイ names a character when the scene turns to them and then lets the topic carry:
「ノアは息を止めた。誰かが息を呑んだ瞬間、カガチ壱を捕捉し…」. This pass runs on each finished paragraph:

- The **centre** is the character the last sentence was about: its topic, subject or owner (「Xは」「Xが」「Xの」);
  else, when something else is its subject (「咆哮の余波が真琴へ広がった」), the one it happened to. A sentence with
  no subject written (「ハヤチだけを見ていた」) and no name keeps the centre; a line of dialogue alone opens it again.
- A sentence about the centre PC leaves out its 「Xは」 or 「Xの」 at the head of the sentence or of a clause.
- Any other mention of a PC named a moment ago, with no other PC named since, says 彼女 / 彼 (the character's
  pronoun; a PC whose pronoun is `they` keeps the name), once between two names.
- The name comes back once it was last written `WINDOW` characters ago, so a long paragraph still says whose it is;
  a sentence that would become too curt (「叫んだ。」) or repeat one already written keeps its words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field

#: Characters since a PC's name was last written after which it is written again (the reader needs it back).
WINDOW = 120
#: Characters a sentence keeps without its name (「叫んだ。」 alone is too curt: the name stays).
MIN_LENGTH = 8
_BRACKET = re.compile("[「『（]")
_INNERMOST = re.compile(r"「[^「」『』（）]*」|『[^「」『』（）]*』|（[^「」『』（）]*）")
_MASK = "\x02"
_SENTENCE = re.compile(r"[^。！？!?]+[。！？!?]*")
_SUBJECT = ("は", "が", "の", "も")
#: A subject particle after a word (「余波が」「芯は」), not inside one (「ながら」「だが、」「はず」「はじめ」).
_OVERT_SUBJECT = re.compile(r"(?<![なだ\x02])[がは](?![らずじ])")
#: What may follow a pronoun (彼女は, 彼女へ, 彼女めがけて, 彼女との …); not 「…のはノアだった」.
_PRONOUN_BEFORE = ("は", "が", "を", "へ", "に", "の", "め", "と", "も", "自")


@dataclass
class _Reader:
    """What the reader holds so far in the paragraph."""

    centre: str | None = None
    last_pc: str | None = None  # the last PC referred to, by any means
    named_at: dict[str, int] = field(default_factory=dict)  # where each name was last written in full
    pronoun_since: set[str] = field(default_factory=set)  # PCs called 彼女 / 彼 since their name was written


@dataclass(frozen=True)
class _Mention:
    name: str
    how: str  # "name", "dropped" or "pronoun"
    at: int  # where in the sentence as written


def _masked(text: str) -> str:
    """`text` with every bracketed span (speech, thoughts, titles; nested ones too) blanked, length kept."""
    if not _BRACKET.search(text):
        return text
    while (blanked := _INNERMOST.sub(lambda m: _MASK * len(m.group()), text)) != text:
        text = blanked
    return text


def first_sentence(text: str) -> str:
    """The first sentence of `text` as `refer` cuts it (a line of dialogue and the words after it are one)."""
    m = _SENTENCE.search(_masked(text))
    return text[m.start() : m.end()] if m else ""


def refer(
    paragraph: str,
    names: re.Pattern[str],
    pronouns: Mapping[str, str | None],
    fresh: Callable[[str], bool],
    openers: Collection[str] = (),
) -> str:
    """`paragraph` with each PC referred to as the module's docstring says. `names` matches every unit's name
    (longest first); `pronouns` maps each PC's name to 彼女, 彼 or None; `fresh(sentence)` says whether a changed
    sentence may be written (it repeats none already written) and, when it may, records it; `openers` are the
    sentences that turn the story to a PC (「一方、葵は…」): they keep every name."""
    reader = _Reader()
    out: list[str] = []
    written = 0
    for m in _SENTENCE.finditer(_masked(paragraph)):
        text, masked = paragraph[m.start() : m.end()], m.group()
        found = list(names.finditer(masked))
        lead = _lead(masked, found)
        spoken = len(masked) - len(masked.lstrip(_MASK))  # a line of dialogue may lead into an opener
        if not any(f.group() in pronouns for f in found) or text in openers or text[spoken:] in openers:
            changed, mentions = text, [_Mention(f.group(), "name", f.start()) for f in found]
        else:
            changed, mentions = _shortened(text, masked, found, lead, pronouns, reader, written)
        curt = any(m.how == "dropped" for m in mentions) and _narrated(changed) < MIN_LENGTH
        if changed != text and (curt or not fresh(changed)):
            changed, mentions = text, [_Mention(f.group(), "name", f.start()) for f in found]
        for mention in mentions:
            if mention.name in pronouns:
                reader.last_pc = mention.name
            if mention.how == "name":
                reader.named_at[mention.name] = written + mention.at
                reader.pronoun_since.discard(mention.name)
            elif mention.how == "pronoun":
                reader.pronoun_since.add(mention.name)
        if lead is not None:
            reader.centre = lead.group()
        elif not found and masked.lstrip().startswith(_MASK) and not masked.strip(_MASK + "。！？!?　 "):
            reader.centre = None  # a line of dialogue alone: whoever spoke, the topic is open again
        out.append(changed)
        written += len(changed)
    return "".join(out)


def _narrated(sentence: str) -> int:
    """How many characters of `sentence` are the narrator's (not a line or thought in brackets, not punctuation)."""
    return len(re.sub(r"[\x02。！？!?、——\s]", "", _masked(sentence)))


def _shortened(
    text: str,
    masked: str,
    found: list[re.Match[str]],
    lead: re.Match[str] | None,
    pronouns: Mapping[str, str | None],
    reader: _Reader,
    written: int,
) -> tuple[str, list[_Mention]]:
    """The sentence with its mentions of known PCs left out or said as a pronoun, and how each was said."""
    pieces: list[str] = []
    mentions: list[_Mention] = []
    cursor, length, last_pc = 0, 0, reader.last_pc
    for f in found:
        name, (start, end) = f.group(), f.span()
        pieces.append(text[cursor:start])
        length += start - cursor
        recent = written + start - reader.named_at.get(name, -(10**9)) < WINDOW
        cut = _cut(text, masked, start, name) if f is lead and name == reader.centre and recent else None
        pronoun = pronouns.get(name)
        if name in pronouns and cut is not None:
            mentions.append(_Mention(name, "dropped", length))
            cursor = start + cut
        elif (
            pronoun
            and recent
            and last_pc == name
            and name not in reader.pronoun_since
            and text[end : end + 1] in _PRONOUN_BEFORE
            and not any(pronouns.get(o.group()) == pronoun for o in found if o.group() != name)
        ):
            mentions.append(_Mention(name, "pronoun", length))
            pieces.append(pronoun)
            length += len(pronoun)
            cursor = end
        else:
            mentions.append(_Mention(name, "name", length))
            pieces.append(name)
            length += len(name)
            cursor = end
        if name in pronouns:
            last_pc = name
    pieces.append(text[cursor:])
    return "".join(pieces), mentions


def _lead(masked: str, found: list[re.Match[str]]) -> re.Match[str] | None:
    """The name a sentence is about: the first standing as its topic, subject or owner (「Xは」「Xが」「Xの」「Xも」);
    else, when something else is its subject (「咆哮の余波が真琴へ広がった」), the first named at all (the one it
    happened to); None when it names nobody or has no subject written (「ハヤチだけを見ていた」: the centre's act)."""
    for m in found:
        if masked[m.end() : m.end() + 1] in _SUBJECT:
            return m
    rest = masked
    for m in found:
        rest = rest[: m.start()] + _MASK * len(m.group()) + rest[m.end() :]
    return found[0] if found and _OVERT_SUBJECT.search(rest) else None


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
    if after.startswith("の") and not after.startswith(("のだ", "ので", "のに")) and not head.endswith("は、"):
        return len(name) + 1
    return None
