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
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from pbp.engine.dice import ScriptedDice
from pbp.engine.errors import N_, Problem
from pbp.engine.pool import geometry, rules
from pbp.engine.pool.geometry import distance, movement
from pbp.engine.pool.types import Action, Encounter, Order, Point, Terrain, Unit, Weapon


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
    move: int = 0  # the combat-move distance from where the unit starts (0: it cannot move); a full move goes 3x


def _has_status(unit: Unit, status_id: str) -> bool:
    return any(status.get("id") == status_id for status in unit.get("statuses") or ())


def _arsenal(unit: Unit) -> list[Weapon]:
    """R-FIX-2: a rider fights with its vehicle's weapons, a unit on foot with its own."""
    vehicle = unit.get("vehicle")
    return list(vehicle.get("weapons") or []) if vehicle else list(unit.get("weapons") or [])


def _all_weapons(unit: Unit) -> list[Weapon]:
    """Every weapon the unit carries: its own, then its vehicle's."""
    vehicle = unit.get("vehicle")
    return list(unit.get("weapons") or []) + list(vehicle.get("weapons") or [] if vehicle else [])


def _hand(unit: Unit) -> str:
    vehicle = unit.get("vehicle")
    return "torso" if vehicle and vehicle.get("kind") == "fighter" else "arm"


def _move_reach(unit: Unit, terrain: list[Terrain]) -> int:
    """The combat-move distance (R-MINOR-1, R-FIX-8): stun x0.75, rough ground (R-ROUGH-1), floored."""
    vehicle = unit.get("vehicle")
    value: int | Fraction = vehicle.get("move", 0) if vehicle else unit.get("move", 0) or 0
    if _has_status(unit, "stun"):
        value *= rules.STUN_FACTOR
    rough = geometry.rough_factor(unit, terrain)
    if rough is not None:
        value *= rough
    return max(0, math.floor(value))


def _hashable(value: Any) -> Any:
    """An engagement as a counter's key, equal exactly when the engagements compare equal (a list, as JSON may give
    a pair, never equals the listing's tuple)."""
    return ("list", tuple(value)) if isinstance(value, list) else value


def _engaged_with_enemy(unit: Unit, units: list[Unit]) -> bool:
    engagement = unit.get("engagement")
    return engagement is not None and any(
        other.get("engagement") == engagement and other["side"] != unit["side"] and not other.get("removed")
        for other in units
    )


#: Where a unit stands in engagements when its major action comes: the engagement's name, ("with", id) for a new
#: one with the unit it ran into, ("new", its own id) when that one was full, or None.
Engagement = str | tuple[str, str] | None
#: Why something cannot be done: a template marked `N_` and its parameters, so a page can say it in the player's
#: language (the engine's own words are the template with the parameters put in).
Why = tuple[str, dict[str, object]]


class Refuse(Protocol):
    """Records why a part of an order is refused: its field path inside the action, the reason's template and its
    parameters."""

    def __call__(self, path: str, template: str, **params: object) -> None: ...


def _why(template: str, **params: object) -> Why:
    return template, params


class _Facts:
    """The facts about one unit at the round's start that both the listing and the refusals read."""

    def __init__(self, encounter: Encounter, unit_id: str, checks: list[dict[str, Any]]):
        self.units: list[Unit] = encounter["units"]
        self.by_id = {unit["id"]: unit for unit in self.units}
        self.unit = unit = self.by_id[unit_id]
        self.terrain = encounter.get("terrain") or []
        self.round = encounter.get("round", 1)
        self.checks = {check["id"]: check for check in checks}
        self.riding = bool(unit.get("vehicle"))
        self.gone = bool(unit.get("removed"))
        self.system_down = _has_status(unit, "system_down")
        self.arm_damage = _has_status(unit, "arm_damage")
        self.leg_damage = _has_status(unit, "leg_damage")
        self.held = _engaged_with_enemy(unit, self.units)
        self.reach = _move_reach(unit, self.terrain)
        self.can_move = not self.gone and not self.leg_damage and not self.held and self.reach > 0
        self.others = [other for other in self.units if other is not unit and not other.get("removed")]
        self.arsenal = _arsenal(unit)
        self._ground: dict[tuple[int, int], list[tuple[int, Unit]]] | None = None
        self._moved: dict[str, tuple[Unit, Engagement]] = {}
        self._members: Counter[Any] | None = None

    def members(self, engagement: Engagement) -> int:
        """How many of the other units are in `engagement` (counted once for the unit's every candidate move)."""
        if self._members is None:
            self._members = Counter(_hashable(o.get("engagement")) for o in self.others)
        return self._members[_hashable(engagement)]

    def ground_at(self, point: Point) -> list[Unit]:
        """The other ground units standing at `point` (0 m away), in `others`' order. Through a grid of whole metres
        built on first use: `reachable_targets` asks once per unit of the battle, and scanning them all each time
        made an entry's validation in a 260-unit battle take 0.4 s. 0 m means under half a metre on each axis, so
        the unit is in the point's cell or a neighbouring one."""
        if self._ground is None:
            self._ground = {}
            for i, other in enumerate(self.others):
                if movement(other) != "air":
                    x, y = other["position"]
                    self._ground.setdefault((geometry.round_half_up(x), geometry.round_half_up(y)), []).append(
                        (i, other)
                    )
        cx, cy = geometry.round_half_up(point[0]), geometry.round_half_up(point[1])
        near = [found for dx in (-1, 0, 1) for dy in (-1, 0, 1) for found in self._ground.get((cx + dx, cy + dy), ())]
        return [o for _, o in sorted(near, key=lambda found: found[0]) if geometry.metres(point, o["position"]) == 0]

    def goal_of(self, toward: str | Point) -> Point:
        """The point a move toward a unit id or a point heads for."""
        return self.by_id[toward]["position"] if isinstance(toward, str) else toward

    def moved(self, toward: str | Point) -> tuple[Unit, Engagement]:
        """This unit as it stands after a combat move toward a unit id or a point, and its engagement then: a move
        that reaches a ground unit engages it (R-ENG-1), any other move leaves the engagement. A move toward a
        unit is worked out once (`reachable_targets` asks for each weapon)."""
        if isinstance(toward, str):
            if toward not in self._moved:
                self._moved[toward] = self._move(toward)
            return self._moved[toward]
        return self._move(toward)

    def _move(self, toward: str | Point) -> tuple[Unit, Engagement]:
        end, _ = geometry.step_toward(self.unit["position"], self.goal_of(toward), self.reach)
        engagement: Engagement = self.unit.get("engagement") if end == self.unit["position"] else None
        here = self.ground_at(end)
        if here and movement(self.unit) != "air" and engagement is None:
            other = next((o for o in here if o["id"] == toward), here[0])
            engagement = other.get("engagement") or ("with", other["id"])
            members = self.members(engagement)
            if members >= rules.ENGAGEMENT_CAP:  # R-ENG-3: the newcomer starts an engagement of its own
                engagement = ("new", self.unit["id"])
        return {**self.unit, "position": end}, engagement

    def after(self, minor: Action | None) -> tuple[Unit, Engagement]:
        """Where the unit stands, and in which engagement, when its major action comes."""
        if minor is not None and minor.get("type") == "move" and self.can_move:
            return self.moved(minor.get("toward"))  # type: ignore[arg-type]  # a valid move names where it goes
        return self.unit, self.unit.get("engagement")

    def held_after(self, minor: Action | None) -> bool:
        """Whether a living enemy holds the unit in an engagement when its major action comes (R-FIX-7)."""
        _, engagement = self.after(minor)
        if engagement is None:
            return False
        if isinstance(engagement, tuple):  # a new engagement with the unit it ran into (or of its own)
            return engagement[0] == "with" and self.by_id[engagement[1]]["side"] != self.unit["side"]
        return any(o.get("engagement") == engagement and o["side"] != self.unit["side"] for o in self.others)

    def reaches(self, weapon: Weapon, target: Unit, minor: Action | None) -> bool:
        """Whether `weapon` reaches `target` from where the unit stands when its major action comes."""
        unit, engagement = self.after(minor)
        lo, hi = weapon["range"]
        if hi == 0:  # R-ENG-5: melee only inside the attacker's own engagement
            return engagement is not None and engagement in (target.get("engagement"), ("with", target["id"]))
        return lo <= distance(unit, target) <= hi

    def reachable_targets(self, weapon: Weapon, moving: bool) -> tuple[str, ...]:
        """Foes and friends the weapon reaches now or (`moving`) after a combat move toward them; targets stand
        still."""
        found = []
        for other in self.others:
            if self.reaches(weapon, other, None) or (
                moving and self.can_move and self.reaches(weapon, other, _move_to(other["id"]))
            ):
                found.append(other["id"])
        return tuple(found)

    def item_for(self, item_id: str, skill: str | None) -> Why | None:
        """Why the unit cannot use this item on a check of `skill`, or None (R-CHECK-5/6/7)."""
        item = next((it for it in self.unit.get("items") or () if it.get("id") == item_id), None)
        if item is None:
            return _why(N_("unit %(unit)r has no item %(item)r"), unit=self.unit["id"], item=item_id)
        if self.riding:
            return _why(N_("no item can be used while riding (R-CHECK-6): %(item)r"), item=item_id)
        helps = item.get("skills")
        if skill is not None and helps and skill not in helps:
            return _why(
                N_("item %(item)r helps only %(skills)s, not %(skill)s (R-CHECK-7)"),
                item=item_id,
                skills=", ".join(helps),
                skill=skill,
            )
        return None


def _move_to(toward: str | Point) -> Action:
    return {"type": "move", "toward": toward}


def legal_actions(encounter: Encounter, unit_id: str, checks: list[dict[str, Any]] | None = None) -> LegalActions:
    """What `unit_id` may order this round in a valid encounter; `checks` are the scenario's offered checks
    (`id`, `skill`, `need`: R-GM-2). A removed or dead unit may order nothing."""
    facts = _Facts(encounter, unit_id, checks or [])
    unit = facts.unit
    if facts.gone:
        return LegalActions(unit=unit_id, minor=(), major=())
    weapons = []
    if not facts.system_down and not facts.arm_damage:
        for weapon in facts.arsenal:
            spare = weapon.get("slot", "arm") == "spare"
            ammo = weapon.get("ammo")
            empty = ammo is not None and ammo <= 0
            if empty and weapon.get("ammo_max") in (None, 0):
                continue  # nothing can fill it
            if spare and not _swap_partners(facts, weapon):
                continue
            targets = facts.reachable_targets(weapon, moving=not (spare or empty))  # a swap or reload takes the minor
            if targets:
                weapons.append(
                    WeaponChoice(
                        id=weapon["id"], skill=weapon["skill"], range=(weapon["range"][0], weapon["range"][1]),
                        ammo=ammo, max_targets=weapon.get("targets", 1), targets=targets, needs_swap=spare,
                        needs_reload=empty,
                    )
                )  # fmt: skip
    reload = tuple(weapon["id"] for weapon in facts.arsenal if weapon.get("ammo_max") is not None)
    swaps = tuple((weapon["id"], partner) for weapon in facts.arsenal for partner in _swap_partners(facts, weapon))
    abilities: dict[str, tuple[str, ...]] = {}
    for ability in unit.get("abilities") or ():
        uses = ability.get("uses")
        if uses is None or uses > 0:
            abilities.setdefault(ability["timing"], ())
            abilities[ability["timing"]] += (ability["id"],)
    minor = []
    if facts.can_move:
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
    if facts.can_move:
        major.append("full_move")
    if unit.get("engagement") is not None and not facts.leg_damage:
        major.append("leave")
    if reload:
        major.append("reload")
    recover: tuple[str, ...] = ("system_down",) if facts.system_down else ()
    if recover:
        major.append("recover")
    if abilities.get("major"):
        major.append("ability")
    offered = () if facts.system_down else tuple(facts.checks)  # any skill rolls, at level 1 if untrained (R-CHECK-3)
    if offered:
        major.append("check")
    items = () if facts.riding else tuple(item["id"] for item in unit.get("items") or ())
    evade_items = tuple(i for i in items if facts.item_for(i, rules.EVASION_SKILL) is None)
    return LegalActions(
        unit=unit_id,
        minor=tuple(minor),
        major=tuple(major),
        move_toward=tuple(other["id"] for other in facts.others) if facts.can_move else (),
        weapons=tuple(weapons),
        reload=reload,
        swaps=swaps,
        abilities={k: v for k, v in abilities.items() if k in ("minor", "major")},
        recover=recover,
        checks=offered,
        items=items,
        evade_items=evade_items,
        damage_to=rules.GAUGES if facts.riding else ("injury",),
        setup=abilities.get("setup", ()) if facts.round == 1 else (),
        move=facts.reach if facts.can_move else 0,
    )


def _swap_partners(facts: _Facts, weapon: Weapon) -> list[str]:
    """The weapons `weapon` may swap with (R-MINOR-1): one in the hand slot and one out of it; none under
    arm_damage when the hand is an arm."""
    hand = _hand(facts.unit)
    if facts.arm_damage and hand == "arm":
        return []
    in_hand = weapon.get("slot", "arm") == hand
    return [w["id"] for w in facts.arsenal if w is not weapon and (w.get("slot", "arm") == hand) != in_hand]


def refusals(encounter: Encounter, order: Order, checks: list[dict[str, Any]] | None = None) -> list[Problem]:
    """Every reason a well-formed order (schema-valid) can never succeed this round, with its field path; empty
    when the order is one `legal_actions` offers."""
    facts = _Facts(encounter, order["unit"], checks or [])
    legal = legal_actions(encounter, order["unit"], checks)
    out: list[Problem] = []
    minor, major = order.get("minor"), order.get("major")
    if facts.gone and (minor or major):
        out.append(Problem.said("", N_("unit %(unit)r is out of the battle: it can do nothing"), unit=facts.unit["id"]))
        return out
    if minor:
        out += _refuse_action(facts, legal, minor, "minor", None)
    if major:
        out += _refuse_action(facts, legal, major, "major", minor)
    damage_to, evade_item = order.get("damage_to"), order.get("evade_item")
    if damage_to is not None and damage_to not in legal.damage_to:
        out.append(Problem.said("damage_to", N_("a unit on foot takes damage in its injury gauge only (R-DMG-2)")))
    if evade_item is not None and evade_item not in legal.evade_items:
        template, params = facts.item_for(evade_item, rules.EVASION_SKILL) or _why(
            N_("item %(item)r does not help evasion"), item=evade_item
        )
        out.append(Problem.said("evade_item", template, **params))
    setup = order.get("setup") or []
    if setup:
        if not legal.setup:
            out.append(Problem.said("setup", N_("setup abilities act only before round 1 (R-SETUP-1)")))
        elif len(setup) > 1:
            out.append(Problem.said("setup", N_("one setup action per character in all (R-FIX-11)")))
        for i, ability in enumerate(setup):
            if legal.setup and ability not in legal.setup:
                out.append(
                    Problem.said(
                        f"setup[{i}]", N_("%(ability)r is not a setup ability with uses left"), ability=ability
                    )
                )
    return out


def _refuse_action(facts: _Facts, legal: LegalActions, act: Action, slot: str, minor: Action | None) -> list[Problem]:
    kind = act["type"]
    offered = legal.minor if slot == "minor" else legal.major
    out: list[Problem] = []

    def no(path: str, template: str, **params: object) -> None:
        out.append(Problem.said(f"{slot}{'.' + path if path else ''}", template, **params))

    if kind == "attack":
        _refuse_attack(facts, legal, act, minor, no)
    elif kind in ("move", "full_move", "leave"):
        _refuse_move(facts, act, minor if slot == "major" else None, no)
    elif kind not in offered:
        template, params = _why_not(facts, kind)
        no("type", template, **params)
    elif kind == "reload" and not any(
        weapon["id"] == act["weapon"] and weapon.get("ammo_max") is not None for weapon in _all_weapons(facts.unit)
    ):
        no("weapon", N_("%(weapon)r has no magazine to reload"), weapon=act["weapon"])
    elif kind == "swap" and (act["weapon"], act["with"]) not in legal.swaps:
        no(
            "with",
            N_("%(weapon)r and %(other)r cannot swap (one must be in hand, R-MINOR-1)"),
            weapon=act["weapon"],
            other=act["with"],
        )
    elif kind == "ability" and act["id"] not in legal.abilities.get(slot, ()):
        unusable = (
            N_("%(ability)r is not a minor ability with uses left")
            if slot == "minor"
            else N_("%(ability)r is not a major ability with uses left")
        )
        no("id", unusable, ability=act["id"])
    elif kind == "recover" and act.get("status") not in legal.recover:
        no(
            "status",
            N_("only system_down is removed by recovering, and the unit has %(status)r not"),
            status=act.get("status"),
        )
    elif kind == "check" and act.get("label") not in legal.checks:
        no("label", N_("the scenario offers no check %(label)r (R-GM-2)"), label=act.get("label"))
    skill = _skill_of(facts, act)
    item = act.get("item")
    if item is not None and not out:
        why = facts.item_for(item, skill)
        if why:
            no("item", why[0], **why[1])
    return out


def _skill_of(facts: _Facts, act: Action) -> str | None:
    if act["type"] == "attack":
        weapon = next((w for w in facts.arsenal if w["id"] == act.get("weapon")), None)
        return weapon["skill"] if weapon else None
    if act["type"] == "recover":
        return rules.RECOVERY_SKILL
    if act["type"] == "check":
        return act.get("skill")
    return None


def _refuse_move(facts: _Facts, act: Action, minor: Action | None, no: Refuse) -> None:
    """A move, full move or leave, from where the minor action (for a major one) leaves the unit."""
    kind = act["type"]
    at, engagement = facts.after(minor)
    toward = act.get("toward")
    if facts.leg_damage:
        no("type", N_("leg_damage: the unit cannot move this round"))
    elif kind == "leave" and engagement is None:
        no("type", N_("the unit is not in an engagement: there is nothing to leave"))
    elif kind != "leave" and (facts.held if minor is None else facts.held_after(minor)):
        no("type", N_("engaged with an enemy: only `leave` takes it out (R-FIX-7)"))
    elif facts.reach <= 0 and toward is not None and facts.goal_of(toward) != at["position"]:
        no("toward", N_("the unit's move is 0 metres this round: it cannot move"))


def _why_not(facts: _Facts, kind: str) -> Why:
    if kind == "reload":
        return _why(N_("no weapon with a magazine to fill"))
    if kind == "swap":
        return _why(N_("no weapon to swap (one in hand and one out of it; not under arm_damage)"))
    if kind == "recover":
        return _why(N_("nothing to recover from (recovering removes system_down)"))
    if kind == "check":
        if not facts.checks:
            return _why(N_("the scenario offers no check (R-GM-2)"))
        return _why(N_("system_down: no check can be made"))
    return _why(N_("%(kind)s is not open to this unit now"), kind=kind)


#: Out of reach, by (melee, moved first): after a minor move the distance is the one the move leaves.
_FAR = {
    (True, False): N_("%(target)r is out of reach: %(weapon)r hits in its own engagement (melee, R-ENG-5), and "
                      "%(target)r is %(away)s m away"),
    (True, True): N_("%(target)r is out of reach: %(weapon)r hits in its own engagement (melee, R-ENG-5), and "
                     "after the move %(target)r would be %(away)s m away"),
    (False, False): N_("%(target)r is out of reach: %(weapon)r hits at %(lo)s-%(hi)s m, and %(target)r is "
                       "%(away)s m away"),
    (False, True): N_("%(target)r is out of reach: %(weapon)r hits at %(lo)s-%(hi)s m, and after the move "
                      "%(target)r would be %(away)s m away"),
}  # fmt: skip


def _refuse_attack(facts: _Facts, legal: LegalActions, act: Action, minor: Action | None, no: Refuse) -> None:
    if facts.system_down:
        no("type", N_("system_down: the unit cannot attack this round"))
        return
    if facts.arm_damage:
        no("type", N_("arm_damage: the unit cannot attack this round"))
        return
    weapon = next((w for w in facts.arsenal if w["id"] == act["weapon"]), None)
    if weapon is None:
        not_held = (
            N_("%(weapon)r is not among the unit's vehicle's weapons: a rider attacks only with its vehicle's, "
               "a unit on foot only with its own (R-FIX-2)")
            if facts.riding
            else N_("%(weapon)r is not among the unit's own weapons: a rider attacks only with its vehicle's, "
                    "a unit on foot only with its own (R-FIX-2)")
        )  # fmt: skip
        no("weapon", not_held, weapon=act["weapon"])
        return
    wid = weapon["id"]
    before: Action = minor or {"type": ""}
    slot = weapon.get("slot", "arm")
    if (
        before["type"] == "swap"
        and (before["weapon"], before["with"]) in legal.swaps
        and wid
        in (
            before["weapon"],
            before["with"],
        )
    ):  # the minor swap exchanged this weapon's slot with its partner's
        partner = before["with"] if wid == before["weapon"] else before["weapon"]
        slot = next(w.get("slot", "arm") for w in facts.arsenal if w["id"] == partner)
    if slot == "spare":
        no(
            "weapon",
            N_("%(weapon)r is carried spare when the attack comes: a minor swap must bring it to hand (R-FIX-2)"),
            weapon=wid,
        )
    reloaded = before["type"] == "reload" and before.get("weapon") == wid and weapon.get("ammo_max") is not None
    ammo = weapon.get("ammo")
    if ammo is not None and ammo <= 0 and not reloaded:
        no("weapon", N_("%(weapon)r is out of ammunition: a minor reload must fill it first"), weapon=wid)
    for i, target_id in enumerate(act["targets"]):
        target = facts.by_id[target_id]
        if target.get("removed"):
            no(f"targets[{i}]", N_("%(target)r is out of the battle"), target=target_id)
        elif not facts.reaches(weapon, target, minor):
            lo, hi = weapon["range"]
            there, _ = facts.after(minor)  # the distance the refusal is about: where the attack comes from
            moved = there["position"] != facts.unit["position"]
            no(f"targets[{i}]", _FAR[hi == 0, moved], target=target_id, weapon=wid, lo=lo, hi=hi,
               away=distance(there, target))  # fmt: skip


class CheckPools:
    """The pools of checks made at the round's start, counted by the battle's own pool (so the odds a form shows
    are the engine's) from one battle built once: the entry form asks for one per weapon and target, and building a
    battle for each took the form of a 260-unit round past 30 s."""

    def __init__(self, encounter: dict[str, Any], pack_skill_stats: dict[str, str] | None = None):
        from pbp.engine.pool.battle import Battle  # the battle imports nothing of this module

        state = marshal.loads(marshal.dumps(encounter))  # the battle fills defaults into the state it is given
        self._battle = Battle(state, {"orders": []}, ScriptedDice([]), [], pack_skill_stats)  # counted, never rolled

    def pool(
        self, unit_id: str, skill: str, item_id: str | None = None, *, evasion: bool = False
    ) -> tuple[int, int, int]:
        """(dice, level, success bonus) of a check of `skill` by `unit_id` (R-CHECK-8); `evasion` adds leg_damage's
        penalty."""
        battle = self._battle
        unit = battle.by_id[unit_id]
        stat = battle.parent_stat(unit, skill, rules.EVASION_STAT if skill == rules.EVASION_SKILL else "")
        if not stat:
            raise KeyError(f"skill {skill!r} has no parent stat")
        item = next((it for it in unit["items"] if it["id"] == item_id), None) if item_id else None
        dice, level, bonus, _ = battle.pool(unit, stat, skill, item, evasion)
        return dice, level, bonus


def pool_for_check(
    encounter: dict[str, Any],
    unit_id: str,
    skill: str,
    item_id: str | None = None,
    *,
    evasion: bool = False,
    pack_skill_stats: dict[str, str] | None = None,
) -> tuple[int, int, int]:
    """(dice, level, success bonus) of one check `unit_id` would make at the round's start (see CheckPools)."""
    return CheckPools(encounter, pack_skill_stats).pool(unit_id, skill, item_id, evasion=evasion)
