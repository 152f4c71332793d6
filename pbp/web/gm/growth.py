"""Growth in the GM's console (`/gm/<campaign>/growth`): the growth requests (成長申請) waiting for a decision, each
priced from the campaign's pack against the character's sheet as it is now, approved or denied with a reason
(`characters.decide_growth`); the campaign's growth award on publication (`publishing.set_growth_award`); the
decisions taken lately."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import abort, redirect, render_template, request, url_for
from flask_babel import lazy_gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response
from wtforms import IntegerField, TextAreaField
from wtforms.validators import InputRequired, NumberRange

from pbp.engine import BadInput, find_ruleset
from pbp.errors import Forbidden, InvalidState, NotFound, UserError
from pbp.models import Campaign, Character, GrowthRequest, User
from pbp.services import campaign_settings, characters, publishing
from pbp.services._common import said_problems
from pbp.services.characters import NOTE_LIMIT
from pbp.services.clock import from_db
from pbp.web.blog.queries import pack_name
from pbp.web.errors import form_status
from pbp.web.forms import SiteForm, shown_limit
from pbp.web.gm import bp
from pbp.web.gm.access import gm_campaign
from pbp.web.i18n import localized, page_locale, refusal_text

RECENT = 20  # decided requests listed
STATUS = {"pending": _("waiting"), "approved": _("approved"), "denied": _("denied")}


class DecisionForm(SiteForm):
    reason = TextAreaField(
        _("Reason"), render_kw=shown_limit(NOTE_LIMIT), description=_("Shown to the player. Required to deny.")
    )


class AwardForm(SiteForm):
    points = IntegerField(
        _("Growth points on publication"),
        [
            InputRequired(message=_("Fill this in.")),
            NumberRange(
                0,
                campaign_settings.GROWTH_AWARD_MAX,
                message=_("A whole number from 0 to %(max)s.", max=campaign_settings.GROWTH_AWARD_MAX),
            ),
        ],
        description=_("Every character with an entry in a round gets them when the round is published (0: none)."),
    )


@dataclass
class Raise:
    skill: str
    before: int
    after: int
    cost: int | None  # priced now against the sheet (None: it cannot be any more)


@dataclass
class RequestRow:
    id: int
    character: str
    character_id: int
    player: str
    created_at: datetime
    raises: list[Raise]
    cost: int  # as priced when asked
    cost_now: int | None  # priced again now (None: the raise is no longer possible)
    problem: str | None  # why it cannot be priced now, in the page's language
    unspent: int
    note: str
    status: str
    reason: str
    decided_at: datetime | None
    decided_by: str


def _row(campaign: Campaign, request_row: GrowthRequest, sheet: dict[str, Any], player: str, locale: str) -> RequestRow:
    pack, ruleset = campaign.pack or {}, find_ruleset(campaign.ruleset)
    levels = characters.requested_levels(request_row)
    current = sheet.get("skills") or {}
    before = request_row.before.get("skills") or {}
    raises = []
    for skill, level in levels.items():
        try:
            cost: int | None = ruleset.raise_cost(pack, sheet, {skill: level})
        except BadInput:
            cost = None
        was = current.get(skill, 1) if request_row.status == "pending" else before.get(skill, 1)
        raises.append(Raise(pack_name(pack, "skills", skill, locale, skill), int(was), int(level), cost))
    problem = None
    try:
        cost_now: int | None = ruleset.raise_cost(pack, sheet, levels)
    except BadInput as e:
        cost_now, problem = None, localized(said_problems(e.problems))
    character = request_row.character
    return RequestRow(
        id=request_row.id,
        character=str(sheet.get(locale) or character.name),
        character_id=character.id,
        player=player,
        created_at=from_db(request_row.created_at),
        raises=raises,
        cost=request_row.cost,
        cost_now=cost_now,
        problem=problem,
        unspent=characters.unspent_growth(campaign, sheet),
        note=request_row.note,
        status=request_row.status,
        reason=request_row.reason,
        decided_at=from_db(request_row.decided_at) if request_row.decided_at else None,
        decided_by=request_row.decided_by.display_name if request_row.decided_by_id else "",
    )


def _rows(campaign: Campaign) -> tuple[list[RequestRow], list[RequestRow]]:
    """The pending requests (oldest first) and the latest decided ones (newest first)."""
    locale = page_locale()
    players = {
        u.id: u.display_name
        for u in User.select(User.id, User.display_name)
        .join(Character, on=Character.owner == User.id)
        .where(Character.campaign == campaign.id)
    }
    pending = [
        _row(campaign, r, r.character.sheet, players.get(r.character.owner_id, ""), locale)
        for r in characters.pending_growth(campaign.id)
    ]
    decided_query = (
        GrowthRequest.select(GrowthRequest, Character)
        .join(Character)
        .where(Character.campaign == campaign.id, GrowthRequest.status != characters.PENDING)
        .order_by(GrowthRequest.decided_at.desc(), GrowthRequest.id.desc())
        .limit(RECENT)
    )
    decided = [_row(campaign, r, r.after, players.get(r.character.owner_id, ""), locale) for r in decided_query]
    return pending, decided


def _page(
    slug: str,
    *,
    forms: dict[int, DecisionForm] | None = None,
    award: AwardForm | None = None,
    status: int = 200,
    refusal: str | None = None,
) -> tuple[str, int]:
    campaign = Campaign.get(Campaign.slug == slug)  # with its pack: the prices
    pending, decided = _rows(campaign)
    forms = forms or {}
    for row in pending:
        forms.setdefault(row.id, DecisionForm(formdata=None, prefix=f"r{row.id}"))
    if award is None:
        award = AwardForm(formdata=None, points=campaign.growth_on_publish)
    page = render_template(
        "gm/growth.html",
        campaign=campaign,
        pending=pending,
        decided=decided,
        forms=forms,
        award=award,
        refusal=refusal,
        status_name=lambda s: STATUS.get(s, s),
        done=request.args.get("done"),
    )
    return page, status


@bp.get("/<slug:campaign>/growth")
@login_required
def growth(campaign: str) -> tuple[str, int]:
    return _page(gm_campaign(campaign).slug)


@bp.post("/<slug:campaign>/growth/<row:request_id>")
@login_required
def decide(campaign: str, request_id: int) -> Response | tuple[str, int]:
    """Approve or deny one request (`decision`), with the reason typed in its own form."""
    found = gm_campaign(campaign)
    row = GrowthRequest.select(GrowthRequest, Character).join(Character).where(GrowthRequest.id == request_id).first()
    if row is None or row.character.campaign_id != found.id:
        abort(404)
    decision = request.form.get("decision")
    if decision not in ("approve", "deny"):
        abort(400)
    form = DecisionForm(prefix=f"r{request_id}")
    if not form.validate_on_submit():  # a file or JSON where the reason is typed: said beside it
        return _page(found.slug, forms={request_id: form}, status=422)
    try:
        characters.decide_growth(request_id, decision == "approve", form.reason.data or "", actor_id=current_user.id)
    except (Forbidden, NotFound):
        raise
    except UserError as refusal:
        form.reason.errors = [refusal_text(refusal)]
        status = form_status(refusal)
        decided = (
            refusal_text(refusal) if isinstance(refusal, InvalidState) else None
        )  # no longer on the page: said above
        return _page(found.slug, forms={request_id: form}, status=status, refusal=decided)
    return redirect(url_for("gm.growth", campaign=found.slug, done=decision), 303)


@bp.post("/<slug:campaign>/growth/award")
@login_required
def award(campaign: str) -> Response | tuple[str, int]:
    """The campaign's growth award on publication."""
    found = gm_campaign(campaign)
    form = AwardForm()
    if not form.validate_on_submit():
        return _page(found.slug, award=form, status=422)
    try:
        publishing.set_growth_award(found.id, int(form.points.data), actor_id=current_user.id)
    except (Forbidden, NotFound):
        raise
    except UserError as refusal:
        form.points.errors = [refusal_text(refusal)]
        return _page(found.slug, award=form, status=422)
    return redirect(url_for("gm.growth", campaign=found.slug, done="award"), 303)
