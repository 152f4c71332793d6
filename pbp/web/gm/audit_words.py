"""The audit log in sentences, in the page's language: each row's action and detail said as what the GM (or the
scheduler) did — "opened round 2 of The Battle of the Tama River for entries" — instead of `round.open` and
`was=draft, to=open`. The ids a row names (rounds, scenarios, characters, users) are read for the whole page at
once; the row's action code and target stay on its details line, for whoever needs them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask_babel import gettext, lazy_gettext

from pbp.models import AuditLog, Campaign, Character, Round, Scenario, User
from pbp.services.clock import local_text
from pbp.web.gm.labels import scenario_title
from pbp.web.i18n import page_locale

_ = lazy_gettext

#: Action -> its sentence; `%(target)s` is what the row is about in words, the rest the row's detail (worded).
SAYS: dict[str, Any] = {
    "campaign.load": _("loaded the campaign's pack"),
    "campaign.upgrade": _("upgraded the campaign's pack"),
    "campaign.hold_share": _("set the guard: a round is held when more than %(percent)s%% of its entries are missing"),
    "campaign.growth_award": _("set the growth award on publication to %(points)s points"),
    "campaign.timezone": _("changed the time zone from %(was)s to %(to)s"),
    "campaign.entry_limit": _("changed the prose limit from %(was)s to %(to)s characters"),
    "campaign.webhook_test": _("sent the webhook a test event"),
    "gm.add": _("made %(user)s a co-GM"),
    "gm.remove": _("removed %(user)s from the co-GMs"),
    "scenario.create": _("created the scenario %(target)s"),
    "scenario.edit": _("edited the scenario %(target)s"),
    "scenario.texts": _("changed the texts of %(target)s"),
    "scenario.lottery": _("closed the sign-up of %(target)s and drew lots: %(joined)s joined"),
    "scenario.signup_closed": _("closed the sign-up of %(target)s: %(joined)s joined"),
    "scenario.waitlist": _("moved %(joined)s from the waitlist into %(target)s"),
    "scenario.leave": _("withdrew %(character)s from %(target)s"),
    "scenario.signup_deadline": _("set the sign-up deadline of %(target)s to %(deadline)s"),
    "scenario.secret_terms": _("saved the secret terms of %(target)s (%(terms)s in all)"),
    "round.create": _("created %(target)s, its deadline at %(deadline)s"),
    "round.open": _("opened %(target)s for entries"),
    "round.close": _("closed %(target)s to entries"),
    "round.release": _("released %(target)s"),
    "round.extend": _("moved the deadline of %(target)s to %(deadline)s"),
    "round.resolve_failed": _("could not resolve %(target)s (failure %(failures)s): %(error)s"),
    "round.publish_refused": _("did not publish %(target)s: the leak check found GM secrets in it"),
    "round.override": _("overrode check %(check)s of %(target)s: %(reason)s"),
    "round.gm_action": _("recorded a GM action (%(kind)s) in %(target)s: %(reason)s"),
    "round.gm_action_delete": _("dropped a GM action (%(kind)s) from %(target)s"),
    "round.gm_order": _("gave %(unit)s its orders in %(target)s"),
    "round.adhoc_check": _(
        "added an ad-hoc check for %(character)s in %(target)s (%(skill)s, %(need)s needed): %(reason)s"
    ),
    "round.adhoc_removed": _("took away the ad-hoc check of %(character)s (%(skill)s) in %(target)s"),
    "round.gm_order_clear": _("cleared the orders of %(unit)s in %(target)s: the default tactics act"),
    "report.edit": _("edited the report of %(target)s"),
    "report.correct": _("corrected the published report of %(target)s: %(note)s"),
    "report.regenerated": _("generated the draft of %(target)s again (the edited draft is kept)"),
    "growth.approve": _("approved a growth request of %(target)s"),
    "growth.deny": _("denied a growth request of %(target)s: %(reason)s"),
    "character.grant": _("granted %(target)s %(points)s growth points: %(reason)s"),
    "character.icon": _("set the icon of %(target)s"),
    "character.icon_removed": _("took away the icon of %(target)s"),
    "comment.edit": _("saved the comments on the characters of %(target)s"),
    "comment.correct": _("corrected the comments on the characters of %(target)s: %(note)s"),
    "note.write": _("wrote in the private notes of %(target)s"),
}
ROSTER = {
    "accept": _("accepted %(character)s into %(target)s"),
    "waitlist": _("put %(character)s on the waitlist of %(target)s"),
    "reject": _("turned down %(character)s for %(target)s"),
    "remove": _("took %(character)s off %(target)s"),
}
_POLICY_ON = _("switched automatic publication on: rounds are published as soon as they are resolved")
_POLICY_OFF = _("switched automatic publication off: rounds wait for a GM's review")
_BONUS_CAP = {
    "bonus_dice_max": _("set the cap of a play bonus to %(value)s dice"),
    "bonus_successes_max": _("set the cap of a play bonus to %(value)s successes"),
}
_BONUS = _("gave %(character)s a play bonus in %(target)s (+%(dice)s dice, +%(successes)s successes): %(reason)s")
_BONUS_TAKEN = _("took away the play bonus of %(character)s in %(target)s")
_WEBHOOK_SET, _WEBHOOK_REMOVED = _("set the webhook"), _("removed the webhook")
_NOBODY = _("nobody")


@dataclass(frozen=True)
class Said:
    """One row in words: the sentence, and its details line (the action code and the target as stored)."""

    sentence: str
    details: str


class _Names:
    """The names a page of rows mentions, read once for the page."""

    def __init__(self, rows: Iterable[AuditLog], campaign: Campaign) -> None:
        rows = list(rows)
        ids: dict[str, set[int]] = {"round": set(), "scenario": set(), "character": set(), "user": set()}
        for row in rows:
            kind, _sep, number = row.target.partition(":")
            if kind in ids and number.isdigit():
                ids[kind].add(int(number))
            detail = row.detail or {}
            for key in ("character", "joined"):
                value = detail.get(key)
                ids["character"] |= {v for v in (value if isinstance(value, list) else [value]) if isinstance(v, int)}
            if row.action == "gm.remove" and isinstance(detail.get("user"), int):
                ids["user"].add(detail["user"])
        self.campaign = campaign
        self.rounds = {
            r.id: r for r in Round.select(Round, Scenario).join(Scenario).where(Round.id.in_(list(ids["round"])))
        }
        self.scenarios = {s.id: s for s in Scenario.select().where(Scenario.id.in_(list(ids["scenario"])))}
        self.characters = {
            c.id: c.name
            for c in Character.select(Character.id, Character.name).where(Character.id.in_(list(ids["character"])))
        }
        self.users = {u.id: u.display_name or u.name for u in User.select().where(User.id.in_(list(ids["user"])))}

    def target(self, target: str) -> str:
        kind, _sep, number = target.partition(":")
        ident = int(number) if number.isdigit() else -1
        if kind == "round" and ident in self.rounds:
            rnd = self.rounds[ident]
            return gettext("round %(number)s of %(scenario)s", number=rnd.number, scenario=scenario_title(rnd.scenario))
        if kind == "scenario" and ident in self.scenarios:
            return scenario_title(self.scenarios[ident])
        if kind == "character" and ident in self.characters:
            return self.characters[ident]
        if kind == "campaign":
            return gettext("the campaign")
        return target

    def character(self, value: Any) -> str:
        return self.characters.get(value, str(value)) if isinstance(value, int) else str(value)

    def characters_of(self, values: Any) -> str:
        names = [self.character(v) for v in values] if isinstance(values, list) else []
        return ("、" if page_locale() == "ja" else ", ").join(names) if names else str(_NOBODY)


def _when(value: Any, timezone: str) -> str:
    """A deadline as logged (ISO 8601 UTC, or the database's text) in the campaign's time zone."""
    try:
        moment = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return str(value)
    return local_text(moment.replace(tzinfo=None) if moment.tzinfo else moment, timezone)


def say(row: AuditLog, names: _Names) -> Said:
    detail: dict[str, Any] = dict(row.detail or {})
    values: dict[str, Any] = {k: v for k, v in detail.items() if isinstance(v, str | int | float)}
    values["target"] = names.target(row.target)
    action = row.action
    sentence: Any = SAYS.get(action)
    if action == "campaign.policy":
        sentence = (
            (_POLICY_ON if detail.get("value") else _POLICY_OFF)
            if detail.get("policy") == "publish_automatically"
            else _BONUS_CAP.get(str(detail.get("policy")))
        )
    elif action == "round.bonus":
        sentence = _BONUS if detail.get("dice") or detail.get("successes") else _BONUS_TAKEN
    elif action == "campaign.webhook":
        sentence = _WEBHOOK_SET if detail.get("set") else _WEBHOOK_REMOVED
    elif action == "scenario.roster":
        sentence = ROSTER.get(str(detail.get("move")))
    elif action in ("round.hold", "round.cancel"):
        sentence = _reasoned(action, detail)
    elif action == "round.resolve":
        sentence = _("resolved %(target)s by hand") if detail.get("by_hand") else _("resolved %(target)s")
    elif action == "round.publish":
        sentence = _published(detail)
    if action == "campaign.hold_share" and isinstance(detail.get("share"), int | float):
        values["percent"] = f"{detail['share'] * 100:g}"
    for key in ("deadline",):
        if key in values:
            values[key] = _when(values[key], names.campaign.timezone)
    if "character" in detail:
        values["character"] = names.character(detail["character"])
    if "joined" in detail:
        values["joined"] = names.characters_of(detail["joined"])
    if action == "gm.remove":
        values["user"] = names.users.get(detail.get("user"), str(detail.get("user")))
    if "kind" in values and action.startswith("round.gm_action"):
        values["kind"] = str(values["kind"]).replace("_", " ")
    awarded = detail.get("awarded")
    if action == "round.publish" and isinstance(awarded, dict) and awarded:
        values["points"], values["count"] = next(iter(awarded.values())), len(awarded)
    details = f"{action} · {row.target}"
    try:
        return Said(str(sentence) % values, details) if sentence is not None else _unworded(row, details)
    except (KeyError, TypeError, ValueError):  # a row written before its sentence's words: said by its code
        return _unworded(row, details)


def _unworded(row: AuditLog, details: str) -> Said:
    """A row of an action without words: its code, and its detail as `key=value` pairs on the details line (long
    values cut; what is empty left out — `awarded={}` — so that what happened stands out)."""
    parts = []
    for key, value in sorted((row.detail or {}).items()):
        if value is None or value == "" or (isinstance(value, list | dict) and not value):
            continue
        text = str(value)
        parts.append(f"{key}={text[:120]}{'…' if len(text) > 120 else ''}")
    return Said(row.action, " · ".join([details, ", ".join(parts)]) if parts else details)


def _reasoned(action: str, detail: dict[str, Any]) -> Any:
    if action == "round.cancel":
        return _("cancelled %(target)s: %(reason)s") if detail.get("reason") else _("cancelled %(target)s")
    if detail.get("reason"):
        return _("held %(target)s: %(reason)s")
    return _("held %(target)s")


def _published(detail: dict[str, Any]) -> Any:
    awarded = detail.get("awarded")
    if isinstance(awarded, dict) and awarded:
        return _("published %(target)s; %(points)s growth points to each of its %(count)s characters with an entry")
    return _("published %(target)s")


def sayer(rows: Iterable[AuditLog], campaign: Campaign) -> Callable[[AuditLog], Said]:
    """What the audit page calls for each row (the names read once)."""
    names = _Names(rows, campaign)
    return lambda row: say(row, names)
