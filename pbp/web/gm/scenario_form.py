"""The scenario form of the GM's console: the fields of a pack's scenario entry (docs/campaign-packs.md,
`[scenarios.<id>]`) as rows a browser without JavaScript fills in, turned into that entry (`spec_of`) and back
(`fill`). The service checks the entry with the ruleset's own pack checks (`pbp.services.authoring`); each problem
it names by key is put beside its field (`place_problems`)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from flask_babel import lazy_gettext as _
from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    DateTimeLocalField,
    FieldList,
    Form,
    FormField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.validators import Length, Optional

from pbp.engine import Problem
from pbp.services.secret_terms import TERM_LENGTH, TERMS_LIMIT
from pbp.web.data.words import WORDS
from pbp.web.forms import SiteForm, shown_limit
from pbp.web.i18n import problem_text

NAME, TEXT, NOTES = 80, 4_000, 20_000
TIMINGS = ("setup", "round_start", "cleanup")
#: A gimmick's effect kinds, as the select says them (the id after the words: a TOML names it).
EFFECTS = {
    "status": _("give a bad status"),
    "cure": _("end a bad status"),
    "dice": _("dice on checks"),
    "successes": _("successes on checks"),
    "restore": _("remove damage"),
}
TARGETS = ("self", "target", "area")
#: Empty rows each list offers beyond the ones filled in.
SPARE_ROWS = 2


def _short(label: Any, limit: int = NAME) -> StringField:
    return StringField(label, validators=[Optional(), Length(max=limit)])


def _number(label: Any) -> StringField:
    return StringField(label, validators=[Optional(), Length(max=20)], render_kw={"inputmode": "decimal"})


class EnemyRow(Form):
    id = _short(_("Unit id"))
    type = SelectField(_("Enemy type"), choices=[], validate_choice=False)
    x = _number(_("x (m)"))
    y = _number(_("y (m)"))
    name = _short(_("Name (Japanese)"))
    en = _short(_("Name (English)"))


class TerrainRow(Form):
    ja = _short(_("Name (Japanese)"))
    en = _short(_("Name (English)"))
    x1 = _number(_("x1"))
    y1 = _number(_("y1"))
    x2 = _number(_("x2"))
    y2 = _number(_("y2"))
    rough = _number(_("Roughness (0.25 to 1)"))


def _effect_fields() -> tuple[Any, ...]:
    """One effect's fields (kind, status, value, gauge, on, rounds, skills): a gimmick row's first, and each row of
    more effects."""
    return (
        SelectField(_("Effect"), choices=[], validate_choice=False),
        SelectField(_("Status"), choices=[], validate_choice=False),
        _number(_("Value")),
        SelectField(_("Gauge"), choices=[], validate_choice=False),
        SelectField(_("On"), choices=[], validate_choice=False),
        _number(_("Rounds")),
        SelectMultipleField(_("Only for the skills"), choices=[], validate_choice=False),  # dice, successes
    )


class GimmickRow(Form):
    id = _short(_("Id"))
    ja = _short(_("Name (Japanese)"))
    en = _short(_("Name (English)"))
    description = TextAreaField(_("Description"), validators=[Optional(), Length(max=TEXT)])
    description_en = TextAreaField(_("Description (English)"), validators=[Optional(), Length(max=TEXT)])
    timing = SelectField(_("When"), choices=[], validate_choice=False)
    x1 = _number(_("Area x1"))
    y1 = _number(_("Area y1"))
    x2 = _number(_("Area x2"))
    y2 = _number(_("Area y2"))
    kind, status, value, gauge, on, rounds, skills = _effect_fields()
    public = BooleanField(_("Public (shown to players before it fires)"))


class EffectRow(Form):
    """One more effect of a gimmick written above (a TOML gimmick's `effects` after the first), in order."""

    gimmick = _short(_("Gimmick id"))
    kind, status, value, gauge, on, rounds, skills = _effect_fields()


class CheckRow(Form):
    id = _short(_("Id"))
    ja = _short(_("Approach (Japanese)"))
    en = _short(_("Approach (English)"))
    skill = SelectField(_("Skill"), choices=[], validate_choice=False)
    need = _number(_("Successes needed"))
    success_ja = _short(_("On success (Japanese)"), TEXT)
    success_en = _short(_("On success (English)"), TEXT)
    failure_ja = _short(_("On failure (Japanese)"), TEXT)
    failure_en = _short(_("On failure (English)"), TEXT)


def secret_terms_field() -> TextAreaField:
    """A scenario's list of secret terms (`pbp.services.secret_terms`), in its form and on its own page."""
    return TextAreaField(
        _("Secret terms"),
        validators=[Optional()],
        render_kw=shown_limit(TERMS_LIMIT * (TERM_LENGTH + 1)),
        description=_(
            "One a line: found in any text about to be published (the report, the reasons, the units' names) whatever"
            " its length, in full- or half-width, katakana or hiragana, with or without spaces."
        ),
    )


class ScenarioForm(SiteForm):
    slug = StringField(
        _("Slug"), validators=[Optional(), Length(max=64)], description=_("Letters, digits, '_' or '-': its URLs.")
    )
    ja = _short(_("Title (Japanese)"))
    en = _short(_("Title (English)"))
    kind = SelectField(_("Kind"), choices=[], validate_choice=False)
    description = TextAreaField(
        _("Public description"),
        validators=[Optional(), Length(max=TEXT)],
        description=_("Markdown, shown to players on the scenario's page."),
    )
    description_en = TextAreaField(
        _("Public description (English)"),
        validators=[Optional(), Length(max=TEXT)],
        description=_("Shown on the English pages instead; when empty, they show the one above."),
    )
    gm_notes = TextAreaField(
        _("GM notes"),
        validators=[Optional(), Length(max=NOTES)],
        description=_(
            "Secret: never shown to players. The leak check finds their long phrases in a report; mark a short name,"
            " password or twist 【秘】like this【/秘】 (or list it below) to have it found whatever its length."
        ),
    )
    secret_terms = secret_terms_field()
    slots = _number(_("Slots"))
    signup_deadline = DateTimeLocalField(
        _("Sign-up deadline"), validators=[Optional()], format="%Y-%m-%dT%H:%M",
        description=_("In the campaign's time zone; empty: characters join while slots last."),
    )  # fmt: skip
    pc_starts = TextAreaField(
        _("Start positions (battle)"),
        validators=[Optional(), Length(max=TEXT)],
        description=_("One 'x, y' in metres a line, at least one per slot; the PCs stand there in joining order."),
    )
    enemies = FieldList(FormField(EnemyRow), min_entries=3)
    terrain = FieldList(FormField(TerrainRow), min_entries=2)
    gimmicks = FieldList(FormField(GimmickRow), min_entries=2)
    effects = FieldList(FormField(EffectRow), min_entries=1)
    checks = FieldList(FormField(CheckRow), min_entries=3)

    def validate(self, extra_validators: Any = None) -> bool:
        """The fields' own checks, and each row of more effects naming a gimmick written above (by its id)."""
        valid = super().validate(extra_validators)
        ids = {(row.form.id.data or "").strip() for row in self.gimmicks if not _blank(row.form)}
        for row in self.effects:
            if not _blank(row.form) and (row.form.gimmick.data or "").strip() not in ids:
                row.form.gimmick.errors = [*row.form.gimmick.errors, str(_("No gimmick above has this id."))]
                valid = False
        return valid


class ImportForm(SiteForm):
    toml = TextAreaField(
        _("Scenario TOML"),
        validators=[Optional(), Length(max=100_000)],
        description=_("One or more scenario tables, as in a campaign pack's scenarios.toml."),
    )
    file = FileField(_("…or upload a .toml file"))


def _choices(values: Any, label: Any = None) -> list[tuple[str, str]]:
    return [("", "—"), *[(v, label(v) if label else v) for v in values]]


def set_choices(form: ScenarioForm, pack: dict[str, Any], locale: str) -> None:
    """The select fields' options from the campaign's pack, names in the page's language."""

    def named(section: str) -> Any:
        """An entry's name in the page's language, its id after it where that differs (a skill's id is its name)."""
        table = pack.get(section) or {}

        def name(key: str) -> str:
            said = str(table[key].get(locale) or table[key].get("ja") or key)
            return said if said == key else f"{said} ({key})"

        return name

    def worded(words: dict[str, Any]) -> Any:
        return lambda key: f"{words[key]} ({key})"

    form.kind.choices = [("battle", str(_("Battle"))), ("scene", str(_("Scene")))]
    for row in form.enemies:
        row.form.type.choices = _choices(sorted(pack.get("enemies") or {}), named("enemies"))
    for row in form.gimmicks:
        row.form.timing.choices = _choices(TIMINGS, worded(WORDS["timing"]))
    for row in [*form.gimmicks, *form.effects]:
        row.form.kind.choices = _choices(EFFECTS, worded(EFFECTS))
        row.form.status.choices = _choices(sorted(pack.get("statuses") or {}), named("statuses"))
        row.form.gauge.choices = _choices(("injury", "damage"), named("gauges"))
        row.form.on.choices = _choices(TARGETS, worded(WORDS["on"]))
        row.form.skills.choices = [(k, named("skills")(k)) for k in sorted(pack.get("skills") or {})]
    for row in form.checks:
        row.form.skill.choices = _choices(sorted(pack.get("skills") or {}))


def _value(text: str | None) -> Any:
    """A number typed as text: a whole number, a decimal, else the text itself (which the checks then refuse)."""
    text = (text or "").strip()
    if re.fullmatch(r"-?\d{1,9}", text):
        return int(text)
    if re.fullmatch(r"-?\d{0,9}\.\d{1,6}", text):
        return float(text)
    return text


def _point(x: str | None, y: str | None) -> list[Any] | None:
    return None if not (x or "").strip() and not (y or "").strip() else [_value(x), _value(y)]


def _blank(row: Form) -> bool:
    """A row left empty (a checkbox or a choice of skills alone does not fill it)."""
    return all(not (f.data or "").strip() for f in row if not isinstance(f, BooleanField | SelectMultipleField))


def _put(table: dict[str, Any], key: str, text: str | None) -> None:
    if (text or "").strip():
        table[key] = text.strip() if text else text


def _starts(text: str) -> list[Any]:
    starts: list[Any] = []
    for line in text.splitlines():
        if line.strip():
            parts = [p for p in re.split(r"[,\s]+", line.strip()) if p]
            starts.append([_value(p) for p in parts])
    return starts


def spec_of(form: ScenarioForm) -> tuple[dict[str, Any], dict[str, list[int]]]:
    """The scenario entry the form describes, and for each list the form's row of each entry (blank rows skipped);
    a gimmick's later effect is keyed by its path (`gimmicks[0].effects[1]`: its row of more effects)."""
    spec: dict[str, Any] = {"kind": form.kind.data or "battle"}
    for key in ("ja", "en", "description", "description_en", "gm_notes"):
        _put(spec, key, form[key].data)
    if (form.slots.data or "").strip():
        spec["slots"] = _value(form.slots.data)
    rows: dict[str, list[int]] = {"enemies": [], "terrain": [], "gimmicks": [], "checks": []}
    # Every list filled in is sent, whatever the kind: the checks name a battle's `checks` (or a scene's enemies)
    # as not belonging, rather than the form dropping what was typed.
    if (form.pc_starts.data or "").strip():
        spec["pc_starts"] = _starts(form.pc_starts.data or "")
    makers = {"enemies": _enemy, "terrain": _terrain, "gimmicks": _gimmick, "checks": _check}
    for key, make in makers.items():
        for i, row in enumerate(form[key]):
            if not _blank(row.form):
                spec.setdefault(key, []).append(make(row.form))
                rows[key].append(i)
    gimmicks = spec.get("gimmicks") or []
    for i, row in enumerate(form.effects):  # each after its gimmick's first effect; `validate` checked the ids
        at = next((n for n, g in enumerate(gimmicks) if g.get("id") == (row.form.gimmick.data or "").strip()), None)
        if not _blank(row.form) and at is not None:
            gimmicks[at]["effects"].append(_effect(row.form))
            rows[f"gimmicks[{at}].effects[{len(gimmicks[at]['effects']) - 1}]"] = [i]
    return spec, rows


def _enemy(f: Form) -> dict[str, Any]:
    enemy: dict[str, Any] = {"position": _point(f.x.data, f.y.data)}
    for key in ("id", "type", "name", "en"):
        _put(enemy, key, f[key].data)
    return enemy


def _terrain(f: Form) -> dict[str, Any]:
    place: dict[str, Any] = {"rect": [_point(f.x1.data, f.y1.data), _point(f.x2.data, f.y2.data)]}
    _put(place, "ja", f.ja.data)
    _put(place, "en", f.en.data)
    place["rough"] = _value(f.rough.data)
    return place


def _check(f: Form) -> dict[str, Any]:
    check: dict[str, Any] = {"need": _value(f.need.data)}
    for key in ("id", "ja", "en", "skill"):
        _put(check, key, f[key].data)
    check["success"] = {"ja": (f.success_ja.data or "").strip(), "en": (f.success_en.data or "").strip()}
    check["failure"] = {"ja": (f.failure_ja.data or "").strip(), "en": (f.failure_en.data or "").strip()}
    return check


def _gimmick(f: Form) -> dict[str, Any]:
    gimmick: dict[str, Any] = {}
    for key in ("id", "ja", "en", "description", "description_en", "timing"):
        _put(gimmick, key, f[key].data)
    corner1, corner2 = _point(f.x1.data, f.y1.data), _point(f.x2.data, f.y2.data)
    if corner1 or corner2:
        gimmick["area"] = [corner1, corner2]
    gimmick["effects"] = [_effect(f)]
    if f.public.data:
        gimmick["public"] = True
    return gimmick


def _effect(f: Form) -> dict[str, Any]:
    """The effect a row's effect fields describe (only the keys its kind takes)."""
    effect: dict[str, Any] = {}
    _put(effect, "kind", f.kind.data)
    if f.kind.data in ("status", "cure"):
        _put(effect, "id", f.status.data)
    if f.kind.data in ("dice", "successes", "restore"):
        effect["value"] = _value(f.value.data)
    if f.kind.data == "restore":
        _put(effect, "gauge", f.gauge.data)
    if f.kind.data in ("status", "cure", "restore"):
        _put(effect, "on", f.on.data)
    if (f.rounds.data or "").strip() and f.kind.data != "restore":
        effect["rounds"] = _value(f.rounds.data)
    if f.kind.data in ("dice", "successes") and f.skills.data:
        effect["skills"] = list(f.skills.data)
    return effect


def _effect_data(e: dict[str, Any]) -> dict[str, Any]:
    """An effect as its row's fields hold it."""
    return {"kind": e.get("kind"), "status": e.get("id"), "value": _text(e.get("value")), "gauge": e.get("gauge"),
            "on": e.get("on"), "rounds": _text(e.get("rounds")), "skills": e.get("skills") or []}  # fmt: skip


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def fill(form: ScenarioForm, slug: str, spec: dict[str, Any], deadline: datetime | None, timezone: str) -> None:
    """Put a stored entry into an empty form (the edit page), with a spare row or two in each list."""
    form.slug.data = slug
    for key in ("ja", "en", "description", "description_en", "gm_notes"):
        form[key].data = _text(spec.get(key))
    form.kind.data = spec.get("kind", "battle")
    form.slots.data = _text(spec.get("slots"))
    form.signup_deadline.data = (
        deadline.replace(tzinfo=ZoneInfo("UTC")).astimezone(ZoneInfo(timezone)).replace(tzinfo=None)
        if deadline
        else None
    )
    form.pc_starts.data = "\n".join(", ".join(map(str, p)) for p in spec.get("pc_starts") or [])
    lists = {key: spec.get(key) or [] for key in ("enemies", "terrain", "gimmicks", "checks")}
    for key, entries in lists.items():
        field = form[key]
        while len(field) < len(entries) + SPARE_ROWS:
            field.append_entry()
    for row, e in zip(form.enemies, lists["enemies"], strict=False):
        x, y = (e.get("position") or [None, None])[:2]
        row.form.process(None, id=e.get("id"), type=e.get("type"), x=_text(x), y=_text(y), name=e.get("name"),
                         en=e.get("en"))  # fmt: skip
    for row, t in zip(form.terrain, lists["terrain"], strict=False):
        (x1, y1), (x2, y2) = t.get("rect") or [[None, None], [None, None]]
        row.form.process(None, ja=t.get("ja"), en=t.get("en"), x1=_text(x1), y1=_text(y1), x2=_text(x2),
                         y2=_text(y2), rough=_text(t.get("rough")))  # fmt: skip
    for row, g in zip(form.gimmicks, lists["gimmicks"], strict=False):
        (x1, y1), (x2, y2) = g.get("area") or [[None, None], [None, None]]
        row.form.process(None, id=g.get("id"), ja=g.get("ja"), en=g.get("en"), description=g.get("description"),
                         description_en=g.get("description_en"), timing=g.get("timing"), x1=_text(x1),
                         y1=_text(y1), x2=_text(x2), y2=_text(y2),
                         public=bool(g.get("public")), **_effect_data((g.get("effects") or [{}])[0]))  # fmt: skip
    more = [(g.get("id"), e) for g in lists["gimmicks"] for e in (g.get("effects") or [])[1:]]
    while len(form.effects) < len(more) + SPARE_ROWS:
        form.effects.append_entry()
    for row, (gimmick, e) in zip(form.effects, more, strict=False):
        row.form.process(None, gimmick=gimmick, **_effect_data(e))
    for row, c in zip(form.checks, lists["checks"], strict=False):
        success, failure = c.get("success") or {}, c.get("failure") or {}
        row.form.process(None, id=c.get("id"), ja=c.get("ja"), en=c.get("en"), skill=c.get("skill"),
                         need=_text(c.get("need")), success_ja=success.get("ja"), success_en=success.get("en"),
                         failure_ja=failure.get("ja"), failure_en=failure.get("en"))  # fmt: skip


#: Where a key inside a list entry is shown: the form's field of that row.
_ROW_FIELDS = {
    "position": "x",
    "rect": "x1",
    "area": "x1",
    "effects": "kind",
    "effects[0].kind": "kind",
    "effects[0].id": "status",
    "effects[0].value": "value",
    "effects[0].gauge": "gauge",
    "effects[0].on": "on",
    "effects[0].rounds": "rounds",
    "effects[0].skills": "skills",
    "success.ja": "success_ja",
    "success.en": "success_en",
    "failure.ja": "failure_ja",
    "failure.en": "failure_en",
    "success": "success_ja",
    "failure": "failure_ja",
}
_ENTRY = re.compile(r"(enemies|terrain|gimmicks|checks)\[(\d+)\](?:\.(.*))?\Z")


def _named(form: Form, key: str) -> Any:
    """The form's field `key`, None when it has none."""
    return next((f for f in form if f.short_name == key), None)


def place_problems(form: ScenarioForm, problems: list[Problem], rows: dict[str, list[int]]) -> None:
    """Each problem beside the field it names (a key of a list entry: that entry's row); every problem is also
    listed above the form by the page."""
    for problem in problems:
        path = problem.path
        found = _ENTRY.match(path)
        field: Any = None
        more = re.match(r"(gimmicks\[\d+\]\.effects\[[1-9]\d*\])\.?(.*)\Z", path)
        if more and more.group(1) in rows:  # a gimmick's later effect: its row of more effects
            key = _ROW_FIELDS.get(f"effects[0].{more.group(2)}") or "kind"
            field = _named(form.effects[rows[more.group(1)][0]].form, key)
        elif found:
            section, index, rest = found.group(1), int(found.group(2)), found.group(3) or ""
            form_rows = rows.get(section, [])
            if index < len(form_rows):
                sub = form[section][form_rows[index]].form
                key = _ROW_FIELDS.get(rest) or _ROW_FIELDS.get(re.sub(r"\[\d+\].*", "", rest)) or rest.split(".")[0]
                field = _named(sub, key)
        else:
            key = re.split(r"[.\[]", path, maxsplit=1)[0]
            field = _named(form, key)
        if field is not None:
            field.errors = [*field.errors, problem_text(problem)]
