"""Between rounds in the GM's console: the GM's actions on a round still to be resolved
(`/gm/<campaign>/rounds/<id>/actions`: a reinforcement, a retreat, a gauge, a status, a position, a revive, each
with its published reason) and the GM's order for an enemy (`/gm/<campaign>/rounds/<id>/orders/<unit>`, the
player's order fields offered from `legal_actions`). Each change is one `pbp.services.shaping` call, which checks
the GM again; a refusal stands beside its field with everything typed kept."""

from __future__ import annotations

from typing import Any

from flask import redirect, render_template, request, url_for
from flask_babel import lazy_gettext as _
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from pbp.engine import find_ruleset
from pbp.errors import N_, Forbidden, NotFound, UserError
from pbp.reports.narrative import Names
from pbp.services import shaping
from pbp.services.entry_desk import OrderDesk
from pbp.services.shaping import ShapingDesk
from pbp.web.blog.queries import character_names, pack_name
from pbp.web.errors import form_status
from pbp.web.forms import NOT_TEXT, SiteForm
from pbp.web.gm import bp
from pbp.web.gm.access import gm_campaign
from pbp.web.i18n import page_locale
from pbp.web.player.entries import battlefield, percent
from pbp.web.player.orders import COORDINATE_LIMIT, FormData, form_of, named, order_of, refusal_errors

#: The kinds of GM action, as the page names them.
#: What the actions page says after a change went through (the confirmation issue 31 asks of every GM action).
DONE = {
    "recorded": _("The action is recorded; its reason will be published with the round's dice log."),
    "deleted": _("The action is deleted."),
    "ordered": _("The enemy's order is saved."),
}
KINDS = {
    "add_unit": _("Reinforcement"),
    "remove_unit": _("Take off the battlefield"),
    "retreat": _("Retreat"),
    "set_gauge": _("Set a gauge"),
    "add_status": _("Add a status"),
    "remove_status": _("Remove a status"),
    "set_position": _("Set a position"),
    "revive": _("Revive"),
}
STAGES = 5
WHOLE = _("A whole number.")


class ShapeForm(SiteForm):
    """The CSRF token of the shaping forms (their fields are read by hand: each kind has its own)."""


def _names(desk: ShapingDesk) -> Names:
    units = {u["id"]: u for u in [*desk.shaped.start["units"], *desk.shaped.encounter["units"]]}
    locale = page_locale()
    return Names(locale, desk.campaign.pack, units, desk.scenario.pack_scenario, character_names(list(units), locale))


def _title(desk: ShapingDesk) -> str:
    """The scenario's title in the page's language."""
    scenario = desk.scenario
    return pack_name(desk.campaign.pack, "scenarios", scenario.pack_scenario, page_locale(), scenario.title)


def _desk(campaign: str, round_id: int) -> ShapingDesk:
    gm = gm_campaign(campaign)
    return shaping.shaping_desk(round_id, actor_id=current_user.id, campaign_id=gm.id)


def _int(raw: str, key: str, errors: dict[str, str], *, required: bool = True) -> int | None:
    raw = raw.strip()
    if not raw and not required:
        return None
    try:
        value = int(raw)
    except ValueError:
        errors[key] = str(WHOLE)
        return None
    if abs(value) > COORDINATE_LIMIT:
        errors[key] = str(_("Between -%(limit)s and %(limit)s.", limit=COORDINATE_LIMIT))
        return None
    return value


def _fields(kind: str, form: Any, errors: dict[str, str]) -> dict[str, Any]:
    """The action's fields from the submitted form (numbers checked here, the rest by the service)."""
    fields: dict[str, Any] = {}
    if kind == "add_unit":
        fields.update(enemy=form.get("enemy", ""), id=form.get("id", "").strip())
    else:
        fields["unit"] = form.get("unit", "")
    if kind in ("add_unit", "set_position"):
        x, y = _int(form.get("x", ""), "x", errors), _int(form.get("y", ""), "y", errors)
        fields["position"] = [x, y]
        if "x" in errors or "y" in errors:
            errors.setdefault("position", errors.get("x") or errors["y"])
    if kind == "set_gauge":
        fields["gauge"] = form.get("gauge", "")
        fields["taken"] = [_int(form.get(f"taken_{i}", "0"), "taken", errors) for i in range(STAGES)]
    if kind in ("add_status", "remove_status"):
        fields["status"] = form.get("status", "")
    if kind == "add_status":
        rounds = _int(form.get("rounds", ""), "rounds", errors, required=False)
        if rounds is not None:
            fields["rounds"] = rounds
    return fields


def _actions_page(
    desk: ShapingDesk, form: ShapeForm, *, kind: str = "", errors: dict[str, str] | None = None, status: int = 200
) -> tuple[str, int]:
    names = _names(desk)
    pack = desk.campaign.pack
    offered = find_ruleset(desk.campaign.ruleset).gm_action_kinds
    body = render_template(
        "gm/actions.html" if offered else "gm/actions_none.html",
        campaign=gm_campaign(desk.campaign.slug),
        desk=desk,
        scenario_title=_title(desk),
        names=names,
        form=form,
        kinds=KINDS,
        failed=kind,
        values=request.form if kind else {},
        errors=errors or {},
        done=DONE.get(request.args.get("done", "")) if request.method == "GET" else None,
        enemies=sorted(pack.get("enemies") or {}),
        statuses=sorted(pack.get("statuses") or {}),
        stages=range(STAGES),
    )
    return body, status


@bp.route("/<slug:campaign>/rounds/<row:round_id>/actions", methods=["GET", "POST"])
@login_required
def actions(campaign: str, round_id: int) -> Response | tuple[str, int]:
    desk = _desk(campaign, round_id)
    form = ShapeForm()
    if request.method == "GET":
        return _actions_page(desk, form, status=200)
    kind = request.form.get("kind", "")
    if not form.validate_on_submit():  # the token was checked (CSRFProtect): a file or JSON where text goes
        return _actions_page(desk, form, kind=kind, errors=form.wrong_types(), status=422)
    offered = find_ruleset(desk.campaign.ruleset).gm_action_kinds
    if offered and kind not in KINDS:  # a ruleset that takes none refuses every kind itself, below
        return _actions_page(desk, form, kind=kind, errors={"form": str(_("Choose an action."))}, status=422)
    errors: dict[str, str] = {}
    fields = _fields(kind, request.form, errors) if offered else {}
    if errors:
        return _actions_page(desk, form, kind=kind, errors=errors, status=422)
    try:
        shaping.record_action(
            round_id, kind, fields, reason=request.form.get("reason", ""), actor_id=current_user.id,
            campaign_id=desk.campaign.id,
        )  # fmt: skip
    except (NotFound, Forbidden):
        raise
    except UserError as refusal:
        status = form_status(refusal)
        said = named(refusal.message, _names(desk), ids=True)  # the units and statuses by their names
        return _actions_page(desk, form, kind=kind, errors={refusal.field or "form": said}, status=status)
    return redirect(
        url_for("gm.actions", campaign=campaign, round_id=round_id, done="recorded", _anchor="recorded"), 303
    )


@bp.post("/<slug:campaign>/rounds/<row:round_id>/actions/<row:action_id>/delete")
@login_required
def delete_action(campaign: str, round_id: int, action_id: int) -> Response | tuple[str, int]:
    desk = _desk(campaign, round_id)
    form = ShapeForm()
    if not form.validate_on_submit():  # nothing to type: only a wrong type fails it
        return _actions_page(desk, form, errors={"form": str(NOT_TEXT)}, status=422)
    try:
        shaping.delete_action(round_id, action_id, actor_id=current_user.id, campaign_id=desk.campaign.id)
    except (NotFound, Forbidden):
        raise
    except UserError as refusal:
        status = form_status(refusal)
        return _actions_page(desk, form, errors={"form": named(refusal.message, _names(desk), ids=True)}, status=status)
    return redirect(
        url_for("gm.actions", campaign=campaign, round_id=round_id, done="deleted", _anchor="recorded"), 303
    )


def _order_page(
    desk: ShapingDesk,
    unit: str,
    form: ShapeForm,
    fields: FormData,
    *,
    errors: dict[str, str] | None = None,
    status: int = 200,
    refusal: UserError | None = None,
) -> tuple[str, int]:
    target = desk.unit(unit)
    if target is None or target["side"] != "enemy":
        raise NotFound(N_("no enemy unit '%(unit)s' in round %(round)s", unit=unit, round=desk.round.id))
    ruleset = find_ruleset(desk.campaign.ruleset)
    legal = ruleset.legal_actions(desk.shaped.encounter, unit, desk.checks)
    accepting = desk.open and not target.get("removed")
    order_desk = OrderDesk(
        unit=unit, encounter=desk.shaped.encounter, legal=legal, checks=desk.checks, accepting=accepting
    )
    names = _names(desk)
    if refusal is not None:  # each of a refused order's problems beside its field
        errors = refusal_errors(refusal, fields, legal, names)
    body = render_template(
        "gm/enemy_order.html",
        campaign=gm_campaign(desk.campaign.slug),
        shaping=desk,
        scenario_title=_title(desk),
        desk=order_desk,
        unit=unit,
        has_order=unit in desk.orders,
        battlefield=battlefield(order_desk, names, secret_enemies=False),
        names=names,
        form=form,
        fields=fields,
        errors=errors or {},
        percent=percent,
    )
    return body, status


@bp.route("/<slug:campaign>/rounds/<row:round_id>/orders/<unit>", methods=["GET", "POST"])
@login_required
def enemy_order(campaign: str, round_id: int, unit: str) -> Response | tuple[str, int]:
    desk = _desk(campaign, round_id)
    form = ShapeForm()
    if request.method == "GET":
        return _order_page(desk, unit, form, form_of(desk.orders.get(unit)))
    fields = FormData(request.form.to_dict(flat=False))
    if not form.validate_on_submit():  # a file or JSON where the order's fields take text
        return _order_page(desk, unit, form, fields, errors=form.wrong_types(), status=422)
    try:
        if "clear" in request.form:
            shaping.clear_enemy_order(round_id, unit, actor_id=current_user.id, campaign_id=desk.campaign.id)
        else:
            parsed = order_of(fields)
            if parsed.errors:
                return _order_page(desk, unit, form, fields, errors=parsed.errors, status=422)
            shaping.save_enemy_order(
                round_id, unit, parsed.order, actor_id=current_user.id, campaign_id=desk.campaign.id
            )
    except (NotFound, Forbidden):
        raise
    except UserError as refusal:
        status = form_status(refusal)
        return _order_page(desk, unit, form, fields, refusal=refusal, status=status)
    return redirect(url_for("gm.actions", campaign=campaign, round_id=round_id, done="ordered"), 303)
