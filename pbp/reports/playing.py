"""A player's プレイング read the way a PBW master reads it before writing the リプレイ.

A master does not read an entry aloud. The headings (【心情】【行動】【台詞】【その他】, ■行動,
[Action]) are structure; the notes to the master (アドリブ歓迎, 絡みNG, 〇〇さんと連携希望,
MS様へ…, ※…) are requests that shape the story but are never narrated; 「台詞」 are quoted verbatim
with the player's own stage direction beside them; a plan is told as what the character *tried* (the dice decide
how it went), while a feeling, a fact, a condition or a memory is never forced into a plan; a first-person sentence
is the character's inner voice or is retold without the pronoun. This module does that reading once per text
(cached) with a real morphological analyser (fugashi + unidic-lite): every conjugated form it builds comes from the
analyser's lemma and conjugation type of the final word, and is checked by the analyser again before the story may
use it. The entry itself is never changed.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from html.parser import HTMLParser
from typing import Any

from pbp.reports.english import as_attempt
from pbp.reports.markdown import render_markdown
from pbp.text import is_japanese

# ---------------------------------------------------------------------------------------------------- the result


@dataclass(frozen=True)
class Piece:
    """One in-character unit of the entry. `told` is how narration can use it: without a first-person pronoun, a
    third-person subject at its head (kept in `subject`) or the final 。; "" when it cannot be told safely. For an
    action, `f"{name}は{told}。"` reads as the attempt; `plain` is the same clause in the plain past."""

    kind: str  # "speech" | "action" | "inner" | "narration"
    source: str
    text: str
    told: str
    plain: str = ""
    section: str | None = None
    direction: str = ""
    tone: str = "say"
    ja: bool = True
    first_person: bool = False
    addressee: str | None = None
    subject: str | None = None  # the character named at the head of a third-person sentence (dropped from told)


@dataclass(frozen=True)
class Reading:
    """The whole entry as a master reads it: the pieces in the player's order, and the notes to the master apart."""

    pieces: tuple[Piece, ...]
    notes: tuple[str, ...]
    partners: tuple[str, ...]
    adlib: bool | None
    blank: bool


# ---------------------------------------------------------------------------------------------------- the analyser


@cache
def _tagger() -> Any:
    """One tagger per process, made on first use (loading the dictionary costs ~0.1 s; most requests never read)."""
    import fugashi

    return fugashi.Tagger()


@dataclass(frozen=True)
class _Tok:
    surface: str
    start: int  # offset of the surface in the analysed text
    pos1: str
    pos2: str
    pos3: str
    ctype: str
    cform: str
    lemma: str


@lru_cache(maxsize=8192)
def tokens(text: str) -> tuple[_Tok, ...]:
    """The analysis of `text` with each token's offset (cached: a corpus repeats its sentences across seeds)."""
    out: list[_Tok] = []
    at = 0
    for word in _tagger()(text):
        at = text.find(word.surface, at)
        if at < 0:  # the analyser normalised something: offsets are unsafe, so nothing is built from this text
            return ()
        f = word.feature
        out.append(
            _Tok(word.surface, at, f.pos1, f.pos2 or "", f.pos3 or "", f.cType or "", f.cForm or "", f.lemma or "")
        )
        at += len(word.surface)
    return tuple(out)


def _ends_past(text: str) -> bool:
    """The analyser's check on a built clause: its last word is the past auxiliary た/だ."""
    toks = [t for t in tokens(text) if t.pos1 not in ("補助記号", "空白")]
    return bool(toks) and toks[-1].pos1 == "助動詞" and toks[-1].lemma == "た"


# ---------------------------------------------------------------------------------------------------- conjugation

#: 五段 rows (unidic cType suffix) -> (終止形 kana, 連用形 kana, 意志形 kana, plain past ending).
_GODAN = {
    "カ行": ("く", "き", "こ", "いた"),
    "ガ行": ("ぐ", "ぎ", "ご", "いだ"),
    "サ行": ("す", "し", "そ", "した"),
    "タ行": ("つ", "ち", "と", "った"),
    "ナ行": ("ぬ", "に", "の", "んだ"),
    "バ行": ("ぶ", "び", "ぼ", "んだ"),
    "マ行": ("む", "み", "も", "んだ"),
    "ラ行": ("る", "り", "ろ", "った"),
    "ワア行": ("う", "い", "お", "った"),
}
_PLAIN_FORMS = ("終止形-一般", "連体形-一般")
#: The kana an 一段 stem ends in (伏せ, 見え, 起き): a 五段-ラ行 reading after one of them is tried as 一段 first.
_EI_ROW = frozenset("えけげせぜてでねへべぺめれいきぎしじちぢにひびぴみり")


def _stems(tok: _Tok) -> list[tuple[str, str, str]]:
    """Candidate (stem, 意志形 ending, past ending) of a verb-like word from its conjugation type and form; none when
    the surface does not have the shape the type says. A 五段-ラ行 reading of a word in る also offers the 一段
    reading (unidic reads 伏せる both ways): the analyser's check picks the one it recognises."""
    s, ct, cf = tok.surface, tok.ctype, tok.cform
    plain = cf in _PLAIN_FORMS
    renyo = cf.startswith("連用形-一般")
    out: list[tuple[str, str, str]] = []
    if ct.startswith("五段-"):
        row = _GODAN.get(ct.removeprefix("五段-"))
        if row is not None:
            past = "った" if tok.lemma in ("行く", "逝く") else row[3]
            if ct == "五段-ラ行" and plain and s.endswith("る") and len(s) > 1 and s[-2] in _EI_ROW:
                out.append((s[:-1], "よう", "た"))  # 伏せる: unidic also reads it as 五段; 一段 is the common verb
            if (plain and s.endswith(row[0])) or (renyo and s.endswith(row[1])):
                out.append((s[:-1], row[2] + "う", past))
            elif cf == "意志推量形" and s.endswith(row[2] + "う"):
                out.append((s[:-2], row[2] + "う", past))
    elif ct.startswith(("上一段", "下一段")):
        if plain and s.endswith("る"):
            out.append((s[:-1], "よう", "た"))
        elif renyo:
            out.append((s, "よう", "た"))
        elif cf == "意志推量形" and s.endswith("よう"):
            out.append((s[:-2], "よう", "た"))
    elif ct == "サ行変格" and (plain or renyo or cf == "意志推量形"):
        for base in ("しよう", "する", "し"):
            if s.endswith(base):
                out.append((s[: -len(base)] + "し", "よう", "た"))
                break
    elif ct == "カ行変格" and (plain or renyo or cf == "意志推量形"):
        out.append(("来", "よう", "た") if s.startswith("来") else ("", "こよう", "きた"))
    return out


def _build(head: str, tok: _Tok, want: str) -> str:
    """`head` + the word as an attempt (塞ぐ -> 塞ごうとした) or in the plain past (塞ぐ -> 塞いだ), checked by the
    analyser: the result must end on the past auxiliary and still contain the word (its lemma) in the wanted form;
    "" when no candidate passes."""
    for stem, vol, past in _stems(tok):
        built = head + (stem + vol + "とした" if want == "attempt" else stem + past)
        toks = tokens(built)
        if not _ends_past(built):
            continue
        for i, t in enumerate(toks):
            if t.lemma != tok.lemma or t.start < len(head):
                continue
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            if want == "attempt" and t.cform == "意志推量形":
                return built
            if want == "past" and nxt is not None and nxt.lemma == "た":
                return built
    return ""


# ---------------------------------------------------------------------------------------------------- lexicon

_FIRST_JA = frozenset(
    {"私", "俺", "僕", "あたし", "わたし", "おれ", "ぼく", "わたくし", "うち", "俺ら", "私たち", "僕ら"}
)
_FIRST_EN = re.compile(r"\b(?:I|me|my|mine|myself|I'm|I'll|I've|I'd)\b")
#: Verbs whose subject does not choose the outcome (a state, a perception, an ability): never told as an attempt.
_NON_VOLITIONAL = frozenset(
    {"有る", "居る", "見える", "聞こえる", "出来る", "届く", "分かる", "要る", "成る", "違う", "似る", "光る", "響く",
     "止まる", "流れる", "消える", "残る", "詰まる", "慣れる", "震える", "落ちる", "鳴る", "当たる", "負ける",
     "揺れる", "散る", "燃える", "降る", "困る"}
)  # fmt: skip
#: Saying, deciding, thinking: not at stake on the dice, so told in the plain past rather than as an attempt.
_SAY_THINK = frozenset(
    {"言う", "叫ぶ", "呟く", "囁く", "答える", "聞く", "尋ねる", "思う", "決める", "考える", "信ずる", "祈る"}
)
_SAY = frozenset({"言う", "叫ぶ", "呟く", "囁く", "答える", "告げる", "怒鳴る"})
#: Auxiliary verbs that, after the main verb, keep the whole clause a volitional act (〜ておく, 〜てもらう, 〜てみる).
_AUX_VOLITIONAL = frozenset({"とく", "せる", "させる"})
_NEGATIVE = frozenset({"ない", "ぬ", "ず", "へん", "ん", "まい", "ひん"})
#: A guess about what will happen (たぶん外す), not a plan.
_CONJECTURE = frozenset({"多分", "きっと", "恐らく", "もしかして", "もしかしたら"})
_PRIORITY_NOUNS = frozenset({"第一", "目標", "狙い", "役目", "仕事", "最優先", "任務", "役割"})
_HONORIFICS = frozenset({"さん", "君", "ちゃん", "様", "さま", "殿"})
_NOT_NAMES = frozenset({"MS", "ＭＳ", "PL", "ＰＬ", "GM", "ＧＭ", "皆", "皆さん", "みなさん", "みんな", "運営"})

_SECTIONS = {
    "心情": "心情", "気持ち": "心情", "感情": "心情", "feelings": "心情", "feeling": "心情", "mood": "心情",
    "行動": "行動", "やること": "行動", "action": "行動", "actions": "行動", "plan": "行動",
    "台詞": "台詞", "セリフ": "台詞", "せりふ": "台詞", "dialogue": "台詞", "lines": "台詞", "speech": "台詞",
    "その他": "その他", "備考": "その他", "notes": "その他", "note": "その他", "other": "その他", "ooc": "その他",
    "プレイング": "プレイング", "playing": "プレイング",
    "アドリブ": "アドリブ", "adlib": "アドリブ", "ad-lib": "アドリブ",
    "連携": "連携", "絡み": "連携", "partners": "連携",
    "ng": "NG", "ＮＧ": "NG",
}  # fmt: skip
_NOTE_SECTIONS = frozenset({"その他", "アドリブ", "連携", "NG"})
#: A line that is a note to the master wherever it stands (the PBW conventions for talking to the writer).
_NOTE_LINE = re.compile(
    r"^\s*(?:※|[(（]\s*(?:MS|ＭＳ|PL|ＰＬ|GM|Adlib|adlib|OOC)|(?:NG|ＮＧ)\s*[：:]|MS様|ＭＳ様|PL[：:]|OOC)"
    r"|(?:PL|ＰＬ)の(?:わがまま|希望|お願い)|で参加します|をお借りして|[（(]笑[）)]\s*$"
)
#: A sentence that is a note: any sentence of a line from it on is a note too (「アドリブ歓迎です。お任せします。」).
_NOTE_SENTENCE = re.compile(
    r"アドリブ|絡み(?:歓迎|大歓迎|OK|ＯＫ|NG|ＮＧ|希望|ます|ませ|・)|絡ませて|連携(?:希望|歓迎|お願い)|(?:お任せ|おまかせ)します"
    r"|お返事(?:です|はお任せ|になって)|問いかけ(?:に|へ)?(?:なって|です)|\b(?:[Aa]d-?lib|[Ii]nteraction welcome|OOC)\b"
    r"|reply to [A-Z]"
)
_ADLIB_NO = re.compile(
    r"(?:アドリブ|[Aa]d-?lib)\s*(?:は|:|：)?\s*(?:NG|ＮＧ|控えめ|少なめ|なし|無し|不可|off)|[Nn]o ad-?lib"
)
_ADLIB_YES = re.compile(r"(?:アドリブ|[Aa]d-?lib)[^。.!！\n]{0,24}?(?:歓迎|OK|ＯＫ|大歓迎|お任せ|おまかせ|welcome|ok)")
_BLANK = re.compile(
    r"^[\s(（【\[]*(?:白紙|おまかせ(?:します)?|お任せ(?:します)?|blank)[\s。．.!！)）】\]]*$", re.IGNORECASE
)
_PARTNER_EN = re.compile(r"\b(?:reply to|with|answer to|answering)\s+([A-Z][a-z]+)(?:'s)?")
_PARTNER_HINT = re.compile(r"連携|絡|お借り|返事|問い|一緒|同じ|reply|interaction|together|answer", re.IGNORECASE)

_OPEN = {"「": "」", "『": "』", "（": "）", "(": ")", "“": "”"}
_CLOSE = {v: k for k, v in _OPEN.items()}
_QUOTE_OPEN = '「『“"'
_ENDERS_JA = "。！？!?"
_WORDY = re.compile(r"[\w\u3040-\u30ff\u3400-\u9fff]")
_MD_MARKS = re.compile(r"[*#`]")
_BULLET = re.compile(r"^[■□◆◇●▼▽]\s*")
#: A list marker the preview shows as text (a list with no blank line before it stays in its paragraph).
_LIST_MARK = re.compile(r"^\s*(?:[-+*・]|\d{1,3}[.)])\s+")
_EN_INTERJECTIONS = frozenset({"yeah", "well", "okay", "ok", "oh", "hey", "no", "yes", "look", "listen", "right", "so",
                               "now", "sorry", "thanks", "please", "come", "alright", "wait", "scared"})  # fmt: skip

# ---------------------------------------------------------------------------------------------------- text helpers


def _balanced(text: str) -> str:
    """`text` without the brackets that have no partner (a player's typo must not reach the story half-open)."""
    stack: list[tuple[str, int]] = []
    drop: set[int] = set()
    for i, ch in enumerate(text):
        if ch in _OPEN:
            stack.append((ch, i))
        elif ch in _CLOSE:
            if stack and stack[-1][0] == _CLOSE[ch]:
                stack.pop()
            else:
                drop.add(i)
    drop.update(i for _, i in stack)
    return "".join(ch for i, ch in enumerate(text) if i not in drop)


def _clean(text: str) -> str:
    """Story-safe text: no Markdown marks, balanced brackets, no stray spaces."""
    return _balanced(_MD_MARKS.sub("", text)).strip(" \u3000\t")


def _is_ja(text: str) -> bool:
    return is_japanese(text)


def _close_of(text: str, start: int) -> int:
    """Index of the bracket closing the one at `start` (nesting of the same kind counted), or -1."""
    opener = text[start]
    closer = _OPEN.get(opener, '"')
    depth = 0
    for i in range(start, len(text)):
        ch = text[i]
        if opener == '"':
            if i > start and ch == '"':
                return i
            continue
        if ch == opener:
            depth += 1
        elif ch == closer:
            depth -= 1
            if depth == 0:
                return i
    return -1


def _sentences(line: str) -> list[str]:
    """The sentences of a line: split after 。！？ (and . ! ? before a space in English), never inside brackets."""
    out: list[str] = []
    depth: list[str] = []
    start = 0
    i = 0
    n = len(line)
    while i < n:
        ch = line[i]
        if ch in _OPEN:
            depth.append(_OPEN[ch])
        elif depth and ch == depth[-1]:
            depth.pop()
        elif ch == '"':
            if depth and depth[-1] == '"':
                depth.pop()
            else:
                depth.append('"')
        elif not depth and (ch in "。！？" or (ch in ".!?" and (i + 1 == n or line[i + 1] in " \u3000"))):
            while i + 1 < n and line[i + 1] in _ENDERS_JA + ".":
                i += 1
            out.append(line[start : i + 1])
            start = i + 1
        i += 1
    out.append(line[start:])
    return [s.strip(" \u3000\t") for s in out if s.strip(" \u3000\t")]


# ---------------------------------------------------------------------------------------------------- Markdown


class _Lines(HTMLParser):
    """The preview's HTML as lines: (text, is a heading, is all bold)."""

    _BLOCKS = frozenset({"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "br", "blockquote", "tr", "pre", "hr", "td"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[tuple[str, bool, bool]] = []
        self._parts: list[tuple[str, bool]] = []
        self._heading = False
        self._strong = 0

    def _flush(self) -> None:
        text = "".join(p for p, _ in self._parts)
        if text.strip():
            bold = all(b for p, b in self._parts if p.strip())
            self.lines.append((text.strip(), self._heading, bold))
        self._parts = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._BLOCKS:
            self._flush()
            self._heading = tag[0] == "h" and tag[1:].isdigit()
        elif tag == "strong":
            self._strong += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self._BLOCKS:
            self._flush()
            self._heading = False
        elif tag == "strong":
            self._strong = max(0, self._strong - 1)

    def handle_data(self, data: str) -> None:
        for i, part in enumerate(data.split("\n")):
            if i:
                self._flush()
            self._parts.append((part, self._strong > 0))


def _preview_lines(prose: str) -> list[tuple[str, bool, bool]]:
    """The entry's lines as the Markdown preview shows them (the same renderer the site uses)."""
    parser = _Lines()
    parser.feed(render_markdown(prose))
    parser.close()
    parser._flush()
    return [(_LIST_MARK.sub("", html.unescape(t)), h, b) for t, h, b in parser.lines]


# ---------------------------------------------------------------------------------------------------- Japanese clauses


@dataclass(frozen=True)
class _Clause:
    kind: str  # "plan" | "say" (said/thought: told in the plain past) | "other"
    told: str = ""
    plain: str = ""


def _is_name(tok: _Tok, names: tuple[str, ...]) -> bool:
    return tok.surface in names or (tok.pos2 == "固有名詞" and tok.pos3 == "人名")


def _strip_subject(text: str, names: tuple[str, ...] = ()) -> tuple[str, str | None, bool]:
    """(text without its first-person subject or its named topic (葵は… at the head of the sentence or of a
    clause), that name, clean): `clean` is False when a first-person pronoun stays that cannot be dropped (私の)."""
    toks = tokens(text)
    if not toks:
        return text, None, not _has_first_person_ja(text)
    cut: list[tuple[int, int]] = []
    subject = None
    for i in range(len(toks) - 1):
        clause_head = i == 0 or toks[i - 1].surface in ("、", "，")
        if clause_head and toks[i].pos1 == "名詞" and _is_name(toks[i], names) and toks[i + 1].surface == "は":
            subject = toks[i].surface
            cut.append((toks[i].start, toks[i + 1].start + 1))
            break
    quoted = _quoted_spans(text)
    for i, t in enumerate(toks):
        if any(a <= t.start < b for a, b in quoted):
            continue  # a 俺 inside someone's quoted words is theirs
        if _first_person_tok(toks, i):
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            if (
                nxt is not None
                and nxt.surface in ("は", "が")
                and not (i + 2 < len(toks) and toks[i + 2].surface == "は")
            ):
                end = nxt.start + 1
                if i + 2 < len(toks) and toks[i + 2].surface in ("、", "，"):
                    end += 1
                cut.append((t.start, end))
            else:
                return text, subject, False
    out = text
    for a, b in sorted(cut, reverse=True):
        out = out[:a] + out[b:]
    return out.strip(" \u3000、"), subject, True


def _first_person_tok(toks: tuple[_Tok, ...], i: int) -> bool:
    t = toks[i]
    if t.surface not in _FIRST_JA:
        return False
    if t.surface == "うち":  # うち is also "while" (思い出せるうちに): a pronoun only when nothing modifies it
        prev = toks[i - 1] if i else None
        return prev is None or prev.pos1 in ("補助記号", "空白", "助詞", "感動詞", "接続詞") and prev.surface != "の"
    return t.pos1 == "代名詞"


def _has_first_person_ja(text: str) -> bool:
    toks = tokens(_unquoted(text))
    return any(_first_person_tok(toks, i) for i in range(len(toks)))


def _quoted_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each 「」『』"" quote in `text`, brackets included."""
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(text):
        if text[i] in _QUOTE_OPEN:
            end = _close_of(text, i)
            if end > i:
                spans.append((i, end + 1))
                i = end + 1
                continue
        i += 1
    return spans


def _unquoted(text: str) -> str:
    """`text` with each quote replaced by a placeholder (a quote's 私 is not the narrator's)."""
    out, at = [], 0
    for a, b in _quoted_spans(text):
        out += [text[at:a], "「それ」"]
        at = b
    return "".join(out) + text[at:]


def _core(toks: tuple[_Tok, ...]) -> list[_Tok]:
    """The tokens up to the predicate: trailing marks and sentence-final particles (よ, ぞ, な) removed."""
    core = list(toks)
    while core and (core[-1].pos1 in ("補助記号", "空白") or (core[-1].pos2 == "終助詞" and core[-1].surface != "か")):
        core.pop()
    return core


def _other_topic(text: str) -> bool:
    """Whether a sentence opens on a topic of its own that is not a person (コンクリートの床は…, 明日は…): what
    it says is about that, so it is no plan of the character's. Only a noun phrase at the very head counts (名詞,
    の-linked): 「頭の上をハヤチがかすめたら、伏せる」 and 「隊長が…と言ってたのを思い出して」 stay the character's."""
    toks = tokens(text)
    for i, tok in enumerate(toks[:-1]):
        linked = tok.pos1 in ("名詞", "接頭辞", "連体詞") or (tok.surface == "の" and tok.pos1 == "助詞")
        if not linked:
            return False
        nxt = toks[i + 1]
        if tok.pos1 == "名詞" and nxt.surface == "は" and nxt.pos1 == "助詞":
            return tok.pos3 != "人名" and tok.pos2 != "代名詞"
    return False


#: Sentence-initial connectives (UniDic splits だから into だ + から, so they are matched as words, longest first).
_CONNECTIVES = (
    "それでも", "だけど", "だから", "ですが", "なので", "しかし", "それで", "それに", "そして", "けど", "でも", "だが",
)  # fmt: skip


def _leading_conjunction(toks: tuple[_Tok, ...], body: str) -> int:
    """Where a sentence's words start after a leading connective (だから、 でも): 0 when it has none. The word must
    end on a token boundary (でもう一度 is not でも) and words must follow it."""
    word = next((w for w in _CONNECTIVES if body.startswith(w)), "")
    if not word or not any(t.start == len(word) for t in toks):
        return 0
    end = len(word) + (1 if body[len(word) : len(word) + 1] in ("、", "，") else 0)
    return end if len(body) > end + 2 else 0


def _clause(text: str, section: str | None) -> _Clause:
    """`_predicate`'s reading, a plan without its leading だから / でも: that ties to the player's sentence before,
    which a retelling need not follow."""
    clause = _predicate(text, section)
    lead = _leading_conjunction(tokens(text), text) if clause.kind == "plan" else 0
    if not lead:
        return clause
    return _Clause("plan", clause.told[lead:] if clause.told else "", clause.plain[lead:] if clause.plain else "")


def _predicate(text: str, section: str | None) -> _Clause:
    """What the final predicate of a Japanese sentence makes it: a plan (told as the attempt), a said/thought act
    (told in the plain past), or anything else (never forced into a plan)."""
    body = text.rstrip(" \u3000")
    if not body or body[-1] in "？?":
        return _Clause("other")
    toks = tokens(body)
    core = _core(toks)
    if not core or core[-1].pos2 == "終助詞":  # 〜か: a question
        return _Clause("other")
    last = core[-1]
    head = body[: last.start]

    def built(told: str, plain: str) -> _Clause:
        ok_told = told if _ends_past(told) else ""
        ok_plain = plain if plain and _ends_past(plain) else ""
        return _Clause("plan", ok_told, ok_plain)

    # 〜つもり(だ/です): the attempt is already in the words
    if last.lemma in ("だ", "です") and len(core) > 1 and core[-2].lemma == "積り":
        core, last = core[:-1], core[-2]
    if last.lemma == "積り" and len(core) > 1 and core[-2].pos1 == "動詞":
        verb = core[-2]
        return built(body[: last.start] + "つもりだった", _build(body[: verb.start], verb, "past"))
    # 〜のが第一: a priority
    if last.pos1 == "名詞" and len(core) > 2:
        j = len(core) - 1
        while j > 0 and core[j - 1].pos1 in ("名詞", "接頭辞"):
            j -= 1
        noun = body[core[j].start : last.start + len(last.surface)]
        if noun in _PRIORITY_NOUNS and j >= 2 and core[j - 1].surface == "が" and core[j - 2].surface in ("の", "ん"):
            told = body[: core[j - 2].start] + "のを" + noun + "としていた"
            return built(told, told)
    # a noun order under 【行動】/【プレイング】: 援護。 = 援護する
    if section in ("行動", "プレイング") and last.pos1 == "名詞" and last.pos3 == "サ変可能":
        return built(body + "しようとした", body + "した")
    if section in ("行動", "プレイング") and last.pos1 == "助詞" and last.pos2 == "格助詞" and last.surface == "へ":
        return _Clause("plan")
    if last.pos1 == "助動詞":
        if last.lemma == "たい" and last.cform in _PLAIN_FORMS and len(core) > 1:
            verb = core[-2]
            return built(head + "たかった", _build(body[: verb.start], verb, "past") if verb.pos1 == "動詞" else "")
        if last.lemma == "ます" and last.cform in _PLAIN_FORMS and len(core) > 1 and core[-2].pos1 == "動詞":
            verb = core[-2]
            if _bare_noun_before(core, len(core) - 2):
                return _Clause("plan")
            return _verb_clause(body, core[:-1], verb)
        if last.lemma in _AUX_VOLITIONAL and last.cform in _PLAIN_FORMS:
            return _verb_clause(body, core, last)
        return _Clause("other")
    if last.pos1 == "動詞":
        if last.cform == "意志推量形":
            return built(body[: last.start + len(last.surface)] + "とした", _build(head, last, "past"))
        if last.cform not in _PLAIN_FORMS:
            return _Clause("other")
        return _verb_clause(body, core, last)
    return _Clause("other")


#: Words after which a が-subject belongs to a subordinate clause (〜が来たら, 〜が受け止めてくれてる間に).
_SUBORDINATE = frozenset(
    {"ば", "と", "ので", "から", "なら", "たら", "間", "時", "とき", "たび", "うち", "前", "後", "けど", "が", "のに",
     "ても", "でも", "まで", "ように"}
)  # fmt: skip


def _someone_else_does(core: list[_Tok]) -> bool:
    """The main verb has its own が-subject that is not the writer (金具が鳴る, 二番機が拾う): not the PC's plan."""
    for i, t in enumerate(core):
        if t.surface == "が" and t.pos2 == "格助詞" and i and not _first_person_tok(tuple(core), i - 1):
            tail = core[i + 1 :]
            if not any(
                (u.surface in _SUBORDINATE and (u.surface != "が" or u.pos2 == "接続助詞"))
                or (u.lemma == "た" and u.cform.startswith("仮定形"))
                or u.pos2 == "準体助詞"  # 〜が言ってたのを思い出して: the が belongs inside the の-clause
                for u in tail
            ):
                return True
    return False


def _bare_noun_before(core: list[_Tok], i: int) -> bool:
    """A verb straight after a noun with its particle dropped (運転手やります): no safe clause can be built (a サ変
    noun before する, 援護します, is one verb, not a dropped particle)."""
    return i > 0 and core[i - 1].pos1 == "名詞" and core[i - 1].pos3 != "サ変可能"


def _verb_clause(body: str, core: list[_Tok], last: _Tok) -> _Clause:
    """A clause ending on a plain verb (or a volitional auxiliary): plan, said/thought, or other."""
    idx = len(core) - 1
    content = last
    # 〜ている / 〜てくる / 〜てある: a state or something coming, not a plan
    if last.pos2 == "非自立可能" and idx > 0 and core[idx - 1].surface in ("て", "で"):
        if last.lemma in ("居る", "有る", "来る", "仕舞う"):
            return _Clause("other")
        j = idx - 2
        content = core[j] if j >= 0 and core[j].pos1 == "動詞" else last
    if last.lemma in ("居る", "有る", "成る") or content.lemma in _NON_VOLITIONAL or last.lemma in _NON_VOLITIONAL:
        return _Clause("other")
    if last.lemma == "為る" and idx > 0 and core[idx - 1].pos1 == "副詞":
        return _Clause("other")  # ほっとする: a feeling
    if any(t.lemma in _CONJECTURE for t in core) or _someone_else_does(core):
        return _Clause("other")
    if last.ctype.startswith(("上一段", "下一段")) and last.pos1 == "動詞" and not last.lemma.endswith("る"):
        return _Clause("other")  # a potential form (飛べる from 飛ぶ)
    if core[0].pos1 == "代名詞" and core[0].surface not in _FIRST_JA and len(core) > 1 and core[1].surface in "はが":
        return _Clause("other")  # あいつは…: someone else's doing
    head = body[: last.start]
    plain = _build(head, last, "past")
    if content.lemma in _SAY_THINK or last.lemma in _SAY_THINK:
        return _Clause("say", plain)
    return _Clause("plan", _build(head, last, "attempt"), plain)


# ---------------------------------------------------------------------------------------------------- speech


def _tone(words: str) -> str:
    end = words.rstrip()[-1:] if words.strip() else ""
    if end in "！!":
        return "shout"
    if end in "？?":
        return "ask"
    if words.lstrip().startswith(("…", "...")) or end in "…":
        return "murmur"
    return "say"


def _addressee(words: str, names: tuple[str, ...]) -> str | None:
    """The name a line calls out to at its head (「葵、…」, 「千早さん、…」, "Makoto, …"), else None."""
    if not _is_ja(words):
        m = re.match(r"\s*(?:(?:Hey|Oi|Okay|OK)\s*,?\s+)?([A-Z][a-z]+)\s*[,!]", words)
        return m.group(1) if m and m.group(1).lower() not in _EN_INTERJECTIONS else None
    toks = tokens(words[:40])
    i = 0
    while i < len(toks) and toks[i].pos1 in ("感動詞", "補助記号", "空白"):
        i += 1
    j = i
    while j < len(toks) and toks[j].pos1 == "名詞" and toks[j].pos3 not in ("サ変可能", "副詞可能"):
        j += 1
    if j == i or j >= len(toks):
        return None
    name = words[toks[i].start : toks[j - 1].start + len(toks[j - 1].surface)]
    if toks[j].pos1 == "接尾辞" and toks[j].lemma in _HONORIFICS:
        j += 1
    elif not (
        toks[i].pos2 == "固有名詞"
        or name in names
        or toks[j - 1].surface in ("隊長", "先輩", "班長", "機", "先生", "司令")
    ):
        return None
    if j < len(toks) and toks[j].surface in ("、", "，", "！", "!", ",", "。"):
        return name
    return None


def _direction_from(sentence: str) -> str:
    """A sentence after a line that tells how it was said (冗談めかして言ったけど…), in the third-person past, or
    "" when it is not such a sentence or cannot be retold safely."""
    if not _is_ja(sentence) or _has_first_person_ja(sentence):
        return ""
    toks = tokens(sentence)
    if not any(t.pos1 == "動詞" and t.lemma in _SAY for t in toks[:5]):
        return ""
    body = sentence.rstrip("。 \u3000")
    parts: list[str] = []
    at = 0
    for t in toks:  # けど/けれど after the saying reads as a spoken aside; narration says が
        if t.pos2 == "接続助詞" and t.lemma == "けれど" and t.start < len(body):
            parts.append(body[at : t.start] + "が")
            at = t.start + len(t.surface)
    body = "".join(parts) + body[at:]
    if _ends_past(body):
        return _clean(body)
    clause = _clause(body, None)
    past = clause.plain or (clause.told if clause.kind == "say" else "")
    return _clean(past) if past else ""


# ---------------------------------------------------------------------------------------------------- reading


@dataclass
class _State:
    names: tuple[str, ...] = ()  # the cast's names, when the caller knows them (葵 is also a common noun)
    section: str | None = None
    pieces: list[Piece] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    last_speech: int | None = None  # index of a speech piece a following sentence may direct


def _heading(text: str, is_heading: bool, is_bold: bool) -> tuple[str | None, str] | None:
    """(normalised section, content after it) when the line is a heading, else None."""
    if is_heading:
        return _section_name(text), ""
    m = re.match(r"^【([^【】]{1,16})】\s*(.*)$", text)
    if m:
        return _section_name(m.group(1)), m.group(2)
    m = re.match(r"^[■□◆◇●▼▽]\s*(\S{1,8})\s*$", text)
    if m:
        return _section_name(m.group(1)), ""
    m = re.match(r"^\[([A-Za-z][A-Za-z ./-]{0,24})\]\s*(.*)$", text)
    if m:
        return _section_name(m.group(1)), m.group(2)
    if is_bold and not re.search(r"[：:]", text) and len(text) <= 24:
        return _section_name(text), ""
    return None


def _section_name(label: str) -> str | None:
    label = _clean(label).strip("：: 　")
    return _SECTIONS.get(label.lower(), _SECTIONS.get(label, label[:16] or None))


def _note_from(line: str) -> tuple[str, str]:
    """(in-character part, note part) of a line: a note sentence and all after it on the line are notes."""
    if _NOTE_LINE.search(line):
        return "", line
    sentences = _sentences(line)
    for k, s in enumerate(sentences):
        if _NOTE_SENTENCE.search(s):
            note = " ".join(sentences[k:]) if not _is_ja(line) else "".join(sentences[k:])
            return ("".join(sentences[:k]) if _is_ja(line) else " ".join(sentences[:k])), note
    return line, ""


def _add_sentence(state: _State, sentence: str) -> None:
    """One non-quoted sentence: a direction for the line just before, or a piece of its own."""
    text = _clean(sentence)
    if not _WORDY.search(text):
        return
    if state.last_speech is not None:
        at, state.last_speech = state.last_speech, None
        speech = state.pieces[at]
        direction = _direction_from(text) if speech.ja and not speech.direction else ""
        if direction:
            state.pieces[at] = replace(speech, direction=direction)
            return
    ja = _is_ja(text)
    if not ja:
        first = bool(_FIRST_EN.search(_unquoted(text)))
        question = text.rstrip().endswith("?")
        negative = bool(re.search(r"n't\b|\b(?:not|never|no)\b", text, re.IGNORECASE))
        kind = "inner" if first else "narration" if question or negative or text.endswith("!") else "action"
        attempt = as_attempt(text, state.names) if kind == "action" else None
        told = "" if first else _clean(attempt or text.rstrip(". "))
        state.pieces.append(Piece(kind, sentence, text, told, section=state.section, ja=False, first_person=first))
        return
    first = _has_first_person_ja(text)
    body = text.rstrip("。． \u3000")
    stripped, subject, clean = _strip_subject(body, state.names)
    feeling = state.section == "心情" or bool(re.search(r"かもしれない|気がする|気がした", body))
    exclaim = body.endswith(("！", "!"))
    other = subject is None and not first and _other_topic(stripped)  # 床は…奪っていく: not their plan
    clause = _clause(stripped.rstrip("！!"), state.section) if not (feeling or other) else _Clause("other")
    if clause.kind == "plan" and not (exclaim and not clause.told):
        told, plain, kind = clause.told, clause.plain, "action"
    elif clause.kind == "say":
        told, plain, kind = clause.told, "", "narration"
    else:
        polite = any(t.lemma in ("ます", "です") for t in _core(tokens(stripped))[-2:])
        told, plain, kind = "" if polite else stripped, "", "inner" if first or feeling else "narration"
    if not clean:
        told, plain = "", ""
    state.pieces.append(
        Piece(kind, sentence, text, _clean(told), _clean(plain), state.section, first_person=first, subject=subject)
    )


def _add_speech(state: _State, source: str, words: str) -> None:
    words = _clean(words)
    if not _WORDY.search(words):
        return
    state.pieces.append(
        Piece(
            "speech",
            source,
            words,
            words,
            section=state.section,
            tone=_tone(words),
            ja=_is_ja(words),
            addressee=_addressee(words, state.names),
        )  # fmt: skip
    )
    state.last_speech = len(state.pieces) - 1


def _read_content(state: _State, line: str) -> None:
    """A line of in-character text: quoted lines, parenthesised thoughts or directions, and sentences."""
    rest = line.strip(" \u3000\t")
    after_quote = False
    while rest:
        ch = rest[0]
        if ch in _QUOTE_OPEN or ch in "（(":
            end = _close_of(rest, 0)
            inner = rest[1:end] if end > 0 else rest[1:]
            chunk = rest[: end + 1] if end > 0 else rest
            rest = rest[end + 1 :].lstrip(" \u3000") if end > 0 else ""
            if ch in _QUOTE_OPEN:
                _add_speech(state, chunk, inner)
                after_quote = True
                continue
            if _NOTE_LINE.search(chunk) or _NOTE_SENTENCE.search(inner) or _BLANK.match(chunk):
                state.notes.append(chunk)
            elif after_quote and state.last_speech is not None and _is_ja(inner):
                speech = state.pieces[state.last_speech]
                state.pieces[state.last_speech] = replace(speech, direction=_clean(inner))
            elif _WORDY.search(inner):
                _add_thought(state, chunk, inner)
            after_quote = False
            continue
        if after_quote and rest[0] in "とっ" and state.last_speech is not None:
            tail, rest = _first_sentence(rest)
            speech = state.pieces[state.last_speech]
            direction = _tail_direction(tail)
            if direction:
                state.pieces[state.last_speech] = replace(speech, direction=direction)
            after_quote = False
            continue
        sentence, rest = _first_sentence(rest)
        _add_sentence(state, sentence)
        after_quote = False


def _tail_direction(tail: str) -> str:
    """「…」と叫ぶ。 -> "と叫んだ": the tag after a line, in the past."""
    body = tail.rstrip("。．！!？? \u3000")
    if _ends_past(body):
        return _clean(body)
    core = _core(tokens(body))
    if core and core[-1].pos1 == "動詞" and core[-1].cform in _PLAIN_FORMS:
        return _clean(_build(body[: core[-1].start], core[-1], "past"))
    return ""


def _first_sentence(text: str) -> tuple[str, str]:
    """(first sentence, the rest): a quote or a parenthesis at the head of the rest starts a new unit."""
    parts = _sentences(text)
    if not parts:
        return text, ""
    at = text.find(parts[0]) + len(parts[0])
    return parts[0], text[at:].lstrip(" \u3000")


def _add_thought(state: _State, source: str, inner: str) -> None:
    """（…）: the character's inner voice (a thought as the player wrote it)."""
    text = _clean(inner)
    ja = _is_ja(text)
    first = _has_first_person_ja(text) if ja else bool(_FIRST_EN.search(text))
    told = ""
    if ja:
        stripped, _, clean = _strip_subject(text.rstrip("。"), state.names)
        told = _clean(stripped) if clean else ""
    state.pieces.append(Piece("inner", source, text, told, section=state.section, ja=ja, first_person=first))


def _partners(notes: list[str]) -> tuple[str, ...]:
    """Names the notes ask to share a scene with (連携, 絡み, a reply, a borrowed PC), honorifics dropped."""
    found: list[str] = []
    for note in notes:
        if not _PARTNER_HINT.search(note):
            continue
        for m in _PARTNER_EN.finditer(note):
            found.append(m.group(1))
        toks = tokens(note)
        for i, t in enumerate(toks):
            if t.pos1 == "接尾辞" and t.lemma in _HONORIFICS and i:
                j = i
                while j > 0 and toks[j - 1].pos1 == "名詞" and toks[j - 1].pos2 in ("固有名詞", "普通名詞"):
                    j -= 1
                name = note[toks[j].start : t.start] if j < i else ""
                if name and name not in _NOT_NAMES and not name.isascii():
                    found.append(name)
    return tuple(dict.fromkeys(found))


def _adlib(notes: list[str], section_lines: list[str]) -> bool | None:
    text = "\n".join(notes)
    if _ADLIB_NO.search(text) or any(re.search(r"NG|ＮＧ|控えめ|なし|不可", s) for s in section_lines):
        return False
    if _ADLIB_YES.search(text) or any(re.search(r"歓迎|OK|ＯＫ|お任せ|おまかせ|welcome", s) for s in section_lines):
        return True
    return None


@lru_cache(maxsize=1024)
def read_playing(prose: str | None, names: tuple[str, ...] = ()) -> Reading:
    """The entry read as a master reads it (never raises; the text itself is left as it is). `names`: the cast's
    names, if known, so a name the dictionary reads as a common noun (葵) is still seen as a name."""
    try:
        return _read(prose or "", tuple(names))
    except Exception:  # a reader must never take a round down: an unreadable entry is told as a neutral moment
        return Reading((), (), (), None, True)


#: The share of an entry's own sentences in the past tense from which it is written as a story (出撃前夜の第三格納庫は
#: …静かだった。…考えかけて、首を振る。): its present-tense sentences are then the story's present, not plans.
_STORY_PAST_SHARE = 0.3


def _as_story(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """An entry written as a story, with no 行動 heading, has no plans: each "action" is narration told as written.
    A plan section (【行動】, 【プレイング】) keeps its plans."""
    own = [p for p in pieces if p.ja and p.kind in ("action", "narration", "inner") and not p.first_person]
    if not own or any(p.section in ("行動", "プレイング") for p in pieces):
        return pieces
    past = sum(_ends_past(p.text.rstrip("。．！!？? \u3000")) for p in own)
    if past / len(own) < _STORY_PAST_SHARE:
        return pieces
    return tuple(
        replace(p, kind="narration", told=_clean(p.text.rstrip("。． \u3000")), plain="") if p.kind == "action" else p
        for p in pieces
    )


def _read(prose: str, names: tuple[str, ...]) -> Reading:
    state = _State(names=names)
    adlib_lines: list[str] = []
    for text, is_heading, is_bold in _preview_lines(prose):
        head = _heading(text, is_heading, is_bold)
        if head is not None:
            state.section, text = head
            state.last_speech = None
            if not text:
                continue
        if is_bold and not is_heading and re.search(r"[：:]", text) and not _NOTE_LINE.search(text):
            text = re.split(r"[：:]", text, maxsplit=1)[1]
        if state.section in _NOTE_SECTIONS:
            state.notes.append(text)
            if state.section == "アドリブ":
                adlib_lines.append(text)
            continue
        if _BLANK.match(text):  # 白紙, おまかせします: a note; the entry is blank if nothing else is in it
            state.notes.append(text)
            continue
        text = _BULLET.sub("", text)
        content, note = _note_from(text)
        if content:
            _read_content(state, content)
        if note:
            state.notes.append(note)
            state.last_speech = None
    pieces = _as_story(tuple(p for p in state.pieces if p.text))
    return Reading(
        pieces=pieces,
        notes=tuple(state.notes),
        partners=_partners(state.notes),
        adlib=_adlib(state.notes, adlib_lines),
        blank=not pieces,
    )
