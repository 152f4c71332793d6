"""English words for the story: a pack's names as a sentence prints them.

A pack names its gear as a heading would ("Beam Rifle", "Beam rifle"); in the middle of an English sentence a common
noun is lower-case ("her beam rifle"). Only what is a name stays as written: a quoted proper noun ('Murakumo',
「ムラクモ」), an acronym or any word that is not plain title case (EMP, HMG-3, McLaren), a possessor (Aoi's).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from types import ModuleType

__all__ = ["PRONOUNS", "as_attempt", "common_noun", "with_pronoun"]

# A quoted span, kept verbatim: "…", '…', “…”, ‘…’, 「…」, 『…』. An unclosed quote runs to the end of the name, so
# a name with an unbalanced quote keeps everything after it rather than guessing where the proper noun stops.
_QUOTED = re.compile(
    r"\"[^\"]*(?:\"|$)|(?<!\w)'[^']*(?:'(?!\w)|$)|“[^”]*(?:”|$)|‘[^’]*(?:’|$)|「[^」]*(?:」|$)|『[^』]*(?:』|$)"
)
_WORD = re.compile(r"[^\W\d_]+")  # a run of letters in any script: "Type-94" is "Type" then "94"


def _lower_word(match: re.Match[str]) -> str:
    """A title-case word (Rifle) lower-cased; an acronym (EMP), a mixed-case name (McLaren), one capital alone (the A
    of "Type A", a designation), a possessor (Aoi's) or a word of a script without case (ムラクモ) as written."""
    word, after = match.group(0), match.string[match.end() : match.end() + 2]
    title = len(word) > 1 and word[0].isupper() and word[1:].islower()
    return word.lower() if title and after not in ("'s", "’s") else word


def common_noun(name: str) -> str:
    """`name` as a common noun in the middle of an English sentence: its title-case words lower-cased, its quoted
    proper nouns, acronyms and mixed-case words kept. Never raises; a name with no title-case word is returned as is."""
    out, end = [], 0
    for quoted in _QUOTED.finditer(name):
        out += [_WORD.sub(_lower_word, name[end : quoted.start()]), quoted.group(0)]
        end = quoted.end()
    out.append(_WORD.sub(_lower_word, name[end:]))
    return "".join(out)


#: A PC's pronoun in its forms: subject, object, possessive, reflexive (they are the default and the phrasings' own).
PRONOUNS = {
    "she": {"they": "she", "them": "her", "their": "her", "theirs": "hers", "themselves": "herself"},
    "he": {"they": "he", "them": "him", "their": "his", "theirs": "his", "themselves": "himself"},
}
_THEY = re.compile(r"\b(they were|they|them|their|theirs|themselves)\b", re.IGNORECASE)


def with_pronoun(text: str, pronoun: str) -> str:
    """A phrasing about one character written with "they" (the phrasebook's default) in that character's pronoun:
    "they were" -> "she was", "their" -> "his"; capitals kept at a sentence's start. "they" is returned as it is."""
    forms = PRONOUNS.get(pronoun)
    if forms is None:
        return text

    def swap(m: re.Match[str]) -> str:
        word = m.group(0)
        low = word.lower()
        new = f"{forms['they']} was" if low == "they were" else forms[low]
        return new[0].upper() + new[1:] if word[0].isupper() else new

    return _THEY.sub(swap, text)


#: Verbs of a state, a feeling or a perception: a sentence on one says how things are, not what the PC set out to do.
_NOT_PLANS = frozenset(
    {"be", "have", "do", "know", "seem", "feel", "like", "love", "want", "need", "think", "hope", "wish", "see", "hear",
     "remember", "forget", "mean", "hate", "fear", "believe", "understand", "prefer", "look", "sound", "happen"}
)  # fmt: skip
#: A verb joined to the one before it (climbs first and keeps the sun at his back).
_JOINED = re.compile(r"(\b(?:and|or|then)\s+(?:\w+ly\s+)?)([a-z]+s)\b")


@cache
def _lexicon() -> ModuleType:
    """lemminflect, imported on first use: it brings numpy, whose thread pool starts at import and would otherwise
    start in every process that reads this module, before the scheduler lowers its priority."""
    import lemminflect  # noqa: PLC0415

    return lemminflect


@cache
def _base(word: str, plural: bool) -> str | None:
    """The base form of `word` when it is a present-tense verb for its subject (takes -> take; take for they)."""
    lexicon = _lexicon()
    lemmas = lexicon.getAllLemmas(word, upos="VERB").get("VERB") or ()
    for lemma in lemmas:
        if word == lemma if plural else word in lexicon.getInflection(lemma, tag="VBZ"):
            return lemma
    return None


def as_attempt(sentence: str, names: Iterable[str]) -> str | None:
    """A player's third-person sentence in the present ('Noah takes the high cover position above Makoto.') as the
    story tells a plan: in the past, as the attempt ('Noah meant to take the high cover position above Makoto'), the
    way a Japanese plan becomes 「…しようとした」. Verbs joined to the first by and / or / then take their base form
    too. None when it does not open on a PC's name or a pronoun and a present verb of doing: a state, a rule of
    thumb, someone else's doing stay as written. The verbs are found by lemminflect's lexicon, not by suffixes."""
    subjects = sorted({"He", "She", "They", *(n for n in names if n.isascii() and n[:1].isupper())}, key=len)
    alternatives = "|".join(re.escape(s) for s in reversed(subjects))
    m = re.match(rf"({alternatives})((?:\s+\w+ly)?)\s+([a-z]+)\b", sentence)
    if not m:
        return None
    subject, adverb, verb = m.groups()
    plural = subject == "They"
    base = _base(verb, plural)
    if base is None or base in _NOT_PLANS:
        return None
    rest = _JOINED.sub(lambda j: j.group(1) + (_base(j.group(2), plural) or j.group(2)), sentence[m.end() :])
    rest = re.sub(rf"\b({_TIME_WORDS})\s+({alternatives}|he|she|it)(\s+[a-z]+|'s)\b", _in_past, rest)
    return f"{subject} meant to{adverb} {base}{rest}".rstrip(". ")


_TIME_WORDS = "while|when|whenever|as|until|before|after|once"


def _in_past(m: re.Match[str]) -> str:
    """A clause of time inside the plan, in the past with it (when he's sure -> when he was sure)."""
    word, subject, verb = m.groups()
    if verb == "'s":  # he's: he is; a name's is a possessive (as Makoto's wingman)
        return f"{word} {subject} was" if subject in ("he", "she", "it") else m.group(0)
    base = _base(verb.strip(), False)
    past = _lexicon().getInflection(base, tag="VBD") if base else ()
    return f"{word} {subject} {past[0]}" if past else m.group(0)
