"""What a unit may do this round, and why an order can never succeed (python-chess's `legal_moves` is the model).

`legal_actions` lists what the entry form offers a unit: the minor and major actions open to it, the targets each
ready weapon reaches, the weapons with ammunition, the items it may use (none while riding, R-CHECK-6), the checks
the scenario offers. `refusals` is the server's check on save: every reason an order can never succeed from the
round's starting state. Both read the same facts, so an order built from `legal_actions` has no refusal.

"Never succeed" is judged from the round's starting state with the other units standing still: a target is in
reach when the weapon's range holds from where this unit starts, or from where its own minor move takes it.
Statuses are those the round starts with. What only others' actions could change (an ally's cure, a gimmick) is
not counted on: the engine still refuses at resolution whatever the moment makes impossible.
"""

from __future__ import annotations

import marshal
import math
from dataclasses import dataclass, field
from typing import Any

from pbp.engine.errors import Problem
from pbp.engine.pool import geometry, rules
from pbp.engine.pool.geometry import distance, movement


@dataclass(frozen=True)
class WeaponChoice:
    """A weapon the unit may attack with this round and the targets it reaches."""

    id: str
    skill: str
    range: tuple[float, float]
    ammo: int | None
    max_targets: int
    targets: tuple[str, ...]
    needs_swap: bool = False  # in the spare slot: a minor `swap` brings it to hand first (R-FIX-2)
    needs_reload: bool = False  # empty: a minor `reload` fills it first (R-MINOR-1)


@dataclass(frozen=True)
class LegalActions:
    """Everything the entry form may offer one unit; tuples keep the encounter's order."""

    unit: str
    minor: tuple[str, ...]
    major: tuple[str, ...]
    move_toward: tuple[str, ...] = ()
    weapons: tuple[WeaponChoice, ...] = ()
    reload: tuple[str, ...] = ()
    swaps: tuple[tuple[str, str], ...] = ()
    abilities: dict[str, tuple[str, ...]] = field(default_factory=dict)  # timing -> ability ids with uses left
    recover: tuple[str, ...] = ()
    checks: tuple[str, ...] = ()  # ids of the checks the scenario offers (R-GM-2)
    items: tuple[str, ...] = ()  # items usable on an attack, check or recovery (none while riding)
    evade_items: tuple[str, ...] = ()  # items that help evasion (R-FIX-3)
    damage_to: tuple[str, ...] = ()
    setup: tuple[str, ...] = ()  # setup abilities, round 1 only; one of them at most (R-FIX-11)


def _status(unit: dict[str, Any], sid: str) -> bool:
    return any(s.get("id") == sid for s in unit.get("statuses") or ())


def _arsenal(unit: dict[str, Any]) -> list[dict[str, Any]]:
    """R-FIX-2: a rider fights with its vehicle's weapons, a unit on foot with its own."""
    vehicle = unit.get("vehicle")
    return list(vehicle.get("weapons") or []) if vehicle else list(unit.get("weapons") or [])


def _all_weapons(unit: dict[str, Any]) -> list[dict[str, Any]]:
    return list(unit.get("weapons") or []) + list((unit.get("vehicle") or {}).get("weapons") or [])


def _hand(unit: dict[str, Any]) -> str:
    vehicle = unit.get("vehicle")
    return "torso" if vehicle and vehicle.get("kind") == "fighter" else "arm"


def _move_reach(unit: dict[str, Any], terrain: list[dict[str, Any]]) -> int:
    """The combat-move distance (R-MINOR-1, R-FIX-8): stun x0.75, rough ground (R-ROUGH-1), floored."""
    vehicle = unit.get("vehicle")
    value: Any = vehicle.get("move", 0) if vehicle else unit.get("move", 0) or 0
    if _status(unit, "stun"):
        value *= rules.STUN_FACTOR
    rough = geometry.rough_factor(unit, terrain)
    if rough is not None:
        value *= rough
    return max(0, math.floor(value))


def _engaged_with_enemy(unit: dict[str, Any], units: list[dict[str, Any]]) -> bool:
    e = unit.get("engagement")
    return e is not None and any(
        o.get("engagement") == e and o["side"] != unit["side"] and not o.get("removed") for o in units
    )


class _Facts:
    """The facts about one unit at the round's start that both the listing and the refusals read."""

    def __init__(self, encounter: dict[str, Any], unit_id: str, checks: list[dict[str, Any]]):
        self.units: list[dict[str, Any]] = encounter["units"]
        self.by_id = {u["id"]: u for u in self.units}
        self.unit = self.by_id[unit_id]
        self.terrain = encounter.get("terrain") or []
        self.round = encounter.get("round", 1)
        self.checks = {c["id"]: c for c in checks}
        u = self.unit
        self.riding = bool(u.get("vehicle"))
        self.gone = bool(u.get("removed"))
        self.system_down = _status(u, "system_down")
        self.arm_damage = _status(u, "arm_damage")
        self.leg_damage = _status(u, "leg_damage")
        self.held = _engaged_with_enemy(u, self.units)
        self.reach = _move_reach(u, self.terrain)
        self.can_move = not self.gone and not self.leg_damage and not self.held and self.reach > 0
        self.others = [o for o in self.units if o is not u and not o.get("removed")]
        self.arsenal = _arsenal(u)

    def moved(self, toward: Any) -> tuple[dict[str, Any], Any]:
        """This unit as it stands after a combat move toward a unit id or a point, and its engagement then: a move
        that reaches a ground unit engages it (R-ENG-1), any other move leaves the engagement."""
        goal = self.by_id[toward]["position"] if isinstance(toward, str) else toward
        end, _ = geometry.step_toward(self.unit["position"], goal, self.reach)
        engagement = self.unit.get("engagement") if end == self.unit["position"] else None
        here = [o for o in self.others if movement(o) != "air" and geometry.metres(end, o["position"]) == 0]
        if here and movement(self.unit) != "air" and engagement is None:
            other = next((o for o in here if o["id"] == toward), here[0])
            engagement = other.get("engagement") or ("with", other["id"])
            members = sum(1 for o in self.others if engagement == o.get("engagement"))
            if members >= rules.ENGAGEMENT_CAP:  # R-ENG-3: the newcomer starts an engagement of its own
                engagement = ("new", self.unit["id"])
        return {**self.unit, "position": end}, engagement

    def after(self, minor: dict[str, Any] | None) -> tuple[dict[str, Any], Any]:
        """Where the unit stands, and in which engagement, when its major action comes."""
        if minor is not None and minor.get("type") == "move" and self.can_move:
            return self.moved(minor.get("toward"))
        return self.unit, self.unit.get("engagement")

    def held_after(self, minor: dict[str, Any] | None) -> bool:
        """Whether a living enemy holds the unit in an engagement when its major action comes (R-FIX-7)."""
        _, engagement = self.after(minor)
        if engagement is None:
            return False
        if isinstance(engagement, tuple):  # a new engagement with the unit it ran into (or of its own)
            return engagement[0] == "with" and self.by_id[engagement[1]]["side"] != self.unit["side"]
        return any(o.get("engagement") == engagement and o["side"] != self.unit["side"] for o in self.others)

    def reaches(self, weapon: dict[str, Any], target: dict[str, Any], minor: dict[str, Any] | None) -> bool:
        """Whether `weapon` reaches `target` from where the unit stands when its major action comes."""
        unit, engagement = self.after(minor)
        lo, hi = weapon["range"]
        if hi == 0:  # R-ENG-5: melee only inside the attacker's own engagement
            return engagement is not None and engagement in (target.get("engagement"), ("with", target["id"]))
        return lo <= distance(unit, target) <= hi

    def reachable_targets(self, weapon: dict[str, Any], moving: bool) -> tuple[str, ...]:
        """Foes and friends the weapon reaches now or (`moving`) after a combat move toward them; targets stand
        still."""
        found = []
        for o in self.others:
            if self.reaches(weapon, o, None) or (
                moving and self.can_move and self.reaches(weapon, o, _move_to(o["id"]))
            ):
                found.append(o["id"])
        return tuple(found)

    def item_for(self, item_id: str, skill: str | None) -> str | None:
        """Why the unit cannot use this item on a check of `skill`, or None (R-CHECK-5/6/7)."""
        item = next((it for it in self.unit.get("items") or () if it.get("id") == item_id), None)
        if item is None:
            return f"unit {self.unit['id']!r} has no item {item_id!r}"
        if self.riding:
            return f"no item can be used while riding (R-CHECK-6): {item_id!r}"
        if skill is not None and item.get("skills") and skill not in item["skills"]:
            return f"item {item_id!r} helps only {', '.join(item['skills'])}, not {skill} (R-CHECK-7)"
        return None


def _move_to(toward: Any) -> dict[str, Any]:
    return {"type": "move", "toward": toward}


def legal_actions(encounter: dict[str, Any], unit_id: str, checks: list[dict[str, Any]] | None = None) -> LegalActions:
    """What `unit_id` may order this round in a valid encounter; `checks` are the scenario's offered checks
    (`id`, `skill`, `need`: R-GM-2). A removed or dead unit may order nothing."""
    f = _Facts(encounter, unit_id, checks or [])
    u = f.unit
    if f.gone:
        return LegalActions(unit=unit_id, minor=(), major=())
    weapons = []
    if not f.system_down and not f.arm_damage:
        for w in f.arsenal:
            spare = w.get("slot", "arm") == "spare"
            empty = w.get("ammo") is not None and w["ammo"] <= 0
            if empty and w.get("ammo_max") in (None, 0):
                continue  # nothing can fill it
            if spare and not _swap_partners(f, w):
                continue
            targets = f.reachable_targets(w, moving=not (spare or empty))  # a swap or reload takes the minor
            if targets:
                weapons.append(
                    WeaponChoice(
                        id=w["id"], skill=w["skill"], range=(w["range"][0], w["range"][1]), ammo=w.get("ammo"),
                        max_targets=w.get("targets", 1), targets=targets, needs_swap=spare, needs_reload=empty,
                    )
                )  # fmt: skip
    reload = tuple(w["id"] for w in f.arsenal if w.get("ammo_max") is not None)
    swaps = tuple((w["id"], p) for w in f.arsenal for p in _swap_partners(f, w))
    abilities: dict[str, tuple[str, ...]] = {}
    for ab in u.get("abilities") or ():
        if ab.get("uses") is None or ab["uses"] > 0:
            abilities.setdefault(ab["timing"], ())
            abilities[ab["timing"]] += (ab["id"],)
    minor = []
    if f.can_move:
        minor.append("move")
    if reload:
        minor.append("reload")
    if swaps:
        minor.append("swap")
    if abilities.get("minor"):
        minor.append("ability")
    major = []
    if weapons:
        major.append("attack")
    if f.can_move:
        major.append("full_move")
    if u.get("engagement") is not None and not f.leg_damage:
        major.append("leave")
    if reload:
        major.append("reload")
    recover = ("system_down",) if f.system_down else ()
    if recover:
        major.append("recover")
    if abilities.get("major"):
        major.append("ability")
    offered = () if f.system_down else tuple(f.checks)  # any skill rolls, at level 1 if untrained (R-CHECK-3)
    if offered:
        major.append("check")
    items = () if f.riding else tuple(it["id"] for it in u.get("items") or ())
    evade_items = tuple(i for i in items if f.item_for(i, rules.EVASION_SKILL) is None)
    return LegalActions(
        unit=unit_id,
        minor=tuple(minor),
        major=tuple(major),
        move_toward=tuple(o["id"] for o in f.others) if f.can_move else (),
        weapons=tuple(weapons),
        reload=reload,
        swaps=swaps,
        abilities={k: v for k, v in abilities.items() if k in ("minor", "major")},
        recover=recover,
        checks=offered,
        items=items,
        evade_items=evade_items,
        damage_to=rules.GAUGES if f.riding else ("injury",),
        setup=abilities.get("setup", ()) if f.round == 1 else (),
    )


def _swap_partners(f: _Facts, weapon: dict[str, Any]) -> list[str]:
    """The weapons `weapon` may swap with (R-MINOR-1): one in the hand slot and one out of it; none under
    arm_damage when the hand is an arm."""
    if f.arm_damage and _hand(f.unit) == "arm":
        return []
    in_hand = weapon.get("slot", "arm") == _hand(f.unit)
    return [w["id"] for w in f.arsenal if w is not weapon and (w.get("slot", "arm") == _hand(f.unit)) != in_hand]


def refusals(
    encounter: dict[str, Any], order: dict[str, Any], checks: list[dict[str, Any]] | None = None
) -> list[Problem]:
    """Every reason a well-formed order (schema-valid) can never succeed this round, with its field path; empty
    when the order is one `legal_actions` offers."""
    f = _Facts(encounter, order["unit"], checks or [])
    legal = legal_actions(encounter, order["unit"], checks)
    out: list[Problem] = []
    minor, major = order.get("minor"), order.get("major")
    if f.gone and (minor or major):
        out.append(Problem("", f"unit {f.unit['id']!r} is out of the battle: it can do nothing"))
        return out
    if minor:
        out += _refuse_action(f, legal, minor, "minor", None)
    if major:
        out += _refuse_action(f, legal, major, "major", minor)
    if order.get("damage_to") is not None and order["damage_to"] not in legal.damage_to:
        out.append(Problem("damage_to", "a unit on foot takes damage in its injury gauge only (R-DMG-2)"))
    if order.get("evade_item") is not None and order["evade_item"] not in legal.evade_items:
        why = f.item_for(order["evade_item"], rules.EVASION_SKILL)
        out.append(Problem("evade_item", why or f"item {order['evade_item']!r} does not help evasion"))
    setup = order.get("setup") or []
    if setup:
        if not legal.setup:
            out.append(Problem("setup", "setup abilities act only before round 1 (R-SETUP-1)"))
        elif len(setup) > 1:
            out.append(Problem("setup", "one setup action per character in all (R-FIX-11)"))
        for i, ab in enumerate(setup):
            if legal.setup and ab not in legal.setup:
                out.append(Problem(f"setup[{i}]", f"{ab!r} is not a setup ability with uses left"))
    return out


def _refuse_action(
    f: _Facts, legal: LegalActions, act: dict[str, Any], slot: str, minor: dict[str, Any] | None
) -> list[Problem]:
    kind = act["type"]
    offered = legal.minor if slot == "minor" else legal.major
    out: list[Problem] = []

    def no(path: str, why: str) -> None:
        out.append(Problem(f"{slot}{'.' + path if path else ''}", why))

    if kind == "attack":
        _refuse_attack(f, legal, act, minor, no)
    elif kind in ("move", "full_move", "leave"):
        _refuse_move(f, act, minor if slot == "major" else None, no)
    elif kind not in offered:
        no("type", _why_not(f, kind))
    elif kind == "reload" and not any(
        w["id"] == act["weapon"] and w.get("ammo_max") is not None for w in _all_weapons(f.unit)
    ):
        no("weapon", f"{act['weapon']!r} has no magazine to reload")
    elif kind == "swap" and (act["weapon"], act["with"]) not in legal.swaps:
        no("with", f"{act['weapon']!r} and {act['with']!r} cannot swap (one must be in hand, R-MINOR-1)")
    elif kind == "ability" and act["id"] not in legal.abilities.get(slot, ()):
        no("id", f"{act['id']!r} is not a {slot} ability with uses left")
    elif kind == "recover" and act.get("status") not in legal.recover:
        no("status", f"only system_down is removed by recovering, and the unit has {act.get('status')!r} not")
    elif kind == "check" and act.get("label") not in legal.checks:
        no("label", f"the scenario offers no check {act.get('label')!r} (R-GM-2)")
    skill = _skill_of(f, act)
    if act.get("item") is not None and not out:
        why = f.item_for(act["item"], skill)
        if why:
            no("item", why)
    return out


def _skill_of(f: _Facts, act: dict[str, Any]) -> str | None:
    if act["type"] == "attack":
        w = next((w for w in f.arsenal if w["id"] == act.get("weapon")), None)
        return w["skill"] if w else None
    if act["type"] == "recover":
        return rules.RECOVERY_SKILL
    if act["type"] == "check":
        return act.get("skill")
    return None


def _refuse_move(f: _Facts, act: dict[str, Any], minor: dict[str, Any] | None, no: Any) -> None:
    """A move, full move or leave, from where the minor action (for a major one) leaves the unit."""
    kind = act["type"]
    at, engagement = f.after(minor)
    if f.leg_damage:
        no("type", "leg_damage: the unit cannot move this round")
    elif kind == "leave" and engagement is None:
        no("type", "the unit is not in an engagement: there is nothing to leave")
    elif kind != "leave" and (f.held if minor is None else f.held_after(minor)):
        no("type", "engaged with an enemy: only `leave` takes it out (R-FIX-7)")
    elif f.reach <= 0 and act.get("toward") is not None:
        toward = act["toward"]
        goal = f.by_id[toward]["position"] if isinstance(toward, str) else toward
        if goal != at["position"]:
            no("toward", "the unit's move is 0 metres this round: it cannot move")


def _why_not(f: _Facts, kind: str) -> str:
    if kind == "reload":
        return "no weapon with a magazine to fill"
    if kind == "swap":
        return "no weapon to swap (one in hand and one out of it; not under arm_damage)"
    if kind == "recover":
        return "nothing to recover from (recovering removes system_down)"
    if kind == "check":
        return "the scenario offers no check (R-GM-2)" if not f.checks else "system_down: no check can be made"
    return f"{kind} is not open to this unit now"


def _refuse_attack(f: _Facts, legal: LegalActions, act: dict[str, Any], minor: dict[str, Any] | None, no: Any) -> None:
    if f.system_down:
        no("type", "system_down: the unit cannot attack this round")
        return
    if f.arm_damage:
        no("type", "arm_damage: the unit cannot attack this round")
        return
    w = next((w for w in f.arsenal if w["id"] == act["weapon"]), None)
    if w is None:
        where = "vehicle's weapons" if f.riding else "own weapons"
        no("weapon", f"{act['weapon']!r} is not among the unit's {where}: a rider attacks only with its vehicle's, "
                     "a unit on foot only with its own (R-FIX-2)")  # fmt: skip
        return
    minor = minor or {}
    slot = w.get("slot", "arm")
    if (
        minor.get("type") == "swap"
        and (minor["weapon"], minor["with"]) in legal.swaps
        and w["id"]
        in (
            minor["weapon"],
            minor["with"],
        )
    ):  # the minor swap exchanged this weapon's slot with its partner's
        partner = minor["with"] if w["id"] == minor["weapon"] else minor["weapon"]
        slot = next(o.get("slot", "arm") for o in f.arsenal if o["id"] == partner)
    if slot == "spare":
        no(
            "weapon",
            f"{w['id']!r} is carried spare when the attack comes: a minor swap must bring it to hand (R-FIX-2)",
        )
    reloaded = minor.get("type") == "reload" and minor.get("weapon") == w["id"] and w.get("ammo_max") is not None
    if w.get("ammo") is not None and w["ammo"] <= 0 and not reloaded:
        no("weapon", f"{w['id']!r} is out of ammunition: a minor reload must fill it first")
    for i, tid in enumerate(act["targets"]):
        target = f.by_id[tid]
        if target.get("removed"):
            no(f"targets[{i}]", f"{tid!r} is out of the battle")
        elif not f.reaches(w, target, minor):
            lo, hi = w["range"]
            span = "in its own engagement (melee, R-ENG-5)" if hi == 0 else f"at {lo}-{hi} m"
            no(f"targets[{i}]", f"{tid!r} is out of reach: {w['id']!r} hits {span}, and {tid!r} is "
                                f"{distance(f.unit, target)} m away")  # fmt: skip


def check_pool(
    encounter: dict[str, Any],
    unit_id: str,
    skill: str,
    item_id: str | None = None,
    *,
    evasion: bool = False,
    pack_skill_stats: dict[str, str] | None = None,
) -> tuple[int, int, int]:
    """(dice, level, success bonus) of a check `unit_id` would make at the round's start (R-CHECK-8), computed by
    the battle's own pool so the odds a form shows are the engine's. `evasion` adds leg_damage's penalty."""
    from pbp.engine.pool.battle import Battle  # the battle imports nothing of this module

    state = marshal.loads(marshal.dumps(encounter))  # the battle fills defaults into the state it is given
    battle = Battle(state, {"orders": []}, None, [], pack_skill_stats)  # type: ignore[arg-type]
    unit = battle.by_id[unit_id]
    default = rules.EVASION_STAT if skill == rules.EVASION_SKILL else None
    stat = battle.skill_stats[unit_id].get(skill, default)
    if stat is None:
        raise KeyError(f"skill {skill!r} has no parent stat")
    item = next((it for it in unit["items"] if it["id"] == item_id), None) if item_id else None
    dice, level, bonus, _ = battle.pool(unit, stat, skill, item, evasion)
    return dice, level, bonus
