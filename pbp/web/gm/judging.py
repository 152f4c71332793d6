"""Judging the プレイング on a round's review (issue 31, item 7): a プレイングボーナス per entry and ad-hoc checks, with
their published reasons (`pbp.services.judging`). The forms stand on the review page (`rounds._review_page`); each
POST is one service call, which checks the GM again, and a refusal comes back beside its field with everything
typed kept."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import abort, redirect, url_for
from flask_babel import gettext
from flask_babel import lazy_gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response
from wtforms import IntegerField, SelectField, StringField, TextAreaField
from wtforms.validators import InputRequired, Length, NumberRange

from pbp.engine.pool.adhoc import NEED_MAX
from pbp.engine.pool.gm_actions import BONUS_MAX
from pbp.errors import Forbidden, NotFound, UserError
from pbp.models import Campaign, Entry, Round
from pbp.services import judging
from pbp.services._common import REASON_LIMIT
from pbp.services.characters import character_id_of, unit_id
from pbp.web.clock import app_clock
from pbp.web.errors import form_status
from pbp.web.forms import ActionForm, SiteForm, show_refusal
from pbp.web.gm import bp
from pbp.web.gm.access import campaign_round, gm_campaign
from pbp.web.i18n import refusal_text

_FILL = _("Fill this in.")


class BonusForm(SiteForm):
    """A PC's プレイングボーナス: whose entry, +dice, +successes (0 and 0 takes it away) and the published reason. Its
    fields' ids are its own: the review's override form has a `successes` and a `reason` too."""

    character = SelectField(_("Entry"), validate_choice=False, id="bonus-character")
    dice = IntegerField(
        _("+Dice"), [InputRequired(message=_FILL), NumberRange(0, BONUS_MAX)], default=0, id="bonus-dice"
    )
    successes = IntegerField(
        _("+Successes"), [InputRequired(message=_FILL), NumberRange(0, BONUS_MAX)], default=0, id="bonus-successes"
    )
    reason = TextAreaField(
        _("Reason"),
        [Length(max=REASON_LIMIT)],
        description=_("Published with the GM's actions (needed unless you take the bonus away with 0 and 0)."),
        id="bonus-reason",
    )


class AdhocForm(SiteForm):
    """An ad-hoc check: who rolls which skill (`<character>|<skill>`), the successes it needs, the story's words."""

    roll = SelectField(_("Who rolls, and which skill"), validate_choice=False, id="adhoc-roll")
    need = IntegerField(
        _("Successes needed"), [InputRequired(message=_FILL), NumberRange(0, NEED_MAX)], default=1, id="adhoc-need"
    )
    success_text = StringField(
        _("On a success, the story says"),
        [Length(max=REASON_LIMIT)],
        description=_("Optional: one sentence."),
        id="adhoc-success-text",
    )
    failure_text = StringField(
        _("On a failure, the story says"),
        [Length(max=REASON_LIMIT)],
        description=_("Optional: one sentence."),
        id="adhoc-failure-text",
    )
    reason = TextAreaField(
        _("Reason"),
        [InputRequired(message=_FILL), Length(max=REASON_LIMIT)],
        description=_("Published with the dice log: the creative action the check is for."),
        id="adhoc-reason",
    )


@dataclass
class Panel:
    """The judging section of a review: what is set, the forms, and who may get what."""

    judging: judging.Judging
    bonus_form: BonusForm
    adhoc_form: AdhocForm
    remove_form: ActionForm
    names: dict[int, str]  # each PC of the round by character id, in the page's language
    skill: Callable[[str], str]  # a skill's name in the page's language
    outcomes: dict[int, dict[str, Any]]  # each ad-hoc check's roll by its row id, once the round is resolved


def panel(
    campaign: Campaign,
    rnd: Round,
    encounter: dict[str, Any],
    events: list[dict[str, Any]] | None,
    unit_names: dict[str, str],
    skill: Callable[[str], str],
    *,
    bonus_form: BonusForm | None = None,
    adhoc_form: AdhocForm | None = None,
) -> Panel | None:
    """The review's judging section, None where the ruleset has none (kancolle)."""
    if not judging.judges(campaign.ruleset):
        return None
    state = judging.judging_of(rnd.id, encounter, rnd.state)
    names = {cid: name for uid, name in unit_names.items() if (cid := character_id_of(uid)) is not None}
    entered = [e.character_id for e in Entry.select(Entry.character).where(Entry.round == rnd.id)]
    bonus_form = bonus_form or BonusForm(formdata=None)
    bonus_form.character.choices = [("", gettext("Choose an entry"))] + [
        (str(cid), names.get(cid, unit_id(cid))) for cid in entered
    ]
    adhoc_form = adhoc_form or AdhocForm(formdata=None)
    adhoc_form.roll.choices = {
        "": [("", gettext("Choose who rolls which skill"))],
        **{names[cid]: [(f"{cid}|{s}", skill(s)) for s in skills] for cid, skills in state.skills.items()},
    }
    rolled = [e for e in events or [] if e.get("type") == "check" and e.get("purpose") == "adhoc"]
    outcomes = {row.id: event for row, event in zip(state.adhoc, rolled, strict=False)} if events else {}
    return Panel(state, bonus_form, adhoc_form, ActionForm(formdata=None), names, skill, outcomes)


def _again(campaign: Campaign, rnd: Round, status: int, refusal: str | None = None, **forms: Any) -> tuple[str, int]:
    """The review again, with the judging form as sent (its errors beside its fields)."""
    from pbp.web.gm.rounds import _review_page  # the review imports this module's panel

    return _review_page(campaign, rnd, status=status, refusal=refusal, judging_forms=forms)


def _refused(campaign: Campaign, rnd: Round, refusal: UserError, name: str, form: SiteForm) -> tuple[str, int]:
    """A service's refusal beside its field, or at the top of the page (where a published round shows no form)."""
    if refusal.field is None:
        return _again(campaign, rnd, form_status(refusal), refusal_text(refusal), **{name: form})
    show_refusal(form, refusal)
    return _again(campaign, rnd, form_status(refusal), **{name: form})


def _done(campaign: Campaign, rnd: Round, done: str) -> Response:
    return redirect(url_for("gm.round_review", campaign=campaign.slug, round_id=rnd.id, done=done) + "#judging", 303)


def _chosen(value: str | None) -> int | None:
    return int(value) if value and value.isascii() and value.isdigit() and len(value) < 19 else None


@bp.post("/<slug:campaign>/rounds/<row:round_id>/bonus")
@login_required
def round_bonus(campaign: str, round_id: int) -> Response | tuple[str, int]:
    """Set (or take away) a PC's プレイングボーナス before the round is published."""
    found = gm_campaign(campaign)
    rnd = campaign_round(found, round_id)
    form = BonusForm()
    character = _chosen(form.character.data)
    if not form.validate_on_submit() or character is None:
        if character is None:
            form.character.errors = [gettext("Choose the entry the bonus rewards.")]
        return _again(found, rnd, 422, bonus_form=form)
    try:
        judging.set_bonus(rnd.id, character, dice=int(form.dice.data), successes=int(form.successes.data),
                          reason=form.reason.data or "", actor_id=current_user.id, campaign_id=found.id,
                          clock=app_clock())  # fmt: skip
    except Forbidden:
        raise
    except UserError as refusal:
        return _refused(found, rnd, refusal, "bonus_form", form)
    taken = not form.dice.data and not form.successes.data
    return _done(found, rnd, "bonus_removed" if taken else "bonus")


@bp.post("/<slug:campaign>/rounds/<row:round_id>/adhoc")
@login_required
def round_adhoc(campaign: str, round_id: int) -> Response | tuple[str, int]:
    """Add an ad-hoc check for a PC's creative action, rolled after the round's other checks."""
    found = gm_campaign(campaign)
    rnd = campaign_round(found, round_id)
    form = AdhocForm()
    who, _sep, skill = (form.roll.data or "").partition("|")
    character = _chosen(who)
    if not form.validate_on_submit() or character is None or not skill:
        if character is None or not skill:
            form.roll.errors = [gettext("Choose who rolls which skill.")]
        return _again(found, rnd, 422, adhoc_form=form)
    try:
        judging.add_adhoc_check(rnd.id, character, skill=skill, need=int(form.need.data), reason=form.reason.data or "",
                                success_text=form.success_text.data or "", failure_text=form.failure_text.data or "",
                                actor_id=current_user.id, campaign_id=found.id, clock=app_clock())  # fmt: skip
    except Forbidden:
        raise
    except UserError as refusal:
        said = refusal if refusal.field != "skill" else UserError(refusal.message, "roll")
        return _refused(found, rnd, said, "adhoc_form", form)
    return _done(found, rnd, "adhoc")


@bp.post("/<slug:campaign>/rounds/<row:round_id>/adhoc/<row:check_id>/remove")
@login_required
def round_adhoc_remove(campaign: str, round_id: int, check_id: int) -> Response | tuple[str, int]:
    """Take an ad-hoc check away."""
    found = gm_campaign(campaign)
    rnd = campaign_round(found, round_id)
    if not ActionForm().validate_on_submit():
        abort(400)
    try:
        judging.remove_adhoc_check(rnd.id, check_id, actor_id=current_user.id, campaign_id=found.id, clock=app_clock())
    except (Forbidden, NotFound):
        raise
    except UserError as refusal:
        return _again(found, rnd, form_status(refusal), refusal_text(refusal))
    return _done(found, rnd, "adhoc_removed")
