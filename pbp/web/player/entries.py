"""The entry form: a player's orders and プレイング for one round, saved as often as wanted until the deadline.

The form offers what `legal_actions` allows the character's unit (pbp.services.entry_desk) and shows each check's
odds and the battlefield; the server checks everything again on save (`entries.save_entry`). A refused save, a
preview, a late save or an expired CSRF token shows the form again with everything the player wrote.
"""

from __future__ import annotations

import re
from contextlib import suppress
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from flask import redirect, render_template, request, url_for
from flask_babel import gettext
from flask_babel import lazy_gettext as _
from flask_login import current_user
from markupsafe import Markup
from werkzeug.wrappers import Response
from wtforms import TextAreaField

from pbp.engine import canonical
from pbp.engine.kancolle.entry_odds import entry_odds
from pbp.engine.pool.geometry import distance, movement
from pbp.engine.pool.rules import FULL_MOVE_FACTOR
from pbp.errors import UserError
from pbp.reports import render_markdown
from pbp.reports.battlemap import MapView, battle_map, field_box
from pbp.reports.narrative import Names
from pbp.services import drafts, entries, entry_wishes
from pbp.services.characters import unit_id
from pbp.services.clock import from_db
from pbp.services.entry_desk import EntryDesk, OrderDesk, entry_desk
from pbp.web.blog.queries import character_names, pack_name
from pbp.web.clock import app_clock
from pbp.web.data.views import belongs_to
from pbp.web.database import after_answer, assumes_reading, confirm_reading
from pbp.web.forms import SiteForm
from pbp.web.i18n import localized, page_locale
from pbp.web.player import bp, kancolle_form
from pbp.web.player.drafts import keeps_text_signed_out
from pbp.web.player.expired import keeps_input
from pbp.web.player.orders import FormData, form_of, order_of, refusal_errors

#: Why the form takes no save now, as the page says it.
CLOSED = {
    "deadline": _("The deadline has passed: this round takes no more entries. Your text is kept below."),
    "not_open": _("This round is not taking entries."),
    "dead": _("This character has fallen and can write no more entries."),
}


#: The reasons a save is refused as late: the round stopped taking entries (not a fallen character).
LATE = ("deadline", "not_open")


class EntryForm(SiteForm):
    prose = TextAreaField(_("Your entry (what your character does, says and feels)"))
    prose_en = TextAreaField(_("English version (optional)"))


def names_for(desk: EntryDesk) -> Names:
    """Display names in the page's language: the characters' sheets' and the pack's names, falling back to Japanese,
    then the id."""
    units = {u["id"]: u for u in desk.encounter["units"]}
    locale = page_locale()
    return Names(locale, desk.campaign.pack, units, desk.scenario.pack_scenario, character_names(list(units), locale))


def battlefield(desk: OrderDesk, names: Names, *, secret_enemies: bool = True, act: bool = False) -> Markup:
    """The map with the ordered unit, each ready weapon's reach, and only the PCs' gauges (enemies' are secret, save
    to the GM: `secret_enemies=False`). `act`: the player's map to act on (the field numbered along its edges, the
    move and full move ranges drawn, everything clipped to the field)."""
    own = desk.own()
    vehicle = own.get("vehicle")
    arsenal = vehicle.get("weapons") or [] if vehicle else own.get("weapons") or []
    step = getattr(desk.legal, "move", 0)
    moves = (
        [(gettext("Move range"), step), (gettext("Full move range"), step * FULL_MOVE_FACTOR)] if act and step else []
    )
    view = MapView(
        act=act,
        moves=moves,
        focus=desk.unit,
        reach=[(names.of("weapons", w["id"]), w["range"][0], w["range"][1]) for w in arsenal],
        public=(lambda u: u.get("side") == "pc") if secret_enemies else (lambda u: True),
        name=names.unit,
        status_name=lambda sid: names.of("statuses", sid),
        thing=names.of,
        title=names.unit(desk.unit),
        everywhere=lambda reach: gettext("%(reach)s: the whole map is within reach", reach=reach),
    )
    return Markup(battle_map(desk.encounter, view))  # noqa: S704 - battle_map escapes every text it draws


@dataclass(frozen=True)
class Standing:
    """A unit on the field as the list beside the map gives it: where it stands and how far it is from the
    player's unit, as the rules measure a weapon's reach (a flying unit seen from the ground counts double)."""

    id: str
    name: str
    side: str  # "self", "ally" or "enemy"
    x: float
    y: float
    distance: int
    doubled: bool  # a flying unit seen from the ground


def standing(desk: OrderDesk, names: Names) -> list[Standing]:
    """The units standing on the field, the player's own first, then by distance (the nearest first)."""
    own = desk.own()
    rows = [
        Standing(
            u["id"],
            names.unit(u["id"]),
            "self" if u is own else "ally" if u["side"] == own["side"] else "enemy",
            u["position"][0],
            u["position"][1],
            distance(own, u),
            movement(u) == "air" and movement(own) != "air",
        )
        for u in desk.encounter["units"]
        if not u.get("removed")
    ]
    return sorted(rows, key=lambda r: (r.side != "self", r.distance))


@bp.app_template_filter("aware")
def aware(value: Any) -> Any:
    """A time as the database keeps it (naive UTC) made aware, for `localtime` and `rfc3339`."""
    return from_db(value)


def percent(p: Any) -> str:
    return "—" if p is None else f"{float(p) * 100:.0f}%"


def _kancolle_parts(desk: EntryDesk, names: Names) -> dict[str, Any]:
    """What the kancolle form shows: its fieldsets generated from `legal_actions`, the exact odds of each check
    they lead to, and the event tables' rows (a base cycle's card rolls one of them)."""
    unit = desk.own()
    store = (desk.encounter.get("base") or {}).get("store") or []  # the end phase scraps from it
    labels = kancolle_form.Labels(names, desk.campaign.pack, unit, store)
    tables = {
        t: desk.encounter.get("event_tables", {}).get(t, {}) for t in (desk.legal.get("card") or {}).get("types", [])
    }
    return {
        "groups": kancolle_form.groups_for(desk.legal, labels),
        "odds": entry_odds(desk.encounter, desk.unit),
        "labels": labels,
        "tables": tables,
        "chance": chance,
    }


def chance(p: Fraction) -> str:
    """An exact chance over the 36 faces as the form says it: `15/36 (42%)`."""
    return f"{p * 36}/36 ({float(p) * 100:.0f}%)"


def _page(
    desk: EntryDesk,
    form: EntryForm,
    fields: FormData,
    *,
    errors: dict[str, str] | None = None,
    preview: str | None = None,
    saved: bool = False,
    status: int = 200,
    refusal: UserError | None = None,
    draft: drafts.Draft | None = None,
    restored: bool = False,
    wish_shown: str | None = None,
) -> tuple[str, int]:
    """The form's page. `draft`: the writer's autosaved text when it differs from the saved entry (offered, or
    `restored` into the form); a page whose text is not the saved entry's tells the leave-page warning so.
    `wish_shown`: the digest of the stored wish the form shows (`entry_wishes.digest`); a page made again for a
    refused POST passes on the one posted (nothing was saved)."""
    if wish_shown is None:
        wish_shown = _posted_digest()
    names = names_for(desk)
    kancolle = _kancolle_parts(desk, names) if desk.campaign.ruleset == "kancolle" else None
    if refusal is not None and kancolle is not None:
        errors = kancolle_form.refusal_errors(refusal, fields, kancolle["groups"], names)
    elif refusal is not None:  # each of a refused order's problems beside its field
        errors = refusal_errors(refusal, fields, desk.legal, names)
    receipt = None
    if desk.entry is not None:
        e = desk.entry
        receipt = entries.receipt_for(desk.round.id, desk.character.id, e.order, e.prose, e.saved_at, e.prose_en)
    locale = page_locale()
    belongs_to(desk.campaign.slug)
    offered = entry_wishes.partners_offered(desk.round.id, desk.character.id)
    asking = entry_wishes.named_by(desk.round.id, desk.character.id)
    called = character_names([unit_id(c) for c in {*offered, *asking}], locale)
    scene = kancolle is None and desk.scenario.kind == "scene"  # its checks at once: no map, no battle controls
    plain = not (scene or kancolle)  # a battle of the pool's rules: the map to act on beside the orders
    body = render_template(
        "player/entry.html",
        desk=desk,
        scenario_title=pack_name(
            desk.campaign.pack, "scenarios", desk.scenario.pack_scenario, locale, desk.scenario.title
        ),
        character_name=str(desk.character.sheet.get(locale) or desk.character.name),
        form=form,
        fields=fields,
        errors=errors or {},
        preview=Markup(render_markdown(preview)) if preview is not None else None,  # noqa: S704 - sanitised
        saved=saved,
        names=names,
        scene=scene,
        battlefield=battlefield(desk, names, act=True) if plain else Markup(),
        standing=standing(desk, names) if plain else [],
        map_field=field_box(desk.encounter) if plain else None,
        kancolle=kancolle,
        receipt=receipt,
        receipt_json=canonical.dumps(receipt.entry) if receipt else None,
        closed=CLOSED.get(desk.closed_reason or ""),
        percent=percent,
        limit=desk.campaign.entry_char_limit,
        draft=draft,
        restored=restored,
        unsaved=restored or request.method == "POST",
        partners=[(c, called.get(unit_id(c), str(c))) for c in offered],
        named_by=[called.get(unit_id(c), str(c)) for c in asking],
        note_limit=entry_wishes.NOTE_LIMIT,
        wish_shown=wish_shown,
    )
    return body, status


@bp.route("/rounds/<row:round_id>/entry/<row:character_id>", methods=["GET", "POST"])
@assumes_reading  # a re-save is one statement, which checks the version its worker last read
@keeps_text_signed_out  # login_required, but a save meeting an ended session keeps its text through a new login
def entry(round_id: int, character_id: int) -> Response | tuple[str, int]:
    def desk() -> EntryDesk:
        """The form's facts (the encounter, what the unit may do, the history): read only for a page to show. A
        save that goes through answers with a redirect, and the service checks everything the desk would (whose
        character, taking part, open): building it first doubled a save's work in a 260-unit battle. The history is
        the latest saves; `?history=all` lists every one."""
        confirm_reading()  # a page made on a wrong assumption would be thrown away: run again first
        whole = request.args.get("history") == "all"
        return entry_desk(round_id, character_id, user_id=current_user.id, clock=app_clock(), whole_history=whole)

    if request.method == "GET":
        shown, form = desk(), EntryForm()
        if shown.entry is not None:
            form.prose.data, form.prose_en.data = shown.entry.prose, shown.entry.prose_en or ""
        draft = newer_draft(shown)
        restored = draft is not None and "draft" in request.args
        if restored:
            form.prose.data, form.prose_en.data = draft.prose, draft.prose_en
        saved_order = shown.entry.order if shown.entry else None
        kancolle = shown.campaign.ruleset == "kancolle"
        order = kancolle_form.form_of(saved_order) if kancolle else form_of(saved_order)
        wish = entry_wishes.wish_of(round_id, character_id) or entry_wishes.Wish()
        fields = FormData({**{k: order[k] for k in order}, **_wish_fields(wish)})
        return _page(shown, form, fields, saved="saved" in request.args, draft=draft, restored=restored,
                     wish_shown=entry_wishes.digest(wish))  # fmt: skip
    # A save that goes through answers with a redirect: the form (the posted one, for the page) is built only when a
    # page is shown; CSRFProtect has checked the token of every POST already.
    fields = FormData(request.form.to_dict(flat=False))
    parsed = kancolle_form.order_of(fields) if entries.ruleset_of(round_id) == "kancolle" else order_of(fields)
    prose = request.form.get("prose", "")
    if "preview" in request.form:
        return _page(desk(), EntryForm(), fields, errors=parsed.errors, preview=prose)
    # What is asked of the GM beside the entry, when the form sent it: checked first, so a save refused for it writes
    # nothing. A save without those fields (a script's, a page drawn before they existed) leaves the wish as it is
    # and costs the deadline's rush no read.
    asks = any(name in request.form for name in WISH_FIELDS)
    wish: entry_wishes.Wish | None = None
    if asks:
        try:
            wish = entry_wishes.check_wish(
                round_id, character_id, partners=fields.many("partners"), adlib=fields.one("adlib"),
                contact=fields.one("contact"), gm_note=request.form.get("gm_note", ""),
            )  # fmt: skip
        except UserError as refused:
            parsed.errors[refused.field or "form"] = localized(refused.message)
    if parsed.errors or (asks and wish is None):
        return _page(desk(), EntryForm(), fields, errors=parsed.errors, status=422)
    if wish is not None and _posted_digest() == entry_wishes.digest(wish):
        wish = None  # sent back as the form showed it: the entry's save alone, without reading the stored wish
    try:
        entries.save_entry(
            round_id,
            character_id,
            user_id=current_user.id,
            order=parsed.order,
            prose=prose,
            prose_en=request.form.get("prose_en", ""),
            clock=app_clock(),
            wish=wish,
        )
    except UserError as refusal:  # late, over the limit, an order the rules refuse: all shown, nothing lost
        late = refusal.reason if isinstance(refusal, entries.Closed) else None
        if late in LATE:  # kept as the draft, and told in the notice list (text that is no text: not)
            user_id, prose_en, clock = current_user.id, request.form.get("prose_en", ""), app_clock()

            def keep() -> None:
                with suppress(UserError):  # the round or character went meanwhile: the refused form showed the text
                    drafts.refused_late(
                        round_id, character_id, user_id=user_id, prose=prose, prose_en=prose_en, clock=clock
                    )

            after_answer(keep)  # the refusal does not wait for the write lock the deadline's resolution may hold
            said = _sentence(localized(refusal.message)) if late == "deadline" else None  # when it passed; not an id
            ids = {"round_id": round_id, "character_id": character_id}
            page = render_template("player/entry_late.html", closed=CLOSED[str(late)], said=said, prose=prose,
                                   prose_en=prose_en, **ids)  # fmt: skip
            return page, 422
        return _page(desk(), EntryForm(), fields, refusal=refusal, status=422)
    return redirect(url_for("player.entry", round_id=round_id, character_id=character_id, saved=1), 303)


#: The form's fields of what the player asks of the GM beside the entry (`entry_wishes`).
WISH_FIELDS = ("partners", "adlib", "contact", "gm_note")


def _posted_digest() -> str:
    """The hidden `wish_shown` a POST carried: what the form showed of the stored wish (hex, else nothing). A forged
    one can only make a save leave out the wish the same request sent, which a request may do anyway."""
    posted = request.form.get("wish_shown", "") if request.method == "POST" else ""
    return posted if re.fullmatch(r"[0-9a-f]{16}", posted) else ""


def _wish_fields(wish: entry_wishes.Wish) -> dict[str, list[str]]:
    """The form's fields for a stored wish."""
    return {"partners": [str(c) for c in wish.partners], "adlib": [wish.adlib], "contact": [wish.contact],
            "gm_note": [wish.gm_note]}  # fmt: skip


def _sentence(text: str) -> str:
    """A service's message as a sentence of the page: its first letter up and a full stop (Japanese: 。)."""
    text = text.strip()
    if not text or text[-1] in ".。!！?？":
        return text
    return text[0].upper() + text[1:] + ("。" if page_locale() == "ja" else ".")


def newer_draft(desk: EntryDesk) -> drafts.Draft | None:
    """The writer's draft when it was kept after the saved entry and its text is not the entry's (None: nothing to
    offer)."""
    draft = drafts.draft_of(desk.round.id, desk.character.id, user_id=current_user.id)
    if draft is None or not (draft.prose.strip() or draft.prose_en.strip()):
        return None
    entry = desk.entry
    if entry is None:
        return draft
    same = (draft.prose, draft.prose_en) == (entry.prose, entry.prose_en or "")
    return None if same or draft.saved_at <= entry.saved_at else draft


@keeps_input("player.entry")
def _expired(message: str) -> tuple[str, int]:
    """An entry form whose CSRF token expired comes back with the text kept and a fresh token."""
    args = request.view_args or {}
    desk = entry_desk(args["round_id"], args["character_id"], user_id=current_user.id, clock=app_clock())
    form = EntryForm(formdata=None, prose=request.form.get("prose", ""), prose_en=request.form.get("prose_en", ""))
    return _page(desk, form, FormData(request.form.to_dict(flat=False)), errors={"form": message}, status=400)
