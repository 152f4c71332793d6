"""Words the console shows for the lifecycle's states (`pbp.services.rounds`), in the page's language."""

from __future__ import annotations

from flask_babel import lazy_gettext as _

from pbp.web.gm import bp

ROUND_STATES = {
    "draft": _("draft"),
    "open": _("open for entries"),
    "closed": _("closed"),
    "held": _("held"),
    "resolved": _("resolved, not published"),
    "published": _("published"),
    "quarantined": _("quarantined"),
    "cancelled": _("cancelled"),
}


@bp.context_processor
def labels() -> dict[str, object]:
    return {"round_state": lambda state: ROUND_STATES.get(state, state)}
