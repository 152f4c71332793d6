"""Bad input (C-20): every check on an encounter, its orders and the GM's overrides, made before any die is rolled,
each problem under its JSON path; and the defaults a valid encounter's missing fields take (C-9, C-10).

The one validation idiom of the engine (`pbp.engine.checker.Checker`), as `pool.schema` uses it.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from pbp.engine.checker import Checker, is_whole
from pbp.engine.errors import N_, Problem
from pbp.engine.kancolle.battle import BATTLEFIELDS, RANGES
from pbp.engine.kancolle.core import CHECK_KINDS, RESOURCES
from pbp.engine.kancolle.grid import keyword_width, merged_grid

MODES = ("battle", "base", "checks", "end")
SIDES = ("pc", "enemy")
PIECE_KINDS = ("gun", "torpedo", "aircraft", "recon", "anti_air", "other")
OUTCOMES = ("victory", "defeat", "wipeout", "draw")
AFFINITY = ("○", "△", "×")
RATINGS = ("命中", "火力", "回避", "装甲", "装備力")
KEYWORD_WIDTH = 10  # K-BASE-2
CHECK_ID = re.compile(r"r[0-9]+-c[0-9]+")
#: Orders for what contract v3 leaves to the 提督's hand (C-14): development, refit, item exchange, ムーブ abilities.
NOT_IN_V3 = ("move", "exchange", "refit", "develop")

OPTION_DEFAULTS: dict[str, Any] = {
    "victory": "flagship", "replot_after_recon": True, "allow_farther_substitute": False, "torpedo_pc_only": False,
    "damage_steps": [1, 2, 3, 4], "max_traits": 6,
}  # fmt: skip
BATTLE_DEFAULTS: dict[str, Any] = {
    "started": False, "battlefield": None, "plan": None, "night": False, "outcome": None, "revealed": None,
    "settled": False,
}  # fmt: skip
UNIT_DEFAULTS: dict[str, Any] = {
    "level": 1, "exp": 0, "steps": 0, "traits": [], "initial_traits": 0, "gap": None, "discovered": False,
    "emotions": {}, "affinity": {}, "repair": None, "equipment": [], "items": [], "position": None, "modifiers": [],
    "flagship": False, "removed": False, "lost": False,
}  # fmt: skip
PIECE_DEFAULTS: dict[str, Any] = {
    "range": None, "firepower": 0, "torpedo": 0, "air": 0, "recon": None, "anti_air": 0, "super_anti_air": False,
    "opening": False, "carrier_aircraft": False, "trait": None, "dc": None,
}  # fmt: skip


def _filled(obj: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    """`obj` with each default put where its field is missing or null (validation let a null through as absent)."""
    return {**obj, **{k: copy.deepcopy(v) for k, v in defaults.items() if obj.get(k) is None}}


def with_defaults(encounter: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a valid encounter with every missing optional field filled (C-9, C-10)."""
    enc = _filled(copy.deepcopy(encounter), {"round": 1, "grid": {}, "event_tables": {}, "checks": []})
    enc["options"] = _filled(enc.get("options") or {}, OPTION_DEFAULTS)
    enc["base"] = _filled(enc.get("base") or {}, {"level": 1, "resources": {}, "store": []})
    enc["base"]["store"] = [_filled(p, PIECE_DEFAULTS) for p in enc["base"]["store"]]
    if enc["mode"] == "battle" or enc.get("battle") is not None:
        enc["battle"] = _filled(enc.get("battle") or {}, BATTLE_DEFAULTS)
    for i, u in enumerate(enc["units"]):
        full = _filled(u, {**UNIT_DEFAULTS, "name": u["id"], "ap_max": u["ap"]})
        full["equipment"] = [_filled(p, PIECE_DEFAULTS) for p in full["equipment"]]
        enc["units"][i] = full
    return enc


def _known(value: Any, names: dict[str, Any] | set[Any]) -> bool:
    """A text naming one of `names` (a list or an object is never a name, nor hashable)."""
    return isinstance(value, str) and value in names


class _Check(Checker):
    """The checker with the few shapes this ruleset repeats."""

    def opt_int(self, obj: dict[str, Any], key: str, path: str, lo: int | None = None, hi: int | None = None) -> None:
        if obj.get(key) is not None:
            self.check_key_int(obj, key, path, lo, hi)

    def opt_bool(self, obj: dict[str, Any], key: str, path: str) -> None:
        if key in obj:
            self.check_bool(obj[key], f"{path}.{key}")

    def opt_dict(self, obj: dict[str, Any], key: str, path: str) -> dict[str, Any] | None:
        """obj[key] when it is an object; None when absent or null (a problem when it is something else)."""
        v = obj.get(key)
        if v is None:
            return None
        return v if self.check_dict(v, f"{path}.{key}") else None

    def opt_list(self, obj: dict[str, Any], key: str, path: str) -> list[Any]:
        v = obj.get(key)
        if v is None:
            return []
        return v if self.check_list(v, f"{path}.{key}") else []

    def in_grid(self, value: Any, grid: dict[str, Any], path: str, nullable: bool = True) -> bool:
        if value is None and nullable:
            return True
        if isinstance(value, str) and value in grid:
            return True
        self.said(path, N_("%(value)r is not a trait of the grid"), value=value)
        return False


# -- the encounter -------------------------------------------------------------------------------------------------
def validate_encounter(enc: Any, orders: Any = None) -> list[Problem]:
    """Every problem of an encounter (C-20); `orders`, when sound, lets the checks that depend on them run."""
    c = _Check()
    if not c.check_dict(enc, ""):
        return c.problems
    if enc.get("ruleset") != "kancolle":
        c.said("ruleset", N_("must be 'kancolle', got %(value)r"), value=enc.get("ruleset"))
    if not c.check_key_one_of(enc, "mode", MODES, ""):
        return _strip(c.problems)
    options = c.opt_dict(enc, "options", "") or {}
    _options(c, options)
    grid = _grid(c, enc)
    base = c.opt_dict(enc, "base", "") or {}
    if base:
        c.opt_int(base, "level", "base", 1)
        res = c.opt_dict(base, "resources", "base") or {}
        for k, v in res.items():
            if k not in RESOURCES:
                c.said(f"base.resources.{k}", N_("%(value)r is not a resource"), value=k)
            else:
                c.check_int(v, f"base.resources.{k}", 0)
        ids: set[str] = set()
        for i, p in enumerate(c.opt_list(base, "store", "base")):
            _piece(c, p, f"base.store[{i}]", grid, ids)
    c.opt_int(enc, "round", "", 0)
    units = enc.get("units")
    if not c.check_list(units, "units") or not units:
        if isinstance(units, list):
            c.said("units", N_("an encounter needs units"))
        return _strip(c.problems)
    max_traits = options.get("max_traits", 6) if is_whole(options.get("max_traits", 6)) else 6
    seen: set[str] = set()
    for i, u in enumerate(units):
        _unit(c, u, f"units[{i}]", grid, seen, max_traits)
    if c.problems:
        return _strip(c.problems)
    by_id = {u["id"]: u for u in units}
    if enc["mode"] == "battle":
        _battle(c, enc, by_id, orders)
    else:
        c.opt_dict(enc, "battle", "")
    if enc["mode"] == "checks":
        for i, chk in enumerate(c.opt_list(enc, "checks", "")):
            _free_check(c, chk, f"checks[{i}]", by_id, grid)
    tables = c.opt_dict(enc, "event_tables", "") or {}
    for name, table in tables.items():
        _table(c, table, f"event_tables.{name}", grid)
    if enc["mode"] == "base" and isinstance(orders, dict) and isinstance(orders.get("cycle"), list):
        _base_needs(c, enc, orders["cycle"])
    return _strip(c.problems)


def _strip(problems: list[Problem]) -> list[Problem]:
    """Paths from the file's root: no leading dot where the parent is the root."""
    return [Problem(p.path.lstrip("."), p.message, p.file, p.template, p.params) for p in problems]


def _options(c: _Check, options: dict[str, Any]) -> None:
    if "victory" in options:
        c.check_key_one_of(options, "victory", ("flagship", "all"), "options")
    for key in ("replot_after_recon", "allow_farther_substitute", "torpedo_pc_only"):
        c.opt_bool(options, key, "options")
    steps = options.get("damage_steps")
    if steps is not None and c.check_list(steps, "options.damage_steps"):
        c.check_ints(steps, "options.damage_steps", 1)
    c.opt_int(options, "max_traits", "options", 1)


def _grid(c: _Check, enc: dict[str, Any]) -> dict[str, Any]:
    raw = c.opt_dict(enc, "grid", "") or {}
    good = {}
    for name, cell in raw.items():
        path = f"grid.{name}"
        if (
            isinstance(cell, list) and len(cell) == 2 and all(is_whole(x) for x in cell)
            and 1 <= cell[0] <= 6 and 2 <= cell[1] <= 12
        ):  # fmt: skip
            good[name] = cell
        else:
            c.said(path, N_("must be a cell [category 1..6, row 2..12], got %(value)r"), value=cell)
    return merged_grid(good)


def _piece(c: _Check, p: Any, path: str, grid: dict[str, Any], ids: set[str]) -> None:
    if not c.check_dict(p, path):
        return
    if c.check_key_str(p, "id", path):
        if p["id"] in ids:
            c.said(f"{path}.id", N_("piece id %(value)r is used twice"), value=p["id"])
        ids.add(p["id"])
    c.check_key_one_of(p, "kind", PIECE_KINDS, path)
    if p.get("range") is not None:
        c.check_key_one_of(p, "range", RANGES, path)
    for key in ("firepower", "torpedo", "air", "anti_air"):
        c.opt_int(p, key, path, 0, 50)
    recon = p.get("recon")
    if recon is not None and recon != "-" and not (is_whole(recon) and recon >= 0):
        c.said(f"{path}.recon", N_("must be a number, '-' or null, got %(value)r"), value=recon)
    for key in ("super_anti_air", "opening", "carrier_aircraft"):
        c.opt_bool(p, key, path)
    c.in_grid(p.get("trait"), grid, f"{path}.trait")
    c.opt_int(p, "dc", path, 0, 100)


def _unit(c: _Check, u: Any, path: str, grid: dict[str, Any], seen: set[str], max_traits: int) -> None:
    if not c.check_dict(u, path):
        return
    if c.check_key_str(u, "id", path):
        if u["id"] in seen:
            c.said(f"{path}.id", N_("unit id %(value)r is used twice"), value=u["id"])
        seen.add(u["id"])
    if not c.check_key_one_of(u, "side", SIDES, path):
        return
    if "name" in u:
        c.check_key_str(u, "name", path)
    ratings = u.get("ratings")
    if c.check_dict(ratings, f"{path}.ratings"):
        for r in RATINGS:
            if r not in ratings:
                c.said(f"{path}.ratings.{r}", N_("the rating is missing"))
            else:
                c.check_int(ratings[r], f"{path}.ratings.{r}", 1 if r == "装甲" else 0, 99)
    ap_max = u.get("ap_max", u.get("ap"))
    if c.check_int(ap_max, f"{path}.ap_max", 0, 999):
        c.check_key_int(u, "ap", path, 0, ap_max)
    c.opt_int(u, "steps", path, 0, 4)
    c.opt_int(u, "level", path, 1, 999)
    c.opt_int(u, "exp", path, 0)
    c.opt_int(u, "position", path, 1, 6)
    for key in ("flagship", "removed", "lost", "discovered"):
        c.opt_bool(u, key, path)
    equipment = c.opt_list(u, "equipment", path)
    ids: set[str] = set()
    for i, p in enumerate(equipment):
        _piece(c, p, f"{path}.equipment[{i}]", grid, ids)
    if isinstance(ratings, dict) and is_whole(ratings.get("装備力")) and len(equipment) > ratings["装備力"]:
        c.said(f"{path}.equipment", N_("more pieces than 装備力 (%(n)s)"), n=ratings["装備力"])
    if len(c.opt_list(u, "items", path)) > 2:
        c.said(f"{path}.items", N_("at most 2 items"))
    for i, m in enumerate(c.opt_list(u, "modifiers", path)):
        mp = f"{path}.modifiers[{i}]"
        if c.check_dict(m, mp):
            c.check_key_int(m, "value", mp, -99, 99)
            c.check_key_one_of(m, "until", ("cycle", "battle"), mp)
    if u["side"] == "pc":
        _pc_sheet(c, u, path, grid, max_traits)


def _pc_sheet(c: _Check, u: dict[str, Any], path: str, grid: dict[str, Any], max_traits: int) -> None:
    """K-SHEET-15: the grid, traits, emotions and affinity of a ship girl."""
    c.check_key_int(u, "gap", path, 1, 5)
    c.opt_int(u, "initial_traits", path, 0, 66)
    c.opt_int(u, "repair", path, 0, 99)
    traits: Any = u.get("traits")
    if c.check_list(traits, f"{path}.traits"):
        if not traits:
            c.said(f"{path}.traits", N_("a ship girl holds at least one trait"))
        names: set[str] = set()
        for i, t in enumerate(traits):
            tp = f"{path}.traits[{i}]"
            if not c.check_dict(t, tp):
                continue
            if c.in_grid(t.get("name"), grid, f"{tp}.name", nullable=False):
                if t["name"] in names:
                    c.said(f"{tp}.name", N_("trait %(value)r is held twice"), value=t["name"])
                names.add(t["name"])
            c.check_key_one_of(t, "kind", ("merit", "weakness"), tp)
        initial = u.get("initial_traits", 0)
        if len(traits) > max_traits or (is_whole(initial) and len(traits) < initial):
            c.said(f"{path}.traits", N_("%(n)s traits: not within the initial count and max_traits"), n=len(traits))
    emotions = c.opt_dict(u, "emotions", path) or {}
    for key, e in emotions.items():
        ep = f"{path}.emotions.{key}"
        if c.check_dict(e, ep):
            c.check_key_int(e, "value", ep, 0, 5)
            if "box" in e:
                c.check_key_one_of(e, "box", ("clear", "checked"), ep)
            if e.get("attribute") is not None and not isinstance(e["attribute"], str):
                c.said(f"{ep}.attribute", N_("must be text or null"))
    for key, mark in (c.opt_dict(u, "affinity", path) or {}).items():
        if key not in RESOURCES or mark not in AFFINITY:
            c.said(f"{path}.affinity.{key}", N_("must be a resource with ○, △ or ×, got %(value)r"), value=mark)


def _battle(c: _Check, enc: dict[str, Any], by_id: dict[str, Any], orders: Any) -> None:
    battle = c.opt_dict(enc, "battle", "") or {}
    for key in ("started", "night", "settled"):
        c.opt_bool(battle, key, "battle")
    if battle.get("battlefield") is not None:
        c.check_key_one_of(battle, "battlefield", BATTLEFIELDS, "battle")
    if battle.get("plan") is not None:
        c.said("battle.plan", N_("a custom plan is not in contract v3: must be null"))
    if battle.get("outcome") is not None:
        c.check_key_one_of(battle, "outcome", OUTCOMES, "battle")
    revealed = battle.get("revealed")
    if revealed is not None and (not isinstance(revealed, list) or any(not _known(r, by_id) for r in revealed)):
        c.said("battle.revealed", N_("must be null or a list of unit ids"))
    if battle.get("outcome") is None:
        rnd = enc.get("round", 1)
        if is_whole(rnd) and not (1 <= rnd <= 4 and (rnd < 4 or battle.get("night") is True)):
            c.said("round", N_("%(value)s is not a battle round (1..3, 4 only after a night check)"), value=rnd)
    if battle.get("started") or revealed is not None:  # the formation has run: every unit has its position
        for i, u in enumerate(enc["units"]):
            if u.get("position") is None:
                c.said(f"units[{i}].position", N_("a unit has a position once the formation has run"))
    else:
        entries = {}
        if isinstance(orders, dict) and isinstance(orders.get("orders"), list):
            entries = {e["unit"]: e for e in orders["orders"] if isinstance(e, dict) and _known(e.get("unit"), by_id)}
        for i, u in enumerate(enc["units"]):
            formation = entries.get(u["id"], {}).get("formation")
            has = isinstance(formation, dict) and formation.get("position") is not None
            if u.get("position") is None and not has:
                c.said(f"units[{i}].position", N_("a unit needs a position before the formation"))


def _free_check(c: _Check, chk: Any, path: str, by_id: dict[str, Any], grid: dict[str, Any]) -> None:
    if not c.check_dict(chk, path):
        return
    if not _known(chk.get("unit"), by_id):
        c.said(f"{path}.unit", N_("%(value)r is not a unit"), value=chk.get("unit"))
    if "kind" in chk:
        c.check_key_one_of(chk, "kind", CHECK_KINDS, path)
    c.in_grid(chk.get("designated"), grid, f"{path}.designated")
    c.in_grid(chk.get("substitute"), grid, f"{path}.substitute")
    c.opt_int(chk, "rating", path, -99, 99)
    c.opt_int(chk, "modifier", path, -99, 99)
    c.opt_int(chk, "interfere", path, 1, 6)
    c.opt_int(chk, "dc", path, 0, 100)
    c.opt_bool(chk, "night", path)


EFFECT_TARGETS = ("self", "partner", "appearing")


def _table(c: _Check, table: Any, path: str, grid: dict[str, Any]) -> None:
    if not c.check_dict(table, path):
        return
    if any(str(r) not in table for r in range(2, 13)):
        c.said(path, N_("an event table needs every row '2'..'12'"))
        return
    for r in range(2, 13):
        rp = f"{path}.{r}"
        row = table[str(r)]
        if not c.check_dict(row, rp):
            continue
        c.check_key_str(row, "name", rp)
        c.in_grid(row.get("trait"), grid, f"{rp}.trait", nullable=False)
        for key in ("success", "failure"):
            for i, eff in enumerate(c.opt_list(row, key, rp)):
                _effect(c, eff, f"{rp}.{key}[{i}]")


def _effect(c: _Check, eff: Any, path: str) -> None:
    if not c.check_dict(eff, path) or not c.check_key_one_of(eff, "kind", ("ap", "emotion", "resource"), path):
        return
    value = eff.get("value")
    if not (is_whole(value) and -99 <= value <= 99) and not (value == "1d6" and eff["kind"] != "emotion"):
        c.said(f"{path}.value", N_("must be a whole number or '1d6', got %(value)r"), value=value)
    if eff["kind"] == "ap":
        c.check_key_one_of(eff, "on", EFFECT_TARGETS, path, "self")
    elif eff["kind"] == "emotion":
        c.check_key_one_of(eff, "from", EFFECT_TARGETS, path, "self")
        c.check_key_one_of(eff, "to", ("self", "partner"), path, "self")
    else:
        c.check_key_one_of(eff, "resource", RESOURCES, path)


def _base_needs(c: _Check, enc: dict[str, Any], cycle: list[Any]) -> None:
    """Docking needs `repair`; supply needs the resource's affinity (paths in the encounter)."""
    index = {u["id"]: i for i, u in enumerate(enc["units"])}
    for e in cycle:
        if not isinstance(e, dict) or not _known(e.get("unit"), index):
            continue
        i = index[e["unit"]]
        u = enc["units"][i]
        scene: Any = e.get("scene") if isinstance(e.get("scene"), dict) else {}
        subs: Any = scene.get("sub") if isinstance(scene.get("sub"), list) else []
        if any(isinstance(s, dict) and s.get("type") == "dock" for s in subs) and not is_whole(u.get("repair")):
            c.said(f"units[{i}].repair", N_("docking needs the class's repair coefficient"))
        supply: Any = e.get("supply") if isinstance(e.get("supply"), dict) else {}
        affinity = u.get("affinity") or {}
        if any(r in RESOURCES and r not in affinity for r in supply if isinstance(affinity, dict)):
            c.said(f"units[{i}].affinity", N_("supply needs the resource's affinity"))


# -- orders --------------------------------------------------------------------------------------------------------
def validate_orders(orders: Any, enc: dict[str, Any]) -> list[Problem]:
    """Every problem of an orders file against a valid encounter (C-20)."""
    c = _Check()
    if not c.check_dict(orders, ""):
        return _strip(c.problems)
    grid = merged_grid(enc.get("grid"))
    by_id = {u["id"]: u for u in enc["units"]}
    for i, e in enumerate(c.opt_list(orders, "orders", "")):
        _entry(c, e, f"orders[{i}]", enc, by_id)
    rounds = c.opt_dict(orders, "rounds", "") or {}
    for key in rounds:
        if key not in ("1", "2", "3", "4"):
            c.said(f"rounds.{key}", N_("a round key is '1'..'4'"))
            continue
        for i, e in enumerate(c.opt_list(rounds, key, "rounds")):
            _entry(c, e, f"rounds.{key}[{i}]", enc, by_id)
    for i, e in enumerate(c.opt_list(orders, "cycle", "")):
        _cycle_entry(c, e, f"cycle[{i}]", enc, by_id, grid)
    return _strip(c.problems)


def _unit_ref(c: _Check, e: dict[str, Any], path: str, by_id: dict[str, Any]) -> dict[str, Any] | None:
    uid = e.get("unit")
    if not isinstance(uid, str) or uid not in by_id:
        c.said(f"{path}.unit", N_("%(value)r is not a unit of the encounter"), value=uid)
        return None
    return by_id[uid]  # type: ignore[no-any-return]


def _targets(c: _Check, value: Any, path: str, unit: dict[str, Any], by_id: dict[str, Any]) -> None:
    if value is None or not c.check_list(value, path):
        return
    for i, t in enumerate(value):
        if not isinstance(t, str) or t not in by_id or by_id[t]["side"] == unit["side"]:
            c.said(f"{path}[{i}]", N_("%(value)r is not a unit of the other side"), value=t)


def _entry(c: _Check, e: Any, path: str, enc: dict[str, Any], by_id: dict[str, Any]) -> None:
    if not c.check_dict(e, path):
        return
    unit = _unit_ref(c, e, path, by_id)
    if unit is None:
        return
    _not_in_v3(c, e, path)
    pieces = {p.get("id"): p for p in unit.get("equipment") or []}
    formation = c.opt_dict(e, "formation", path)
    if formation is not None:
        c.opt_int(formation, "position", f"{path}.formation", 1, 6)
        _targets(c, formation.get("recon"), f"{path}.formation.recon", unit, by_id)
    for key in ("air", "opening_torpedo", "torpedo"):
        for i, attack in enumerate(c.opt_list(e, key, path)):
            ap = f"{path}.{key}[{i}]"
            if not c.check_dict(attack, ap):
                continue
            p = pieces.get(attack.get("piece")) if isinstance(attack.get("piece"), str) else None
            usable = p is not None and (
                (key == "air" and (p.get("air") or 0) > 0)
                or (key != "air" and p.get("kind") == "torpedo" and (key == "torpedo" or bool(p.get("opening"))))
            )
            if not usable:
                c.said(f"{ap}.piece", N_("%(value)r is not a piece usable here"), value=attack.get("piece"))
            _targets(c, attack.get("targets"), f"{ap}.targets", unit, by_id)
    for key in ("shelling", "night"):
        order = c.opt_dict(e, key, path)
        if order is None:
            continue
        op = f"{path}.{key}"
        if key == "shelling" and order.get("pass") is not None:
            c.check_key_one_of(order, "pass", RANGES, op)
        _targets(c, order.get("targets"), f"{op}.targets", unit, by_id)
        seen: set[str] = set()
        for i, pid in enumerate(c.opt_list(order, "chain", op)):
            p = pieces.get(pid) if isinstance(pid, str) else None
            if p is None or p.get("range") is None or pid in seen:
                c.said(f"{op}.chain[{i}]", N_("%(value)r is not a piece with a range, named once"), value=pid)
            else:
                seen.add(pid)
    _policies(c, e, path, unit, by_id)
    for key in ("retreat", "night_volunteer"):
        c.opt_bool(e, key, path)
    for i, t in enumerate(c.opt_list(e, "salvage", path)):
        if not _other_pc(t, unit, by_id):
            c.said(f"{path}.salvage[{i}]", N_("%(value)r is not another ship girl"), value=t)
    spoils = c.opt_dict(e, "spoils", path)
    if spoils is not None:
        if spoils.get("resource") is not None:
            c.check_key_one_of(spoils, "resource", RESOURCES, f"{path}.spoils")
        if spoils.get("emotion_to") is not None and not isinstance(spoils["emotion_to"], str):
            c.said(f"{path}.spoils.emotion_to", N_("must be a unit id"))
    end = c.opt_dict(e, "end", path)
    if end is not None:
        held = {t.get("name") for t in unit.get("traits") or []}
        for i, t in enumerate(c.opt_list(end, "drop", f"{path}.end")):
            if not _known(t, held):
                c.said(f"{path}.end.drop[{i}]", N_("%(value)r is not a trait the unit holds"), value=t)
        for i, t in enumerate(c.opt_list(end, "trim", f"{path}.end")):
            if not isinstance(t, str):
                c.said(f"{path}.end.trim[{i}]", N_("must be an emotion key"))
        store = {p.get("id") for p in (enc.get("base") or {}).get("store") or []}
        scrapped: set[Any] = set()
        for i, pid in enumerate(c.opt_list(end, "scrap", f"{path}.end")):
            if not isinstance(pid, str) or pid not in store or pid in scrapped:
                c.said(f"{path}.end.scrap[{i}]", N_("%(value)r is not a piece in the store, named once"), value=pid)
            else:
                scrapped.add(pid)


def _not_in_v3(c: _Check, e: dict[str, Any], path: str) -> None:
    for key in NOT_IN_V3:
        if key in e:
            c.said(f"{path}.{key}", N_("not in contract v3: the 提督 records it by hand"))


def _other_pc(uid: Any, unit: dict[str, Any], by_id: dict[str, Any]) -> bool:
    return isinstance(uid, str) and uid in by_id and by_id[uid]["side"] == "pc" and uid != unit["id"]


def _policies(c: _Check, e: dict[str, Any], path: str, unit: dict[str, Any], by_id: dict[str, Any]) -> None:
    """The standing policies of K-PLAY-2: re-challenge, support, anti-air."""
    rechallenge = c.opt_dict(e, "rechallenge", path)
    if rechallenge is not None:
        rp = f"{path}.rechallenge"
        c.opt_int(rechallenge, "max", rp, 0, 99)
        c.opt_int(rechallenge, "keep", rp, 0, 999)
        _kinds(c, rechallenge, rp)
    for i, s in enumerate(c.opt_list(e, "support", path)):
        sp = f"{path}.support[{i}]"
        if not c.check_dict(s, sp):
            continue
        if not _other_pc(s.get("for"), unit, by_id):
            c.said(f"{sp}.for", N_("%(value)r is not another ship girl"), value=s.get("for"))
        c.check_key_one_of(s, "kind", ("check", "damage"), sp)
        _kinds(c, s, sp)
    anti_air = c.opt_dict(e, "anti_air", path)
    if anti_air is not None:
        c.opt_bool(anti_air, "recon", f"{path}.anti_air")
        c.opt_bool(anti_air, "air", f"{path}.anti_air")
        c.opt_int(anti_air, "keep", f"{path}.anti_air", 0, 999)


def _kinds(c: _Check, obj: dict[str, Any], path: str) -> None:
    kinds = obj.get("kinds")
    if kinds is not None and (not isinstance(kinds, list) or any(k not in CHECK_KINDS for k in kinds)):
        c.said(f"{path}.kinds", N_("must be null or a list of check kinds"))


def _cycle_entry(
    c: _Check, e: Any, path: str, enc: dict[str, Any], by_id: dict[str, Any], grid: dict[str, Any]
) -> None:
    if not c.check_dict(e, path):
        return
    unit = _unit_ref(c, e, path, by_id)
    if unit is None:
        return
    if unit["side"] != "pc" or unit.get("lost"):
        c.said(f"{path}.unit", N_("a cycle entry is a ship girl's, not lost"))
        return
    _not_in_v3(c, e, path)
    card = e.get("card")
    if c.check_dict(card, f"{path}.card"):
        tables = enc.get("event_tables") or {}
        if not isinstance(card.get("type"), str) or card["type"] not in tables:
            c.said(f"{path}.card.type", N_("%(value)r has no event table"), value=card.get("type"))
        keyword = card.get("keyword")
        if keyword is not None and (not isinstance(keyword, str) or keyword_width(keyword) > KEYWORD_WIDTH):
            c.said(f"{path}.card.keyword", N_("a keyword is at most 10 wide (a CJK character counts 2)"))
        c.in_grid(card.get("trait"), grid, f"{path}.card.trait")
    scene = c.opt_dict(e, "scene", path) or {}
    sp = f"{path}.scene"
    c.in_grid(scene.get("substitute"), grid, f"{sp}.substitute")
    if scene.get("partner") is not None and not _other_pc(scene["partner"], unit, by_id):
        c.said(f"{sp}.partner", N_("%(value)r is not another ship girl"), value=scene["partner"])
    for i, a in enumerate(c.opt_list(scene, "appearing", sp)):
        if not (isinstance(a, str) and a in by_id and by_id[a]["side"] == "pc"):
            c.said(f"{sp}.appearing[{i}]", N_("%(value)r is not a ship girl"), value=a)
    for i, sub in enumerate(c.opt_list(scene, "sub", sp)):
        subp = f"{sp}.sub[{i}]"
        if not c.check_dict(sub, subp):
            continue
        if sub.get("type") == "discovery":
            c.in_grid(sub.get("trait"), grid, f"{subp}.trait", nullable=False)
        elif sub.get("type") == "dock":
            c.check_key_int(sub, "steps", subp, 1, 4)
        else:
            c.said(f"{subp}.type", N_("a sub action is discovery or dock in contract v3"))
    supply = c.opt_dict(e, "supply", path) or {}
    for key, amount in supply.items():
        if key not in RESOURCES:
            c.said(f"{path}.supply.{key}", N_("%(value)r is not a resource"), value=key)
        else:
            c.check_int(amount, f"{path}.supply.{key}", 0, 999)
    _policies(c, e, path, unit, by_id)


# -- overrides -----------------------------------------------------------------------------------------------------
def validate_overrides(overrides: Any) -> list[Problem]:
    """K-GM-1, C-16: a check id `r{N}-c{N}` named once, a result and a reason that is not blank."""
    c = _Check()
    if not c.check_list(overrides, "overrides"):
        return c.problems
    seen: set[str] = set()
    for i, o in enumerate(overrides):
        path = f"overrides[{i}]"
        if not c.check_dict(o, path):
            continue
        check_id = o.get("check")
        if not (isinstance(check_id, str) and CHECK_ID.fullmatch(check_id)) or check_id in seen:
            c.said(f"{path}.check", N_("must be a check id like 'r1-c2', named once, got %(value)r"), value=check_id)
        else:
            seen.add(check_id)
        c.check_key_one_of(o, "result", ("success", "failure"), path)
        reason = o.get("reason")
        if not (isinstance(reason, str) and reason.strip()):
            c.said(f"{path}.reason", N_("an override needs a reason (K-GM-1: it is published)"))
    return c.problems
