"""A campaign's settings in the GM's console (`/gm/<campaign>/settings`, `pbp.services.campaign_settings`): the
publishing policy, the guard's hold share, the webhook and its test event, the growth award, the time zone and the
プレイング limit; and the one-click switch of automatic publication the campaign page shows at its top. Through the
door (`gm_campaign`) and one service call each, which checks the GM again and logs every change."""

from __future__ import annotations

from flask import abort, redirect, render_template, request, url_for
from flask_babel import lazy_gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response
from wtforms import HiddenField, IntegerField, RadioField, SelectChoice, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from pbp.engine.pool.gm_actions import BONUS_MAX
from pbp.errors import Forbidden, NotFound, UserError
from pbp.models import Campaign
from pbp.services import campaign_settings
from pbp.services.campaign_settings import ENTRY_LIMIT_RANGE, GROWTH_AWARD_MAX, URL_LIMIT, Settings
from pbp.services.clock import local_text
from pbp.web.errors import form_status
from pbp.web.forms import ActionForm, SiteForm, show_refusal
from pbp.web.gm import bp
from pbp.web.gm.access import gm_campaign
from pbp.web.i18n import refusal_text

AUTO, REVIEW = "auto", "review"
DONE = {
    "saved": _("The settings are saved: the scheduler goes by them from its next tick."),
    "unchanged": _("Nothing was changed."),
    "auto_on": _("Rounds are now published as soon as they are resolved."),
    "auto_off": _("Rounds now wait for your review: publish each from its report page."),
    "test": _("A test event is queued: the scheduler posts it to the webhook at its next tick."),
}
_FILL = _("Fill this in.")


def _whole(low: int, high: int) -> list[object]:
    return [
        InputRequired(message=_FILL),
        NumberRange(low, high, message=_("A whole number from %(low)s to %(high)s.", low=low, high=high)),
    ]


def _cap() -> list[object]:
    """A cap of the play bonus: left out (a form from before it), it stays as it is."""
    return [
        Optional(),
        NumberRange(0, BONUS_MAX, message=_("A whole number from %(low)s to %(high)s.", low=0, high=BONUS_MAX)),
    ]


class SettingsForm(SiteForm):
    publishing = RadioField(
        _("Publishing"),
        choices=[
            SelectChoice(REVIEW, _("Review first: each resolved round waits for a GM to publish it")),
            SelectChoice(
                AUTO, _("Publish automatically: the scheduler publishes each round as soon as it is resolved")
            ),
        ],
        validators=[InputRequired(message=_FILL)],
    )
    hold_percent = IntegerField(
        _("Hold a round when more than this share of entries is missing (%)"),
        _whole(0, 100),
        description=_("At the deadline the round is held for you instead of resolved (100: never held)."),
    )
    webhook = StringField(
        _("Webhook"),
        [Length(max=URL_LIMIT)],
        description=_("An http(s) URL (a chat channel's incoming hook) the notifications are posted to; empty: none."),
    )
    growth_award = IntegerField(
        _("Growth points on publication"),
        _whole(0, GROWTH_AWARD_MAX),
        description=_("Every character with an entry in a round gets them when the round is published (0: none)."),
    )
    timezone = StringField(
        _("Time zone"),
        [InputRequired(message=_FILL), Length(max=64)],
        description=_("Deadlines are typed and shown in it, e.g. Asia/Tokyo or UTC."),
    )
    entry_char_limit = IntegerField(
        _("Prose limit (characters of a プレイング)"),
        _whole(*ENTRY_LIMIT_RANGE),
        description=_("Entries already saved keep their text; a longer one is refused at its next save."),
    )
    bonus_dice_max = IntegerField(
        _("Play bonus: the most dice per entry"),
        _cap(),
        description=_("The GM's reward for a good プレイング, on the round's review (0: no dice bonus)."),
    )
    bonus_successes_max = IntegerField(
        _("Play bonus: the most successes per entry"),
        _cap(),
        description=_("Added to every check the character rolls that round (0: no success bonus)."),
    )


class SwitchForm(SiteForm):
    """The one-click switch: `publish_automatically` on or off, and the page to come back to."""

    publish_automatically = HiddenField()
    back = HiddenField()


def _form_of(settings: Settings) -> SettingsForm:
    return SettingsForm(
        formdata=None,
        publishing=AUTO if settings.publish_automatically else REVIEW,
        hold_percent=round(settings.hold_share * 100),
        webhook=settings.webhook,
        growth_award=settings.growth_award,
        timezone=settings.timezone,
        entry_char_limit=settings.entry_char_limit,
        bonus_dice_max=settings.bonus_dice_max,
        bonus_successes_max=settings.bonus_successes_max,
    )


def _page(
    found: Campaign, form: SettingsForm | None = None, status: int = 200, refusal: str | None = None
) -> tuple[str, int]:
    campaign = Campaign.get_by_id(found.id)
    settings = campaign_settings.current(campaign)
    tested = campaign_settings.last_webhook_test(campaign.id)
    page = render_template(
        "gm/settings.html",
        campaign=campaign,
        settings=settings,
        form=form or _form_of(settings),
        switch=SwitchForm(formdata=None),
        action_form=ActionForm(formdata=None),
        tested=tested,
        tested_at=local_text(tested.at, campaign.timezone) if tested else None,
        refusal=refusal,
        done=DONE.get(request.args.get("done", "")),
    )
    return page, status


@bp.get("/<slug:campaign>/settings")
@login_required
def settings_page(campaign: str) -> tuple[str, int]:
    return _page(gm_campaign(campaign))


@bp.post("/<slug:campaign>/settings")
@login_required
def save_settings(campaign: str) -> Response | tuple[str, int]:
    """Save every setting at once: a refusal beside its field, everything typed kept, nothing stored."""
    found = gm_campaign(campaign)
    form = SettingsForm()
    if not form.validate_on_submit():
        return _page(found, form, 422)
    was = campaign_settings.current(Campaign.get_by_id(found.id))
    wanted = Settings(
        publish_automatically=form.publishing.data == AUTO,
        hold_share=int(form.hold_percent.data) / 100,
        webhook=form.webhook.data or "",
        growth_award=int(form.growth_award.data),
        timezone=form.timezone.data or "",
        entry_char_limit=int(form.entry_char_limit.data),
        bonus_dice_max=_or(form.bonus_dice_max.data, was.bonus_dice_max),
        bonus_successes_max=_or(form.bonus_successes_max.data, was.bonus_successes_max),
    )
    try:
        changed = campaign_settings.save(found.id, wanted, actor_id=current_user.id)
    except (Forbidden, NotFound):
        raise
    except UserError as refusal:
        show_refusal(form, refusal if refusal.field != "hold_share" else UserError(refusal.message, "hold_percent"))
        return _page(found, form, form_status(refusal))
    return redirect(url_for("gm.settings_page", campaign=found.slug, done="saved" if changed else "unchanged"), 303)


def _or(value: int | None, stored: int) -> int:
    return stored if value is None else int(value)


@bp.post("/<slug:campaign>/settings/publishing")
@login_required
def switch_publishing(campaign: str) -> Response:
    """The one-click switch of automatic publication, back to the campaign page or the settings."""
    found = gm_campaign(campaign)
    form = SwitchForm()
    if not form.validate_on_submit() or form.publish_automatically.data not in ("on", "off"):
        abort(400)
    on = form.publish_automatically.data == "on"
    campaign_settings.change(found.id, actor_id=current_user.id, publish_automatically=on)
    page = "gm.settings_page" if form.back.data == "settings" else "gm.campaign"
    return redirect(url_for(page, campaign=found.slug, done="auto_on" if on else "auto_off"), 303)


@bp.post("/<slug:campaign>/settings/webhook-test")
@login_required
def test_webhook(campaign: str) -> Response | tuple[str, int]:
    """Queue a test event for the webhook as saved; refused (above the form) when none is."""
    found = gm_campaign(campaign)
    if not ActionForm().validate_on_submit():
        abort(400)
    try:
        campaign_settings.test_webhook(found.id, actor_id=current_user.id)
    except (Forbidden, NotFound):
        raise
    except UserError as refusal:
        return _page(found, status=form_status(refusal), refusal=refusal_text(refusal))
    return redirect(url_for("gm.settings_page", campaign=found.slug, done="test"), 303)
