"""Secret terms: names, passwords, twists the GM marks as secret, which the leak check finds in any text about to be
published whatever their length (the phrase check of `pbp.reports.leaks` passes what is shorter than a clause).

A scenario's terms are its list (`ScenarioSecret.secret_terms`, one a line, set in the GM's scenario form or on its
secret-terms page at any time) and every 【秘】term【/秘】 in its GM notes. A term is compared folded like the rest of
the check (NFKC, case-folded, spaces and punctuation dropped) and with katakana read as hiragana, so 「サカキ」,
「さかき」, 「ｻｶｷ」 and 「サ カ キ」 are one term; a term in Latin letters is found only as whole words. The GM's word
is final: a term is looked for even where the campaign's public text holds it (remove it from the list once it is
meant to be told).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbp.db import retried, write_transaction
from pbp.errors import N_, UserError
from pbp.models import Scenario, ScenarioSecret
from pbp.reports.leaks import EXCERPT, Folded, Leak, Secret, fold, page_text
from pbp.services import audit, gms
from pbp.services._common import get_or_fail, locked, storable_text
from pbp.services.clock import SYSTEM, Clock, to_db

#: The most terms a scenario's list may hold, and the most characters of one term.
TERMS_LIMIT = 500
TERM_LENGTH = 100
#: A term marked in GM notes.
MARKED = re.compile(r"【秘】(.*?)【/秘】", re.S)
_KATAKANA = {code: code - 0x60 for code in range(0x30A1, 0x30F7)}  # ァ..ヶ -> ぁ..ゖ


def folded(text: str) -> Folded:
    """`fold`, with katakana read as hiragana (one character for one: where each came from is kept)."""
    plain = fold(text)
    return Folded(plain.text.translate(_KATAKANA), plain.origin, plain.starts)


def checked_terms(text: str) -> list[str]:
    """The terms of a list as typed, one a line (blank lines skipped; each stripped), refused beside the
    `secret_terms` field: more than `TERMS_LIMIT`, one longer than `TERM_LENGTH`, or one with no letter or digit
    (nothing to look for)."""
    lines = [line.strip() for line in storable_text(text, "secret_terms").splitlines()]
    terms = [line for line in lines if line]
    if len(terms) > TERMS_LIMIT:
        raise UserError(
            N_("%(count)d secret terms: at most %(limit)d may be watched", count=len(terms), limit=TERMS_LIMIT),
            "secret_terms",
        )
    for number, term in enumerate(terms, 1):
        if len(term) > TERM_LENGTH:
            raise UserError(
                N_("secret term %(number)d has over %(limit)d characters", number=number, limit=TERM_LENGTH),
                "secret_terms",
            )
        if not folded(term).text:
            raise UserError(
                N_("secret term %(number)d (%(term)s) has no letter or digit to look for", number=number, term=term),
                "secret_terms",
            )
    return terms


def marked_terms(notes: str, *, strict: bool = False) -> list[str]:
    """The terms marked 【秘】…【/秘】 in GM notes. `strict` (the GM's form): a marked term that is empty (or holds
    no letter or digit) is refused beside `gm_notes`; else (notes from a pack) it is passed over."""
    found = []
    for match in MARKED.finditer(notes or ""):
        term = match[1].strip()
        if folded(term).text and len(term) <= TERM_LENGTH:
            found.append(term)
        elif strict:
            said = N_(
                "a term marked 【秘】…【/秘】 in the GM notes is empty or over %(limit)d characters", limit=TERM_LENGTH
            )
            raise UserError(said, "gm_notes")
    return found


@retried
def set_terms(scenario_id: int, text: str, *, actor_id: int | None, clock: Clock = SYSTEM) -> list[str]:
    """The GM sets a scenario's list of secret terms (any time: it only makes the check stricter). Audited with
    how many terms there are, never the terms. The campaign's GMs only. Returns the terms."""
    scenario = get_or_fail(Scenario, scenario_id, N_("scenario"))
    gms.require_gm(scenario.campaign_id, actor_id)
    terms = checked_terms(text)
    now = to_db(clock.now())
    with write_transaction():
        locked(Scenario, scenario_id, N_("scenario"))
        ScenarioSecret.update(secret_terms="\n".join(terms)).where(ScenarioSecret.scenario == scenario_id).execute()
        audit.log("scenario.secret_terms", f"scenario:{scenario_id}", now, actor_id=actor_id, terms=len(terms))
    return terms


def listed(scenario_id: int) -> str:
    """A scenario's list of secret terms, one a line (what its forms start from)."""
    query = ScenarioSecret.select(ScenarioSecret.secret_terms).where(ScenarioSecret.scenario == scenario_id)
    return str(query.scalar() or "")


def marked_in(scenario_id: int) -> list[str]:
    """The terms marked in a scenario's GM notes."""
    query = ScenarioSecret.select(ScenarioSecret.gm_notes).where(ScenarioSecret.scenario == scenario_id)
    return marked_terms(str(query.scalar() or ""))


@dataclass(frozen=True)
class Watched:
    """A term the leak check watches: as the GM wrote it, the scenario it belongs to, and whether it was marked in
    the GM notes (else it is on the list)."""

    term: str
    scenario_id: int
    slug: str
    in_notes: bool


def watched(campaign_id: int) -> list[Watched]:
    """Every term watched in the campaign's public text: each scenario's list, then its marked terms, by scenario."""
    rows = (
        ScenarioSecret.select(ScenarioSecret.secret_terms, ScenarioSecret.gm_notes, Scenario.id, Scenario.slug)
        .join(Scenario)
        .where(Scenario.campaign == campaign_id)
        .order_by(Scenario.id)
    )
    found = []
    for row in rows:
        scenario = row.scenario
        found += [Watched(t, scenario.id, scenario.slug, False) for t in row.secret_terms.splitlines() if t.strip()]
        found += [Watched(t, scenario.id, scenario.slug, True) for t in marked_terms(row.gm_notes)]
    return found


def as_secrets(terms: list[Watched]) -> list[Secret]:
    """The terms as the leak check's secrets (kind `term`, from their scenario)."""
    return [Secret(t.term, False, "term", t.slug) for t in terms]


def find_terms(parts: dict[str, str], terms: list[Secret]) -> list[Leak]:
    """Each term found in each part (Markdown, by part name; else in the page it makes), at most once a part and
    term, in the order of `parts` and then of where they occur."""
    unique: dict[str, Secret] = {}
    for secret in terms:
        unique.setdefault(folded(secret.text).text, secret)
    if not unique:
        return []
    leaks = []
    for part, markdown in parts.items():
        if not markdown or not markdown.strip():
            continue
        views = [markdown, page_text(markdown)]
        hays = [(source, folded(source)) for source in views]
        found = []
        for needle, secret in unique.items():
            for rank, (source, hay) in enumerate(hays):
                at = _find(hay, needle)
                if at is not None:
                    found.append((rank, at, _leak(part, secret, source, hay, at, len(needle))))
                    break
        leaks += [leak for _, _, leak in sorted(found, key=lambda item: item[:2])]
    return leaks


def _find(hay: Folded, needle: str) -> int | None:
    """Where `needle` first occurs in `hay` on word boundaries (always, next to kanji and kana), else None."""
    at = hay.text.find(needle)
    while at >= 0:
        if hay.boundary(at) and hay.boundary(at + len(needle)):
            return at
        at = hay.text.find(needle, at + 1)
    return None


def _leak(part: str, secret: Secret, source: str, hay: Folded, at: int, length: int) -> Leak:
    """The find with up to `EXCERPT` characters of its source either side."""
    start, end = hay.origin[at], hay.origin[at + length - 1] + 1
    before = ("…" if start > EXCERPT else "") + source[max(0, start - EXCERPT) : start]
    after = source[end : end + EXCERPT] + ("…" if end + EXCERPT < len(source) else "")
    return Leak(part, secret, before.replace("\n", " "), source[start:end].replace("\n", " "), after.replace("\n", " "))
