"""A character's pronoun in English stories (she, he or they): the sheet's own, else the pack's ready-made character
the sheet was copied from, else `they`. One answer for the story, the character form and the character's page."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbp.engine.pool.pack_checks import PRONOUNS

DEFAULT_PRONOUN = "they"
__all__ = ["DEFAULT_PRONOUN", "PRONOUNS", "english_pronoun"]


def english_pronoun(sheet: Mapping[str, Any] | None, pack: Mapping[str, Any] | None = None) -> str:
    """The pronoun a sheet gives, if it is one of PRONOUNS; else that of the pack's ready-made character with the
    same ja and en names (a sheet copied from the pack before it had pronouns, or from a pack loaded since); else
    `they`. A value that is not a pronoun (a hand-edited sheet) is never written into a story."""
    sheet = sheet if isinstance(sheet, Mapping) else {}
    own = sheet.get("pronoun")
    if own in PRONOUNS:
        return str(own)
    ready_made = (pack or {}).get("characters")
    for character in ready_made.values() if isinstance(ready_made, Mapping) else ():
        if (
            isinstance(character, Mapping)
            and character.get("pronoun") in PRONOUNS
            and sheet.get("ja")
            and (character.get("ja"), character.get("en")) == (sheet.get("ja"), sheet.get("en"))
        ):
            return str(character["pronoun"])
    return DEFAULT_PRONOUN
