"""The character form's codec and what it shows: the sheet a submitted form describes (every value as typed, so
the ruleset can judge it and a refused form shows it again), each ruleset problem's field, the pack's choices in
the page's language, and the budget the server draws (and sheet.js keeps up to date)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from flask_babel import lazy_gettext as _

from pbp.engine import Problem, find_ruleset
from pbp.engine.pool.pack_data import LEVEL_MAX, LEVEL_MIN
from pbp.models import Campaign
from pbp.reports.pronouns import PRONOUNS, english_pronoun
from pbp.web.blog.queries import described, pack_name
from pbp.web.i18n import problem_text
from pbp.web.pronouns import PRONOUN_LABELS

TEXTS = ("ja", "en", "description")
#: Lists of pack ids, one checkbox each.
GEAR = ("weapons", "vehicle_weapons", "items", "abilities")
#: What a player changes on an existing character (R-GEAR-1); the rest only through growth or the GM. The pronoun
#: too (PRONOUN), though a form that does not send it (a page drawn before it had the select) keeps the stored one.
EDITABLE = (*TEXTS, "vehicle", *GEAR)
#: The character's pronoun in English stories: a select, each choice as the page names it.
PRONOUN = "pronoun"
#: The pack section each list's ids are in, and the mount a weapon list takes.
SECTIONS = {"weapons": "weapons", "vehicle_weapons": "weapons", "items": "items", "abilities": "abilities"}
MOUNTS = {"weapons": "personal", "vehicle_weapons": "vehicle"}
#: The budget lines as the page names them.
BUDGET_LABELS = {
    "stats": _("Stat points"),
    "skills": _("Skill points"),
    "weapons": _("Weapon cost"),
    "items": _("Item cost"),
    "abilities": _("Abilities known"),
}
WHOLE_NUMBER = _("A whole number, please.")
NAME_NEEDED = _("Give the character a name.")
#: The sheet's names: a blank Japanese name is said once, beside it (the English one copies it).
NAMES = ("ja", "en")
_INDEX = re.compile(r"\[\d+\]$")


class Fields(dict[str, list[str]]):
    """What the form sent (or what a sheet would send), name -> values, for the template to show again."""

    def value(self, name: str) -> str:
        return (self.get(name) or [""])[0]

    def has(self, name: str, value: str) -> bool:
        return value in self.get(name, [])


@dataclass
class Parsed:
    sheet: dict[str, Any]
    errors: dict[str, str] = field(default_factory=dict)


def fields_of(sheet: dict[str, Any]) -> Fields:
    """The form's values for a stored sheet."""
    fields = Fields({key: [text] for key, text in typed_texts(sheet).items() if key in sheet})
    fields["vehicle"] = [str(sheet.get("vehicle") or "")]
    if PRONOUN in sheet:
        fields[PRONOUN] = [str(sheet[PRONOUN])]
    for key in GEAR:
        fields[key] = [str(x) for x in sheet.get(key) or []]
    for group in ("stats", "skills"):
        for name, value in (sheet.get(group) or {}).items():
            fields[f"{group}.{name}"] = [str(value)]
    return fields


def sheet_of(fields: Fields, pack: dict[str, Any], base: dict[str, Any] | None = None) -> Parsed:
    """The sheet the form describes. Creating (`base` None): texts, stats, skills and gear from the form; editing:
    the stored `base` with only the editable parts (EDITABLE) from the form. A number that is not one is an error
    beside its field (and left out, so the ruleset still judges the rest)."""
    parsed = Parsed({k: v for k, v in (base or {}).items() if k not in EDITABLE})
    sheet = parsed.sheet
    for key in TEXTS:
        text = fields.value(key)
        if text or key == "ja":
            sheet[key] = text
    if not fields.value("ja").strip():
        parsed.errors["ja"] = str(NAME_NEEDED)
    elif not fields.value("en"):  # the pack needs both names: the Japanese serves in English
        sheet["en"] = fields.value("ja")
    if fields.value("vehicle"):
        sheet["vehicle"] = fields.value("vehicle")
    if fields.value(PRONOUN):  # as sent, for the ruleset to judge; `they` is saved too (a choice, not a blank)
        sheet[PRONOUN] = fields.value(PRONOUN)
    for key in GEAR:
        if fields.get(key):
            sheet[key] = list(fields[key])
    if base is None:
        for group in ("stats", "skills"):
            values = {}
            for name in pack.get(group) or {}:
                typed = fields.value(f"{group}.{name}").strip()
                if not typed:
                    continue
                try:
                    values[name] = int(typed)
                except ValueError:
                    parsed.errors[f"{group}.{name}"] = str(WHOLE_NUMBER)
            if group == "skills":  # R-CHECK-3: a skill not listed is at level 1
                values = {k: v for k, v in values.items() if v != LEVEL_MIN}
            sheet[group] = values
    return parsed


def typed_texts(sheet: dict[str, Any]) -> dict[str, str]:
    """The names and description as the player typed them: an English name that is the Japanese one's copy (the
    form's blank) shows blank again, so that renaming the character renames it in English too."""
    texts = {key: str(sheet.get(key) or "") for key in TEXTS}
    if texts["en"] == texts["ja"]:
        texts["en"] = ""
    return texts


def form_errors(parsed: Parsed, campaign: Campaign, known: Iterable[str]) -> dict[str, str]:
    """A form refused before the service: its own errors and, beside them, what the ruleset finds in the rest of
    the sheet, so that a player sees every problem at once (a blank name is said once, at the Japanese name)."""
    sheet = parsed.sheet
    if "ja" in parsed.errors:  # the rules judge the rest of the sheet as if it had its names
        sheet = {**sheet, **dict.fromkeys(NAMES, "?")}
    problems = find_ruleset(campaign.ruleset).validate_character(campaign.pack, sheet)
    return {**errors_of(problems, known), **parsed.errors}


def field_of(problem: Problem, known: Iterable[str]) -> str:
    """The form field a ruleset problem belongs beside: `skills.射撃` as it is, `weapons[1]` at its list, a budget
    line (`weapons`) at its group; anything else above the form."""
    names = set(known)
    path = _INDEX.sub("", problem.path)
    for candidate in (path, path.split(".")[0]):
        if candidate in names:
            return candidate
    return "form"


def errors_of(problems: Iterable[Problem], known: Iterable[str]) -> dict[str, str]:
    """Each field's problems, joined when there are several."""
    names = list(known)
    errors: dict[str, list[str]] = {}
    for problem in problems:
        where = field_of(problem, names)
        said = replace(problem, message=problem_text(problem))
        errors.setdefault(where, []).append(said.message if where != "form" else str(said))
    return {k: " ".join(v) for k, v in errors.items()}


@dataclass(frozen=True)
class Choice:
    id: str
    name: str
    cost: int | None = None
    about: str = ""  # the pack's description in the page's language: what a player picks it for
    built_into: tuple[str, ...] = ()  # the vehicles this weapon comes with (R-GEAR-3): free there, not bought


@dataclass
class BudgetLine:
    key: str
    label: str
    spent: int
    limit: int
    base: int  # the limit before the skill inputs' own share (sheet.js adds theirs)

    @property
    def over(self) -> bool:
        return self.spent > self.limit


@dataclass
class SheetPage:
    """Everything the character form shows of the pack, named in the page's language (falling back to Japanese)."""

    stats: list[Choice]
    skills: list[tuple[Choice, str, str]]  # the skill, its parent stat's name, its cost per level (JSON)
    skill_limits: dict[str, str]  # skill -> the limits it moves, per level (JSON), for sheet.js
    vehicles: list[Choice]
    gear: dict[str, list[Choice]]
    budget: list[BudgetLine]
    creating: bool  # a new character: stats and skills are inputs
    pronoun: str  # the choice the select shows: the sheet's, else its ready-made character's, else they
    levels: tuple[int, int] = (LEVEL_MIN, LEVEL_MAX)
    stat_range: tuple[int, int] = (1, 5)

    @property
    def pronouns(self) -> list[Choice]:
        """The select's choices in the page's language (named when the page is drawn)."""
        return [Choice(p, str(PRONOUN_LABELS[p])) for p in PRONOUNS]

    def known_fields(self) -> list[str]:
        """The keys a message can stand beside: an existing character's stats and skills are not inputs, so a
        problem with one of them stands at its group."""
        inputs = [*(f"stats.{c.id}" for c in self.stats), *(f"skills.{c.id}" for c, _s, _c in self.skills)]
        fixed = [*TEXTS, PRONOUN, "vehicle", *GEAR]
        return [*fixed, *(inputs if self.creating else ()), *(line.key for line in self.budget)]


def _name(pack: dict, section: str, key: str, locale: str) -> str:
    return pack_name(pack, section, key, locale, str((pack.get(section, {}).get(key) or {}).get("ja") or key))


def _enemy_only(pack: dict) -> dict[str, set[str]]:
    """Ids only the enemies use (built into vehicles PCs cannot ride, or an enemy's abilities): not offered, unless
    the sheet already holds them."""
    vehicles = pack.get("vehicles") or {}
    theirs = {w for v in vehicles.values() if v.get("playable") is False for w in v.get("weapons") or []}
    ours = {w for v in vehicles.values() if v.get("playable") is not False for w in v.get("weapons") or []}
    enemy_abilities = {a for e in (pack.get("enemies") or {}).values() for a in e.get("abilities") or []}
    return {"weapons": theirs - ours, "abilities": enemy_abilities, "items": set()}


def _built_into(pack: dict) -> dict[str, tuple[str, ...]]:
    """Each weapon's playable vehicles that come with it built in (R-GEAR-3): the form shows it as built in there
    (内蔵) instead of offering it for its cost, which the rules would refuse."""
    out: dict[str, list[str]] = {}
    for vid, vehicle in (pack.get("vehicles") or {}).items():
        if vehicle.get("playable") is not False:
            for weapon in vehicle.get("weapons") or []:
                out.setdefault(weapon, []).append(vid)
    return {weapon: tuple(vids) for weapon, vids in out.items()}


def _fits(key: str, entry: dict) -> bool:
    """Whether a pack entry belongs in a gear list: a weapon list takes its mount's weapons (or unmounted ones)."""
    mount = MOUNTS.get(key)
    return mount is None or entry.get("mount") in (mount, None)


def sheet_page(campaign: Campaign, sheet: dict[str, Any], locale: str, *, creating: bool) -> SheetPage:
    pack = campaign.pack
    ruleset = find_ruleset(campaign.ruleset)
    stats = [Choice(s, _name(pack, "stats", s, locale)) for s in pack.get("stats") or {}]
    skills = []
    limits = {}
    bare = ruleset.budget(pack, {"skills": {}})
    levels = range(LEVEL_MIN, LEVEL_MAX + 1)
    prices = ruleset.raise_cost_table(pack, {})  # from level 1, as sheet.js counts them
    stat_order = {c.id: i for i, c in enumerate(stats)}
    # Skills under their parent stats (R-CHECK-4), as the rules list them: the stored pack keeps no file order.
    grouped = sorted((pack.get("skills") or {}).items(), key=lambda kv: (stat_order.get(kv[1].get("stat"), 99), kv[0]))
    for skill, entry in grouped:
        costs = [prices[skill][level] for level in levels]
        stat = _name(pack, "stats", str(entry.get("stat", "")), locale)
        skills.append((Choice(skill, _name(pack, "skills", skill, locale)), stat, json.dumps(costs)))
        raised = [ruleset.budget(pack, {"skills": {skill: level}}) for level in levels]  # once per level, not per line
        moved = {}
        for key, (_spent, limit) in bare.items():
            deltas = [spent[key][1] - limit for spent in raised]
            if any(deltas):
                moved[key] = deltas
        if moved:
            limits[skill] = json.dumps(moved)
    vehicles = [
        Choice(v, _name(pack, "vehicles", v, locale))
        for v, entry in (pack.get("vehicles") or {}).items()
        if entry.get("playable") is not False or sheet.get("vehicle") == v
    ]
    hidden = _enemy_only(pack)
    built = _built_into(pack)
    gear = {}
    for key, section in SECTIONS.items():
        held = set(sheet.get(key) or []) if isinstance(sheet.get(key), list) else set()
        gear[key] = [
            Choice(
                i,
                _name(pack, section, i, locale),
                entry.get("cost"),
                described(entry, locale),
                built.get(i, ()) if key == "vehicle_weapons" else (),
            )
            for i, entry in (pack.get(section) or {}).items()
            if i in held or (i not in hidden[section] and _fits(key, entry))
        ]
    # The limits before the skill inputs' share: a new character's skills are inputs, an existing one's are fixed.
    base = ruleset.budget(pack, {**sheet, "skills": {}}) if creating else ruleset.budget(pack, sheet)
    spent = ruleset.budget(pack, sheet)
    budget = [
        BudgetLine(key, str(BUDGET_LABELS.get(key, key)), s, limit, base[key][1]) for key, (s, limit) in spent.items()
    ]
    creation = pack.get("creation") or {}
    return SheetPage(
        stats,
        skills,
        limits,
        vehicles,
        gear,
        budget,
        creating,
        english_pronoun(sheet, pack),
        stat_range=(int(creation.get("stat_min", 1)), int(creation.get("stat_max", 5))),
    )
