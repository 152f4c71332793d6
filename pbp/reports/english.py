"""English words for the story: a pack's names as a sentence prints them.

A pack names its gear as a heading would ("Beam Rifle", "Beam rifle"); in the middle of an English sentence a common
noun is lower-case ("her beam rifle"). Only what is a name stays as written: a quoted proper noun ('Murakumo',
「ムラクモ」), an acronym or any word that is not plain title case (EMP, HMG-3, McLaren), a possessor (Aoi's).
"""

from __future__ import annotations

import re

__all__ = ["PRONOUNS", "common_noun", "with_pronoun"]

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
