"""What the leak check looks for in a round's public text, gathered from the database: the GM's secrets of the
round's campaign, and what is public already (`pbp.reports.leaks` does the looking; docs/reports.md says what
counts).

Secrets: the secret terms of every scenario of the campaign (`pbp.services.secret_terms`: found whatever their
length, even where public text holds them, in the units' names on the field as well); the GM notes of every
scenario of the campaign; the enemy types not marked `public = true` (names and
description); the enemies placed in a scenario (their names); the gimmicks not marked public (names and
description). An enemy type or placed enemy on the field in the round or in a published round of the campaign, and
a gimmick that fired in one, is no secret any more: what it is called is public from then on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbp import reports
from pbp.errors import N_, Text, UserError
from pbp.models import Campaign, Report, Resolution, Round, Scenario, ScenarioSecret
from pbp.reports.leaks import Leak, Secret, find_leaks, own_words, phrases
from pbp.services import secret_terms
from pbp.services.rounds import PUBLISHED

#: What kind of secret a find is (`Secret.kind`), with where it comes from (%(source)s): how pages and refusals name it.
SECRET_KINDS = {
    "gm_notes": N_("GM notes of %(source)s"),
    "enemy": N_("enemy type %(source)s, not public and not yet on the field"),
    "placed_enemy": N_("enemy %(source)s, placed but not yet on the field"),
    "gimmick": N_("gimmick %(source)s, not public and not yet fired"),
    "term": N_("secret term of %(source)s"),
}


def secret_name(secret: Secret) -> Text:
    """What a page says a secret is: its kind and where it comes from (translatable)."""
    return N_(SECRET_KINDS.get(secret.kind, "%(source)s").template, source=secret.source)


#: The parts of a round's public text the check reads, in the order its finds are listed (`comments`: the GM's
#: comments on the characters, `pbp.services.master_comments`; `units`: the names of
#: the units on the field, which the dice log shows; only the secret terms are looked for in them).
PARTS = ("intro", "story", "outro", "comments", "story_en", "scenario", "units")
#: The pack's sections whose names and descriptions every player may read (on the game-data pages or their sheet).
_PUBLIC_SECTIONS = ("stats", "skills", "statuses", "items", "weapons", "vehicles", "abilities", "characters")


@dataclass
class _Known:
    """What the campaign's public rounds put on the field: enemy types, placed enemies (scenario id, unit id),
    unit names, and the gimmicks that fired (scenario id, gimmick id)."""

    types: set[str] = field(default_factory=set)
    placed: set[tuple[int, str]] = field(default_factory=set)
    names: set[str] = field(default_factory=set)
    fired: set[tuple[int, str]] = field(default_factory=set)


def _texts(table: dict[str, Any], *keys: str) -> list[str]:
    return [str(table[k]) for k in keys if isinstance(table.get(k), str) and table[k]]


def _on_the_field(round_id: int, campaign: Campaign, setups: dict[int, dict[str, Any]]) -> _Known:
    """What this round and the campaign's published rounds had on the field."""
    known = _Known()
    by_name = {str(t.get("ja")): tid for tid, t in (campaign.pack.get("enemies") or {}).items() if isinstance(t, dict)}
    rows = (
        Resolution.select(Resolution.encounter, Resolution.events, Round.scenario)
        .join(Round)
        .join(Scenario)
        .where(Scenario.campaign == campaign.id, (Round.state == PUBLISHED) | (Round.id == round_id))
    )
    for row in rows:
        scenario_id = row.round.scenario_id
        placed = {e.get("id"): e for e in setups.get(scenario_id, {}).get("enemies") or [] if isinstance(e, dict)}
        for unit in (row.encounter or {}).get("units") or []:
            if unit.get("side") == "pc":
                continue
            known.names.add(str(unit.get("name") or ""))
            spot = placed.get(unit.get("id"))
            if spot is not None:
                known.placed.add((scenario_id, str(unit["id"])))
                known.types.add(str(spot.get("type")))
            for kind in (unit.get("type"), by_name.get(str(unit.get("name")))):
                if kind:
                    known.types.add(str(kind))
        for event in row.events or []:
            if event.get("type") == "gimmick":
                known.fired.add((scenario_id, str(event.get("id"))))
    return known


def public_pack(pack: dict[str, Any]) -> list[str]:
    """The pack's text every player may read: names and descriptions of its stats, skills, statuses, gear,
    vehicles, abilities, ready-made characters, public enemies and gimmicks; the campaign's and scenarios' names."""
    public = _texts(pack.get("campaign") or {}, "ja", "en", "description")
    for section in _PUBLIC_SECTIONS:
        for table in (pack.get(section) or {}).values():
            if isinstance(table, dict):
                public += _texts(table, "ja", "en", "description")
    for table in (pack.get("enemies") or {}).values():
        if isinstance(table, dict) and table.get("public") is True:
            public += _texts(table, "ja", "en", "description")
    for scenario in (pack.get("scenarios") or {}).values():
        if isinstance(scenario, dict):
            public += _texts(scenario, "ja", "en")
            for place in scenario.get("terrain") or []:
                public += _texts(place, "ja", "en") if isinstance(place, dict) else []
    return public


def _earlier_reports(campaign_id: int, round_id: int) -> list[str]:
    """What the campaign's other published reports said (the Japanese page's Markdown, the English story)."""
    rows = (
        Report.select(Report.published_md, Report.story_en_md, Report.html_en)
        .join(Round)
        .join(Scenario)
        .where(Scenario.campaign == campaign_id, Round.state == PUBLISHED, Round.id != round_id)
    )
    said = []
    for r in rows:
        said += [r.published_md or "", r.story_en_md or reports.plain_text(r.html_en or "")]
    return said


def secrets_of(round_id: int) -> tuple[list[Secret], list[str]]:
    """The secrets the leak check looks for in a round's public text, and the text already public."""
    rnd = Round.get_by_id(round_id)
    scenario = Scenario.get_by_id(rnd.scenario_id)
    campaign = Campaign.get_by_id(scenario.campaign_id)
    pack = campaign.pack or {}
    rows = list(
        ScenarioSecret.select(ScenarioSecret, Scenario.id, Scenario.slug)
        .join(Scenario)
        .where(Scenario.campaign == campaign.id)
        .order_by(Scenario.id)
    )
    setups = {row.scenario_id: row.setup or {} for row in rows}
    known = _on_the_field(round_id, campaign, setups)
    secrets: list[Secret] = []
    public = [*public_pack(pack), *own_words(), *_earlier_reports(campaign.id, round_id), *known.names]
    for row in rows:
        notes = [row.gm_notes, str(row.setup.get("gm_notes") or "") if row.setup else ""]
        secrets += [Secret(p, True, "gm_notes", row.scenario.slug) for text in notes for p in phrases(text)]
    for tid, enemy in sorted((pack.get("enemies") or {}).items()):
        if not isinstance(enemy, dict) or enemy.get("public") is True:
            continue
        if tid in known.types:
            public += _texts(enemy, "ja", "en", "description")
        else:
            secrets += [Secret(n, False, "enemy", tid) for n in _texts(enemy, "ja", "en")]
            secrets += [Secret(p, True, "enemy", tid) for p in phrases(str(enemy.get("description") or ""))]
    for row in rows:
        setup, slug = row.setup or {}, row.scenario.slug
        for spot in setup.get("enemies") or []:
            if not isinstance(spot, dict):
                continue
            names = _texts(spot, "name", "en")
            if (row.scenario_id, str(spot.get("id"))) in known.placed:
                public += names
            else:
                secrets += [Secret(n, False, "placed_enemy", f"{slug}/{spot.get('id')}") for n in names]
        for gimmick in setup.get("gimmicks") or []:
            if not isinstance(gimmick, dict):
                continue
            texts = _texts(gimmick, "ja", "en", "description")
            if gimmick.get("public") is True or (row.scenario_id, str(gimmick.get("id"))) in known.fired:
                public += texts
            else:
                described = phrases(str(gimmick.get("description") or ""))
                where = f"{slug}/{gimmick.get('id')}"
                secrets += [Secret(n, False, "gimmick", where) for n in _texts(gimmick, "ja", "en")]
                secrets += [Secret(p, True, "gimmick", where) for p in described]
    return secrets, public


def _terms(round_id: int) -> list[Secret]:
    """The secret terms watched in a round's public text: those of every scenario of its campaign."""
    campaign_id = Scenario.select(Scenario.campaign).join(Round).where(Round.id == round_id).scalar()
    return secret_terms.as_secrets(secret_terms.watched(campaign_id))


def _with_terms(found: list[Leak], parts: dict[str, str], terms: list[Secret]) -> list[Leak]:
    """`found` with the secret terms found in `parts` that it does not already hold, in the order of `parts`."""
    seen = {(leak.part, leak.found) for leak in found}
    extra = [leak for leak in secret_terms.find_terms(parts, terms) if (leak.part, leak.found) not in seen]
    order = list(parts)
    return sorted(found + extra, key=lambda leak: order.index(leak.part))  # stable: each part's finds in place


def _unit_names(round_id: int) -> str:
    """The names of the round's units on the field but the PCs (one a line): the dice log shows them."""
    encounter = Resolution.select(Resolution.encounter).where(Resolution.round == round_id).scalar()
    units = (encounter or {}).get("units") or []
    return "\n".join(str(u.get("name") or "") for u in units if isinstance(u, dict) and u.get("side") != "pc")


def check(round_id: int, parts: dict[str, str]) -> list[Leak]:
    """The GM secrets found in a round's public text (`parts` by the names in PARTS, Markdown; the units' names are
    read from its resolution), in PARTS order."""
    secrets, public = secrets_of(round_id)
    ordered = {name: parts[name] for name in PARTS if parts.get(name)}
    found = find_leaks(ordered, secrets, public)
    return _with_terms(found, {**ordered, "units": _unit_names(round_id)}, _terms(round_id))


def refuse_leaking_reason(round_id: int, reason: str, on_the_field: list[dict[str, Any]] | None = None) -> None:
    """A UserError (beside the `reason` field) when the reason a GM gives for an action or an override holds
    GM-secret text: it is published beside the report, and cannot be edited once the round resolves, so it is
    checked when it is given. `on_the_field`: the units the round will start with (a reinforcement being recorded
    is named in its own reason, and is public once the round is)."""
    secrets, public = secrets_of(round_id)
    public += [str(unit.get("name") or "") for unit in on_the_field or []]
    found = _with_terms(find_leaks({"reason": reason}, secrets, public), {"reason": reason}, _terms(round_id))
    if found:
        finds = {f"find{i}": N_("'%(text)s' (%(what)s)", text=leak.found, what=secret_name(leak.secret))
                 for i, leak in enumerate(found)}  # fmt: skip
        listed = Text("; ".join(f"%({key})s" for key in finds), **finds)  # each find translated, then joined
        raise UserError(
            N_("the reason holds GM-secret text, and it is published beside the report: %(found)s", found=listed),
            "reason",
        )
