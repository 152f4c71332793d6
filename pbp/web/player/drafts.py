"""Never lose a プレイング, in the browser: the entry form's autosave (`entry.js` posts the text, with the form's CSRF
token, to `/rounds/<round>/entry/<character>/draft`; JSON back) and the save that meets an ended session, whose text
is parked until its writer logs in again in this browser and then returns to the form (`pbp.services.drafts`)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar
from zoneinfo import ZoneInfo

from flask import jsonify, redirect, request, session, url_for
from flask_babel import gettext
from flask_login import current_user
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response

from pbp.errors import Forbidden, NotFound, UserError
from pbp.services import drafts
from pbp.services.clock import from_db
from pbp.web.auth import PARKED
from pbp.web.clock import app_clock, shown_zone
from pbp.web.database import confirm_reading
from pbp.web.forms import SiteForm
from pbp.web.i18n import localized
from pbp.web.player import bp

P = ParamSpec("P")
T = TypeVar("T")


@bp.post("/rounds/<row:round_id>/entry/<row:character_id>/draft")
def save_draft(round_id: int, character_id: int) -> tuple[Response, int]:
    """The autosave: 200 with when it was saved, whether it came after the round stopped taking entries and a fresh
    CSRF token (the form takes it: its token never expires while the player writes); 401
    when the session has ended (the form then says to press Save, which keeps the text through a new login); 429
    with Retry-After within `DRAFT_GAP` of the last; 403/404 for another's character or an unknown one, 422 for
    text a draft cannot hold or a body that is not a form's text."""
    if not current_user.is_authenticated:
        message = gettext("Your session has ended: press Save to keep your text and log in again.")
        return jsonify(message=message), 401
    wrong = SiteForm().wrong_types()  # a JSON body or a file where the text goes: not a draft (the form sends text)
    if wrong:
        return jsonify(message=" ".join(sorted(set(wrong.values())))), 422
    try:
        draft = drafts.save_draft(
            round_id,
            character_id,
            user_id=current_user.id,
            prose=request.form.get("prose", ""),
            prose_en=request.form.get("prose_en", ""),
            clock=app_clock(),
        )
    except drafts.TooSoon as soon:
        answer = jsonify(message=localized(soon.message), retry_after=soon.retry_after)
        answer.headers["Retry-After"] = str(max(1, round(soon.retry_after)))
        return answer, 429
    except UserError as refusal:
        status = 404 if isinstance(refusal, NotFound) else 403 if isinstance(refusal, Forbidden) else 422
        return jsonify(message=localized(refusal.message)), status
    saved_at = from_db(draft.saved_at)
    time = saved_at.astimezone(ZoneInfo(shown_zone(draft.timezone))).strftime("%H:%M:%S %Z")  # as the form's are
    # A fresh CSRF token for the form: a long evening's writing, autosaved, never meets an expired one on Save.
    answer = {"saved_at": saved_at.isoformat().replace("+00:00", "Z"), "time": time, "late": draft.late}
    return jsonify(**answer, entry=False, csrf_token=generate_csrf()), 200


def keeps_text_signed_out(view: Callable[P, T]) -> Callable[P, T | Response]:
    """`login_required` for the entry form, except that a save meeting an ended session (its cookie names a user
    whose sessions ended: a logout on another device) parks the text first, and the login page returns to the
    form with it. A visitor who never signed in is only sent to log in."""

    @functools.wraps(view)
    def run(*args: P.args, **kwargs: P.kwargs) -> T | Response:
        if current_user.is_authenticated:
            return view(*args, **kwargs)
        confirm_reading()  # an ended session seen under an assumed reading: made sure of before anything is kept
        back = request.path if request.method == "POST" else request.full_path.rstrip("?")
        named = str(session.get("_user_id", "")).partition(":")[0]
        if request.method == "POST" and named.isdigit():
            place = request.view_args or {}
            token = drafts.park(
                int(place["round_id"]),
                int(place["character_id"]),
                user_id=int(named),
                prose=request.form.get("prose", ""),
                prose_en=request.form.get("prose_en", ""),
                clock=app_clock(),
            )
            if token is not None:
                session[PARKED] = token
            return redirect(url_for("auth.login", next=back, kept=1 if token else None), 303)
        return redirect(url_for("auth.login", next=back))

    return run
