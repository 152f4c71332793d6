"""Resolution of `pool` rounds: setup, initiative, main processes, cleanup (R-ROUND-*, R-CLEAN-1).

`Battle` works on a private copy of the encounter (plain JSON-shaped dicts, typed by `types`) and appends events as
the facts happen. It trusts its input: `schema` has validated it. Dice are drawn only where the spec's dice order
says.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

from pbp.engine.checks import MAX_POOL, count_successes
from pbp.engine.dice import DiceSource
from pbp.engine.errors import N_, BadInput, Problem
from pbp.engine.pool import geometry, rules
from pbp.engine.pool.geometry import distance, movement, rough_factor
from pbp.engine.pool.types import (
    Action,
    AttackEvent,
    CheckDetail,
    CheckEvent,
    Effect,
    Encounter,
    Event,
    Gauge,
    Item,
    Options,
    Order,
    Orders,
    Override,
    OverrideNote,
    RefusedEvent,
    Status,
    StatusEvent,
    Unit,
    Weapon,
)

#: What one source adds to a check's pool, as the event's detail shows it: [the source, its value].
Contribution = list[str | int]
#: A multiplier of a check's pool: (its source, the factor).
Multiplier = tuple[str, Fraction]


class Refused(Exception):  # noqa: N818 - a control-flow signal, not an error
    """An order the rules forbid when its turn comes: becomes a `refused` event (never an error)."""

    def __init__(self, reason: str):
        self.reason = reason


def checked_depth(gauge: Gauge) -> int:
    """Index of the deepest checked stage (-1 when none). Stages are checked in order (R-GAUGE-1)."""
    taken, capacity = gauge["taken"], gauge["capacity"]
    depth = -1
    while depth < rules.DEATH_STAGE and taken[depth + 1] >= capacity[depth + 1]:
        depth += 1
    return depth


def fill(gauge: Gauge, amount: int) -> list[int]:
    """Pour damage into the stages in order; returns the stages newly checked. The rest is lost (R-GAUGE-5)."""
    taken, capacity = gauge["taken"], gauge["capacity"]
    newly = []
    for i in range(rules.STAGES):
        if amount <= 0:
            break
        room = capacity[i] - taken[i]
        if room <= 0:
            continue
        put = room if room < amount else amount
        taken[i] += put
        amount -= put
        if taken[i] >= capacity[i]:
            newly.append(i)
    return newly


def _status(unit: Unit, status_id: str) -> Status | None:
    for status in unit["statuses"]:
        if status["id"] == status_id:
            return status
    return None


def new_status(status_id: str, round_number: int, rounds: int | None = None) -> Status:
    """A status as applied in round `round_number`, with the counters cleanup advances; `rounds` (a `status`
    effect's, or the GM's) sets its `rounds_left` (R-FIX-13)."""
    status: Status = {"id": status_id}
    if rounds is not None:
        status["rounds_left"] = rounds
    elif status_id == "stun":
        status["rounds_left"] = rules.STUN_ROUNDS
    elif status_id == "system_down":
        status["elapsed"] = 0
    elif status_id == "lock_on":
        status["fires_at_round"] = round_number + 1  # R-FIX-6: applied in round r, fires at the cleanup of r+1
    return status


def unequip_arms(unit: Unit) -> list[str]:
    """arm_damage: every arm-slot weapon is unequipped (moved to spare); returns their ids."""
    moved = []
    vehicle = unit.get("vehicle")
    for weapon in list(unit.get("weapons") or []) + list(vehicle.get("weapons") or [] if vehicle else []):
        if weapon.get("slot", "arm") == "arm":
            weapon["slot"] = "spare"
            moved.append(weapon["id"])
    return moved


def _floored(total: int, multipliers: list[Multiplier]) -> int:
    """R-CHECK-8: the pool after every multiplier in force, floored, never below 0."""
    if not multipliers:
        return total if total > 0 else 0
    num, den = total, 1
    for _, factor in multipliers:  # exact: integer numerators and denominators, one floor at the end
        num *= factor.numerator
        den *= factor.denominator
    return max(0, num // den)


class Battle:
    """One run of `resolve`: the mutable state of the encounter plus the event log."""

    def __init__(
        self,
        state: Encounter,
        orders: Orders,
        dice: DiceSource,
        overrides: list[Override],
        pack_skill_stats: dict[str, str] | None,
    ):
        self.state = state
        self.units: list[Unit] = state["units"]
        for unit in self.units:
            unit.setdefault("statuses", [])
            unit.setdefault("weapons", [])
            unit.setdefault("items", [])
            unit.setdefault("skills", {})
        self.by_id = {unit["id"]: unit for unit in self.units}
        self.terrain = state.get("terrain") or []
        self.gimmicks = state.get("gimmicks") or []
        self.options: Options = {**rules.DEFAULT_OPTIONS, **(state.get("options") or {})}
        self.orders: dict[str, Order] = {order["unit"]: order for order in orders.get("orders", [])}
        self.dice = dice
        self.overrides = {override["check"]: override for override in overrides}
        self.used_overrides: set[str] = set()
        self.events: list[Event] = []
        self.emit: Callable[[Event], None] = self.events.append  # bound once: a round emits thousands of events
        self.round = state.get("round", 1)
        self.n_checks = 0
        self.pack_skill_stats = pack_skill_stats or {}
        self.evade_item_noted: set[str] = set()
        # What each unit's orders say about the whole round, looked up on every attack against it.
        self.damage_choice = {uid: o["damage_to"] for uid, o in self.orders.items() if o.get("damage_to")}
        self.evade_items = {uid: o["evade_item"] for uid, o in self.orders.items() if o.get("evade_item")}

    # ---- events and checks -------------------------------------------------------------------------------

    def parent_stat(self, unit: Unit, skill: str, default: str | None = None) -> str:
        """R-CHECK-4: the skill's parent stat, the unit's own map before the pack's (`effective_skill_stats`, looked
        up without merging the two maps for every unit)."""
        own = unit.get("skill_stats")
        if own and skill in own:
            return own[skill]
        if skill in self.pack_skill_stats or default is None:
            return self.pack_skill_stats[skill]  # validated: a skill a check names has a parent stat
        return default

    def stat_dice(
        self, unit: Unit, stat: str, mods: list[Contribution], mult: list[Multiplier], bonus: list[Contribution]
    ) -> int:
        """R-CHECK-8 for a parent stat alone: base + vehicle + gauge bonus, and the multipliers in force.
        Appends each modifier's source to `mods`/`mult`/`bonus`; returns the total before multipliers."""
        total = unit["stats"].get(stat, 0)
        vehicle = unit.get("vehicle")
        if vehicle:
            stat_mods = vehicle.get("stat_mods")
            if stat_mods and stat_mods.get(stat):
                mods.append(["vehicle", stat_mods[stat]])
                total += stat_mods[stat]
            # Stages fill in order, so nothing deeper than 小破 is checked while stage 2 is not.
            gauge = vehicle["damage"]
            depth = checked_depth(gauge) if gauge["taken"][2] >= gauge["capacity"][2] else -1
            if depth in rules.DAMAGE_STAT_BONUS:  # R-GAUGE-3/4: the deepest checked stage's bonus alone
                mods.append([rules.STAGE_NAMES["damage"][depth], rules.DAMAGE_STAT_BONUS[depth]])
                total += rules.DAMAGE_STAT_BONUS[depth]
            elif depth == rules.DEATH_STAGE:  # 破壊: +5 successes on every check while riding
                bonus.append(["破壊", rules.DESTROYED_SUCCESS_BONUS])
        else:
            gauge = unit["injury"]
            depth = checked_depth(gauge) if gauge["taken"][2] >= gauge["capacity"][2] else -1
            if depth in rules.INJURY_STAT_BONUS:  # R-GAUGE-2: only while not riding
                mods.append([rules.STAGE_NAMES["injury"][depth], rules.INJURY_STAT_BONUS[depth]])
                total += rules.INJURY_STAT_BONUS[depth]
        if unit["statuses"] and _status(unit, "stun"):
            mult.append(("stun", rules.STUN_FACTOR))
        if self.terrain:
            rough = rough_factor(unit, self.terrain)
            if rough is not None:
                mult.append(("rough", rough))
        return total

    def pool(
        self, unit: Unit, stat: str, skill: str, item: Item | None = None, evasion: bool = False
    ) -> tuple[int, int, int, CheckDetail]:
        """R-CHECK-8: (dice, level, success bonus, detail) for a check of `skill` with parent `stat`."""
        mods: list[Contribution] = []
        mult: list[Multiplier] = []
        bonus: list[Contribution] = []
        total = self.stat_dice(unit, stat, mods, mult, bonus)
        extra = rules.DESTROYED_SUCCESS_BONUS if bonus else 0  # the one success bonus a stat alone brings
        if item is not None:  # R-CHECK-7
            item_dice, item_successes = item.get("dice"), item.get("successes")
            if item_dice:
                mods.append([f"item:{item['id']}", item_dice])
                total += item_dice
            if item_successes:
                bonus.append([f"item:{item['id']}", item_successes])
                extra += item_successes
        for modifier in unit.get("modifiers") or ():
            if modifier["skills"] is None or skill in modifier["skills"]:
                if modifier["kind"] == "dice":
                    mods.append([modifier["source"], modifier["value"]])
                    total += modifier["value"]
                else:
                    bonus.append([modifier["source"], modifier["value"]])
                    extra += modifier["value"]
        if evasion and unit["statuses"] and _status(unit, "leg_damage"):
            bonus.append(["leg_damage", rules.LEG_DAMAGE_EVASION])
            extra += rules.LEG_DAMAGE_EVASION
        dice = _floored(total, mult) if mult else total if total > 0 else 0
        level = unit["skills"].get(skill, 1)
        detail: CheckDetail = {
            "stat": stat,
            "base": unit["stats"].get(stat, 0),
            "mods": mods,
            "mult": [[name, float(factor)] for name, factor in mult] if mult else [],
            "dice": dice,
            "level": level,
            "bonus": bonus,
        }
        return dice, level, extra, detail

    def roll(self, n: int, level: int, bonus: int) -> tuple[str, list[int], int, list[OverrideNote] | None]:
        """Roll one check: its stable id (r{round}-c{n}), dice, final successes and any GM override (R-GM-1)."""
        self.n_checks += 1
        check_id = f"r{self.round}-c{self.n_checks}"
        if n > MAX_POOL:
            raise BadInput(
                Problem.said(
                    check_id, N_("a pool of %(n)s dice is beyond any game (at most %(most)s)"), n=n, most=MAX_POOL
                )
            )
        dice = self.dice.roll(n) if n > 0 else []
        successes = count_successes(dice, level) + bonus
        if self.options["clamp_successes"] and successes < 0:
            successes = 0
        override = self.overrides.get(check_id)
        if override is None:
            return check_id, dice, successes, None
        self.used_overrides.add(check_id)
        note: list[OverrideNote] = [
            {"check": check_id, "was": successes, "now": override["successes"], "reason": override["reason"]}
        ]
        return check_id, dice, override["successes"], note

    # ---- the round ---------------------------------------------------------------------------------------

    def run(self, rounds: int) -> None:
        for i in range(rounds):
            self.round = self.state.get("round", 1)
            self.n_checks = 0
            self.evade_item_noted.clear()
            if i == 0 and self.round == 1:
                self.setup()
            self.fire_gimmicks("round_start")
            order = self.initiative()
            self.emit({"type": "initiative", "round": self.round, "order": [unit["id"] for unit in order]})
            for unit in order:
                self.main_process(unit)
            self.cleanup()
            self.state["round"] = self.round + 1

    def alive(self) -> list[Unit]:
        return [unit for unit in self.units if not unit.get("removed")]

    def initiative(self) -> list[Unit]:
        """R-ROUND-1/2, R-FIX-1: descending effective 感覚 (a pool without items); PCs first on ties, then the
        encounter's order (sorted() is stable)."""
        keyed = []
        for unit in self.alive():
            mult: list[Multiplier] = []
            dice = _floored(self.stat_dice(unit, rules.INITIATIVE_STAT, [], mult, []), mult)
            keyed.append((-dice, 0 if unit["side"] == "pc" else 1, unit))
        keyed.sort(key=lambda k: (k[0], k[1]))
        return [k[2] for k in keyed]

    def setup(self) -> None:
        """R-SETUP-1: setup gimmicks, then each unit's setup action before round 1. R-FIX-11: one setup action per
        unit in all, like the minor and major actions; the abilities listed after the one it took are refused."""
        self.fire_gimmicks("setup")
        for unit in self.alive():
            taken = False
            order = self.orders.get(unit["id"])
            for ability_id in (order.get("setup") if order else None) or ():
                act: Action = {"type": "ability", "id": ability_id}
                try:
                    if taken:
                        raise Refused("one_setup_action")
                    self.use_ability(unit, act, "setup")
                    taken = True
                except Refused as refusal:
                    self.refuse(unit, "setup", act, refusal.reason)

    def refuse(self, unit: Unit, action: str, act: Action, reason: str, item: str | None = None) -> None:
        event: RefusedEvent = {
            "type": "refused", "round": self.round, "unit": unit["id"], "action": action, "order": act.get("type"),
            "reason": reason,
        }  # fmt: skip
        if item is not None:
            event["item"] = item
        self.emit(event)

    def main_process(self, unit: Unit) -> None:
        """R-ROUND-3: the minor action, then the major action; R-FIX-7: a unit gone earlier is refused."""
        order = self.orders.get(unit["id"])
        if not order:
            return
        for action, act in (("minor", order.get("minor")), ("major", order.get("major"))):
            if not act:
                continue
            try:
                if unit.get("removed"):
                    raise Refused("dead" if unit.get("dead") else "removed")
                self.act(unit, act, action)
            except Refused as refusal:
                self.refuse(unit, action, act, refusal.reason)

    def act(self, unit: Unit, act: Action, action: str) -> None:
        kind = act["type"]
        if kind == "attack":
            self.attack(unit, act)
        elif kind in ("move", "full_move", "leave"):
            self.move(unit, act, action)
        elif kind == "reload":
            self.reload(unit, act, action)
        elif kind == "swap":
            self.swap(unit, act)
        elif kind == "ability":
            self.use_ability(unit, act, action)
        elif kind == "recover":
            self.recover(unit, act)
        elif kind == "check":
            self.scene_check(unit, act)

    # ---- attacks (R-HIT-*, R-DMG-*) ----------------------------------------------------------------------

    def weapon(self, unit: Unit, weapon_id: str) -> Weapon:
        vehicle = unit.get("vehicle")
        for weapon in vehicle["weapons"] if vehicle else ():
            if weapon["id"] == weapon_id:
                return weapon
        for weapon in unit["weapons"]:
            if weapon["id"] == weapon_id:
                return weapon
        raise KeyError(weapon_id)  # validated before: cannot happen

    def ready_weapon(self, unit: Unit, weapon_id: str) -> Weapon:
        """R-FIX-2: a rider uses its vehicle's weapons, a unit on foot its own; spare-slot weapons are not ready."""
        vehicle = unit.get("vehicle")
        arsenal = vehicle.get("weapons", []) if vehicle else unit["weapons"]
        for weapon in arsenal:
            if weapon["id"] == weapon_id:
                if weapon.get("slot", "arm") == "spare":
                    raise Refused("not_ready")
                return weapon
        raise Refused("not_ready")

    def order_item(self, unit: Unit, item_id: str | None, skill: str) -> Item | None:
        """The item an attack, check or recover order names. R-FIX-14: named while riding, it alone is refused and
        the order goes ahead without it."""
        if item_id is not None and unit.get("vehicle"):
            self.refuse(unit, "item", {"type": "item"}, "item_while_riding", item=item_id)
            return None
        return self.usable_item(unit, item_id, skill)

    def usable_item(self, unit: Unit, item_id: str | None, skill: str) -> Item | None:
        """R-CHECK-5/6/7: at most one item, never while riding, only for the skills it lists."""
        if item_id is None:
            return None
        if unit.get("vehicle"):
            raise Refused("item_while_riding")
        item = next(it for it in unit["items"] if it["id"] == item_id)
        helps = item.get("skills")
        if helps and skill not in helps:
            raise Refused("item_not_applicable")
        return item

    def in_range(self, unit: Unit, weapon: Weapon, target: Unit) -> bool:
        lo, hi = weapon["range"]
        if hi == 0:  # R-ENG-5: melee hits only inside the attacker's own engagement
            return unit.get("engagement") is not None and unit.get("engagement") == target.get("engagement")
        if lo == 0 and unit["position"] == target["position"]:  # side by side: 0 m however either moves (R-AIR-1)
            return True
        return lo <= distance(unit, target) <= hi

    def attack(self, unit: Unit, act: Action) -> None:
        statuses = unit["statuses"]
        if statuses and _status(unit, "system_down"):
            raise Refused("system_down")
        if statuses and _status(unit, "arm_damage"):
            raise Refused("arm_damage")
        weapon = self.ready_weapon(unit, act["weapon"])
        by_id = self.by_id
        targets = [target for tid in act["targets"] if not (target := by_id[tid]).get("removed")]
        if not targets:
            raise Refused("target_gone")
        for target in targets:
            if not self.in_range(unit, weapon, target):
                raise Refused("out_of_range")
        ammo = weapon.get("ammo")
        if ammo is not None and ammo <= 0:
            raise Refused("no_ammo")
        skill = weapon["skill"]
        item = self.order_item(unit, act.get("item"), skill)
        if statuses and _status(unit, "heat"):  # R-FIX-4: heat fires only when the attack would otherwise go ahead
            # R-BS table: the attack check is skipped, so the attack event carries what is true of an attack that
            # rolled nothing: no check ids, no dice, 0 successes, no hit. Then heat fires like a lock-on beam
            # (R-FIX-4 likens the two): `fired`, its 10 damage, and it ends after that damage.
            self.emit({
                "type": "attack", "round": self.round, "attacker": unit["id"], "target": targets[0]["id"],
                "targets": [target["id"] for target in targets], "weapon": weapon["id"], "skill": skill,
                "skipped": "heat", "attack_check": None, "attack_dice": [], "attack_successes": 0,
                "attack_detail": None, "evade_check": None, "evade_dice": [], "evade_successes": 0,
                "evade_detail": None, "hit": False, "margin": 0, "damage": 0,
            })  # fmt: skip
            self.emit({
                "type": "status", "round": self.round, "unit": unit["id"], "id": "heat", "change": "fired", "by": None,
            })  # fmt: skip
            self.deal(unit, rules.HEAT_DAMAGE, None, "heat", None)  # R-BS-3: no ammo spent
            if not unit.get("removed"):
                self.end_status(unit, "heat")
            return
        if ammo is not None:
            weapon["ammo"] = ammo - 1  # one round of ammo, also for an area weapon
        stat = self.parent_stat(unit, skill)
        n, level, bonus, attack_detail = self.pool(unit, stat, skill, item)
        attack_check, attack_dice, attack_successes, attack_overrides = self.roll(n, level, bonus)
        for target in targets:  # R-HIT-3: one evasion roll per target, in the order named
            if target.get("removed"):
                continue
            evade_check, evade_dice, evade_successes, evade_detail, evade_overrides = self.evade(target)
            hit = attack_successes > evade_successes  # R-HIT-2: a tie favours the evader
            margin = attack_successes - evade_successes
            damage = weapon["damage"] + margin if hit else 0  # R-DMG-1
            event: AttackEvent = {
                "type": "attack", "round": self.round, "attacker": unit["id"], "target": target["id"],
                "weapon": weapon["id"], "skill": skill, "attack_check": attack_check, "attack_dice": attack_dice,
                "attack_successes": attack_successes, "attack_detail": attack_detail, "evade_check": evade_check,
                "evade_dice": evade_dice, "evade_successes": evade_successes, "evade_detail": evade_detail,
                "hit": hit, "margin": margin, "damage": damage,
            }  # fmt: skip
            self.emit(event)
            if attack_overrides or evade_overrides:
                event["overrides"] = (attack_overrides or []) + (evade_overrides or [])
            if hit:
                self.deal(target, damage, weapon.get("gauge"), "attack", unit["id"])
                inflicts = weapon.get("inflicts")
                if inflicts and not target.get("removed"):
                    self.apply_status(target, inflicts, unit["id"])

    def evade(self, target: Unit) -> tuple[str | None, list[int], int, CheckDetail | None, list[OverrideNote] | None]:
        """R-HIT-1: 回避 with 肉体; R-BS-2: a unit under system_down counts 0 and rolls nothing."""
        if target["statuses"] and _status(target, "system_down"):
            return None, [], 0, None, None
        item = None
        item_id = self.evade_items.get(target["id"])
        if item_id is not None:  # R-FIX-3
            try:
                item = self.usable_item(target, item_id, rules.EVASION_SKILL)
            except Refused as refusal:
                if target["id"] not in self.evade_item_noted:
                    self.evade_item_noted.add(target["id"])
                    self.refuse(target, "evade_item", {"type": "evade_item"}, refusal.reason, item=item_id)
        stat = self.parent_stat(target, rules.EVASION_SKILL, rules.EVASION_STAT)
        n, level, bonus, detail = self.pool(target, stat, rules.EVASION_SKILL, item, evasion=True)
        check_id, dice, successes, overrides = self.roll(n, level, bonus)
        return check_id, dice, successes, detail, overrides

    # ---- gauges (R-DMG-2/3, R-GAUGE-*) --------------------------------------------------------------------

    def damage_to(self, unit: Unit) -> str:
        """The gauge a unit takes damage in this round: its order's choice, else `damage` when riding."""
        return self.damage_choice.get(unit["id"]) or ("damage" if unit.get("vehicle") else "injury")

    def can_take(self, unit: Unit, gauge_id: str) -> bool:
        """R-DMG-3 [decided]: a gauge cannot take damage when the unit is not riding (damage) or it is full (stages
        fill in order, so the gauge is full when its last stage is)."""
        if gauge_id == "damage":
            vehicle = unit.get("vehicle")
            if vehicle is None:
                return False
            gauge = vehicle["damage"]
        else:
            gauge = unit["injury"]
        return gauge["taken"][rules.DEATH_STAGE] < gauge["capacity"][rules.DEATH_STAGE]

    def gauge(self, unit: Unit, gauge_id: str) -> Gauge:
        """The unit's gauge `gauge_id`: its vehicle's damage gauge or its own injury gauge."""
        vehicle = unit.get("vehicle")
        return vehicle["damage"] if gauge_id == "damage" and vehicle else unit["injury"]

    def deal(self, unit: Unit, amount: int, named: str | None, source: str, by: str | None) -> None:
        redirected = False
        if named is not None:  # R-FIX-5: a named gauge wins over the target's choice
            gauge_id = named
            if not self.can_take(unit, named):
                gauge_id = "injury" if named == "damage" else "damage"
                amount += rules.REDIRECT_PENALTY
                redirected = True
        else:  # R-DMG-2: the target's choice
            gauge_id = self.damage_to(unit)
            if not self.can_take(unit, gauge_id):
                gauge_id = "injury" if gauge_id == "damage" else "damage"
        # Either way the gauge exists: only a full injury gauge sends damage to the vehicle's, and a unit whose injury
        # gauge is full is dead and removed (R-GAUGE-2/7; `schema` rejects one still in battle, so a unit on foot
        # always has its injury gauge to take damage in).
        gauge = self.gauge(unit, gauge_id)
        checked = fill(gauge, amount)
        self.emit({
            "type": "damage", "round": self.round, "unit": unit["id"], "gauge": gauge_id, "amount": amount,
            "checked": checked, "taken": list(gauge["taken"]), "source": source, "by": by, "redirected": redirected,
        })  # fmt: skip
        if gauge_id == "injury" and rules.DEATH_STAGE in checked:  # R-GAUGE-2, R-GAUGE-7: death at once
            self.kill(unit, "injury")

    def kill(self, unit: Unit, cause: str) -> None:
        unit["dead"] = True
        unit["removed"] = True
        self.emit({"type": "death", "round": self.round, "unit": unit["id"], "cause": cause})
        reason = "dead" if cause == "injury" else "destroyed"
        self.emit({"type": "removed", "round": self.round, "unit": unit["id"], "reason": reason})

    def restore(self, unit: Unit, gauge_id: str, value: int) -> None:
        """An effect removes damage, deepest stage first."""
        if gauge_id == "damage" and not unit.get("vehicle"):
            return
        gauge = self.gauge(unit, gauge_id)
        left = value
        for i in reversed(range(rules.STAGES)):
            take = min(left, gauge["taken"][i])
            gauge["taken"][i] -= take
            left -= take
        self.emit({
            "type": "restore", "round": self.round, "unit": unit["id"], "gauge": gauge_id, "amount": value - left,
            "taken": list(gauge["taken"]),
        })  # fmt: skip

    # ---- bad statuses (R-BS-*) ----------------------------------------------------------------------------

    def apply_status(self, unit: Unit, status_id: str, by: str | None, rounds: int | None = None) -> None:
        """Give `unit` the status `status_id`; `rounds` (a `status` effect's) sets its `rounds_left` (R-FIX-13)."""
        if unit.get("removed"):
            return
        existing = _status(unit, status_id)
        if existing is not None:  # R-FIX-6: no stacking; stun restarts its 3 rounds
            if status_id == "stun":  # applied again: the contract's `change` values stay applied|ended|fired
                existing["rounds_left"] = rounds or rules.STUN_ROUNDS
                self.emit({
                    "type": "status", "round": self.round, "unit": unit["id"], "id": status_id, "change": "applied",
                    "by": by, "renewed": True,
                })  # fmt: skip
            return
        unit["statuses"].append(new_status(status_id, self.round, rounds))
        event: StatusEvent = {
            "type": "status", "round": self.round, "unit": unit["id"], "id": status_id, "change": "applied", "by": by,
        }  # fmt: skip
        self.emit(event)
        if status_id == "arm_damage":
            event["unequipped"] = unequip_arms(unit)

    def end_status(self, unit: Unit, status_id: str) -> None:
        unit["statuses"] = [status for status in unit["statuses"] if status["id"] != status_id]
        self.emit({
            "type": "status", "round": self.round, "unit": unit["id"], "id": status_id, "change": "ended", "by": None,
        })  # fmt: skip

    def recover(self, unit: Unit, act: Action) -> None:
        """system_down's removal action: 情報処理 needing 6 - rounds elapsed; automatic at 0 or less (R-BS-1)."""
        status_id = act["status"]
        status = _status(unit, status_id)
        if status_id != "system_down" or status is None:
            raise Refused("not_recoverable")
        skill = rules.RECOVERY_SKILL
        item = self.order_item(unit, act.get("item"), skill)
        need = rules.SYSTEM_DOWN_BASE_NEED - status.get("elapsed", 0)
        stat = self.parent_stat(unit, skill, "理知")
        if need <= 0:
            self.emit({
                "type": "check", "round": self.round, "unit": unit["id"], "skill": skill, "purpose": "recover",
                "check": None, "dice": [], "successes": 0, "need": need, "success": True, "detail": None,
                "status": status_id,
            })  # fmt: skip
            self.end_status(unit, status_id)
            return
        n, level, bonus, detail = self.pool(unit, stat, skill, item)
        check_id, dice, successes, overrides = self.roll(n, level, bonus)
        ok = successes >= need
        event: CheckEvent = {
            "type": "check", "round": self.round, "unit": unit["id"], "skill": skill, "purpose": "recover",
            "check": check_id, "dice": dice, "successes": successes, "need": need, "success": ok, "detail": detail,
            "status": status_id,
        }  # fmt: skip
        self.emit(event)
        if overrides:
            event["overrides"] = overrides
        if ok:
            self.end_status(unit, status_id)

    def scene_check(self, unit: Unit, act: Action) -> None:
        """R-GM-2: a check the scene offers, `need` successes (R-CHECK-2)."""
        if _status(unit, "system_down"):
            raise Refused("system_down")
        skill, need, label = act["skill"], act["need"], act.get("label")
        item = self.order_item(unit, act.get("item"), skill)
        n, level, bonus, detail = self.pool(unit, self.parent_stat(unit, skill), skill, item)
        check_id, dice, successes, overrides = self.roll(n, level, bonus)
        event: CheckEvent = {
            "type": "check", "round": self.round, "unit": unit["id"], "skill": skill, "purpose": "scene",
            "check": check_id, "dice": dice, "successes": successes, "need": need, "success": successes >= need,
            "detail": detail,
        }  # fmt: skip
        self.emit(event)
        if item is not None:
            event["item"] = item["id"]
        if label is not None:
            event["label"] = label
        if overrides:
            event["overrides"] = overrides

    # ---- movement and engagement (R-MINOR-1, R-MAJOR-1, R-ENG-*) -------------------------------------------

    def engaged_with_enemy(self, unit: Unit) -> bool:
        engagement = unit.get("engagement")
        if engagement is None:
            return False
        return any(
            other.get("engagement") == engagement and other["side"] != unit["side"] and not other.get("removed")
            for other in self.units
        )

    def move_value(self, unit: Unit) -> int:
        """The vehicle's move, or the unit's own on foot (R-FIX-8), x0.75 under stun, x rough (R-ROUGH-1)."""
        vehicle = unit.get("vehicle")
        value: int | Fraction = vehicle.get("move", 0) if vehicle else unit.get("move", 0) or 0
        if _status(unit, "stun"):
            value *= rules.STUN_FACTOR
        rough = rough_factor(unit, self.terrain)
        if rough is not None:
            value *= rough
        return max(0, math.floor(value))

    def move(self, unit: Unit, act: Action, action: str) -> None:
        kind = act["type"]
        if _status(unit, "leg_damage"):
            raise Refused("leg_damage")
        if kind == "leave":
            if unit.get("engagement") is None:
                raise Refused("not_engaged")
        elif self.engaged_with_enemy(unit):  # R-FIX-7: only `leave` takes a unit out of a fight
            raise Refused("engaged")
        reach = self.move_value(unit) * (rules.FULL_MOVE_FACTOR if kind == "full_move" else 1)
        toward = act.get("toward")
        if kind == "leave":  # R-ENG-4: leaving also moves up to the combat-move distance
            self.disengage(unit)
        if toward is None:
            return
        toward_unit = toward if isinstance(toward, str) else None
        goal = self.by_id[toward]["position"] if isinstance(toward, str) else toward
        start = unit["position"]
        if reach <= 0 and goal != start:
            raise Refused("cannot_move")
        end, moved = geometry.step_toward(start, goal, reach)
        if end != start and unit.get("engagement") is not None:
            self.disengage(unit)
        unit["position"] = end
        self.emit({
            "type": "move", "round": self.round, "unit": unit["id"], "action": action, "kind": kind,
            "toward": toward_unit, "distance": moved, "from": list(start), "to": list(end),
        })  # fmt: skip
        self.contact(unit, toward_unit)

    def disengage(self, unit: Unit) -> None:
        engagement = unit.get("engagement")
        if engagement is not None:
            unit["engagement"] = None
            self.emit({"type": "disengage", "round": self.round, "unit": unit["id"], "engagement": engagement})

    def new_engagement_name(self) -> str:
        used = {other.get("engagement") for other in self.units if not other.get("removed")}
        n = 1
        while f"e{n}" in used:
            n += 1
        return f"e{n}"

    def members(self, engagement: str) -> list[str]:
        return [o["id"] for o in self.units if o.get("engagement") == engagement and not o.get("removed")]

    def contact(self, unit: Unit, toward: str | None) -> None:
        """R-ENG-1/2/3/5: ending at distance 0 of a ground unit joins its engagement (air units never engage);
        an engagement holds 10 at most. R-FIX-12: when it is full, the unit joins an engagement in contact that has
        room (the one the overflow formed there); only when none has room does it form a new one."""
        if movement(unit) == "air":
            return
        position = unit["position"]
        here = [
            o for o in self.units
            if o is not unit and not o.get("removed") and movement(o) != "air"
            and geometry.metres(position, o["position"]) == 0
        ]  # fmt: skip
        if not here:
            return
        other = next((o for o in here if o["id"] == toward), here[0])
        engagement = other.get("engagement")
        if engagement is not None and engagement == unit.get("engagement"):
            return
        if engagement is None:
            engagement = self.new_engagement_name()
            other["engagement"] = engagement
            self.emit({
                "type": "engage", "round": self.round, "unit": other["id"], "engagement": engagement, "with": [],
            })  # fmt: skip
            members = [other["id"]]
        else:
            members = self.members(engagement)
            if len(members) >= rules.ENGAGEMENT_CAP:
                in_contact = dict.fromkeys(o["engagement"] for o in here if o.get("engagement") is not None)
                if unit.get("engagement") in in_contact:
                    return  # already in one of them (a move that ended where it began)
                room = [e for e in in_contact if e is not None and len(self.members(e)) < rules.ENGAGEMENT_CAP]
                engagement = room[0] if room else self.new_engagement_name()
                members = self.members(engagement) if room else []
        unit["engagement"] = engagement
        self.emit({
            "type": "engage", "round": self.round, "unit": unit["id"], "engagement": engagement, "with": members,
        })  # fmt: skip

    # ---- reload, swap (R-MINOR-1) --------------------------------------------------------------------------

    def reload(self, unit: Unit, act: Action, action: str) -> None:
        weapon = self.weapon(unit, act["weapon"])
        ammo_max = weapon.get("ammo_max")
        if ammo_max is None:
            raise Refused("not_reloadable")
        weapon["ammo"] = ammo_max
        self.emit({
            "type": "reload", "round": self.round, "unit": unit["id"], "action": action, "weapon": weapon["id"],
            "ammo": ammo_max,
        })  # fmt: skip

    def swap(self, unit: Unit, act: Action) -> None:
        """Exchange the weapon in the hand slot (arm; torso for a fighter) with one in the torso or spare slot."""
        vehicle = unit.get("vehicle")
        arsenal = vehicle.get("weapons", []) if vehicle else unit["weapons"]
        drawn = next((w for w in arsenal if w["id"] == act["weapon"]), None)
        other = next((w for w in arsenal if w["id"] == act["with"]), None)
        if drawn is None or other is None:
            raise Refused("not_ready")
        hand = "torso" if vehicle and vehicle.get("kind") == "fighter" else "arm"
        if (drawn.get("slot", "arm") == hand) == (other.get("slot", "arm") == hand):
            raise Refused("not_ready")
        if _status(unit, "arm_damage") and hand == "arm":
            raise Refused("arm_damage")
        drawn["slot"], other["slot"] = other.get("slot", "arm"), drawn.get("slot", "arm")
        self.emit({
            "type": "swap", "round": self.round, "unit": unit["id"], "weapon": drawn["id"], "slot": drawn["slot"],
            "with": other["id"], "with_slot": other["slot"],
        })  # fmt: skip

    # ---- abilities and gimmicks (spec: "Abilities and gimmicks") ------------------------------------------

    def use_ability(self, unit: Unit, act: Action, action: str) -> None:
        ability = next(a for a in unit.get("abilities") or () if a["id"] == act["id"])
        if ability["timing"] != action:
            raise Refused("wrong_timing")
        uses = ability.get("uses")
        if uses is not None:
            if uses <= 0:
                raise Refused("no_uses")
            ability["uses"] = uses - 1
        target_id = act.get("target")
        target = self.by_id.get(target_id) if target_id else None
        engagement = unit.get("engagement")
        area = [o for o in self.alive() if engagement is not None and o.get("engagement") == engagement] or [unit]
        self.emit({
            "type": "ability", "round": self.round, "unit": unit["id"], "id": ability["id"],
            "timing": ability["timing"], "target": target_id, "effects": ability.get("effects", []),
        })  # fmt: skip
        self.apply_effects(
            ability.get("effects", []), ability["id"], unit, target, area, "target" if target else "self"
        )

    def fire_gimmicks(self, timing: str) -> None:
        for gimmick in self.gimmicks:
            if gimmick.get("timing") != timing:
                continue
            area = [o for o in self.alive() if geometry.in_rect(o["position"], gimmick.get("area"))]
            self.emit({
                "type": "gimmick", "round": self.round, "id": gimmick["id"], "timing": timing,
                "effects": gimmick.get("effects", []), "units": [o["id"] for o in area],
            })  # fmt: skip
            self.apply_effects(gimmick.get("effects", []), gimmick["id"], None, None, area, "area")

    def apply_effects(
        self,
        effects: list[Effect],
        source: str,
        user: Unit | None,
        target: Unit | None,
        area: list[Unit],
        default_on: str,
    ) -> None:
        for effect in effects:
            on = effect.get("on") or default_on
            if on == "self" and user is not None:
                recipients = [user]
            elif on == "target" and target is not None:
                recipients = [target]
            else:
                recipients = area
            by = user["id"] if user else None
            for recipient in recipients:
                if recipient.get("removed"):
                    continue
                kind = effect["kind"]
                if kind in ("dice", "successes"):
                    modifiers = recipient.get("modifiers")
                    if modifiers is None:  # absent or null in the input (both mean none)
                        modifiers = recipient["modifiers"] = []
                    modifiers.append({
                        "kind": kind, "value": effect["value"], "skills": effect.get("skills"),
                        "rounds_left": effect.get("rounds") or 1, "source": source,
                    })  # fmt: skip
                elif kind == "status":
                    self.apply_status(recipient, effect["id"], by, effect.get("rounds"))
                elif kind == "cure" and _status(recipient, effect["id"]):
                    self.end_status(recipient, effect["id"])
                elif kind == "restore":
                    self.restore(recipient, effect["gauge"], effect["value"])

    # ---- cleanup (R-CLEAN-1) -------------------------------------------------------------------------------

    def cleanup(self) -> None:
        self.emit({"type": "cleanup", "round": self.round})
        # (0) effects timed for this cleanup: lock-on beams (R-FIX-4/6), then cleanup gimmicks
        for unit in self.alive():
            lock_on = _status(unit, "lock_on")
            if lock_on is not None and lock_on.get("fires_at_round", self.round) <= self.round:
                self.emit({
                    "type": "status", "round": self.round, "unit": unit["id"], "id": "lock_on", "change": "fired",
                    "by": None,
                })  # fmt: skip
                self.deal(unit, rules.LOCK_ON_DAMAGE, None, "lock_on", None)
                if not unit.get("removed"):
                    self.end_status(unit, "lock_on")
        self.fire_gimmicks("cleanup")
        # (a) statuses without a stated ending end; round counters advance (R-BS-1, R-BS-3, R-BS-4, R-FIX-13)
        for unit in self.alive():
            for status in list(unit["statuses"]):
                status_id = status["id"]
                if status_id == "system_down":
                    status["elapsed"] = status.get("elapsed", 0) + 1
                if status_id == "stun" and "rounds_left" not in status:
                    status["rounds_left"] = rules.STUN_ROUNDS  # the table's 3 rounds
                if "rounds_left" in status:  # R-FIX-13: any status's duration counts down; at 0 it ends, table or not
                    status["rounds_left"] -= 1
                    if status["rounds_left"] <= 0:
                        self.end_status(unit, status_id)
                elif status_id not in rules.STATUSES:  # R-BS-4: outside the table and without a duration: ends now
                    self.end_status(unit, status_id)
            modifiers = unit.get("modifiers")
            if modifiers:
                for modifier in modifiers:
                    modifier["rounds_left"] -= 1
                unit["modifiers"] = [modifier for modifier in modifiers if modifier["rounds_left"] > 0]
        # (b) units whose damage gauge has 破壊 checked are removed (R-GAUGE-3, R-GAUGE-6)
        for unit in self.alive():
            vehicle = unit.get("vehicle")
            if vehicle and checked_depth(vehicle["damage"]) >= rules.DEATH_STAGE:
                if self.options["destroyed_kills_pilot"]:
                    # The rider's 死亡 stage is checked; stages check in order, so the whole gauge is full.
                    unit["injury"]["taken"] = list(unit["injury"]["capacity"])
                    self.kill(unit, "destroyed")
                else:  # R-GAUGE-6 option: the pilot survives, dismounted (not riding: vehicle null), and leaves
                    unit["removed"] = True
                    unit["vehicle"] = None
                    unit["dismounted"] = True
                    self.emit({"type": "removed", "round": self.round, "unit": unit["id"], "reason": "destroyed"})
