"""The stories' measures (issue 29): what a master checks in a generated SS against the players' entries.

Pure text work (no Flask, no peewee), shared by `bench/stories.py` (which prints the figures over the PBW corpus)
and the tests. Each measure reads a story's Markdown as the narrator writes it (the prose before the state list)
and returns what it found, so a figure is a count or a share and a failure can be shown.

The entries are parsed here, not by the narrator: a yardstick that borrowed the narrator's reading of the prose
would agree with it by construction (issue 29: the old bench counted a broken 〜べく line as told).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any


@dataclass(frozen=True)
class Entry:
    """One player's entry (プレイング) of the corpus: `pc` is the character's Japanese name, `kind` battle or scene,
    `chapter` the corpus section it was written for."""

    id: str
    pc: str
    kind: str
    lang: str
    prose: str
    summary_en: str = ""
    chapter: str = ""


_CHAPTER = re.compile(r"^# -{2,} (.+?) -{2,}\s*$")


def load_entries(text: str) -> list[Entry]:
    """The entries of a corpus TOML (`[[entry]]` tables), each with the `# ---- title ----` comment above it as its
    chapter (TOML drops comments, so they are read from the lines)."""
    chapters: list[str] = []
    current = ""
    for line in text.splitlines():
        if m := _CHAPTER.match(line):
            current = m.group(1)
        elif line.strip() == "[[entry]]":
            chapters.append(current)
    data: dict[str, Any] = tomllib.loads(text)
    return [
        Entry(
            id=e["id"],
            pc=e["pc"],
            kind=e["scenario_kind"],
            lang=e["lang"],
            prose=e["prose"],
            summary_en=e.get("summary_en", ""),
            chapter=chapter,
        )
        for e, chapter in zip(data.get("entry", []), chapters, strict=True)
    ]


# ---- reading an entry as a master does ----------------------------------------------------------------------

#: A heading line of a PBW entry: 【行動】, ■行動 (text may follow on the line), [Action], a Markdown heading.
_HEADING = re.compile(
    r"^\s*(?:【([^】\n]{1,12})】|■\s*([^\s：:]{1,12})[：:]?|\[([A-Za-z][A-Za-z ]{0,20})\]\s*$|#{1,6}\s+(.+))"
)
_DIALOGUE_SECTIONS = {"台詞", "セリフ", "せりふ", "Dialogue", "Lines"}
_NOTE_SECTIONS = {"その他", "アドリブ", "連携", "Notes", "Note", "Other"}
#: Words that only a note to the master holds (絡み alone is also a verb of the story: ワイヤーが絡み合う).
_NOTE_MARKERS = re.compile(
    r"アドリブ|[MＭ][SＳ]様|連携希望|絡み(?:歓迎|大歓迎|[NＮ][GＧ]|[OＯ][KＫ]|・)|絡ませて|[（(]白紙[）)]"
    r"|(?<![A-Za-z])PL(?![A-Za-z])|NG\**[：:]|※|[Aa]d-?lib|interaction welcome"
)


def sections(prose: str) -> list[tuple[str, list[str]]]:
    """The entry's lines grouped under their headings, in order: ("", lines) before any heading. Text after a
    heading on its own line (【連携】葵さんと…) belongs to that heading."""
    found: list[tuple[str, list[str]]] = [("", [])]
    for line in prose.splitlines():
        m = _HEADING.match(line)
        if m:
            name = next(g for g in m.groups() if g is not None).strip()
            rest = line[m.end() :].strip()
            found.append((name, [rest] if rest else []))
        elif line.strip():
            found[-1][1].append(line.strip())
    return [(name, lines) for name, lines in found if name or lines]


def heading_names(entries: Iterable[Entry]) -> set[str]:
    """Every heading the entries use (心情, 行動, Action, 見出し...)."""
    return {name for e in entries for name, _ in sections(e.prose) if name}


def _spans(text: str, opening: str, closing: str) -> list[str]:
    """The outermost balanced `opening…closing` spans of `text`, brackets included; an unclosed one is no span."""
    spans, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == opening:
            if depth == 0:
                start = i
            depth += 1
        elif ch == closing and depth:
            depth -= 1
            if depth == 0:
                spans.append(text[start : i + 1])
    return spans


_EN_QUOTE = re.compile(r"\"([^\"\n]+)\"|“([^”\n]+)”")


def _en_quotes(line: str) -> list[str]:
    return [a or b for a, b in _EN_QUOTE.findall(line)]


def dialogue(entry: Entry) -> list[str]:
    """The entry's spoken lines, to be quoted verbatim: in Japanese every 「…」 (brackets included) on a line that
    opens with one or under a 台詞 heading; in English every "…" likewise (inner words only, the narrator chooses
    the quotation marks)."""
    lines: list[str] = []
    for name, body in sections(entry.prose):
        if name in _NOTE_SECTIONS:
            continue
        for line in body:
            if entry.lang == "ja" and (name in _DIALOGUE_SECTIONS or line.startswith("「")):
                lines += _spans(line, "「", "」")
            elif entry.lang != "ja" and (name in _DIALOGUE_SECTIONS or line.startswith(('"', "“"))):
                lines += _en_quotes(line)
    return lines


def notes(entry: Entry) -> list[str]:
    """The entry's notes to the master: every line under 【その他】/【アドリブ】/【連携】/[Notes], and any line with a
    note's words (アドリブ歓迎, MS様へ…, 連携希望, 絡み歓迎, ※, NG：)."""
    found = []
    for name, body in sections(entry.prose):
        for line in body:
            if name in _NOTE_SECTIONS or (_NOTE_MARKERS.search(line) and _bracketed(line)):
                found.append(line)  # a section of notes, or a note in brackets: (Adlib welcome! ...)
            else:  # a plan and アドリブ歓迎！ may share a line: only the note's sentence is the note
                found += [s for s in _sentences_of(line) if _NOTE_MARKERS.search(s)]
    return found


def _bracketed(line: str) -> bool:
    """A line that is one aside in brackets: (…) or （…）."""
    return any(_spans(line, o, c) == [line] for o, c in (("(", ")"), ("（", "）")))


def _sentences_of(line: str) -> list[str]:
    return [s for s in re.split(r"(?<=[。！？!?])", line) if s.strip()]


# ---- the story as the reader sees it -----------------------------------------------------------------------

#: A Japanese phrase set off as the player's own words in an English story: *…*{: lang="ja"}.
MARKED_QUOTE = re.compile(r"\*(?:\\\*|[^*])*\*\{: lang=\"ja\"\}")
_ESCAPED = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|~<>])")
_ENTITIES = (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&amp;", "&"))


def body(story: str) -> str:
    """The prose of a story: what comes before the state list."""
    return story.split("\n---\n")[0]


def visible(markdown: str) -> str:
    """Markdown text as its reader sees the characters: escapes and entities resolved, attribute lists dropped
    (emphasis marks stay: a `**` a reader would see is what the heading check looks for)."""
    text = markdown.replace('{: lang="ja"}', "")
    text = _ESCAPED.sub(r"\1", text)
    for entity, char in _ENTITIES:
        text = text.replace(entity, char)
    return text


def _masked(text: str, pairs: Sequence[tuple[str, str]], by: str = "\n") -> str:
    """`text` with every balanced span of `pairs` replaced by `by` (a newline by default: a clause ends there)."""
    for opening, closing in pairs:
        for span in sorted(set(_spans(text, opening, closing)), key=len, reverse=True):
            text = text.replace(span, by)
    return text


_JA_QUOTES = (("「", "」"), ("『", "』"), ("（", "）"), ("(", ")"))
_EN_QUOTES = (("“", "”"), ("(", ")"), ("（", "）"), ("「", "」"))


def narration(story: str, locale: str) -> str:
    """What the narrator says in its own voice: the visible prose without speech, inner voice (（） in Japanese,
    italics in English) or the player's marked words."""
    text = MARKED_QUOTE.sub("\n", body(story))
    if locale != "ja":
        text = _ITALIC.sub("\n", text)
    text = visible(text)
    if locale != "ja":
        text = re.sub(r"\"[^\"\n]*\"", "\n", text)
    return _masked(text, _JA_QUOTES if locale == "ja" else _EN_QUOTES)


#: An English inner voice: a span in single asterisks (italics; an escaped \* is a player's star, not a mark).
_ITALIC = re.compile(r"(?<![\\*])\*(?!\*)(?:\\\*|[^*\n])+?(?<!\\)\*(?!\*)")


# ---- the measures ----------------------------------------------------------------------------------------------


def quotes_missing(story: str, entries: Iterable[Entry], locale: str) -> list[str]:
    """The spoken lines of the entries in the story's language that the story does not quote verbatim."""
    text = visible(body(story))
    return [line for e in entries if e.lang == locale for line in dialogue(e) if line not in text]


def quotes_total(entries: Iterable[Entry], locale: str) -> int:
    """How many spoken lines the entries in `locale` hold (the denominator of the quoted share)."""
    return sum(len(dialogue(e)) for e in entries if e.lang == locale)


_MD_HEADING_LINE = re.compile(r"^#{1,6}\s+(.*)$", re.M)
_STORY_HEADINGS = re.compile(r"【[^】\n]*】|■|\[[A-Z][A-Za-z ]{0,20}\]|#+[ \u3000]|\*\*")


def leaks(story: str, entries: Sequence[Entry]) -> list[str]:
    """Structure and notes of the entries that reached the story: headings (【…】, ■, [Action], a `#` a reader sees,
    a Markdown heading named as an entry's heading), `**`, a note line to the master, a note's words."""
    source = body(story)
    named = heading_names(entries)
    found = [h for h in _MD_HEADING_LINE.findall(source) if visible(h).strip() in named]
    text = visible(_MD_HEADING_LINE.sub(r"\1", source))  # the narrator's own heading is markup, not a mark
    found += _STORY_HEADINGS.findall(text)
    for entry in entries:
        for note in notes(entry):
            clean = visible(note).replace("*", "").strip("（）() ")
            told = [part for part in _sentences_of(clean) if len(part.strip()) >= 6 and part in text]
            found += told
            for part in told:  # a note's sentence found is one finding, not again for its words
                text = text.replace(part, "\n")
    return found + _NOTE_MARKERS.findall(text)


# -- 〜べく --


@cache
def _tagger() -> Any:
    """fugashi over unidic-lite, loaded once and only when a Japanese text is analysed."""
    import fugashi

    return fugashi.Tagger()


_FIRST_PERSON_JA = {"私", "わたし", "わたくし", "俺", "おれ", "オレ", "僕", "ぼく", "ボク", "あたし", "うち", "ウチ"}
#: Verbs that tell what happens to someone or what is, not what they do: never the aim of a 〜べく.
_NON_VOLITIONAL = {
    "見える",
    "聞こえる",
    "出来る",
    "届く",
    "分かる",
    "判る",
    "解る",
    "知れる",
    "要る",
    "有る",
    "居る",
    "似る",
}
_BOUNDARY = {"。", "！", "？", "!", "?", "\n"}


def _is_first_person(words: Sequence[Any], i: int) -> bool:
    """A first-person pronoun: 私/俺/僕/あたし as the analyser tags them, or うち (tagged 内) standing as a subject
    at a clause's start (うちは, うちが; not そのうち)."""
    w = words[i]
    if w.surface not in _FIRST_PERSON_JA:
        return False
    if w.feature.pos1 == "代名詞":
        return True
    starts = i == 0 or words[i - 1].feature.pos1 == "補助記号"
    following = words[i + 1].surface if i + 1 < len(words) else ""
    return w.surface in ("うち", "ウチ") and starts and following in ("は", "が", "も", "、", "の")


def _clause_start(words: Sequence[Any], i: int) -> int:
    """Where the sentence holding `words[i]` begins."""
    return max((k for k in range(i) if words[k].surface in _BOUNDARY), default=-1) + 1


def _subject_pronoun(words: Sequence[Any], k: int) -> bool:
    """A pronoun (あいつら, 彼) marked as a subject: the clause tells what someone else does, not an aim."""
    following = [w.surface for w in words[k + 1 : k + 3]]
    return words[k].feature.pos1 == "代名詞" and bool({"が", "は"} & set(following))


def _why_not_volitional(words: Sequence[Any], i: int) -> str | None:
    """Why the clause before the べく at `words[i]` cannot be an aim, or None when it can (守るべく, 阻止すべく)."""
    chain, j = [], i - 1
    while j >= 0:
        w = words[j]
        chain.append(w)
        after_te = j > 0 and words[j - 1].feature.pos2 == "接続助詞" and words[j - 1].surface in ("て", "で")
        if w.feature.pos1 == "助動詞" or (w.feature.pos2 == "接続助詞" and w.surface in ("て", "で")):
            j -= 1
        elif w.feature.pos1 == "動詞" and w.feature.pos2 == "非自立可能" and after_te:
            j -= 1  # いる, しまう, おく after て: the verb before it heads the clause
        else:
            break
    head, helpers = chain[-1], {w.feature.lemma for w in chain[:-1]}
    start = _clause_start(words, i)
    if any(_is_first_person(words, k) for k in range(start, i)):
        return "first person"
    if any(_subject_pronoun(words, k) for k in range(start, i)):
        return "another subject"
    if head.feature.pos1 != "動詞":
        return "not a verb"
    if helpers & {"ない", "ぬ", "まい"}:
        return "negative"
    if "た" in helpers:
        return "past"
    if helpers & {"てる", "居る", "おる", "有る"}:
        return "stative"
    if "たい" in helpers:
        return "desire"
    if str(head.feature.cForm).startswith("意志推量") or helpers & {"う", "よう"}:
        return "volitional form"
    potential_form = str(head.feature.cType).startswith("下一段") and head.feature.kanaBase != head.feature.lForm
    if helpers & {"れる", "られる"} or potential_form or head.feature.lemma in _NON_VOLITIONAL:
        return "potential or passive"
    return None


def broken_beku(story: str) -> list[str]:
    """Every 〜べく of the narration whose clause is no aim: after a potential (見える, できる, 届く, 撃てる), stative
    (〜ている), negative or past verb, a desire or volitional form, a non-verb, or with a first-person pronoun or
    another subject (あいつらが) in its clause; each as "reason: clause"."""
    found = []
    for line in narration(story, "ja").splitlines():
        if "べく" not in line:
            continue
        words = list(_tagger()(line))
        for i, w in enumerate(words):
            if w.surface == "べく" and w.feature.lemma == "べし":
                why = _why_not_volitional(words, i)
                if why:
                    clause = "".join(x.surface for x in words[_clause_start(words, i) : i + 1])
                    found.append(f"{why}: {clause[-30:]}")
    return found


# -- first person, CJK, mechanics --

#: "I" the pronoun, not a class letter ("I-class destroyer").
_FIRST_PERSON_EN = re.compile(r"\bI\b(?!-)|\b(?:[Mm]e|[Mm]y|[Mm]ine|[Mm]yself)\b")


def first_person(story: str, locale: str) -> list[str]:
    """First-person pronouns in the narrator's own voice (outside 「」, （） inner voice and the player's marked
    words): 私 俺 僕 うち あたし in Japanese, I me my mine myself in English."""
    text = narration(story, locale)
    if locale != "ja":
        return _FIRST_PERSON_EN.findall(text)
    found = []
    for line in text.splitlines():
        if line.strip():
            words = list(_tagger()(line))
            found += [w.surface for k, w in enumerate(words) if _is_first_person(words, k)]
    return found


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff01-\uff60]")


def cjk_outside_quotes(story: str) -> list[str]:
    """Japanese script in an English story outside the player's words set off as theirs (*…*{: lang="ja"})."""
    return _CJK.findall(MARKED_QUOTE.sub("", body(story)))


#: Words that are rules, not fiction: none may appear in a story's prose.
MECHANICS = {
    "ja": (
        "ゲージ",
        "判定",
        "成功数",
        "ダイス",
        "ダメージ",
        "小破",
        "中破",
        "大破",
        "軽傷",
        "重傷",
        "瀕死",
        "大成功",
        "R-",
    ),
    "en": ("gauge", "successes", "dice", "roll", "stage", "R-", "light damage", "moderate damage", "heavy damage"),
}


def mechanics_words(story: str, locale: str) -> list[str]:
    """Rule terms in the story's prose (whole words in English)."""
    text = body(story)
    if locale == "ja":
        return [w for w in MECHANICS["ja"] if w in text]
    return [w for w in MECHANICS["en"] if re.search(rf"\b{re.escape(w)}\b", text)]


# -- across a scenario's stories --

_SENTENCE = re.compile(r"[^。！？!?.\n]+[。！？!?.]*[」』”\"）)]?")


def frames(story: str, names: Iterable[str], locale: str, quoted: Iterable[str] = ()) -> list[str]:
    """The story's sentence frames: each sentence with names masked (〇), speech and marked words emptied and
    digits masked, so two sentences that differ only in who or what was said are the same frame. `quoted`: texts
    the story quotes as written, not the narrator's words (a scene check's outcome in the pack), emptied too."""
    text = visible(MARKED_QUOTE.sub("「」", body(story)))
    for words in sorted({w for w in quoted if w}, key=len, reverse=True):
        text = text.replace(words, "「」")
    text = _masked(text, (("「", "」"), ("“", "”")), by="「」")
    if locale != "ja":
        text = re.sub(r"\"[^\"\n]*\"", "「」", text)
    for name in sorted({n for n in names if n}, key=len, reverse=True):
        text = text.replace(name, "〇")
    text = re.sub(r"\d+", "0", text)
    return [s.strip() for s in _SENTENCE.findall(text) if len(s.strip()) > 3]


def distinct_frames(stories: Iterable[str], names: Iterable[str], locale: str, quoted: Iterable[str] = ()) -> float:
    """The share of distinct sentence frames over a scenario's stories (1.0 for no sentence at all)."""
    names, quoted = list(names), list(quoted)
    said = [f for story in stories for f in frames(story, names, locale, quoted)]
    return len(set(said)) / len(said) if said else 1.0


def name_gaps(story: str, names: Iterable[str]) -> list[float]:
    """Per paragraph of a Japanese story that names one PC twice or more: the mean distance in characters between
    that PC's mentions (the closest-named PC's), speech left out of the count of names but not of the length."""
    gaps = []
    for paragraph in visible(body(story)).split("\n\n"):
        text = paragraph
        for span in _spans(text, "「", "」") + _spans(text, "『", "』"):
            text = text.replace(span, "＿" * len(span))
        spans = []
        for name in {n for n in names if n}:
            at = [m.start() for m in re.finditer(re.escape(name), text)]
            if len(at) >= 2:
                spans.append((at[-1] - at[0]) / (len(at) - 1))
        if spans:
            gaps.append(min(spans))
    return gaps


def acting_after_death(rounds: Iterable[list[dict[str, Any]]]) -> list[str]:
    """Events of a unit after the round it died in (an engine fault the story would have to tell): "round: type by
    unit"; `rounds` are the rounds' event lists in order."""
    fallen: set[str] = set()
    found = []
    for events in rounds:
        for e in events:
            actor = e.get("attacker") if e["type"] == "attack" else e.get("unit")
            if e["type"] in ("attack", "move", "ability", "reload", "swap", "check", "death") and actor in fallen:
                found.append(f"{e.get('round')}: {e['type']} by {actor}")
        fallen |= {e["unit"] for e in events if e["type"] == "death"}
    return found
