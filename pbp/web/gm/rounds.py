"""A round in the GM's console: its dashboard (`/gm/<campaign>/rounds/<id>/`: state, deadline, the entries against
the participants, the guard's verdict, the lifecycle's buttons), its review (`.../review`: before resolution a
dry-run preview with a throwaway seed, after it the dice log with check ids, every unit before and after, the
battlefield, and the override form) and a new round for a scenario. Every action is one call of
`pbp.services.rounds`, which checks the GM again and has the last word."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from flask import abort, redirect, render_template, request, url_for
from flask_babel import format_timedelta, gettext, ngettext
from flask_babel import lazy_gettext as _
from flask_login import current_user, login_required
from markupsafe import Markup
from werkzeug.wrappers import Response
from wtforms import HiddenField, IntegerField, SelectField, StringField, TextAreaField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from pbp.engine import find_ruleset
from pbp.errors import Conflict, Forbidden, InvalidState, NotFound, UserError
from pbp.models import Campaign, Character, Entry, Participation, Resolution, Round, User
from pbp.reports import render_markdown
from pbp.reports.dicelog import GmLine, LogLine, dice_log, gm_lines
from pbp.reports.narrative import Names, lexicon
from pbp.reports.orders import order_words
from pbp.reports.unitstate import UnitRow, unit_table
from pbp.services import entry_wishes, rounds
from pbp.services._common import REASON_LIMIT
from pbp.services.characters import unit_id
from pbp.services.clock import from_db
from pbp.web.blog.queries import battlefield, character_names
from pbp.web.clock import app_clock
from pbp.web.errors import form_status
from pbp.web.forms import SiteForm
from pbp.web.gm import bp
from pbp.web.gm.access import campaign_round, campaign_scenario, gm_campaign
from pbp.web.gm.kancolle_review import KancolleReview, ResultOverrideForm, kancolle_review
from pbp.web.i18n import page_locale, refusal_text
from pbp.web.player.kancolle_form import order_lines

#: The lifecycle's buttons on the dashboard, each with the states it is offered in (the service decides).
ACTIONS: dict[str, tuple[str, ...]] = {
    "open": (rounds.DRAFT,),
    "close": (rounds.OPEN,),
    "resolve": (rounds.OPEN, rounds.CLOSED),
    "hold": (rounds.DRAFT, rounds.OPEN, rounds.CLOSED),
    "release": (rounds.HELD, rounds.QUARANTINED),
    "extend": (rounds.DRAFT, rounds.OPEN, rounds.HELD, rounds.CLOSED),
    "cancel": (rounds.DRAFT, rounds.OPEN, rounds.CLOSED, rounds.HELD, rounds.QUARANTINED),
}
#: What the dashboard says after an action succeeded.
DONE = {
    "open": _("The round is open for entries; its players are told."),
    "close": _("The round takes no more entries."),
    "resolve": _("The round is resolved: review it, then edit and publish its report."),
    "hold": _("The round is held: it neither takes entries nor resolves until released."),
    "release": _("The round is released."),
    "extend": _("The deadline is moved; the players are told."),
    "cancel": _("The round is cancelled."),
    "held": _(
        "The guard held the round instead of resolving it: too many entries are missing. Release it to take "
        "entries again, or release it and resolve it anyway."
    ),
    "created": _("The round is created as a draft: open it to take entries."),
    "overridden": _("The override is recorded and the round resolved again with the same dice."),
    "bonus": _("The play bonus is recorded; a resolved round was worked out again with the same dice."),
    "bonus_removed": _("The play bonus is taken away; a resolved round was worked out again with the same dice."),
    "adhoc": _("The ad-hoc check is recorded: it is rolled after the round's other checks."),
    "adhoc_removed": _("The ad-hoc check is taken away."),
}
#: The deadline's furthest reach, either way (as on the command line).
DEADLINE_REACH = timedelta(days=10 * 365)
DEADLINE_HINT = _("In the campaign's time zone, e.g. 2026-12-24T21:00.")
#: The longest deadline text read (an ISO 8601 time with seconds, fraction and offset fits).
DEADLINE_LIMIT = 40


class RoundActionForm(SiteForm):
    """The dashboard's buttons: `action`, with the reason (hold, cancel) or the new deadline (extend) it needs."""

    action = HiddenField()
    reason = StringField(_("Reason"), [Optional(), Length(max=REASON_LIMIT)])
    deadline = StringField(_("New deadline"), [Optional(), Length(max=DEADLINE_LIMIT)], description=DEADLINE_HINT)
    #: "yes" once the GM confirmed an irreversible move (`confirm_move`); `anyway` "yes": resolve past the guard.
    confirm = HiddenField()
    anyway = HiddenField()


class NewRoundForm(SiteForm):
    deadline = StringField(
        _("Deadline"),
        [InputRequired(message=_("Fill this in.")), Length(max=DEADLINE_LIMIT)],
        description=DEADLINE_HINT,
    )


class OverrideForm(SiteForm):
    """One check's new result, and the reason published beside it in the dice log (R-GM-1)."""

    check = SelectField(_("Check"), validate_choice=False)
    successes = IntegerField(
        _("New successes"),
        [
            InputRequired(message=_("A whole number of successes.")),
            NumberRange(-rounds.OVERRIDE_LIMIT, rounds.OVERRIDE_LIMIT),
        ],
    )
    reason = TextAreaField(
        _("Reason"),
        [InputRequired(message=_("Fill this in.")), Length(max=REASON_LIMIT)],
        description=_("Published with the dice log."),
    )


def parse_deadline(text: str, timezone: str, now: datetime) -> datetime:
    """A deadline typed in the campaign's time zone (or with an offset), in UTC; a ValueError says what is wrong."""
    try:
        moment = datetime.fromisoformat(text.strip())
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=ZoneInfo(timezone))
        moment = moment.astimezone(UTC)
    except (ValueError, OverflowError):
        raise ValueError(gettext("Not a date and time such as 2026-12-24T21:00.")) from None
    if abs(moment - now) > DEADLINE_REACH:
        raise ValueError(gettext("Choose a time within ten years of now."))
    return moment


def _names(rnd: Round, units: dict[str, dict[str, Any]]) -> Names:
    locale = page_locale()
    pack = Campaign.select(Campaign.pack).where(Campaign.id == rnd.scenario.campaign_id).scalar() or {}
    return Names(locale, pack, units, rnd.scenario.pack_scenario, character_names(list(units), locale))


# ---- the dashboard ------------------------------------------------------------------------------------------------


@dataclass
class EntryRow:
    """A participant of the round and its entry, if any: its orders in words, its prose as the blog renders it and
    the player's English version of it (what the English story tells instead), if they wrote one."""

    character: str
    player: str
    unit: str
    received: bool
    saved_at: datetime | None = None
    orders: list[str] | None = None
    prose: Markup | None = None
    prose_en: Markup | None = None
    wish: entry_wishes.Wish | None = None  # what the player asks of the GM beside the entry
    partners: list[str] | None = None  # the wish's partners by name


def _rendered(text: str | None) -> Markup | None:
    """A player's text as the blog renders it (sanitised Markdown); None when there is none to show."""
    return Markup(render_markdown(text)) if text and text.strip() else None  # noqa: S704 - sanitised


def entry_rows(rnd: Round, names: Names, ruleset: str = "pool") -> list[EntryRow]:
    """The round's joined characters in the order they joined, each with its entry or marked missing, then any entry
    of a character no longer joined; each order in words as its ruleset's form says it."""
    words = (lambda order: order_lines(order, names)) if ruleset == "kancolle" else (
        lambda order: order_words(order, names, gettext)
    )  # fmt: skip
    joined = [
        p.character_id
        for p in Participation.select(Participation.character)
        .where(Participation.scenario == rnd.scenario_id, Participation.status == "joined")
        .order_by(Participation.id)
    ]
    entries = {
        e.character_id: e
        for e in Entry.select(Entry.character, Entry.order, Entry.prose, Entry.prose_en, Entry.saved_at).where(
            Entry.round == rnd.id
        )
    }
    ids = [*joined, *sorted(cid for cid in entries if cid not in joined)]
    characters = {c.id: c for c in Character.select(Character, User).join(User).where(Character.id.in_(ids))}
    wishes = entry_wishes.wishes_in(rnd.id)
    rows = []
    for c in (characters[cid] for cid in ids):
        uid = unit_id(c.id)
        entry = entries.get(c.id)
        rows.append(
            EntryRow(
                character=names.display.get(uid) or c.name,
                player=c.owner.display_name or c.owner.name,
                unit=uid,
                received=entry is not None,
                saved_at=from_db(entry.saved_at) if entry else None,
                orders=words(entry.order) if entry else None,
                prose=_rendered(entry.prose if entry else None),
                prose_en=_rendered(entry.prose_en if entry else None),
                wish=wishes.get(c.id),
                partners=[names.display.get(unit_id(p)) or str(p) for p in wishes[c.id].partners]
                if c.id in wishes
                else None,
            )
        )
    return rows


def _dashboard(
    campaign: Campaign,
    rnd: Round,
    form: RoundActionForm | None = None,
    *,
    status: int = 200,
    refusal: str | None = None,
) -> tuple[str, int]:
    try:
        units = {u["id"]: u for u in rounds.round_encounter(rnd, rounds.round_context(rnd)).get("units", [])}
    except Exception:  # a broken scenario must not hide the entries: the names fall back to ids
        units = {}
    names = _names(rnd, units)
    rows = entry_rows(rnd, names, campaign.ruleset)
    page = render_template(
        "gm/round.html",
        campaign=campaign,
        rnd=rnd,
        scenario=rnd.scenario,
        deadline=from_db(rnd.deadline),
        rows=rows,
        received=sum(r.received for r in rows),
        verdict=rounds.guard_verdict(rnd.id),
        actions=[a for a, states in ACTIONS.items() if rnd.state in states],
        form=form or RoundActionForm(formdata=None),
        refusal=refusal,
        done=DONE.get(request.args.get("done", "")),
        reviewable=rnd.state in (*rounds.PREVIEWABLE, rounds.RESOLVED, rounds.PUBLISHED),
    )
    return page, status


@bp.get("/<slug:campaign>/rounds/<row:round_id>/")
@login_required
def round_dashboard(campaign: str, round_id: int) -> tuple[str, int]:
    found = gm_campaign(campaign)
    return _dashboard(found, campaign_round(found, round_id))


@bp.post("/<slug:campaign>/rounds/<row:round_id>/")
@login_required
def round_action(campaign: str, round_id: int) -> Response | tuple[str, int]:
    """One of the lifecycle's moves (`action`), through its service."""
    found = gm_campaign(campaign)
    rnd = campaign_round(found, round_id)
    form = RoundActionForm()
    action = form.action.data or ""
    if action not in ACTIONS:
        abort(400)
    if not form.validate_on_submit():  # a wrong type is also said above: the field may be another button's
        wrong = " ".join(sorted(set(form.wrong_types().values()))) or None
        return _dashboard(found, rnd, form, status=422, refusal=wrong)
    me = current_user.id
    reason = (form.reason.data or "").strip()
    try:
        if action in ("hold", "cancel") and not reason:
            form.reason.errors = [gettext("Say why: the reason is logged.")]
            return _dashboard(found, rnd, form, status=422)
        if action in ("resolve", "cancel") and rnd.state in ACTIONS[action] and form.confirm.data != "yes":
            risk = rounds.move_risk(rnd.id, actor_id=me, clock=app_clock())
            if risk.asks:
                carried = {"action": action, "reason": reason}
                return confirm_move(
                    found,
                    rnd,
                    action,
                    risk,
                    form,
                    url_for("gm.round_action", campaign=found.slug, round_id=rnd.id),
                    carried,
                )
        if action == "extend":
            try:
                deadline = parse_deadline(form.deadline.data or "", found.timezone, app_clock().now())
            except ValueError as e:
                form.deadline.errors = [str(e)]
                return _dashboard(found, rnd, form, status=422)
            if deadline <= app_clock().now():
                form.deadline.errors = [gettext("The new deadline must lie in the future.")]
                return _dashboard(found, rnd, form, status=422)
            rounds.extend_round(rnd.id, deadline, actor_id=me, clock=app_clock())
        elif action == "open":
            rounds.open_round(rnd.id, actor_id=me, clock=app_clock())
        elif action == "close":
            rounds.close_round(rnd.id, actor_id=me, clock=app_clock())
        elif action == "resolve":
            anyway = form.anyway.data == "yes"
            outcome = rounds.resolve_by_hand(rnd.id, anyway=anyway, actor_id=me, clock=app_clock())
            if outcome.status == "busy":
                raise Conflict(outcome.message)
            if outcome.status == "held":
                return redirect(url_for("gm.round_dashboard", campaign=found.slug, round_id=rnd.id, done="held"), 303)
        elif action == "hold":
            rounds.hold_round(rnd.id, reason=reason, actor_id=me, clock=app_clock())
        elif action == "release":
            rounds.release_round(rnd.id, actor_id=me, clock=app_clock())
        else:
            rounds.cancel_round(rnd.id, reason=reason, actor_id=me, clock=app_clock())
    except (Forbidden, NotFound):
        raise
    except UserError as refusal:
        return _dashboard(
            found, campaign_round(found, round_id), form, status=form_status(refusal), refusal=refusal_text(refusal)
        )
    return redirect(url_for("gm.round_dashboard", campaign=found.slug, round_id=rnd.id, done=action), 303)


# ---- confirming an irreversible move -------------------------------------------------------------------------------


def confirm_move(
    campaign: Campaign,
    rnd: Round,
    action: str,
    risk: rounds.MoveRisk,
    form: SiteForm,
    post: str,
    carried: dict[str, str],
) -> tuple[str, int]:
    """The page that asks before an irreversible move (resolve now, cancel, publish) on a round whose deadline lies
    ahead or whose entries are missing: it says what will happen and posts `carried` (the move's own fields) back
    with `confirm=yes`, so nothing changes without a second, deliberate POST. Nothing has changed yet (200). The
    characters without an entry are named in the page's language, each with its player."""
    left = format_timedelta(risk.time_left, threshold=1.1) if risk.time_left is not None else None
    names = character_names([unit_id(m.character_id) for m in risk.missing], page_locale())
    missing = [(names.get(unit_id(m.character_id)) or m.character, m.player) for m in risk.missing]
    page = render_template(
        "gm/confirm.html",
        campaign=campaign,
        rnd=rnd,
        scenario=rnd.scenario,
        action=action,
        risk=risk,
        missing=missing,
        time_left=left,
        deadline=from_db(rnd.deadline),
        form=form,
        post=post,
        carried=carried,
        back=url_for(
            "gm.report" if action == "publish" else "gm.round_dashboard", campaign=campaign.slug, round_id=rnd.id
        ),
    )
    return page, 200


# ---- a new round ----------------------------------------------------------------------------------------------------


@bp.route("/<slug:campaign>/scenarios/<slug:scenario>/rounds/new", methods=["GET", "POST"])
@login_required
def new_round(campaign: str, scenario: str) -> Response | str | tuple[str, int]:
    """A draft round for the scenario (its next number) with the deadline typed in the campaign's time zone; for a
    scenario whose battle is over, how it ended instead of the form (the service refuses a round posted anyway)."""
    found = gm_campaign(campaign)
    where = campaign_scenario(found, scenario)
    form = NewRoundForm()
    over = rounds.outcome_word(rounds.battle_over(where.id))
    if form.validate_on_submit():
        try:
            deadline = parse_deadline(form.deadline.data or "", found.timezone, app_clock().now())
            if deadline <= app_clock().now():
                raise ValueError(gettext("The deadline must lie in the future."))
        except ValueError as e:
            form.deadline.errors = [str(e)]
        else:
            try:
                rnd = rounds.create_round(where.id, deadline, actor_id=current_user.id, clock=app_clock())
            except InvalidState as refusal:
                page = render_template(
                    "gm/round_new.html", campaign=found, scenario=where, form=form, over=over,
                    refusal=refusal_text(refusal),
                )  # fmt: skip
                return page, form_status(refusal)
            return redirect(url_for("gm.round_dashboard", campaign=found.slug, round_id=rnd.id, done="created"), 303)
    page = render_template("gm/round_new.html", campaign=found, scenario=where, form=form, over=over)
    return (page, 422) if request.method == "POST" else page


# ---- the review ---------------------------------------------------------------------------------------------------


@dataclass
class Review:
    """What the review page shows of a round's resolution, stored or previewed."""

    log: list[LogLine]
    unit_names: dict[str, str]
    units: list[UnitRow]
    battlefield: Markup
    checks: dict[str, str]  # each check's id and what it was (who rolled which skill, and its result)
    overrides: list[dict[str, Any]]
    weapon: Callable[[str], str]  # a weapon's name in the page's language
    skill: Callable[[str], str]  # a skill's name in the page's language
    gm_actions: list[GmLine]  # the GM's actions before the round, with their reasons (as the blog shows them)
    version: int | None = None
    entries: list[EntryRow] = field(default_factory=list)  # the round's entries, as the round's page shows them
    checks_of: dict[str, list[str]] = field(default_factory=dict)  # each unit's checks (`checks`' words), by unit id


def _review(
    rnd: Round,
    encounter: dict[str, Any],
    events: list[dict[str, Any]],
    state: dict[str, Any],
    gm_actions: list[dict[str, Any]] | None,
) -> Review:
    units = {u["id"]: u for u in encounter.get("units", [])}
    for u in state.get("units", []):  # units that came during the round (reinforcements) are named too
        units.setdefault(u["id"], u)
    names = _names(rnd, units)
    log = dice_log(events, names)
    checks: dict[str, str] = {}  # an area attack's one roll stands in the log once per target: offered once
    by_name = {names.unit(uid): uid for uid in units}
    checks_of: dict[str, list[str]] = {}
    for roll in (r for line in log for r in line.rolls if r.check and r.check not in checks):
        checks_of.setdefault(by_name.get(roll.unit, roll.unit), []).append(str(roll.check))
        checks[str(roll.check)] = ngettext(
            "%(check)s — %(unit)s, %(skill)s: %(num)s success",
            "%(check)s — %(unit)s, %(skill)s: %(num)s successes",
            roll.successes,
            check=roll.check,
            unit=roll.unit,
            skill=roll.skill,
        )
    title = gettext("The battlefield at the round's end")
    svg = battlefield(state, events, names, title, everyone=True, scene=rnd.scenario.kind == "scene")
    return Review(
        log=log,
        unit_names={uid: names.unit(uid) for uid in units},
        units=unit_table(encounter, state),
        battlefield=Markup(svg),  # noqa: S704 - battle_map escapes every text it draws
        checks=checks,
        overrides=[],
        weapon=lambda wid: names.of("weapons", wid),
        skill=lambda sid: names.of("skills", sid),
        gm_actions=gm_lines(gm_actions or [], names),
        entries=entry_rows(rnd, names),
        checks_of={uid: [checks[c] for c in ids] for uid, ids in checks_of.items()},
    )


def _review_of(
    campaign: Campaign,
    rnd: Round,
    encounter: dict[str, Any],
    events: list[dict[str, Any]],
    state: dict[str, Any],
    gm_actions: list[dict[str, Any]] | None,
) -> Review | KancolleReview:
    """The review the campaign's ruleset shows: pool's dice log, units and battlefield, or kancolle's checks."""
    if campaign.ruleset == "kancolle":
        units = {u["id"]: u for u in [*encounter.get("units", []), *state.get("units", [])]}
        return kancolle_review(encounter, events, state, _names(rnd, units))
    return _review(rnd, encounter, events, state, gm_actions)


def _override_form(campaign: Campaign, formdata: bool = True) -> OverrideForm | ResultOverrideForm:
    """The override form of the campaign's ruleset: new successes (pool) or a new result (kancolle)."""
    kind = ResultOverrideForm if find_ruleset(campaign.ruleset).override_field == "result" else OverrideForm
    return kind() if formdata else kind(formdata=None)


def _review_page(
    campaign: Campaign,
    rnd: Round,
    form: OverrideForm | ResultOverrideForm | None = None,
    *,
    status: int = 200,
    refusal: str | None = None,
    judging_forms: dict[str, Any] | None = None,
) -> tuple[str, int]:
    """The review page; `judging_forms`: a judging form sent back with its errors (`judging.panel`)."""
    from pbp.web.gm.judging import panel  # it shows its refusals on this page

    review: Review | KancolleReview | None = None
    judged = None
    preview: Review | KancolleReview | None = None
    problem = None
    version, overrides = None, []
    if rnd.state in (rounds.RESOLVED, rounds.PUBLISHED):
        res = Resolution.get(Resolution.round == rnd.id)
        review = _review_of(campaign, rnd, res.encounter, res.events, res.state, res.gm_actions)
        version, overrides = res.version, list(res.overrides or [])
        judged = (res.encounter, res.events)
    elif rnd.state in rounds.PREVIEWABLE:
        try:
            dry = rounds.preview_round(rnd.id, actor_id=current_user.id)
        except (Forbidden, NotFound):
            raise
        except UserError as e:
            problem = refusal_text(e)
        else:
            preview = _review_of(campaign, rnd, dry.inputs.encounter, dry.events, dry.state, dry.inputs.gm_actions)
            judged = (dry.inputs.encounter, None)  # a throwaway seed's rolls are no outcome
    form = form or _override_form(campaign, formdata=False)
    shown = review or preview
    if isinstance(shown, Review):
        shown.overrides, shown.version = overrides, version
    offered = shown.check_choices if isinstance(shown, KancolleReview) else list(shown.checks.items()) if shown else []
    form.check.choices = [("", gettext("Choose a check")), *offered]
    judge = None
    if judged and isinstance(shown, Review):
        judge = panel(campaign, rnd, *judged, shown.unit_names, shown.skill, **(judging_forms or {}))
    page = render_template(
        "gm/round_review.html",
        campaign=campaign,
        rnd=rnd,
        scenario=rnd.scenario,
        review=review,
        preview=preview,
        report=shown,
        problem=problem,
        form=form,
        overridable=rnd.state == rounds.RESOLVED,
        kancolle=isinstance(shown, KancolleReview),
        overrides=overrides,
        version=version,
        refusal=refusal,
        done=DONE.get(request.args.get("done", "")),
        judge=judge,
    )
    return page, status


@bp.get("/<slug:campaign>/rounds/<row:round_id>/review")
@login_required
def round_review(campaign: str, round_id: int) -> tuple[str, int]:
    found = gm_campaign(campaign)
    return _review_page(found, campaign_round(found, round_id))


@bp.post("/<slug:campaign>/rounds/<row:round_id>/override")
@login_required
def round_override(campaign: str, round_id: int) -> Response | tuple[str, int]:
    """Override one check of a resolved round (`rounds.override_check`: recorded, re-resolved with the same dice)."""
    found = gm_campaign(campaign)
    rnd = campaign_round(found, round_id)
    form = _override_form(found)
    if not form.validate_on_submit():
        return _review_page(found, rnd, form, status=422)
    if not form.check.data:
        form.check.errors = [gettext("Choose the check to override.")]
        return _review_page(found, rnd, form, status=422)
    try:
        value = form.result.data if isinstance(form, ResultOverrideForm) else int(form.successes.data or 0)
        rounds.override_check(
            rnd.id,
            form.check.data,
            value,
            reason=form.reason.data or "",
            actor_id=current_user.id,
            clock=app_clock(),
        )
    except Forbidden:
        raise
    except UserError as refusal:
        field = {"reason": form.reason, "check": form.check}.get(refusal.field or "")
        if field is not None:
            field.errors = [refusal_text(refusal)]
        message = None if field is not None else refusal_text(refusal)
        return _review_page(found, rnd, form, status=form_status(refusal), refusal=message)
    return redirect(url_for("gm.round_review", campaign=found.slug, round_id=rnd.id, done="overridden"), 303)


@bp.app_template_global("status_word")
def status_word(status_id: str, ruleset: str = "pool") -> str:
    """A bad status's name in the page's language."""
    return str(lexicon(ruleset, page_locale())["statuses"].get(status_id, status_id))
