"""A character's icon: `/characters/<id>/icon`, its owner's page to upload (or take away) one, and
`/characters/<id>/icon.webp`, the picture itself, public like the character's name on the blog (the page says so).

The upload is checked and made again by `pbp.services.icons`; a bad file is said beside the field and the sheet is
untouched (it is another form). Its request may be larger than the site's other forms (`UPLOAD_REQUEST`), and one
larger still gets this page with the limit, not the bare 413 page. The picture is served as WebP whatever was sent,
with `nosniff` (the site's headers), and cached for good under its digest's address."""

from __future__ import annotations

from flask import abort, make_response, redirect, render_template, request, url_for
from flask_babel import lazy_gettext as _
from flask_login import current_user, login_required
from flask_wtf.file import FileField
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response

from pbp.errors import UserError
from pbp.models import Character
from pbp.services import icons
from pbp.web.clock import app_clock
from pbp.web.errors import error_page, redrawn
from pbp.web.forms import SiteForm
from pbp.web.i18n import page_locale, refusal_text
from pbp.web.player import bp, queries

#: The largest request the upload's form takes (the picture's limit and room for the form around it).
UPLOAD_REQUEST = icons.UPLOAD_LIMIT + 64 * 1024
#: How long a browser keeps a picture under its digest's address (it never changes there), and under the bare one.
FOREVER = "public, max-age=31536000, immutable"
BRIEFLY = "public, max-age=300"
PAGE = "player.character_icon_page"


class IconForm(SiteForm):
    icon = FileField(
        _("Picture"),
        description=_(
            "PNG, JPEG, GIF or WebP, up to %(size)s MB. It is cut to a square of %(px)s px; what the file says "
            "besides the picture (camera, place) is not kept. Anyone may see it, as they see the character's name.",
            size=icons.UPLOAD_LIMIT // 1024 // 1024,
            px=icons.SIZE,
        ),
        render_kw={"accept": "image/png,image/jpeg,image/gif,image/webp"},
    )


@bp.app_template_global()
def icon_digest(character_id: int) -> str | None:
    """A character's icon's digest for a page (None: it has none): its address's version."""
    return icons.digests([character_id]).get(character_id)


@bp.url_value_preprocessor
def _upload_limit(endpoint: str | None, values: dict | None) -> None:
    """The upload's request may be larger than the other forms' (set before anything reads the body: the CSRF check
    reads the form before any view)."""
    if endpoint == PAGE and request.method == "POST":
        request.max_content_length = UPLOAD_REQUEST


def _page(character: Character, form: IconForm, status: int = 200, error: str | None = None) -> tuple[str, int]:
    if error:
        form.icon.errors = [error]
    icon = icon_digest(character.id)
    name = queries.character_name(character, page_locale())
    done = request.args.get("done") if request.method == "GET" else None
    page = render_template("player/icon.html", character=character, name=name, form=form, digest=icon, done=done)
    return page, status


@bp.route("/characters/<row:character_id>/icon", methods=["GET", "POST"])
@login_required
def character_icon_page(character_id: int) -> Response | tuple[str, int]:
    character = queries.own_character(character_id, current_user.id)
    if request.method == "GET":
        return _page(character, IconForm(formdata=None))
    form = IconForm()
    removing = request.form.get("action") == "remove"
    if not form.validate_on_submit():
        return _page(character, form, 422)
    try:
        if removing:
            icons.remove_icon(character_id, current_user.id, clock=app_clock())
        else:
            upload = form.icon.data
            data = upload.read(icons.UPLOAD_LIMIT + 1) if upload else b""
            icons.set_icon(character_id, current_user.id, data, clock=app_clock())
    except UserError as refusal:
        return _page(character, form, 422, refusal_text(refusal))
    done = "removed" if removing else "saved"
    return redirect(url_for(PAGE, character_id=character_id, done=done), 303)


@bp.errorhandler(RequestEntityTooLarge)
def _too_large(error: RequestEntityTooLarge) -> tuple[str, int] | Response:
    """An upload over the request's limit (refused unread, before the view: the CSRF check reads the form): the
    page again with the limit beside the field (413). Any other page of the blueprint gets the 413 page."""
    if request.endpoint != PAGE or not current_user.is_authenticated:
        return error_page(413)

    def draw() -> tuple[str, int]:
        character = queries.own_character((request.view_args or {})["character_id"], current_user.id)
        size = request.content_length or 0
        return _page(character, IconForm(formdata=None), 413, refusal_text(icons.too_large(size)))

    return redrawn(draw)


@bp.get("/characters/<row:character_id>/icon.webp")
def character_icon(character_id: int) -> Response:
    """The picture: always `image/webp` (made by the site, never the upload's bytes), with its digest as ETag."""
    icon = icons.icon(character_id)
    if icon is None:
        abort(404)
    if request.if_none_match.contains(icon.digest):
        response = make_response("", 304)
    else:
        response = make_response(bytes(icon.image))
        response.headers["Content-Type"] = icons.CONTENT_TYPE
    response.set_etag(icon.digest)
    response.headers["Content-Disposition"] = "inline"
    response.headers["Cache-Control"] = FOREVER if request.args.get("v") == icon.digest else BRIEFLY
    return response
