"""The entry form's fields and the order they stand for, both ways.

The form works without JavaScript: one radio group per action slot (`minor`, `major`) and, beside each choice, the
fields it needs (a weapon, targets, where to move...). Only the chosen action's fields are read; a choice missing a
field it needs is an error on that field, with everything the player typed kept. `form_of(order)` fills the form
from a stored entry, and `order_of(form_of(order)) == order` for every order the form can express.

The errors are said in the page's language (this form and the GM's enemy orders show them as they are): each is a
lazy gettext, made into text (`str`) only when its field is wrong, in the request's locale, so a save without errors
translates nothing. Outside a request (these functions' own tests) they are the English msgids.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _
from flask_babel.speaklater import LazyString

from pbp.engine.pool.legal import LegalActions
from pbp.errors import Joined, Refusals, Text, UserError
from pbp.reports.narrative import Names
from pbp.web.i18n import localized

MINOR_CHOICES = ("", "move", "reload", "swap", "ability")
MAJOR_CHOICES = ("", "attack", "full_move", "leave", "reload", "recover", "check", "ability")
POINT = "point"  # the `*_toward` value that means "the point in *_x, *_y"
COORDINATE_LIMIT = 100_000  # metres either way: beyond any map

#: The form's own errors, each said (`str`) only when its field is wrong, in the page's language.
NOT_OFFERED = _("Not an action the form offers.")
WHOLE_METRES = _("A whole number of metres.")
NO_DESTINATION = _("Choose where to move.")
NO_TARGET = _("Choose at least one target.")
RELOAD = _("Choose a weapon to reload.")
SWAP = _("Choose two weapons to swap.")
ABILITY = _("Choose an ability.")
WEAPON = _("Choose a weapon.")
CHECK = _("Choose a check.")


class FormData(Mapping[str, Sequence[str]]):
    """Submitted fields as lists of strings (a field may repeat: the targets); `one()` reads a single value."""

    def __init__(self, fields: Mapping[str, Sequence[str]]):
        self._fields = {k: list(v) for k, v in fields.items()}

    def __getitem__(self, key: str) -> Sequence[str]:
        return self._fields[key]

    def __iter__(self) -> Any:
        return iter(self._fields)

    def __len__(self) -> int:
        return len(self._fields)

    def one(self, key: str) -> str:
        values = self._fields.get(key) or [""]
        return values[0].strip()

    def many(self, key: str) -> list[str]:
        return [v.strip() for v in self._fields.get(key) or [] if v.strip()]


@dataclass
class Parsed:
    """What the form says: the order, or the problems by field (the form shows each beside its field)."""

    order: dict[str, Any]
    errors: dict[str, str] = field(default_factory=dict)


def _toward(form: FormData, prefix: str, errors: dict[str, str], required: bool) -> Any:
    """A unit id, a point [x, y] in whole metres, or None (only where the action allows none)."""
    choice = form.one(f"{prefix}_toward")
    if choice == POINT:
        point = []
        for axis in ("x", "y"):
            raw = form.one(f"{prefix}_{axis}")
            try:
                value = int(raw)
            except ValueError:
                errors[f"{prefix}_{axis}"] = str(WHOLE_METRES)
                continue
            if abs(value) > COORDINATE_LIMIT:
                errors[f"{prefix}_{axis}"] = str(_("Between -%(limit)s and %(limit)s metres.", limit=COORDINATE_LIMIT))
                continue
            point.append(value)
        return point if len(point) == 2 else None
    if choice:
        return choice
    if required:
        errors[f"{prefix}_toward"] = str(NO_DESTINATION)
    return None


def _needed(form: FormData, key: str, errors: dict[str, str], message: LazyString) -> str:
    """The field's value; empty, `message` (said in the page's language) is the field's error."""
    value = form.one(key)
    if not value:
        errors[key] = str(message)
    return value


def _minor(form: FormData, errors: dict[str, str]) -> dict[str, Any] | None:
    kind = form.one("minor")
    if kind not in MINOR_CHOICES:
        errors["minor"] = str(NOT_OFFERED)
        return None
    if kind == "move":
        return {"type": "move", "toward": _toward(form, "minor", errors, required=True)}
    if kind == "reload":
        return {"type": "reload", "weapon": _needed(form, "minor_weapon", errors, RELOAD)}
    if kind == "swap":
        pair = _needed(form, "minor_swap", errors, SWAP).split("|")
        if len(pair) != 2:
            errors.setdefault("minor_swap", str(SWAP))
            pair = ["", ""]
        return {"type": "swap", "weapon": pair[0], "with": pair[1]}
    if kind == "ability":
        return {"type": "ability", "id": _needed(form, "minor_ability", errors, ABILITY), "target": None}
    return None


def _major(form: FormData, errors: dict[str, str]) -> dict[str, Any] | None:
    # A scene's form offers its checks alone, without the battle's choice of action: a check chosen is the action.
    kind = form.one("major") or ("check" if form.one("check") else "")
    if kind not in MAJOR_CHOICES:
        errors["major"] = str(NOT_OFFERED)
        return None
    item = form.one(f"{kind}_item") or None
    if kind == "attack":
        weapon = _needed(form, "weapon", errors, WEAPON)
        targets = form.many("targets")
        if not targets:
            errors["targets"] = str(NO_TARGET)
        return {"type": "attack", "weapon": weapon, "targets": targets, "item": item}
    if kind in ("full_move", "leave"):
        return {"type": kind, "toward": _toward(form, kind, errors, required=kind == "full_move")}
    if kind == "reload":
        return {"type": "reload", "weapon": _needed(form, "major_weapon", errors, RELOAD)}
    if kind == "recover":
        return {"type": "recover", "status": "system_down", "item": item}
    if kind == "check":
        return {"type": "check", "label": _needed(form, "check", errors, CHECK), "item": item}
    if kind == "ability":
        target = form.one("ability_target") or None
        return {"type": "ability", "id": _needed(form, "major_ability", errors, ABILITY), "target": target}
    return None


def order_of(form: FormData) -> Parsed:
    """The order the submitted form stands for (without `unit`: the entry names its character)."""
    errors: dict[str, str] = {}
    order: dict[str, Any] = {"minor": _minor(form, errors), "major": _major(form, errors)}
    for key in ("damage_to", "evade_item"):
        if form.one(key):
            order[key] = form.one(key)
    if form.one("setup"):
        order["setup"] = [form.one("setup")]
    return Parsed(order, errors)


def _set_toward(fields: dict[str, list[str]], prefix: str, toward: Any) -> None:
    if isinstance(toward, list):
        fields[f"{prefix}_toward"] = [POINT]
        fields[f"{prefix}_x"], fields[f"{prefix}_y"] = [str(toward[0])], [str(toward[1])]
    elif toward is not None:
        fields[f"{prefix}_toward"] = [str(toward)]


def form_of(order: dict[str, Any] | None) -> FormData:
    """The form's fields for a stored order (an empty form for None)."""
    fields: dict[str, list[str]] = {"minor": [""], "major": [""]}
    order = order or {}
    minor, major = order.get("minor"), order.get("major")
    if minor:
        fields["minor"] = [minor["type"]]
        if minor["type"] == "move":
            _set_toward(fields, "minor", minor.get("toward"))
        elif minor["type"] == "reload":
            fields["minor_weapon"] = [minor["weapon"]]
        elif minor["type"] == "swap":
            fields["minor_swap"] = [f"{minor['weapon']}|{minor['with']}"]
        elif minor["type"] == "ability":
            fields["minor_ability"] = [minor["id"]]
    if major:
        kind = major["type"]
        fields["major"] = [kind]
        if major.get("item"):
            fields[f"{kind}_item"] = [major["item"]]
        if kind == "attack":
            fields["weapon"], fields["targets"] = [major["weapon"]], list(major["targets"])
        elif kind in ("full_move", "leave"):
            _set_toward(fields, kind, major.get("toward"))
        elif kind == "reload":
            fields["major_weapon"] = [major["weapon"]]
        elif kind == "check":
            fields["check"] = [major.get("label") or ""]
        elif kind == "ability":
            fields["major_ability"] = [major["id"]]
            if major.get("target"):
                fields["ability_target"] = [major["target"]]
    for key in ("damage_to", "evade_item"):
        if order.get(key):
            fields[key] = [order[key]]
    if order.get("setup"):
        fields["setup"] = [order["setup"][0]]
    return FormData(fields)


# ---- a refused order's problems, each beside its field ------------------------------------------------------------

#: An engine problem's parameters that name something by its id, and the pack section its name is in ("unit": a
#: unit of the battle).
_NAMED = {"unit": "unit", "target": "unit", "weapon": "weapons", "other": "weapons", "item": "items",
          "ability": "abilities", "status": "statuses", "skill": "skills"}  # fmt: skip
#: The field of an action's part (the second step of its path: `major.weapon`), where it does not depend on the kind.
_PART = {"targets": "targets", "with": "minor_swap", "label": "check", "skill": "check", "need": "check"}


class _Quoted(str):
    """A name where an engine template says `%(weapon)r`: in the page's quotation marks, not Python's."""

    def __repr__(self) -> str:
        return gettext("‘%(name)s’", name=str(self))


def named(message: str, names: Names, *, ids: bool = False) -> str:
    """An engine problem in the page's language, the units, weapons, items... it names by their names (in a list
    of problems, each problem's); with `ids` (the GM's pages, where two reinforcements may share a name) a unit's
    id after its name."""
    return localized(_with_names(message, names, ids))


def _with_names(message: str, names: Names, ids: bool) -> str:
    if isinstance(message, Joined):
        return Joined([_with_names(part, names, ids) for part in message.parts], message.sep)
    if not isinstance(message, Text):
        return message
    params = {
        key: _with_names(value, names, ids)
        if isinstance(value, Text | Joined)
        else _Quoted(_name(names, _NAMED[key], value, ids))
        if key in _NAMED and isinstance(value, str)
        else value
        for key, value in message.params.items()
    }
    return Text(message.template, **params)


def _name(names: Names, section: str, key: str, ids: bool) -> str:
    if section != "unit":
        return names.of(section, key)
    name = names.unit(key)
    return f"{name} ({key})" if ids and name != key else name


def field_of(path: str, order: Mapping[str, Any], legal: LegalActions) -> str:
    """The form field an engine problem about `path` in `order` goes beside (`major.targets[0]` → the targets,
    `minor.weapon` → the minor reload's weapon); "order", above the fields, for the unit's whole order, or when
    the field is not on the form (the action or its item is no longer offered)."""
    slot, _, rest = path.partition(".")
    slot, part = re.sub(r"\[\d+\]$", "", slot), re.sub(r"[.\[].*", "", rest)
    if slot in ("damage_to", "evade_item", "setup"):
        shown = {"damage_to": len(legal.damage_to) > 1, "evade_item": legal.evade_items, "setup": legal.setup}
        return slot if shown[slot] else "order"
    action = order.get(slot) if slot in ("minor", "major") else None
    if not isinstance(action, dict):
        return "order"
    kind = action.get("type")
    if part in ("", "type") or kind not in (legal.minor if slot == "minor" else legal.major):
        return slot
    if part == "toward":
        return f"{slot if slot == 'minor' else kind}_toward"
    if part == "item":
        return f"{kind}_item" if legal.items else "order"
    if part == "weapon":
        return "weapon" if kind == "attack" else f"{slot}_weapon"
    if part in ("id", "target") and kind == "ability":
        return f"{slot}_ability"
    return _PART.get(part, slot)


def refusal_errors(refusal: UserError, fields: FormData, legal: LegalActions, names: Names) -> dict[str, str]:
    """A service's refusal as the form's errors: each problem of a refused order (`Refusals`) beside its field,
    without its path, naming what it names; any other refusal above the form (its `field`, else "form")."""
    if not isinstance(refusal, Refusals):
        return {refusal.field or "form": named(refusal.message, names)}
    order = order_of(fields).order
    errors: dict[str, str] = {}
    for path, message in refusal.problems:
        key, said = field_of(path, order, legal), named(message, names)
        errors[key] = f"{errors[key]} {said}" if key in errors else said
    return errors
