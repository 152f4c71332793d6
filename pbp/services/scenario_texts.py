"""A scenario's texts, editable at any time, even once its rounds run (`authoring.edit_scenario` fixes the whole
entry when the first round opens): a console scenario's titles and public descriptions, and any scenario's GM notes.
What the engine has used — the kind, slots, start positions, enemies, terrain, gimmicks, effects, checks — stays as
it is. A pack scenario's public texts are the pack's (changed in its folder, then the pack upgraded): shared by every
run of it and written again by each upgrade. Each change is one transaction with one audit line that keeps the texts
as they were, which the page shows as a diff."""

from __future__ import annotations

from typing import Any

from pbp.db import retried, write_transaction
from pbp.errors import N_, InvalidState, UserError
from pbp.models import AuditLog, Campaign, Scenario, ScenarioSecret
from pbp.services import audit, gms
from pbp.services._common import MARKDOWN_LIMIT, NAME_LIMIT, checked_text, get_or_fail, lf_lines, locked
from pbp.services.clock import SYSTEM, Clock, to_db

#: The texts, with the word a refusal names each by, and their limits.
TEXTS: dict[str, tuple[str, int]] = {
    "ja": (N_("Japanese title"), NAME_LIMIT),
    "en": (N_("English title"), NAME_LIMIT),
    "description": (N_("public description"), MARKDOWN_LIMIT),
    "description_en": (N_("English public description"), MARKDOWN_LIMIT),
    "gm_notes": (N_("GM notes"), MARKDOWN_LIMIT),
}
PUBLIC = ("ja", "en", "description", "description_en")
CONSOLE = "console"


def editable(scenario: Scenario) -> tuple[str, ...]:
    """The texts the GM may change here: every one of a console scenario, a pack scenario's GM notes."""
    return tuple(TEXTS) if scenario.source == CONSOLE else ("gm_notes",)


def texts_of(scenario: Scenario) -> dict[str, str]:
    """The scenario's texts as stored (its entry's, and the GM notes of its secret row)."""
    secret = ScenarioSecret.get(ScenarioSecret.scenario == scenario.id)
    spec = secret.setup or {}
    found = {key: str(spec.get(key) or "") for key in PUBLIC}
    return {**found, "gm_notes": secret.gm_notes or ""}


def last_change(scenario_id: int) -> AuditLog | None:
    """The latest change of the scenario's texts (its `detail`: `changed`, and `was` with the texts before)."""
    return (
        AuditLog.select()
        .where(AuditLog.action == "scenario.texts", AuditLog.target == f"scenario:{scenario_id}")
        .order_by(AuditLog.id.desc())
        .first()
    )


@retried
def edit_texts(scenario_id: int, texts: dict[str, str], *, actor_id: int | None, clock: Clock = SYSTEM) -> list[str]:
    """Store the given texts of the scenario, its GMs only; every text is checked before anything is stored (a
    refusal names its field). Returns the texts that changed (none: nothing written)."""
    scenario = get_or_fail(Scenario, scenario_id, N_("scenario"))
    gms.require_gm(scenario.campaign_id, actor_id)
    unknown = set(texts) - set(TEXTS)
    if unknown:
        raise ValueError(f"no such scenario text: {sorted(unknown)}")
    allowed = editable(scenario)
    for key in texts:
        if key not in allowed:
            raise InvalidState(
                N_(
                    "%(slug)s comes from the campaign pack: change its public texts in the pack's folder",
                    slug=scenario.slug,
                ),
                key,
            )
    wanted = {key: _checked(key, value) for key, value in texts.items()}
    if ("ja" in wanted or "en" in wanted) and not (wanted.get("ja") or wanted.get("en")):
        raise UserError(N_("a scenario needs a title in Japanese or English"), "ja")
    now = to_db(clock.now())
    with write_transaction():
        scenario = locked(Scenario, scenario_id, N_("scenario"))
        was = texts_of(scenario)
        changed = [key for key, value in wanted.items() if value != was[key]]
        if not changed:
            return []
        secret = ScenarioSecret.get(ScenarioSecret.scenario == scenario_id)
        setup = _with(secret.setup or {}, {key: wanted[key] for key in changed})
        ScenarioSecret.update(setup=setup, gm_notes=setup.get("gm_notes", "")).where(
            ScenarioSecret.id == secret.id
        ).execute()
        if scenario.source == CONSOLE:
            campaign = locked(Campaign, scenario.campaign_id, N_("campaign"))
            scenarios = campaign.pack.get("scenarios") or {}
            entry = _with(scenarios.get(scenario.pack_scenario) or setup, {key: wanted[key] for key in changed})
            pack = {**campaign.pack, "scenarios": {**scenarios, scenario.pack_scenario: entry}}
            Campaign.update(pack=pack).where(Campaign.id == campaign.id).execute()
            Scenario.update(
                title=setup.get("ja") or setup.get("en") or scenario.slug, public_text=setup.get("description", "")
            ).where(Scenario.id == scenario_id).execute()
        audit.log(
            "scenario.texts", f"scenario:{scenario_id}", now, actor_id=actor_id, changed=changed,
            was={key: was[key] for key in changed},
        )  # fmt: skip
    return changed


def _checked(key: str, value: str) -> str:
    """One text stripped, its line breaks `\n` (a browser sends `\r\n`), or its refusal beside the form's field
    of that name."""
    label, limit = TEXTS[key]
    try:
        return lf_lines(checked_text(value, label, limit, required=False))
    except UserError as refusal:
        raise UserError(refusal.message, key) from None


def _with(entry: dict[str, Any], texts: dict[str, str]) -> dict[str, Any]:
    """The entry with the texts set (an empty one left out, as a pack leaves out what it does not say)."""
    out = {key: value for key, value in entry.items() if key not in texts}
    out.update({key: value for key, value in texts.items() if value})
    return out
