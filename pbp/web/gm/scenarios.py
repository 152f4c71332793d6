"""Scenarios, the pack and the audit log in the GM's console: a scenario written by form or imported from a scenario
TOML (`pbp.services.authoring`), edited before its first round, its sign-up closed (`scenarios.close_signup`); the
campaign's pack upgraded from its folder by the owner (`campaigns.upgrade_pack`); the audit log, newest first. Each
view passes the door (`gm_campaign`) and calls one service, which checks the GM again."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from flask import abort, current_app, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import lazy_gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from pbp.engine import Problem
from pbp.errors import Conflict, Forbidden, NotFound, UserError
from pbp.models import Campaign, Scenario
from pbp.paths import CAMPAIGNS_DIR
from pbp.services import audit, authoring, campaigns, gms, scenarios, secret_terms
from pbp.services.authoring import ScenarioProblems
from pbp.services.campaigns import PackRefused
from pbp.services.clock import local_text
from pbp.web.errors import form_status
from pbp.web.forms import ActionForm
from pbp.web.gm import EXPIRED_PAGES, audit_words, bp
from pbp.web.gm.access import campaign_scenario, gm_campaign
from pbp.web.gm.publish import EXPIRED
from pbp.web.gm.scenario_form import ImportForm, ScenarioForm, fill, place_problems, set_choices, spec_of
from pbp.web.i18n import refusal_text

#: What the console calls a scenario's state (`authoring.summaries`).
STATES = {
    authoring.SIGNUP_OPEN: _("sign-up open"),
    authoring.SIGNUP_CLOSED: _("sign-up closed"),
    authoring.UNDER_WAY: _("under way"),
}


@bp.context_processor
def _states() -> dict[str, object]:
    return {"scenario_state": lambda state: STATES.get(state, state)}


def _pack(campaign: Campaign) -> dict[str, Any]:
    return Campaign.select(Campaign.pack).where(Campaign.id == campaign.id).get().pack  # type: ignore[no-any-return]


def _deadline(form: ScenarioForm, campaign: Campaign) -> datetime | None:
    """The sign-up deadline typed in the campaign's time zone, as an aware time."""
    typed = form.signup_deadline.data
    return typed.replace(tzinfo=ZoneInfo(campaign.timezone)) if typed else None


def _form_page(
    campaign: Campaign,
    form: ScenarioForm,
    *,
    scenario: Scenario | None = None,
    problems: list[Problem] | None = None,
    refusal: str | None = None,
    status: int = 200,
    locked: bool = False,
) -> tuple[str, int]:
    set_choices(form, _pack(campaign), str(get_locale()))
    page = render_template(
        "gm/scenario_form.html",
        campaign=campaign,
        form=form,
        scenario=scenario,
        problems=problems or [],
        refusal=refusal,
        locked=locked,
    )
    return page, status


@bp.get("/<slug:campaign>/scenarios/new")
@login_required
def new_scenario(campaign: str) -> tuple[str, int]:
    found = gm_campaign(campaign)
    return _form_page(found, ScenarioForm(formdata=None))


def _refused(refusal: UserError) -> tuple[list[Problem], str | None, int]:
    """A service's refusal as the page shows it: the problems by key (422), or one reason (409 for a state)."""
    if isinstance(refusal, ScenarioProblems):
        return refusal.problems, None, 422
    return [], refusal_text(refusal), form_status(refusal)


@bp.post("/<slug:campaign>/scenarios/new")
@login_required
def create_scenario(campaign: str) -> Response | tuple[str, int]:
    """A scenario from the form: every problem beside its field and listed above, what was typed kept."""
    found = gm_campaign(campaign)
    form = ScenarioForm()
    if not form.validate_on_submit():
        return _form_page(found, form, status=422)
    spec, rows = spec_of(form)
    try:
        made = authoring.create_scenario(
            found.id, (form.slug.data or "").strip(), spec, signup_deadline=_deadline(form, found),
            terms=form.secret_terms.data or "", actor_id=current_user.id,
        )  # fmt: skip
    except (Forbidden, NotFound):
        raise
    except UserError as refusal:
        problems, reason, status = _refused(refusal)
        place_problems(form, problems, rows)
        return _form_page(found, form, problems=problems, refusal=reason, status=status)
    return redirect(url_for("gm.campaign", campaign=found.slug, done="created", _anchor=f"scenario-{made.slug}"), 303)


@bp.get("/<slug:campaign>/scenarios/<slug:scenario>/edit")
@login_required
def edit_scenario(campaign: str, scenario: str) -> tuple[str, int]:
    found = gm_campaign(campaign)
    row = campaign_scenario(found, scenario)
    form = ScenarioForm(formdata=None)
    spec = authoring.spec_of(row)
    fill(form, row.slug, spec, row.signup_deadline, found.timezone)
    form.secret_terms.data = secret_terms.listed(row.id)
    refusal = None
    if row.source != authoring.CONSOLE:
        refusal = str(_("This scenario comes from the campaign pack: change it in the pack's folder, then upgrade."))
    elif authoring.started(row.id):
        refusal = str(_("This scenario has begun (a round was opened): its setup is fixed."))
    return _form_page(found, form, scenario=row, refusal=refusal, locked=bool(refusal))


@bp.post("/<slug:campaign>/scenarios/<slug:scenario>/edit")
@login_required
def save_scenario(campaign: str, scenario: str) -> Response | tuple[str, int]:
    found = gm_campaign(campaign)
    row = campaign_scenario(found, scenario)
    form = ScenarioForm()
    form.slug.data = row.slug  # the slug is the scenario's URL: it does not change
    if not form.validate_on_submit():
        return _form_page(found, form, scenario=row, status=422)
    spec, rows = spec_of(form)
    try:
        authoring.edit_scenario(
            row.id, spec, signup_deadline=_deadline(form, found), terms=form.secret_terms.data or "",
            actor_id=current_user.id,
        )  # fmt: skip
    except (Forbidden, NotFound):
        raise
    except UserError as refusal:
        problems, reason, status = _refused(refusal)
        place_problems(form, problems, rows)
        if refusal.field == "slots":
            place_problems(form, [Problem("slots", refusal_text(refusal))], rows)
        elif refusal.field == "signup_deadline":
            form.signup_deadline.errors = [refusal_text(refusal)]
            reason = None
        return _form_page(found, form, scenario=row, problems=problems, refusal=reason, status=status)
    return redirect(url_for("gm.campaign", campaign=found.slug, done="edited", _anchor=f"scenario-{row.slug}"), 303)


def _import_page(
    campaign: Campaign, form: ImportForm, problems: list[Problem] | None = None, status: int = 200
) -> tuple[str, int]:
    page = render_template("gm/scenario_import.html", campaign=campaign, form=form, problems=problems or [])
    return page, status


@bp.get("/<slug:campaign>/scenarios/import")
@login_required
def import_form(campaign: str) -> tuple[str, int]:
    return _import_page(gm_campaign(campaign), ImportForm(formdata=None))


@bp.post("/<slug:campaign>/scenarios/import")
@login_required
def import_scenarios(campaign: str) -> Response | tuple[str, int]:
    """A scenario TOML pasted or uploaded: every problem with its key, nothing imported on any of them."""
    found = gm_campaign(campaign)
    form = ImportForm()
    if not form.validate_on_submit():
        return _import_page(found, form, status=422)
    text = form.toml.data or ""
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        try:
            text = upload.read().decode("utf-8")
        except UnicodeDecodeError:
            return _import_page(found, form, [Problem("", str(_("The file must be UTF-8 text.")))], 422)
    try:
        made = authoring.import_scenarios(found.id, text, actor_id=current_user.id)
    except (Forbidden, NotFound):
        raise
    except ScenarioProblems as refusal:
        return _import_page(found, form, refusal.problems, 422)
    except UserError as refusal:
        return _import_page(
            found, form, [Problem("", refusal_text(refusal))], 409 if isinstance(refusal, Conflict) else 422
        )
    return redirect(url_for("gm.campaign", campaign=found.slug, done="imported", count=len(made)), 303)


@bp.post("/<slug:campaign>/scenarios/<slug:scenario>/close-signup")
@login_required
def close_signup(campaign: str, scenario: str) -> Response:
    """Close the sign-up now: applicants join, by the seeded lottery when they outnumber the free slots."""
    found = gm_campaign(campaign)
    row = campaign_scenario(found, scenario)
    if not ActionForm().validate_on_submit():
        abort(400)
    if row.signup_closed_at is not None:
        abort(409)
    scenarios.close_signup(row.id, actor_id=current_user.id)
    return redirect(url_for("gm.campaign", campaign=found.slug, done="closed", _anchor=f"scenario-{row.slug}"), 303)


def _expired_form() -> tuple[str, int]:
    """The scenario form (new or edit) back with everything typed, after its CSRF token expired: nothing saved."""
    args = request.view_args or {}
    found = gm_campaign(args["campaign"])
    row = campaign_scenario(found, args["scenario"]) if "scenario" in args else None
    body, _status = _form_page(found, ScenarioForm(), scenario=row, refusal=str(EXPIRED))
    return body, 400


def _expired_import() -> tuple[str, int]:
    """The import form back with the TOML pasted, after its CSRF token expired: nothing imported."""
    found = gm_campaign((request.view_args or {})["campaign"])
    return _import_page(found, ImportForm(), [Problem("", str(EXPIRED))], 400)


EXPIRED_PAGES.update(
    {"gm.create_scenario": _expired_form, "gm.save_scenario": _expired_form, "gm.import_scenarios": _expired_import}
)


# ---- the pack ----------------------------------------------------------------------------------------------------


def pack_folder(campaign: Campaign) -> Path:
    """The campaign's pack folder: its pack's name under `PACKS_DIR` (None: the project's campaigns/); the console
    reads no other folder."""
    name = Campaign.select(Campaign.pack_name).where(Campaign.id == campaign.id).get().pack_name
    return Path(current_app.config.get("PACKS_DIR") or CAMPAIGNS_DIR) / name


def _owner(campaign: Campaign) -> None:
    """The pack is the owner's (a co-GM gets 403, like the service's `require_owner`)."""
    try:
        gms.require_owner(campaign.id, current_user.id)
    except Forbidden:
        abort(403)


@bp.get("/<slug:campaign>/pack")
@login_required
def pack(campaign: str) -> tuple[str, int]:
    found = gm_campaign(campaign)
    _owner(found)
    return _pack_page(found)


def _pack_page(
    campaign: Campaign, *, problems: list[Problem] | None = None, trial: bool = False, checked: bool = False,
    status: int = 200,
) -> tuple[str, int]:  # fmt: skip
    page = render_template(
        "gm/pack.html",
        campaign=campaign,
        folder=pack_folder(campaign),
        form=ActionForm(),
        problems=problems or [],
        trial=trial,
        checked=checked,
        done=request.args.get("done"),
    )
    return page, status


@bp.post("/<slug:campaign>/pack")
@login_required
def upgrade_pack(campaign: str) -> Response | tuple[str, int]:
    """`action=check` validates and tries the folder's pack (changes nothing); `action=upgrade` also stores it."""
    found = gm_campaign(campaign)
    _owner(found)
    if not ActionForm().validate_on_submit():
        abort(400)
    apply = request.form.get("action") == "upgrade"
    try:
        campaigns.upgrade_pack(found.id, pack_folder(found), actor_id=current_user.id, apply=apply)
    except (Forbidden, NotFound):
        raise
    except PackRefused as refusal:
        return _pack_page(found, problems=refusal.problems, trial=refusal.trial, status=422)
    if not apply:
        return _pack_page(found, checked=True)
    return redirect(url_for("gm.pack", campaign=found.slug, done="upgraded"), 303)


# ---- the audit log -----------------------------------------------------------------------------------------------


@bp.get("/<slug:campaign>/audit")
@login_required
def audit_log(campaign: str) -> tuple[str, int]:
    """The campaign's audit log, newest first, a page at a time (`?page=2` is older)."""
    found = gm_campaign(campaign)
    number = request.args.get("page", "1")
    if not number.isdigit() or not 1 <= int(number) <= 100_000:
        abort(404)
    shown = audit.page(found.id, int(number), actor_id=current_user.id)
    if int(number) > 1 and not shown.rows:
        abort(404)
    page = render_template(
        "gm/audit.html",
        campaign=found,
        page=shown,
        when=lambda at: local_text(at, found.timezone),
        said=audit_words.sayer(shown.rows, found),
    )
    return page, 200
