"""The GM's review of a kancolle round (resolved, or a preview): every behaviour check with its id, who rolled it
for what, the trait used and the DC, each try's dice and total and the result (what an override names); the other
events in order; every unit before and after (AP, damage steps, position, out of the battle). The override form
sets a check's result (K-GM-1: success or failure, with the reason that is published)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext as _
from wtforms import SelectField, TextAreaField
from wtforms.validators import AnyOf, InputRequired, Length

from pbp.reports.narrative import Names
from pbp.services._common import REASON_LIMIT
from pbp.web.forms import SiteForm

#: What a check's result is called on the page.
RESULTS = {"special": _("special"), "fumble": _("fumble"), "success": _("success"), "failure": _("failure")}
#: The unit fields the table shows, each with its heading.
COLUMNS = {"ap": _("AP"), "steps": _("Damage steps"), "position": _("Position"), "out": _("Out of the battle")}


class ResultOverrideForm(SiteForm):
    """One check's new result and the reason published beside it (K-GM-1)."""

    check = SelectField(_("Check"), validate_choice=False)
    result = SelectField(
        _("New result"), choices=[("success", _("success")), ("failure", _("failure"))],
        validators=[AnyOf(("success", "failure"), message=_("Choose success or failure."))],
    )  # fmt: skip
    reason = TextAreaField(
        _("Reason"),
        [InputRequired(message=_("Fill this in.")), Length(max=REASON_LIMIT)],
        description=_("Published with the dice log."),
    )


@dataclass(frozen=True)
class CheckLine:
    id: str
    unit: str
    kind: str
    designated: str | None
    used: str | None
    dc: int
    tries: list[tuple[list[int], int]]
    result: str
    overridden: bool


@dataclass(frozen=True)
class UnitRow:
    name: str
    side: str
    before: dict[str, Any]
    after: dict[str, Any]


@dataclass(frozen=True)
class KancolleReview:
    checks: list[CheckLine]
    events: list[tuple[str, str]]  # (event type, who it names)
    units: list[UnitRow]

    @property
    def check_choices(self) -> list[tuple[str, str]]:
        return [(c.id, f"{c.id} — {c.unit}, {c.designated or '—'}: {RESULTS[c.result]}") for c in self.checks]


def _result(event: dict[str, Any]) -> str:
    if event.get("special"):
        return "special"
    if event.get("fumble"):
        return "fumble"
    return "success" if event.get("success") else "failure"


def _cells(unit: dict[str, Any] | None) -> dict[str, Any]:
    if unit is None:
        return {}
    out = "✕" if unit.get("lost") else ("○" if unit.get("removed") else "")
    return {"ap": f"{unit.get('ap')}/{unit.get('ap_max', unit.get('ap'))}", "steps": unit.get("steps", 0),
            "position": unit.get("position") or "—", "out": out}  # fmt: skip


def kancolle_review(
    encounter: dict[str, Any], events: list[dict[str, Any]], state: dict[str, Any], names: Names
) -> KancolleReview:
    """The review of one run of a round: its checks, its other events and its units before and after."""
    english = names.pack.get("grid_en") or {} if names.locale != "ja" else {}

    def trait(name: str | None) -> str | None:
        return english.get(name, name) if name else name

    checks, lines = [], []
    for e in events:
        if e.get("type") == "check" and e.get("id"):
            tries = [(list(t.get("dice") or []), int(t.get("total") or 0)) for t in e.get("tries") or []]
            used = trait((e.get("used") or {}).get("trait"))
            checks.append(CheckLine(
                str(e["id"]), names.unit(e.get("unit")), str(e.get("kind")), trait(e.get("designated")), used,
                int(e.get("dc") or 0), tries, _result(e), bool(e.get("overrides")),
            ))  # fmt: skip
        elif e.get("type") != "check":
            who = [names.unit(e[k]) for k in ("unit", "from", "attacker", "target", "to") if isinstance(e.get(k), str)]
            lines.append((str(e.get("type")), " → ".join(who)))
    start = {u["id"]: u for u in encounter.get("units") or []}
    end = {u["id"]: u for u in state.get("units") or []}
    units = [
        UnitRow(names.unit(uid), str((start.get(uid) or end.get(uid) or {}).get("side")),
                _cells(start.get(uid)), _cells(end.get(uid)))
        for uid in [*start, *(u for u in end if u not in start)]
    ]  # fmt: skip
    return KancolleReview(checks, lines, units)
