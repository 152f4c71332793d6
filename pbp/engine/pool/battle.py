"""Resolution of `pool` rounds: setup, initiative, main processes, cleanup (R-ROUND-*, R-CLEAN-1).

`Battle` works on a private copy of the encounter (plain JSON-shaped dicts) and appends events as the facts
happen. It trusts its input: `schema` has validated it. Dice are drawn only where the spec's dice order says.
"""

from __future__ import annotations

import math
from typing import Any

from pbp.engine.checks import MAX_POOL, count_successes
from pbp.engine.dice import DiceSource
from pbp.engine.errors import BadInput, Problem
from pbp.engine.pool import geometry, rules
from pbp.engine.pool.geometry import distance, movement, rough_factor
from pbp.engine.pool.schema import effective_skill_stats


class Refused(Exception):  # noqa: N818 - a control-flow signal, not an error
    """An order the rules forbid when its turn comes: becomes a `refused` event (never an error)."""

    def __init__(self, reason: str):
        self.reason = reason


def checked_depth(gauge: dict) -> int:
    """Index of the deepest checked stage (-1 when none). Stages are checked in order (R-GAUGE-1)."""
    taken, cap = gauge["taken"], gauge["capacity"]
    depth = -1
    while depth < rules.DEATH_STAGE and taken[depth + 1] >= cap[depth + 1]:
        depth += 1
    return depth


def fill(gauge: dict, amount: int) -> list[int]:
    """Pour damage into the stages in order; returns the stages newly checked. The rest is lost (R-GAUGE-5)."""
    taken, cap = gauge["taken"], gauge["capacity"]
    newly = []
    for i in range(rules.STAGES):
        if amount <= 0:
            break
        room = cap[i] - taken[i]
        if room <= 0:
            continue
        put = room if room < amount else amount
        taken[i] += put
        amount -= put
        if taken[i] >= cap[i]:
            newly.append(i)
    return newly


def _status(unit: dict, sid: str) -> dict | None:
    for s in unit["statuses"]:
        if s["id"] == sid:
            return s
    return None


def _floored(total: int, mult: list) -> int:
    """R-CHECK-8: the pool after every multiplier in force, floored, never below 0."""
    if not mult:
        return total if total > 0 else 0
    num, den = total, 1
    for _, f in mult:  # exact: integer numerators and denominators, one floor at the end
        num *= f.numerator
        den *= f.denominator
    return max(0, num // den)


class Battle:
    """One run of `resolve`: the mutable state of the encounter plus the event log."""

    def __init__(
        self,
        state: dict,
        orders: dict,
        dice: DiceSource,
        overrides: list[dict],
        pack_skill_stats: dict[str, str] | None,
    ):
        self.state = state
        self.units: list[dict] = state["units"]
        for u in self.units:
            u.setdefault("statuses", [])
            u.setdefault("weapons", [])
            u.setdefault("items", [])
            u.setdefault("skills", {})
        self.by_id = {u["id"]: u for u in self.units}
        self.terrain = state.get("terrain") or []
        self.gimmicks = state.get("gimmicks") or []
        self.options = {**rules.DEFAULT_OPTIONS, **(state.get("options") or {})}
        self.orders = {o["unit"]: o for o in orders.get("orders", [])}
        self.dice = dice
        self.overrides = {o["check"]: o for o in overrides}
        self.used_overrides: set[str] = set()
        self.events: list[dict] = []
        self.round = state.get("round", 1)
        self.n_checks = 0
        self.skill_stats = {u["id"]: effective_skill_stats(u, pack_skill_stats) for u in self.units}
        self.evade_item_noted: set[str] = set()
        # What each unit's orders say about the whole round, looked up on every attack against it.
        self.damage_choice = {uid: o.get("damage_to") for uid, o in self.orders.items() if o.get("damage_to")}
        self.evade_items = {uid: o["evade_item"] for uid, o in self.orders.items() if o.get("evade_item")}

    # ---- events and checks -------------------------------------------------------------------------------

    def emit(self, type_: str, **fields: Any) -> dict:
        ev = {"type": type_, "round": self.round, **fields}
        self.events.append(ev)
        return ev

    def stat_dice(self, u: dict, stat: str, mods: list, mult: list, bonus: list) -> int:
        """R-CHECK-8 for a parent stat alone: base + vehicle + gauge bonus, and the multipliers in force.
        Appends each modifier's source to `mods`/`mult`/`bonus`; returns the total before multipliers."""
        total = u["stats"].get(stat, 0)
        vehicle = u.get("vehicle")
        if vehicle:
            vm = vehicle.get("stat_mods")
            if vm and vm.get(stat):
                mods.append(["vehicle", vm[stat]])
                total += vm[stat]
            # Stages fill in order, so nothing deeper than 小破 is checked while stage 2 is not.
            g = vehicle["damage"]
            depth = checked_depth(g) if g["taken"][2] >= g["capacity"][2] else -1
            if depth in rules.DAMAGE_STAT_BONUS:  # R-GAUGE-3/4: the deepest checked stage's bonus alone
                mods.append([rules.STAGE_NAMES["damage"][depth], rules.DAMAGE_STAT_BONUS[depth]])
                total += rules.DAMAGE_STAT_BONUS[depth]
            elif depth == rules.DEATH_STAGE:  # 破壊: +5 successes on every check while riding
                bonus.append(["破壊", rules.DESTROYED_SUCCESS_BONUS])
        else:
            g = u["injury"]
            depth = checked_depth(g) if g["taken"][2] >= g["capacity"][2] else -1
            if depth in rules.INJURY_STAT_BONUS:  # R-GAUGE-2: only while not riding
                mods.append([rules.STAGE_NAMES["injury"][depth], rules.INJURY_STAT_BONUS[depth]])
                total += rules.INJURY_STAT_BONUS[depth]
        if u["statuses"] and _status(u, "stun"):
            mult.append(["stun", rules.STUN_FACTOR])
        if self.terrain:
            rf = rough_factor(u, self.terrain)
            if rf is not None:
                mult.append(["rough", rf])
        return total

    def pool(self, u: dict, stat: str, skill: str, item: dict | None = None, evasion: bool = False):
        """R-CHECK-8: (dice, level, success bonus, detail) for a check of `skill` with parent `stat`."""
        mods: list[list] = []
        mult: list[list] = []
        bonus: list[list] = []
        total = self.stat_dice(u, stat, mods, mult, bonus)
        extra = bonus[0][1] if bonus else 0
        if item is not None:  # R-CHECK-7
            if item.get("dice"):
                mods.append([f"item:{item['id']}", item["dice"]])
                total += item["dice"]
            if item.get("successes"):
                bonus.append([f"item:{item['id']}", item["successes"]])
                extra += item["successes"]
        for m in u.get("modifiers") or ():
            if m["skills"] is None or skill in m["skills"]:
                if m["kind"] == "dice":
                    mods.append([m["source"], m["value"]])
                    total += m["value"]
                else:
                    bonus.append([m["source"], m["value"]])
                    extra += m["value"]
        if evasion and u["statuses"] and _status(u, "leg_damage"):
            bonus.append(["leg_damage", rules.LEG_DAMAGE_EVASION])
            extra += rules.LEG_DAMAGE_EVASION
        dice = _floored(total, mult)
        level = u["skills"].get(skill, 1)
        detail = {
            "stat": stat,
            "base": u["stats"].get(stat, 0),
            "mods": mods,
            "mult": [[name, float(f)] for name, f in mult] if mult else mult,
            "dice": dice,
            "level": level,
            "bonus": bonus,
        }
        return dice, level, extra, detail

    def roll(self, n: int, level: int, bonus: int) -> tuple[str, list[int], int, list | None]:
        """Roll one check: its stable id (r{round}-c{n}), dice, final successes and any GM override (R-GM-1)."""
        self.n_checks += 1
        cid = f"r{self.round}-c{self.n_checks}"
        if n > MAX_POOL:
            raise BadInput(Problem(cid, f"a pool of {n} dice is beyond any game (at most {MAX_POOL})"))
        dice = self.dice.roll(n) if n > 0 else []
        succ = count_successes(dice, level) + bonus
        if self.options["clamp_successes"] and succ < 0:
            succ = 0
        ov = self.overrides.get(cid)
        if ov is None:
            return cid, dice, succ, None
        self.used_overrides.add(cid)
        note = [{"check": cid, "was": succ, "now": ov["successes"], "reason": ov["reason"]}]
        return cid, dice, ov["successes"], note

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
            self.emit("initiative", order=[u["id"] for u in order])
            for u in order:
                self.main_process(u)
            self.cleanup()
            self.state["round"] = self.round + 1

    def alive(self) -> list[dict]:
        return [u for u in self.units if not u.get("removed")]

    def initiative(self) -> list[dict]:
        """R-ROUND-1/2, R-FIX-1: descending effective 感覚 (a pool without items); PCs first on ties, then the
        encounter's order (sorted() is stable)."""
        keyed = []
        for u in self.alive():
            mult: list[list] = []
            dice = _floored(self.stat_dice(u, rules.INITIATIVE_STAT, [], mult, []), mult)
            keyed.append((-dice, 0 if u["side"] == "pc" else 1, u))
        keyed.sort(key=lambda k: (k[0], k[1]))
        return [k[2] for k in keyed]

    def setup(self) -> None:
        """R-SETUP-1: setup gimmicks, then each unit's setup action before round 1. R-FIX-11: one setup action per
        unit in all, like the minor and major actions; the abilities listed after the one it took are refused."""
        self.fire_gimmicks("setup")
        for u in self.alive():
            taken = False
            for ab_id in (self.orders.get(u["id"]) or {}).get("setup") or ():
                act = {"type": "ability", "id": ab_id}
                try:
                    if taken:
                        raise Refused("one_setup_action")
                    self.use_ability(u, act, "setup")
                    taken = True
                except Refused as r:
                    self.refuse(u, "setup", act, r.reason)

    def refuse(self, u: dict, action: str, act: dict, reason: str, **extra: Any) -> None:
        self.emit("refused", unit=u["id"], action=action, order=act.get("type"), reason=reason, **extra)

    def main_process(self, u: dict) -> None:
        """R-ROUND-3: the minor action, then the major action; R-FIX-7: a unit gone earlier is refused."""
        order = self.orders.get(u["id"])
        if not order:
            return
        for action in ("minor", "major"):
            act = order.get(action)
            if not act:
                continue
            try:
                if u.get("removed"):
                    raise Refused("dead" if u.get("dead") else "removed")
                self.act(u, act, action)
            except Refused as r:
                self.refuse(u, action, act, r.reason)

    def act(self, u: dict, act: dict, action: str) -> None:
        t = act["type"]
        if t == "attack":
            self.attack(u, act)
        elif t in ("move", "full_move", "leave"):
            self.move(u, act, action)
        elif t == "reload":
            self.reload(u, act, action)
        elif t == "swap":
            self.swap(u, act)
        elif t == "ability":
            self.use_ability(u, act, action)
        elif t == "recover":
            self.recover(u, act)
        elif t == "check":
            self.scene_check(u, act)

    # ---- attacks (R-HIT-*, R-DMG-*) ----------------------------------------------------------------------

    def weapon(self, u: dict, wid: str) -> dict:
        vehicle = u.get("vehicle")
        for w in vehicle["weapons"] if vehicle else ():
            if w["id"] == wid:
                return w
        for w in u["weapons"]:
            if w["id"] == wid:
                return w
        raise KeyError(wid)  # validated before: cannot happen

    def ready_weapon(self, u: dict, wid: str) -> dict:
        """R-FIX-2: a rider uses its vehicle's weapons, a unit on foot its own; spare-slot weapons are not ready."""
        vehicle = u.get("vehicle")
        arsenal = vehicle.get("weapons", []) if vehicle else u["weapons"]
        for w in arsenal:
            if w["id"] == wid:
                if w.get("slot", "arm") == "spare":
                    raise Refused("not_ready")
                return w
        raise Refused("not_ready")

    def order_item(self, u: dict, item_id: str | None, skill: str) -> dict | None:
        """The item an attack, check or recover order names. R-FIX-14: named while riding, it alone is refused and
        the order goes ahead without it."""
        if item_id is not None and u.get("vehicle"):
            self.refuse(u, "item", {"type": "item"}, "item_while_riding", item=item_id)
            return None
        return self.usable_item(u, item_id, skill)

    def usable_item(self, u: dict, item_id: str | None, skill: str) -> dict | None:
        """R-CHECK-5/6/7: at most one item, never while riding, only for the skills it lists."""
        if item_id is None:
            return None
        if u.get("vehicle"):
            raise Refused("item_while_riding")
        item = next(it for it in u["items"] if it["id"] == item_id)
        if item.get("skills") and skill not in item["skills"]:
            raise Refused("item_not_applicable")
        return item

    def in_range(self, u: dict, w: dict, t: dict) -> bool:
        lo, hi = w["range"]
        if hi == 0:  # R-ENG-5: melee hits only inside the attacker's own engagement
            return u.get("engagement") is not None and u.get("engagement") == t.get("engagement")
        return lo <= distance(u, t) <= hi

    def attack(self, u: dict, act: dict) -> None:
        statuses = u["statuses"]
        if statuses and _status(u, "system_down"):
            raise Refused("system_down")
        if statuses and _status(u, "arm_damage"):
            raise Refused("arm_damage")
        w = self.ready_weapon(u, act["weapon"])
        targets = [self.by_id[t] for t in act["targets"] if not self.by_id[t].get("removed")]
        if not targets:
            raise Refused("target_gone")
        for t in targets:
            if not self.in_range(u, w, t):
                raise Refused("out_of_range")
        if w.get("ammo") is not None and w["ammo"] <= 0:
            raise Refused("no_ammo")
        skill = w["skill"]
        item = self.order_item(u, act.get("item"), skill)
        if statuses and _status(u, "heat"):  # R-FIX-4: heat fires only when the attack would otherwise go ahead
            # R-BS table: the attack check is skipped, so the attack event carries what is true of an attack that
            # rolled nothing: no check ids, no dice, 0 successes, no hit. Then heat fires like a lock-on beam
            # (R-FIX-4 likens the two): `fired`, its 10 damage, and it ends after that damage.
            self.emit(
                "attack", attacker=u["id"], target=targets[0]["id"], targets=[t["id"] for t in targets],
                weapon=w["id"], skill=skill, skipped="heat", attack_check=None, attack_dice=[], attack_successes=0,
                attack_detail=None, evade_check=None, evade_dice=[], evade_successes=0, evade_detail=None, hit=False,
                margin=0, damage=0,
            )  # fmt: skip
            self.emit("status", unit=u["id"], id="heat", change="fired", by=None)
            self.deal(u, rules.HEAT_DAMAGE, None, "heat", None)  # R-BS-3: no ammo spent
            if not u.get("removed"):
                self.end_status(u, "heat")
            return
        if w.get("ammo") is not None:
            w["ammo"] -= 1  # one round of ammo, also for an area weapon
        stat = self.skill_stats[u["id"]][skill]
        n, level, bonus, a_detail = self.pool(u, stat, skill, item)
        a_id, a_dice, a_succ, a_over = self.roll(n, level, bonus)
        for t in targets:  # R-HIT-3: one evasion roll per target, in the order named
            if t.get("removed"):
                continue
            e_id, e_dice, e_succ, e_detail, e_over = self.evade(t)
            hit = a_succ > e_succ  # R-HIT-2: a tie favours the evader
            margin = a_succ - e_succ
            dmg = w["damage"] + margin if hit else 0  # R-DMG-1
            ev = {
                "type": "attack", "round": self.round, "attacker": u["id"], "target": t["id"], "weapon": w["id"],
                "skill": skill, "attack_check": a_id, "attack_dice": a_dice, "attack_successes": a_succ,
                "attack_detail": a_detail, "evade_check": e_id, "evade_dice": e_dice, "evade_successes": e_succ,
                "evade_detail": e_detail, "hit": hit, "margin": margin, "damage": dmg,
            }  # fmt: skip
            self.events.append(ev)
            if a_over or e_over:
                ev["overrides"] = (a_over or []) + (e_over or [])
            if hit:
                self.deal(t, dmg, w.get("gauge"), "attack", u["id"])
                if w.get("inflicts") and not t.get("removed"):
                    self.apply_status(t, w["inflicts"], u["id"])

    def evade(self, t: dict):
        """R-HIT-1: 回避 with 肉体; R-BS-2: a unit under system_down counts 0 and rolls nothing."""
        if t["statuses"] and _status(t, "system_down"):
            return None, [], 0, None, None
        item = None
        item_id = self.evade_items.get(t["id"])
        if item_id is not None:  # R-FIX-3
            try:
                item = self.usable_item(t, item_id, rules.EVASION_SKILL)
            except Refused as r:
                if t["id"] not in self.evade_item_noted:
                    self.evade_item_noted.add(t["id"])
                    self.refuse(t, "evade_item", {"type": "evade_item"}, r.reason, item=item_id)
        stat = self.skill_stats[t["id"]].get(rules.EVASION_SKILL, rules.EVASION_STAT)
        n, level, bonus, detail = self.pool(t, stat, rules.EVASION_SKILL, item, evasion=True)
        cid, dice, succ, over = self.roll(n, level, bonus)
        return cid, dice, succ, detail, over

    # ---- gauges (R-DMG-2/3, R-GAUGE-*) --------------------------------------------------------------------

    def damage_to(self, u: dict) -> str:
        """The gauge a unit takes damage in this round: its order's choice, else `damage` when riding."""
        return self.damage_choice.get(u["id"]) or ("damage" if u.get("vehicle") else "injury")

    def can_take(self, u: dict, gauge: str) -> bool:
        """R-DMG-3 [decided]: a gauge cannot take damage when the unit is not riding (damage) or it is full."""
        if gauge == "damage":
            vehicle = u.get("vehicle")
            return bool(vehicle) and checked_depth(vehicle["damage"]) < rules.DEATH_STAGE
        return checked_depth(u["injury"]) < rules.DEATH_STAGE

    def deal(self, u: dict, amount: int, named: str | None, source: str, by: str | None) -> None:
        redirected = False
        if named is not None:  # R-FIX-5: a named gauge wins over the target's choice
            gauge = named
            if not self.can_take(u, named):
                gauge = "injury" if named == "damage" else "damage"
                amount += rules.REDIRECT_PENALTY
                redirected = True
        else:  # R-DMG-2: the target's choice
            gauge = self.damage_to(u)
            if not self.can_take(u, gauge):
                gauge = "injury" if gauge == "damage" else "damage"
        # Either way the gauge exists: only a full injury gauge sends damage to the vehicle's, and a unit whose injury
        # gauge is full is dead and removed (R-GAUGE-2/7; `schema` rejects one still in battle, so a unit on foot
        # always has its injury gauge to take damage in).
        g = u["vehicle"]["damage"] if gauge == "damage" else u["injury"]
        checked = fill(g, amount)
        self.emit(
            "damage", unit=u["id"], gauge=gauge, amount=amount, checked=checked, taken=list(g["taken"]),
            source=source, by=by, redirected=redirected,
        )  # fmt: skip
        if gauge == "injury" and rules.DEATH_STAGE in checked:  # R-GAUGE-2, R-GAUGE-7: death at once
            self.kill(u, "injury")

    def kill(self, u: dict, cause: str) -> None:
        u["dead"] = True
        u["removed"] = True
        self.emit("death", unit=u["id"], cause=cause)
        self.emit("removed", unit=u["id"], reason="dead" if cause == "injury" else "destroyed")

    def restore(self, u: dict, gauge: str, value: int) -> None:
        """An effect removes damage, deepest stage first."""
        if gauge == "damage" and not u.get("vehicle"):
            return
        g = u["vehicle"]["damage"] if gauge == "damage" else u["injury"]
        left = value
        for i in reversed(range(rules.STAGES)):
            take = min(left, g["taken"][i])
            g["taken"][i] -= take
            left -= take
        self.emit("restore", unit=u["id"], gauge=gauge, amount=value - left, taken=list(g["taken"]))

    # ---- bad statuses (R-BS-*) ----------------------------------------------------------------------------

    def apply_status(self, u: dict, sid: str, by: str | None, rounds: int | None = None) -> None:
        """Give `u` the status `sid`; `rounds` (a `status` effect's) sets its `rounds_left` (R-FIX-13)."""
        if u.get("removed"):
            return
        existing = _status(u, sid)
        if existing is not None:  # R-FIX-6: no stacking; stun restarts its 3 rounds
            if sid == "stun":  # applied again: the contract's `change` values stay applied|ended|fired
                existing["rounds_left"] = rounds or rules.STUN_ROUNDS
                self.emit("status", unit=u["id"], id=sid, change="applied", by=by, renewed=True)
            return
        s: dict[str, Any] = {"id": sid}
        if rounds is not None:
            s["rounds_left"] = rounds
        elif sid == "stun":
            s["rounds_left"] = rules.STUN_ROUNDS
        elif sid == "system_down":
            s["elapsed"] = 0
        elif sid == "lock_on":
            s["fires_at_round"] = self.round + 1  # R-FIX-6: applied in round r, fires at the cleanup of r+1
        u["statuses"].append(s)
        ev = self.emit("status", unit=u["id"], id=sid, change="applied", by=by)
        if sid == "arm_damage":  # every arm-slot weapon is unequipped (moved to spare)
            moved = []
            for w in list(u["weapons"]) + list((u.get("vehicle") or {}).get("weapons") or []):
                if w.get("slot", "arm") == "arm":
                    w["slot"] = "spare"
                    moved.append(w["id"])
            ev["unequipped"] = moved

    def end_status(self, u: dict, sid: str) -> None:
        u["statuses"] = [s for s in u["statuses"] if s["id"] != sid]
        self.emit("status", unit=u["id"], id=sid, change="ended", by=None)

    def recover(self, u: dict, act: dict) -> None:
        """system_down's removal action: 情報処理 needing 6 - rounds elapsed; automatic at 0 or less (R-BS-1)."""
        s = _status(u, act["status"])
        if act["status"] != "system_down" or s is None:
            raise Refused("not_recoverable")
        skill = rules.RECOVERY_SKILL
        item = self.order_item(u, act.get("item"), skill)
        need = rules.SYSTEM_DOWN_BASE_NEED - s.get("elapsed", 0)
        stat = self.skill_stats[u["id"]].get(skill, "理知")
        if need <= 0:
            self.emit(
                "check", unit=u["id"], skill=skill, purpose="recover", check=None, dice=[], successes=0,
                need=need, success=True, detail=None, status=act["status"],
            )  # fmt: skip
            self.end_status(u, act["status"])
            return
        n, level, bonus, detail = self.pool(u, stat, skill, item)
        cid, dice, succ, over = self.roll(n, level, bonus)
        ok = succ >= need
        ev = self.emit(
            "check", unit=u["id"], skill=skill, purpose="recover", check=cid, dice=dice, successes=succ,
            need=need, success=ok, detail=detail, status=act["status"],
        )  # fmt: skip
        if over:
            ev["overrides"] = over
        if ok:
            self.end_status(u, act["status"])

    def scene_check(self, u: dict, act: dict) -> None:
        """R-GM-2: a check the scene offers, `need` successes (R-CHECK-2)."""
        if _status(u, "system_down"):
            raise Refused("system_down")
        skill = act["skill"]
        item = self.order_item(u, act.get("item"), skill)
        n, level, bonus, detail = self.pool(u, self.skill_stats[u["id"]][skill], skill, item)
        cid, dice, succ, over = self.roll(n, level, bonus)
        ev = self.emit(
            "check", unit=u["id"], skill=skill, purpose="scene", check=cid, dice=dice, successes=succ,
            need=act["need"], success=succ >= act["need"], detail=detail,
        )  # fmt: skip
        if item is not None:
            ev["item"] = item["id"]
        if act.get("label") is not None:
            ev["label"] = act["label"]
        if over:
            ev["overrides"] = over

    # ---- movement and engagement (R-MINOR-1, R-MAJOR-1, R-ENG-*) -------------------------------------------

    def engaged_with_enemy(self, u: dict) -> bool:
        e = u.get("engagement")
        if e is None:
            return False
        return any(o.get("engagement") == e and o["side"] != u["side"] and not o.get("removed") for o in self.units)

    def move_value(self, u: dict) -> int:
        """The vehicle's move, or the unit's own on foot (R-FIX-8), x0.75 under stun, x rough (R-ROUGH-1)."""
        vehicle = u.get("vehicle")
        value = vehicle.get("move", 0) if vehicle else u.get("move", 0) or 0
        if _status(u, "stun"):
            value *= rules.STUN_FACTOR
        rf = rough_factor(u, self.terrain)
        if rf is not None:
            value *= rf
        return max(0, math.floor(value))

    def move(self, u: dict, act: dict, action: str) -> None:
        kind = act["type"]
        if _status(u, "leg_damage"):
            raise Refused("leg_damage")
        if kind == "leave":
            if u.get("engagement") is None:
                raise Refused("not_engaged")
        elif self.engaged_with_enemy(u):  # R-FIX-7: only `leave` takes a unit out of a fight
            raise Refused("engaged")
        reach = self.move_value(u) * (rules.FULL_MOVE_FACTOR if kind == "full_move" else 1)
        toward = act.get("toward")
        if kind == "leave":  # R-ENG-4: leaving also moves up to the combat-move distance
            self.disengage(u)
        if toward is None:
            return
        goal = self.by_id[toward]["position"] if isinstance(toward, str) else toward
        start = u["position"]
        if reach <= 0 and goal != start:
            raise Refused("cannot_move")
        end, moved = geometry.step_toward(start, goal, reach)
        if end != start and u.get("engagement") is not None:
            self.disengage(u)
        u["position"] = end
        self.emit(
            "move", unit=u["id"], action=action, kind=kind, toward=toward if isinstance(toward, str) else None,
            distance=moved, **{"from": list(start), "to": list(end)},
        )  # fmt: skip
        self.contact(u, toward if isinstance(toward, str) else None)

    def disengage(self, u: dict) -> None:
        e = u.get("engagement")
        if e is not None:
            u["engagement"] = None
            self.emit("disengage", unit=u["id"], engagement=e)

    def new_engagement_name(self) -> str:
        used = {o.get("engagement") for o in self.units if not o.get("removed")}
        n = 1
        while f"e{n}" in used:
            n += 1
        return f"e{n}"

    def members(self, e: str) -> list[str]:
        return [o["id"] for o in self.units if o.get("engagement") == e and not o.get("removed")]

    def contact(self, u: dict, toward: str | None) -> None:
        """R-ENG-1/2/3/5: ending at distance 0 of a ground unit joins its engagement (air units never engage);
        an engagement holds 10 at most. R-FIX-12: when it is full, the unit joins an engagement in contact that has
        room (the one the overflow formed there); only when none has room does it form a new one."""
        if movement(u) == "air":
            return
        pos = u["position"]
        here = [
            o for o in self.units
            if o is not u and not o.get("removed") and movement(o) != "air" and geometry.metres(pos, o["position"]) == 0
        ]  # fmt: skip
        if not here:
            return
        other = next((o for o in here if o["id"] == toward), here[0])
        e = other.get("engagement")
        if e is not None and e == u.get("engagement"):
            return
        if e is None:
            e = self.new_engagement_name()
            other["engagement"] = e
            self.emit("engage", unit=other["id"], engagement=e, **{"with": []})
            members = [other["id"]]
        else:
            members = self.members(e)
            if len(members) >= rules.ENGAGEMENT_CAP:
                in_contact = dict.fromkeys(o["engagement"] for o in here if o.get("engagement") is not None)
                if u.get("engagement") in in_contact:
                    return  # already in one of them (a move that ended where it began)
                room = [x for x in in_contact if len(self.members(x)) < rules.ENGAGEMENT_CAP]
                e = room[0] if room else self.new_engagement_name()
                members = self.members(e) if room else []
        u["engagement"] = e
        self.emit("engage", unit=u["id"], engagement=e, **{"with": members})

    # ---- reload, swap (R-MINOR-1) --------------------------------------------------------------------------

    def reload(self, u: dict, act: dict, action: str) -> None:
        w = self.weapon(u, act["weapon"])
        if w.get("ammo_max") is None:
            raise Refused("not_reloadable")
        w["ammo"] = w["ammo_max"]
        self.emit("reload", unit=u["id"], action=action, weapon=w["id"], ammo=w["ammo"])

    def swap(self, u: dict, act: dict) -> None:
        """Exchange the weapon in the hand slot (arm; torso for a fighter) with one in the torso or spare slot."""
        vehicle = u.get("vehicle")
        arsenal = vehicle.get("weapons", []) if vehicle else u["weapons"]
        a = next((w for w in arsenal if w["id"] == act["weapon"]), None)
        b = next((w for w in arsenal if w["id"] == act["with"]), None)
        if a is None or b is None:
            raise Refused("not_ready")
        hand = "torso" if vehicle and vehicle.get("kind") == "fighter" else "arm"
        if (a.get("slot", "arm") == hand) == (b.get("slot", "arm") == hand):
            raise Refused("not_ready")
        if _status(u, "arm_damage") and hand == "arm":
            raise Refused("arm_damage")
        a["slot"], b["slot"] = b.get("slot", "arm"), a.get("slot", "arm")
        self.emit("swap", unit=u["id"], weapon=a["id"], slot=a["slot"], **{"with": b["id"], "with_slot": b["slot"]})

    # ---- abilities and gimmicks (spec: "Abilities and gimmicks") ------------------------------------------

    def use_ability(self, u: dict, act: dict, action: str) -> None:
        ab = next(a for a in u.get("abilities") or () if a["id"] == act["id"])
        if ab["timing"] != action:
            raise Refused("wrong_timing")
        if ab.get("uses") is not None:
            if ab["uses"] <= 0:
                raise Refused("no_uses")
            ab["uses"] -= 1
        target = self.by_id.get(act.get("target")) if act.get("target") else None
        e = u.get("engagement")
        area = [o for o in self.alive() if e is not None and o.get("engagement") == e] or [u]
        self.emit(
            "ability",
            unit=u["id"],
            id=ab["id"],
            timing=ab["timing"],
            target=act.get("target"),
            effects=ab.get("effects", []),
        )
        self.apply_effects(ab.get("effects", []), ab["id"], u, target, area, "target" if target else "self")

    def fire_gimmicks(self, timing: str) -> None:
        for g in self.gimmicks:
            if g.get("timing") != timing:
                continue
            area = [o for o in self.alive() if geometry.in_rect(o["position"], g.get("area"))]
            self.emit("gimmick", id=g["id"], timing=timing, effects=g.get("effects", []), units=[o["id"] for o in area])
            self.apply_effects(g.get("effects", []), g["id"], None, None, area, "area")

    def apply_effects(
        self, effects: list, source: str, user: dict | None, target: dict | None, area: list, default_on: str
    ) -> None:
        for eff in effects:
            on = eff.get("on") or default_on
            if on == "self" and user is not None:
                recipients = [user]
            elif on == "target" and target is not None:
                recipients = [target]
            else:
                recipients = area
            by = user["id"] if user else None
            for r in recipients:
                if r.get("removed"):
                    continue
                kind = eff["kind"]
                if kind in ("dice", "successes"):
                    if r.get("modifiers") is None:  # absent or null in the input (both mean none)
                        r["modifiers"] = []
                    r["modifiers"].append({
                        "kind": kind, "value": eff["value"], "skills": eff.get("skills"),
                        "rounds_left": eff.get("rounds") or 1, "source": source,
                    })  # fmt: skip
                elif kind == "status":
                    self.apply_status(r, eff["id"], by, eff.get("rounds"))
                elif kind == "cure" and _status(r, eff["id"]):
                    self.end_status(r, eff["id"])
                elif kind == "restore":
                    self.restore(r, eff["gauge"], eff["value"])

    # ---- cleanup (R-CLEAN-1) -------------------------------------------------------------------------------

    def cleanup(self) -> None:
        self.emit("cleanup")
        # (0) effects timed for this cleanup: lock-on beams (R-FIX-4/6), then cleanup gimmicks
        for u in self.alive():
            s = _status(u, "lock_on")
            if s is not None and s.get("fires_at_round", self.round) <= self.round:
                self.emit("status", unit=u["id"], id="lock_on", change="fired", by=None)
                self.deal(u, rules.LOCK_ON_DAMAGE, None, "lock_on", None)
                if not u.get("removed"):
                    self.end_status(u, "lock_on")
        self.fire_gimmicks("cleanup")
        # (a) statuses without a stated ending end; round counters advance (R-BS-1, R-BS-3, R-BS-4, R-FIX-13)
        for u in self.alive():
            for s in list(u["statuses"]):
                sid = s["id"]
                if sid == "system_down":
                    s["elapsed"] = s.get("elapsed", 0) + 1
                if sid == "stun" and "rounds_left" not in s:
                    s["rounds_left"] = rules.STUN_ROUNDS  # the table's 3 rounds
                if "rounds_left" in s:  # R-FIX-13: any status's duration counts down; at 0 it ends, table or not
                    s["rounds_left"] -= 1
                    if s["rounds_left"] <= 0:
                        self.end_status(u, sid)
                elif sid not in rules.STATUSES:  # R-BS-4: outside the table and without a duration: ends now
                    self.end_status(u, sid)
            if u.get("modifiers"):
                for m in u["modifiers"]:
                    m["rounds_left"] -= 1
                u["modifiers"] = [m for m in u["modifiers"] if m["rounds_left"] > 0]
        # (b) units whose damage gauge has 破壊 checked are removed (R-GAUGE-3, R-GAUGE-6)
        for u in self.alive():
            vehicle = u.get("vehicle")
            if vehicle and checked_depth(vehicle["damage"]) >= rules.DEATH_STAGE:
                if self.options["destroyed_kills_pilot"]:
                    # The rider's 死亡 stage is checked; stages check in order, so the whole gauge is full.
                    u["injury"]["taken"] = list(u["injury"]["capacity"])
                    self.kill(u, "destroyed")
                else:  # R-GAUGE-6 option: the pilot survives, dismounted (not riding: vehicle null), and leaves
                    u["removed"] = True
                    u["vehicle"] = None
                    u["dismounted"] = True
                    self.emit("removed", unit=u["id"], reason="destroyed")
