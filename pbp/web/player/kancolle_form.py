"""The kancolle entry form, generated from `legal_actions` (a base cycle: the event card, the scene, supply and
support; a battle: formation, each attack's piece and target, the shelling chain per range pass, the night,
retreat; after the battle: salvage and spoils; the end phase: traits dropped, emotion trimmed, pieces scrapped), and
the order it stands for, both ways.

A field's name says how it fills the order: `KIND:PATH`, e.g. `one:card.type`, `many:shelling.targets`,
`int:supply.燃料`, `attack:air.zero` (an air attack with the piece `zero` at the chosen target), `support:check`
(check support for each ship girl ticked), `flag:retreat`. So reading a posted form needs no legal actions, and
`order_of(form_of(order)) == order` for every order the form can express. Each check the choice leads to shows
its exact odds (`pbp.engine.kancolle.entry_odds`) beside it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from flask_babel import lazy_gettext as _
from flask_babel.speaklater import LazyString

from pbp.errors import Refusals, UserError
from pbp.reports.narrative import Names
from pbp.web.player.orders import FormData, Parsed, named

KINDS = ("one", "many", "int", "text", "flag", "attack", "support", "discovery", "dock")
RESOURCES = {"燃料": _("Fuel"), "弾薬": _("Ammunition"), "鋼材": _("Steel"), "ボーキサイト": _("Bauxite")}
RANGES = {"短": _("short"), "中": _("medium"), "長": _("long"), "超長": _("very long")}
WHOLE = _("A whole number.")


@dataclass(frozen=True)
class Field:
    """One control of the form: its name (`KIND:PATH`), label, choices (value, label) and the odds key of each
    choice's check (`odds`: choice value -> entry_odds key) or of the field itself (`check`)."""

    name: str
    label: str | LazyString
    choices: list[tuple[str, str]] = field(default_factory=list)
    odds: dict[str, str] = field(default_factory=dict)
    check: str | None = None
    hint: str | LazyString | None = None

    @property
    def kind(self) -> str:
        return self.name.split(":", 1)[0]


@dataclass(frozen=True)
class Group:
    """A fieldset of the form: its legend and fields."""

    legend: str | LazyString
    fields: list[Field]


class Labels:
    """What the form calls things in the page's language: units (`Names`), traits (the pack's `grid_en`), the
    unit's pieces and the base's stored ones (their `en`), event tables (`event_table_names`), resources and
    ranges."""

    def __init__(self, names: Names, pack: dict[str, Any], unit: dict[str, Any], store: Iterable[dict[str, Any]] = ()):
        self.names, self.pack, self.en = names, pack, names.locale != "ja"
        self.pieces = {p.get("id"): p for p in [*store, *(unit.get("equipment") or [])]}  # the base's store too

    def trait(self, name: str) -> str:
        english = (self.pack.get("grid_en") or {}).get(name) if self.en else None
        return f"{english} ({name})" if english else name

    def piece(self, pid: str) -> str:
        p = self.pieces.get(pid) or {}
        return str((p.get("en") if self.en else None) or p.get("name") or pid)

    def table(self, tid: str) -> str:
        entry = (self.pack.get("event_table_names") or {}).get(tid) or {}
        return str(entry.get(self.names.locale) or entry.get("ja") or tid)

    def units(self, ids: list[str]) -> list[tuple[str, str]]:
        return [(u, self.names.unit(u)) for u in ids]


def groups_for(legal: dict[str, Any], labels: Labels) -> list[Group]:
    """The form's fieldsets for what `legal` (kancolle's legal_actions of one unit) offers, in the order of the
    deadline: the base cycle's card and scene, or the battle's formation, attacks, night and retreat, or the spoils;
    then the standing policies."""
    out: list[Group] = []
    if "card" in legal:
        out += _base(legal, labels)
    elif "spoils" in legal:
        out.append(_after(legal, labels))
    elif legal.get("mode") == "battle":
        out += _battle(legal, labels)
    elif "end" in legal:
        out.append(_end(legal["end"], labels))
    if legal.get("support") or legal.get("rechallenge"):
        out.append(_policies(legal, labels))
    return out


def _base(legal: dict[str, Any], labels: Labels) -> list[Group]:
    card, scene = legal["card"], legal["scene"]
    traits = [("", "—"), *((t, labels.trait(t)) for t in card["traits"])]
    event = Group(_("Event card"), [
        Field("one:card.type", _("Event table"), [(t, labels.table(t)) for t in card["types"]],
              hint=_("2d6 on the table gives the event; its check designates the row's trait.")),
        Field("text:card.keyword", _("Keyword"), hint=_("At most 10 wide: a Japanese character counts 2.")),
        Field("one:card.trait", _("Designate another trait (optional)"), traits),
    ])  # fmt: skip
    friends = labels.units(scene["partner"])
    shown = Group(_("The scene"), [
        Field("one:scene.partner", _("Partner"), [("", "—"), *friends]),
        Field("many:scene.appearing", _("Also appearing"), labels.units(scene["appearing"])),
    ])  # fmt: skip
    if "discovery" in scene["sub"]:
        shown.fields.append(Field("discovery:scene.sub", _("Discovery: a trait to gain (optional)"), traits))
    if "dock" in scene["sub"]:
        shown.fields.append(Field("dock:scene.sub", _("Docking: damage steps to repair (optional)")))
    groups = [event, shown]
    if legal.get("supply"):
        groups.append(Group(_("Supply (resources spent for AP)"), [
            Field(f"int:supply.{r}", RESOURCES.get(r, r)) for r in legal["supply"]
        ]))  # fmt: skip
    return groups


def _battle(legal: dict[str, Any], labels: Labels) -> list[Group]:
    targets = labels.units(legal.get("targets") or [])
    groups = []
    if "formation" in legal:
        f = legal["formation"]
        fields = [
            Field("int:formation.position", _("Position in the line"), [(str(p), str(p)) for p in f["positions"]])
        ]
        if f["recon"]:
            fields.append(Field("many:formation.recon", _("Scout"), labels.units(f["recon"]), check="recon"))
        groups.append(Group(_("Formation"), fields))
    attacks = []
    for key, label, check in (
        ("air", _("Air attack with %(piece)s"), "air"),
        ("opening_torpedo", _("Opening torpedo with %(piece)s"), "torpedo"),
        ("torpedo", _("Torpedo attack with %(piece)s"), "torpedo"),
    ):
        for pid in legal.get(key) or []:
            attacks.append(Field(f"attack:{key}.{pid}", label % {"piece": labels.piece(pid)}, [("", "—"), *targets],
                                 check=check))  # fmt: skip
    shelling = legal.get("shelling")
    if shelling and shelling["pieces"]:
        pieces = [(p, labels.piece(p)) for p in shelling["pieces"]]
        attacks += [
            Field("many:shelling.chain", _("Shelling: the chain of pieces"), pieces,
                  odds={p: f"piece:{p}" for p in shelling["pieces"]},
                  hint=_("Each piece after the first hits at -2 more (a combo).")),
            Field("one:shelling.pass", _("In the range pass"), [("", "—"), *_ranges(shelling["passes"])]),
            Field("many:shelling.targets", _("Shelling: targets in order"), targets),
        ]  # fmt: skip
    if attacks:
        groups.append(Group(_("Attacks"), attacks))
    night = []
    if legal.get("night_volunteer"):
        night.append(Field("flag:night_volunteer", _("Volunteer for the night battle"), check="night"))
    if legal.get("night") and legal["night"]["pieces"]:
        pieces = legal["night"]["pieces"]
        night += [
            Field("many:night.chain", _("Night: the chain of pieces"), [(p, labels.piece(p)) for p in pieces],
                  odds={p: f"night:{p}" for p in pieces}),
            Field("many:night.targets", _("Night: targets in order"), targets),
        ]  # fmt: skip
    if legal.get("retreat"):
        night.append(Field("flag:retreat", _("Retreat from the battle"), check="retreat"))
    if night:
        groups.append(Group(_("Night and retreat"), night))
    return groups


def _ranges(passes: list[str]) -> list[tuple[str, str]]:
    return [(r, str(RANGES.get(r, r))) for r in passes]


def _after(legal: dict[str, Any], labels: Labels) -> Group:
    fields = [Field("one:spoils.resource", _("Spoils: a resource"), [("", "—"), *RESOURCES.items()])]
    if legal["spoils"]["emotion_to"]:
        fields.append(Field("one:spoils.emotion_to", _("Spoils: a feeling toward"), [("", "—"),
                            *labels.units(legal["spoils"]["emotion_to"])]))  # fmt: skip
    if legal.get("salvage"):
        fields.append(Field("many:salvage", _("Salvage"), labels.units(legal["salvage"])))
    return Group(_("After the battle"), fields)


def _end(end: dict[str, Any], labels: Labels) -> Group:
    """The end phase (K-END): traits dropped (not below the initial count), whose emotion is trimmed first when the
    total is over level + 5, and the stored pieces scrapped; each list in the order ticked."""
    fields = [Field("many:end.drop", _("Traits to drop"), [(t, labels.trait(t)) for t in end["drop"]],
                    hint=_("Never below the ship's initial traits."))]  # fmt: skip
    if end["trim"]:  # she feels something for someone
        fields.append(Field("many:end.trim", _("Emotion to trim first"), labels.units(end["trim"]),
                            hint=_("Only when the emotion values total more than level + 5.")))  # fmt: skip
    if end["scrap"]:
        fields.append(
            Field("many:end.scrap", _("Stored pieces to scrap"), [(p, labels.piece(p)) for p in end["scrap"]])
        )
    return Group(_("End of the sortie"), fields)


def _policies(legal: dict[str, Any], labels: Labels) -> Group:
    fields = []
    if legal.get("support"):
        friends = labels.units(legal["support"])
        fields += [
            Field("support:check", _("Support their checks (emotion)"), friends),
            Field("support:damage", _("Support their damage (emotion)"), friends),
        ]
    if legal.get("rechallenge"):
        fields.append(Field("int:rechallenge.max", _("Re-challenges at most (AP)"),
                            hint=_("Empty: as many as AP allows.")))  # fmt: skip
    return Group(_("Standing orders"), fields)


# -- the order, both ways ------------------------------------------------------------------------------------------
def _put(order: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split(".")
    here = order
    for key in parents:
        here = here.setdefault(key, {})
    here[last] = value


def order_of(form: FormData) -> Parsed:
    """The order the posted form stands for; a number that is not one is an error beside its field."""
    order: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for name in sorted(form):
        kind, _sep, path = name.partition(":")
        if kind not in KINDS or not path:
            continue
        values = form.many(name)
        if not values:
            continue
        if kind in ("one", "text"):
            _put(order, path, values[0])
        elif kind == "many":
            _put(order, path, values)
        elif kind == "flag":
            _put(order, path, True)
        elif kind in ("int", "dock"):
            if not re.fullmatch(r"-?[0-9]{1,4}", values[0]):
                errors[name] = str(WHOLE)
            elif kind == "int":
                _put(order, path, int(values[0]))
            else:
                order.setdefault("scene", {}).setdefault("sub", []).append({"type": "dock", "steps": int(values[0])})
        elif kind == "discovery":
            order.setdefault("scene", {}).setdefault("sub", []).insert(0, {"type": "discovery", "trait": values[0]})
        elif kind == "attack":
            key, _dot, piece = path.partition(".")
            order.setdefault(key, []).append({"piece": piece, "targets": values[:1]})
        elif kind == "support":
            order.setdefault("support", []).extend({"for": v, "kind": path} for v in values)
    return Parsed(order, errors)


def form_of(order: dict[str, Any] | None) -> FormData:
    """The form's fields filled from a stored order (empty for none)."""
    fields: dict[str, list[str]] = {}

    def walk(value: Any, path: str) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, f"{path}.{k}" if path else k)
        elif isinstance(value, bool):
            fields[f"flag:{path}"] = ["1"] if value else []
        elif isinstance(value, int):
            fields[f"int:{path}"] = [str(value)]
        elif isinstance(value, str):
            fields[f"{'text' if path == 'card.keyword' else 'one'}:{path}"] = [value]
        elif isinstance(value, list) and path not in ("support", "scene.sub", "air", "opening_torpedo", "torpedo"):
            fields[f"many:{path}"] = [str(v) for v in value]

    for key, value in (order or {}).items():
        if key in ("air", "opening_torpedo", "torpedo"):
            for attack in value:
                fields[f"attack:{key}.{attack['piece']}"] = list(attack.get("targets") or [])[:1]
        elif key == "support":
            for s in value:
                fields.setdefault(f"support:{s['kind']}", []).append(s["for"])
        else:
            walk(value, key)
    for sub in ((order or {}).get("scene") or {}).get("sub") or []:
        kind = sub.get("type")
        fields[f"{kind}:scene.sub"] = [str(sub.get("trait") if kind == "discovery" else sub.get("steps"))]
    return FormData(fields)


def refusal_errors(refusal: UserError, fields: FormData, groups: list[Group], names: Names) -> dict[str, str]:
    """A service's refusal as the form's errors: each problem of a refused order beside the field its path falls
    under (`shelling.targets[0]` under `many:shelling.targets`), else above the form."""
    if not isinstance(refusal, Refusals):
        return {refusal.field or "form": named(refusal.message, names)}
    paths = {f.name.split(":", 1)[1].split(".")[0] if f.kind in ("attack",) else f.name.split(":", 1)[1]: f.name
             for g in groups for f in g.fields}  # fmt: skip
    errors: dict[str, str] = {}
    for path, message in refusal.problems:
        plain = re.sub(r"\[\d+\]", "", path)
        key = next((paths[p] for p in sorted(paths, key=len, reverse=True) if plain.startswith(p)), "order")
        said = named(message, names)
        errors[key] = f"{errors[key]} {said}" if key in errors else said
    return errors


#: What each part of an order is called where an entry is summed up (the GM's dashboard).
PARTS = {
    "card": _("Event card"), "scene": _("The scene"), "supply": _("Supply"), "formation": _("Formation"),
    "air": _("Air attack"), "opening_torpedo": _("Opening torpedo"), "shelling": _("Shelling"),
    "torpedo": _("Torpedo attack"), "night": _("Night"), "night_volunteer": _("Volunteer for the night battle"),
    "retreat": _("Retreat from the battle"), "support": _("Support"), "rechallenge": _("Re-challenges"),
    "spoils": _("Spoils"), "salvage": _("Salvage"), "end": _("End of the sortie"),
}  # fmt: skip


def order_lines(order: dict[str, Any] | None, names: Names) -> list[str]:
    """A kancolle entry in words, one line per part, units by their names (ids of pieces and tables as they are)."""

    def said(value: Any) -> str:
        if isinstance(value, dict):
            return ", ".join(f"{k} {said(v)}" for k, v in value.items())
        if isinstance(value, list):
            return " / ".join(said(v) for v in value)
        if isinstance(value, bool):
            return "✓" if value else "—"
        text = str(value)
        return names.unit(text) if text in names.units else text

    return [f"{PARTS.get(k, k)}: {said(v)}" for k, v in (order or {}).items() if v not in ([], {}, None, "")]
