"""Characters in the browser: a new one from the campaign pack, its gear and texts edited, its growth requests
(成長申請). The form and its budget come from the pack (pbp.web.player.sheets); the services check everything again
and a refused form comes back with every problem beside its field and everything typed kept."""

from __future__ import annotations

from typing import Any

from flask import redirect, render_template, request, url_for
from flask_babel import lazy_gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response
from wtforms import HiddenField, StringField, TextAreaField

from pbp.engine import find_ruleset
from pbp.engine.pool.pack_data import LEVEL_MAX, LEVEL_MIN
from pbp.errors import UserError
from pbp.models import Campaign, Character
from pbp.services import characters
from pbp.services._common import NAME_LIMIT
from pbp.services.characters import DESCRIPTION_LIMIT, NOTE_LIMIT, BadSheet, StaleSheet, sheet_version
from pbp.web.clock import app_clock
from pbp.web.data.views import belongs_to
from pbp.web.forms import SiteForm, shown_limit
from pbp.web.i18n import page_locale, refusal_text
from pbp.web.player import bp, kancolle_sheet, queries
from pbp.web.player.expired import keeps_input
from pbp.web.player.sheets import (
    WHOLE_NUMBER,
    Fields,
    errors_of,
    fields_of,
    form_errors,
    sheet_of,
    sheet_page,
    typed_texts,
)

STALE = _(
    "This character changed since you opened the form (a growth request was decided or the GM changed it). "
    "Nothing was saved: check the sheet below, which shows it as it is now, and save again."
)
#: A growth request's status as the page says it.
GROWTH_STATUS = {
    "pending": _("waiting for the GM"),
    "approved": _("approved"),
    "denied": _("denied"),
}


class SheetForm(SiteForm):
    ja = StringField(
        _("Name"),
        render_kw=shown_limit(NAME_LIMIT),
        description=_("In any script; the English pages and reports use it too unless you give one below."),
    )
    en = StringField(
        _("Name on English pages and reports (optional)"),
        render_kw=shown_limit(NAME_LIMIT),
        description=_("In Latin letters, say. Left empty, the name above is used."),
    )
    description = TextAreaField(_("Description"), render_kw=shown_limit(DESCRIPTION_LIMIT))
    version = HiddenField()


class GrowthForm(SiteForm):
    note = TextAreaField(_("Note to the GM (optional)"), render_kw=shown_limit(NOTE_LIMIT))


def _refused(refusal: UserError, known: list[str]) -> dict[str, str]:
    """A service's refusal beside its field: each of the ruleset's problems at its own; the sheet's name at `ja`."""
    if isinstance(refusal, BadSheet):
        return errors_of(refusal.problems, known)
    where = {"name": "ja"}.get(refusal.field or "", refusal.field or "form")
    return {where if where in known else "form": refusal_text(refusal)}


def _sheet_page(
    campaign: Campaign,
    character: Character | None,
    form: SheetForm,
    fields: Fields,
    *,
    errors: dict[str, str] | None = None,
    status: int = 200,
) -> tuple[str, int]:
    base = character.sheet if character else None
    sheet = sheet_of(fields, campaign.pack, base).sheet
    page = sheet_page(campaign, sheet, page_locale(), creating=character is None)
    belongs_to(campaign.slug)
    body = render_template(
        "player/character.html",
        campaign=campaign,
        campaign_name=queries.campaign_name(campaign, page_locale()),
        character=character,
        sheet=sheet,
        page=page,
        form=form,
        fields=fields,
        errors=errors or {},
        saved="saved" in request.args,
    )
    return body, status


def _fresh(campaign: Campaign) -> Fields:
    """A new sheet's starting values: every stat at its minimum, every skill at level 1 (R-CHECK-3)."""
    page = sheet_page(campaign, {}, page_locale(), creating=True)
    fields = Fields({f"stats.{c.id}": [str(page.stat_range[0])] for c in page.stats})
    fields.update({f"skills.{c.id}": [str(page.levels[0])] for c, _stat, _costs in page.skills})
    return fields


def _kancolle_page(
    campaign: Campaign, character: Character | None, form: SheetForm, fields: Fields, *,
    errors: dict[str, str] | None = None, status: int = 200,
) -> tuple[str, int]:  # fmt: skip
    """A ship girl's form: the grid drawn as the rulebook's picture (pbp.web.player.kancolle_sheet)."""
    locale = page_locale()
    belongs_to(campaign.slug)
    headings, rows = kancolle_sheet.grid_rows(campaign.pack, locale)
    ships = [
        (sid, str(s.get(locale) or s.get("ja") or sid)) for sid, s in (campaign.pack.get("characters") or {}).items()
    ]
    sheet = character.sheet if character else {}
    body = render_template(
        "player/kancolle_character.html",
        campaign=campaign,
        campaign_name=queries.campaign_name(campaign, locale),
        character=character,
        sheet=sheet,
        form=form,
        fields=fields,
        errors=errors or {},
        headings=headings,
        rows=rows,
        ships=ships,
        pronouns=sheet_page(campaign, sheet, locale, creating=character is None).pronouns,
        saved="saved" in request.args,
    )
    return body, status


def _kancolle_save(campaign: Campaign, character: Character | None, form: SheetForm) -> Response | tuple[str, int]:
    """A ship girl's form posted: the sheet it describes judged by the ruleset, saved through the service."""
    fields = Fields(request.form.to_dict(flat=False))
    parsed = kancolle_sheet.sheet_of(fields, campaign.pack, character.sheet if character else None)
    if parsed.errors:
        judged = kancolle_sheet.errors_of(
            find_ruleset(campaign.ruleset).validate_character(campaign.pack, parsed.sheet)
        )
        errors = {**judged, **parsed.errors}
        return _kancolle_page(campaign, character, form, fields, errors=errors, status=422)
    try:
        if character is None:
            saved = characters.create_character(campaign.id, current_user.id, parsed.sheet, clock=app_clock())
        else:
            version = form.version.data or ""
            saved = characters.edit_character(
                character.id, current_user.id, parsed.sheet, version=version, clock=app_clock()
            )
    except StaleSheet:
        form.version.data = sheet_version(character.sheet if character else {})
        return _kancolle_page(campaign, character, form, fields, errors={"form": str(STALE)}, status=422)
    except BadSheet as refusal:
        errors = kancolle_sheet.errors_of(refusal.problems)
        return _kancolle_page(campaign, character, form, fields, errors=errors, status=422)
    except UserError as refusal:
        return _kancolle_page(campaign, character, form, fields, errors={"form": refusal_text(refusal)}, status=422)
    return redirect(url_for("player.edit_character", character_id=saved.id, saved=1), 303)


@bp.route("/campaigns/<slug:campaign>/characters/new", methods=["GET", "POST"])
@login_required
def new_character(campaign: str) -> Response | tuple[str, int]:
    row = queries.campaign_by_slug(campaign)
    form = SheetForm()
    if row.ruleset == "kancolle":
        if request.method == "GET":
            return _kancolle_page(row, None, form, Fields())
        return _kancolle_save(row, None, form)
    if request.method == "GET":
        return _sheet_page(row, None, form, _fresh(row))
    fields = Fields(request.form.to_dict(flat=False))
    parsed = sheet_of(fields, row.pack)
    known = sheet_page(row, parsed.sheet, page_locale(), creating=True).known_fields()
    if parsed.errors:
        return _sheet_page(row, None, form, fields, errors=form_errors(parsed, row, known), status=422)
    try:
        created = characters.create_character(row.id, current_user.id, parsed.sheet, clock=app_clock())
    except UserError as refusal:
        return _sheet_page(row, None, form, fields, errors=_refused(refusal, known), status=422)
    return redirect(url_for("player.edit_character", character_id=created.id, saved=1), 303)


@keeps_input("player.new_character")
def _new_expired(message: str) -> tuple[str, int]:
    row = queries.campaign_by_slug((request.view_args or {})["campaign"])
    return _sheet_page(row, None, SheetForm(), Fields(request.form.to_dict(flat=False)), errors={"form": message})


@bp.route("/characters/<row:character_id>/edit", methods=["GET", "POST"])
@login_required
def edit_character(character_id: int) -> Response | tuple[str, int]:
    character = queries.own_character(character_id, current_user.id)
    campaign = character.campaign
    if request.method == "GET":
        form = SheetForm(formdata=None, version=sheet_version(character.sheet), **typed_texts(character.sheet))
        if campaign.ruleset == "kancolle":
            return _kancolle_page(campaign, character, form, kancolle_sheet.fields_of(character.sheet))
        return _sheet_page(campaign, character, form, fields_of(character.sheet))
    if campaign.ruleset == "kancolle":
        return _kancolle_save(campaign, character, SheetForm())
    form = SheetForm()
    fields = Fields(request.form.to_dict(flat=False))
    parsed = sheet_of(fields, campaign.pack, character.sheet)
    known = sheet_page(campaign, parsed.sheet, page_locale(), creating=False).known_fields()
    if parsed.errors:
        return _sheet_page(campaign, character, form, fields, errors=form_errors(parsed, campaign, known), status=422)
    try:
        characters.edit_character(
            character_id, current_user.id, parsed.sheet, version=form.version.data or "", clock=app_clock()
        )
    except StaleSheet:
        form.version.data = sheet_version(character.sheet)  # the sheet as it is now: saving again is deliberate
        return _sheet_page(campaign, character, form, fields, errors={"form": str(STALE)}, status=422)
    except UserError as refusal:
        return _sheet_page(campaign, character, form, fields, errors=_refused(refusal, known), status=422)
    return redirect(url_for("player.edit_character", character_id=character_id, saved=1), 303)


@keeps_input("player.edit_character")
def _edit_expired(message: str) -> tuple[str, int]:
    character = queries.own_character((request.view_args or {})["character_id"], current_user.id)
    fields = Fields(request.form.to_dict(flat=False))
    return _sheet_page(character.campaign, character, SheetForm(), fields, errors={"form": message})


def _growth_page(
    character: Character, form: GrowthForm, typed: dict[str, str], *, errors: dict[str, str] | None = None
) -> str:
    campaign = character.campaign
    belongs_to(campaign.slug)
    page = sheet_page(campaign, character.sheet, page_locale(), creating=False)
    prices = find_ruleset(campaign.ruleset).raise_cost_table(campaign.pack, character.sheet)
    levels = character.sheet.get("skills") or {}
    rows = []
    for skill, stat, _costs in page.skills:
        current = int(levels.get(skill.id, page.levels[0]))
        options = [(level, prices[skill.id][level]) for level in range(current, LEVEL_MAX + 1)]
        rows.append((skill, stat, current, options))
    return render_template(
        "player/growth.html",
        character=character,
        campaign_name=queries.campaign_name(campaign, page_locale()),
        name=queries.character_name(character, page_locale()),
        rows=rows,
        unspent=characters.unspent_growth(campaign, character.sheet),
        requests=queries.growth_history(character, page_locale()),
        status_name=lambda s: GROWTH_STATUS.get(s, s),
        form=form,
        typed=typed,
        errors=errors or {},
        sent="sent" in request.args,
    )


@bp.route("/characters/<row:character_id>/growth", methods=["GET", "POST"])
@login_required
def growth(character_id: int) -> Response | tuple[str, int]:
    character = queries.own_character(character_id, current_user.id)
    form = GrowthForm()
    if request.method == "GET":
        return _growth_page(character, form, {}), 200
    typed = {k.removeprefix("skills."): v for k, v in request.form.items() if k.startswith("skills.")}
    levels: dict[str, Any] = {}
    errors = {}
    current = character.sheet.get("skills") or {}
    for skill, text in typed.items():
        try:
            level = int(text)
        except ValueError:
            errors[f"skills.{skill}"] = str(WHOLE_NUMBER)
            continue
        if level != current.get(skill, LEVEL_MIN):  # R-CHECK-3: a skill not listed is at level 1
            levels[skill] = level
    if errors:
        return _growth_page(character, form, typed, errors=errors), 422
    try:
        characters.request_growth(character_id, current_user.id, levels, note=form.note.data or "", clock=app_clock())
    except UserError as refusal:
        where = refusal.field if refusal.field in ("skills", "note") else "form"  # a sheet's problem: above the form
        return _growth_page(character, form, typed, errors={where: refusal_text(refusal)}), 422
    return redirect(url_for("player.growth", character_id=character_id, sent=1), 303)


@keeps_input("player.growth")
def _growth_expired(message: str) -> tuple[str, int]:
    character = queries.own_character((request.view_args or {})["character_id"], current_user.id)
    typed = {k.removeprefix("skills."): v for k, v in request.form.items() if k.startswith("skills.")}
    return _growth_page(character, GrowthForm(), typed, errors={"form": message}), 400
