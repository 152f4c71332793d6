"""What every kancolle run shares: the dice, the events, check ids, AP and emotion changes, the behaviour check of
§12.1 with its accidents, support and re-challenges, damage, and the unable-to-act tests.

A `Run` works on a private copy of the encounter (the ruleset made it); the battle, the base cycle, the free checks,
the after-battle deadline and the end phase are its subclasses' and functions' business.
"""

from __future__ import annotations

from typing import Any

from pbp.engine.dice import DiceSource
from pbp.engine.kancolle.grid import BASE_DC, merged_grid, pick_trait

STATES = ("無傷", "小破", "中破", "大破", "轟沈")  # K-DMG-3, by steps 0..4
SUNK = 4
CHECK_KINDS = ("hit", "evasion", "torpedo", "air", "recon", "night", "retreat", "event", "salvage", "other")
RESOURCES = ("燃料", "弾薬", "鋼材", "ボーキサイト")
#: Phases whose events carry the current pass (C-17).
PASS_PHASES = ("shelling", "night")

Unit = dict[str, Any]
Event = dict[str, Any]


def emotion_entry(holder: Unit, toward: Unit) -> dict[str, Any] | None:
    """The holder's emotion record toward a unit: keyed by the unit's id, or else by its name (C-10)."""
    emotions = holder.get("emotions") or {}
    return emotions.get(toward["id"]) or emotions.get(toward.get("name"))


def emotion_value(holder: Unit, toward: Unit) -> int:
    entry = emotion_entry(holder, toward)
    return int(entry["value"]) if entry else 0


def unable_reason(unit: Unit) -> str | None:
    """K-CHECK-11: sunk first, then 0 AP; None when the unit can act."""
    if unit["steps"] >= SUNK:
        return "sunk"
    return "ap0" if unit["ap"] <= 0 else None


class Run:
    """One `resolve` call's machinery over the (copied) encounter `state`."""

    def __init__(
        self, state: dict[str, Any], orders: dict[str, Any], dice: DiceSource, overrides: list[dict[str, Any]]
    ):
        self.state = state
        self.orders = orders
        self.dice = dice
        self.units: list[Unit] = state["units"]
        self.by_id: dict[str, Unit] = {u["id"]: u for u in self.units}
        self.options: dict[str, Any] = state["options"]
        self.grid = merged_grid(state.get("grid"))
        self.events: list[Event] = []
        self.overrides = {o["check"]: o for o in overrides}
        self.used_overrides: set[str] = set()
        self.round = 0
        self.phase = "start"
        self.pass_: str | None = None
        self.check_n = 0
        self.in_battle = False  # accident 4 lasts the battle; entry 5 also hits allies at the position (K-ACC-4/5)
        #: The entries whose policies count now (the round's, the cycle's, the `orders` entry), by unit id.
        self.entries: dict[str, dict[str, Any]] = self.base_entries()

    # -- entries -----------------------------------------------------------------------------------------------
    def base_entries(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for entry in self.orders.get("orders") or []:
            out.setdefault(entry["unit"], entry)
        return out

    def entry(self, unit: Unit) -> dict[str, Any]:
        return self.entries.get(unit["id"], {})

    # -- events and dice ---------------------------------------------------------------------------------------
    def emit(self, type_: str, **fields: Any) -> Event:
        ev: Event = {"type": type_, "round": self.round, "phase": self.phase}
        if self.phase in PASS_PHASES:
            ev["pass"] = self.pass_
        ev.update(fields)
        self.events.append(ev)
        return ev

    def d6(self) -> int:
        return self.dice.roll(1)[0]

    def new_ids(self, round_: int) -> None:
        """Check ids count from 1 again (the battle start, each round_start, cycle, play, after-battle)."""
        self.round = round_
        self.check_n = 0

    # -- sheet changes -----------------------------------------------------------------------------------------
    def set_ap(self, unit: Unit, value: int, reason: str) -> None:
        """K-SHEET-4: AP within 0..maximum; an `ap` event only when it changes (C-19)."""
        after = max(0, min(unit["ap_max"], value))
        if after != unit["ap"]:
            self.emit("ap", unit=unit["id"], before=unit["ap"], after=after, reason=reason)
            unit["ap"] = after

    def raise_emotion(self, holder: Unit, toward: Unit, delta: int) -> None:
        """K-EMO-1, K-SUP-3: 0..5; a rise clears the support box; an `emotion` event only on a change."""
        entry = emotion_entry(holder, toward)
        before = entry["value"] if entry else 0
        after = max(0, min(5, before + delta))
        if after == before:
            return
        if entry is None:  # a first feeling toward someone: a new record (C-10's shape)
            entry = holder.setdefault("emotions", {})[toward["id"]] = {"value": 0, "attribute": None, "box": "clear"}
        entry["value"] = after
        cleared = after > before and entry.get("box") == "checked"
        if cleared:
            entry["box"] = "clear"
        self.emit(
            "emotion", **{"from": holder["id"]}, to=toward["id"], before=before, after=after,
            attribute=entry.get("attribute"), box_cleared=cleared,
        )  # fmt: skip

    def add_steps(self, unit: Unit, n: int) -> None:
        unit["steps"] = min(SUNK, unit["steps"] + n)

    def pcs(self) -> list[Unit]:
        return [u for u in self.units if u["side"] == "pc"]

    # -- the accident table (K-ACC-1) ---------------------------------------------------------------------------
    def accident(self, unit: Unit, check_id: str | None, trait: str | None) -> None:
        die = self.d6()
        effects: dict[str, Any] = {}
        if die == 2 and trait is not None:
            held = next(t for t in unit["traits"] if t["name"] == trait)
            held["kind"] = "merit" if held["kind"] == "weakness" else "weakness"
            effects["flip"] = {trait: held["kind"]}
        elif die == 3:
            holders = [
                u for u in self.pcs() if u is not unit and (e := emotion_entry(u, unit)) is not None and e["value"] >= 1
            ]
            for u in holders:
                emotion_entry(u, unit)["box"] = "checked"  # type: ignore[index]
            effects["boxes_checked"] = [u["id"] for u in holders]
        elif die == 4:
            own = sum(m["value"] for m in unit["modifiers"] if m.get("source") == "accident4")
            if own > -2:
                until = "battle" if self.in_battle else "cycle"
                unit["modifiers"].append({"value": -1, "until": until, "source": "accident4"})
                own -= 1
            effects["modifier_now"] = own
        elif die == 5:
            hit = [unit]
            if self.in_battle:
                hit += [
                    u for u in self.pcs()
                    if u is not unit and not u["removed"] and u["position"] == unit["position"]
                ]  # fmt: skip
            for u in hit:
                self.add_steps(u, 1)
            effects["steps"] = [{"unit": u["id"], "n": 1} for u in hit]
        elif die == 6:
            effects["ap_die"] = self.d6()
        self.emit("accident", unit=unit["id"], die=die, entry=die, check=check_id, effects=effects)
        if die == 6:
            self.set_ap(unit, unit["ap"] - effects["ap_die"], "accident")

    # -- the behaviour check (§12.1) ----------------------------------------------------------------------------
    def check(
        self,
        unit: Unit,
        kind: str,
        designated: str | None,
        *,
        rating: int = 0,
        modifier: int = 0,
        interfere: int | None = None,
        night: bool = False,
        piece_dc: int | None = None,
        substitute: str | None = None,
    ) -> Event:
        """Roll one behaviour check to its end and emit its `check` event (after the events nested in it)."""
        is_pc = unit["side"] == "pc"
        if is_pc:
            allow = bool(self.options.get("allow_farther_substitute"))
            used, dist, dc = pick_trait(unit["traits"], unit.get("gap"), designated, self.grid, substitute, allow)
        else:
            used, dist, dc = None, None, BASE_DC if piece_dc is None else piece_dc
        weak = used is not None and self._kind(unit, used) == "weakness"
        ev: Event = {"type": "check", "round": self.round, "phase": self.phase}
        if self.phase in PASS_PHASES:
            ev["pass"] = self.pass_
        ev |= {
            "id": None, "unit": unit["id"], "kind": kind, "designated": designated,
            "used": {"trait": used, "weakness": weak}, "distance": dist, "dc": dc, "tries": [],
            "success": False, "special": False, "fumble": False, "auto_fail": unable_reason(unit),
        }  # fmt: skip
        if ev["auto_fail"] is None:
            self._roll_tries(unit, ev, used, rating, modifier, interfere, night)
        override = self.overrides.get(ev["id"]) if ev["id"] else None
        if override is not None:
            now = override["result"] == "success"
            ev["overrides"] = [{"check": ev["id"], "was": ev["success"], "now": now, "reason": override["reason"]}]
            ev["success"] = now
            self.used_overrides.add(ev["id"])
        self.events.append(ev)  # after the events nested in it (C-18)
        return ev

    @staticmethod
    def _kind(unit: Unit, trait: str) -> str | None:
        for t in unit["traits"]:
            if t["name"] == trait:
                return t["kind"]  # type: ignore[no-any-return]
        return None

    def _take_id(self, ev: Event) -> None:
        if ev["id"] is None:
            self.check_n += 1
            ev["id"] = f"r{self.round}-c{self.check_n}"

    def _roll_tries(
        self, unit: Unit, ev: Event, used: str | None, rating: int, modifier: int, interfere: int | None, night: bool
    ) -> None:
        is_pc = unit["side"] == "pc"
        kind, dc = ev["kind"], ev["dc"]
        policy = self.entry(unit).get("rechallenge") or {}
        most, keep, kinds = policy.get("max") or 0, policy.get("keep") or 0, policy.get("kinds")
        retries = 0
        paid = False
        tries: list[dict[str, Any]] = ev["tries"]
        while True:
            if is_pc and used is not None and self._kind(unit, used) == "weakness":  # (b) K-CHECK-10, K-RETRY-5
                self._take_id(ev)
                self.accident(unit, ev["id"], used)
                reason = unable_reason(unit)
                if reason == "sunk" or (reason == "ap0" and not paid):
                    tries.append({"auto_fail": reason})
                    ev["auto_fail"] = reason
                    ev["success"] = ev["special"] = ev["fumble"] = False
                    return
            faces = self.dice.roll(2)  # (c)
            self._take_id(ev)
            effective = [0 if f == interfere else f for f in faces]
            natural = faces[0] + faces[1]
            mod = modifier + sum(m["value"] for m in unit["modifiers"])
            total = effective[0] + effective[1] + rating + mod
            special = natural == 12 or (night and kind == "hit" and natural >= 10)
            fumble = not special and (natural == 2 or (night and kind == "evasion" and natural <= 4))
            success = special or (not fumble and total >= dc)
            t: dict[str, Any] = {
                "dice": faces, "effective": effective, "natural": natural, "rating": rating, "modifier": mod,
                "support": [], "total": total, "special": special, "fumble": fumble, "success": success,
            }  # fmt: skip
            tries.append(t)
            ev["success"], ev["special"], ev["fumble"] = success, special, fumble
            if special:  # (d)
                t["special_die"] = self.d6()
                self.set_ap(unit, unit["ap"] + t["special_die"], "special")
                return
            if fumble:
                if is_pc:
                    self.accident(unit, ev["id"], used)
                return
            if success:  # (e)
                return
            if is_pc and self._check_support(unit, ev, t):
                return
            if retries < most and unit["ap"] > keep and (kinds is None or kind in kinds):  # (f)
                retries += 1
                cost = self.d6()
                t["cost_die"] = cost
                t["ap_before"] = unit["ap"]
                if cost > unit["ap"]:
                    self.set_ap(unit, 0, "rechallenge")
                    t["ap_after"] = 0
                    t["unpaid"] = True
                    return
                self.set_ap(unit, unit["ap"] - cost, "rechallenge")
                t["ap_after"] = unit["ap"]
                paid = True
                continue
            return

    def supporters(self, unit: Unit, kind: str, check_kind: str | None = None) -> list[tuple[Unit, dict[str, Any]]]:
        """K-SUP-1/4/6: the other PCs not lost, in encounter order, whose policy offers `kind` support to `unit`,
        with emotion >= 1 and a clear box, each with its emotion record toward `unit`."""
        out = []
        for u in self.pcs():
            if u is unit or u.get("lost"):
                continue
            wanted = any(
                s.get("for") == unit["id"] and s.get("kind") == kind
                and (kind == "damage" or s.get("kinds") is None or check_kind in s["kinds"])
                for s in self.entry(u).get("support") or []
            )  # fmt: skip
            record = emotion_entry(u, unit)
            if wanted and record is not None and record["value"] >= 1 and record.get("box", "clear") == "clear":
                out.append((u, record))
        return out

    def _check_support(self, unit: Unit, ev: Event, t: dict[str, Any]) -> bool:
        """K-SUP-4: supporters in encounter order until the total reaches DC; none when all cannot."""
        need = ev["dc"] - t["total"]
        taken, got = [], 0
        for u, record in self.supporters(unit, "check", ev["kind"]):
            taken.append((u, record))
            got += record["value"]
            if got >= need:
                break
        if got < need:
            return False
        for u, record in taken:
            record["box"] = "checked"
            self.emit("support", **{"from": u["id"]}, to=unit["id"], kind="check", value=record["value"],
                      check=ev["id"])  # fmt: skip
            t["support"].append({"from": u["id"], "value": record["value"]})
        t["total"] += got
        t["success"] = ev["success"] = True
        return True

    def damage_support(self, attacker: Unit) -> int:
        """K-SUP-4: every available damage supporter adds its emotion to this pool; their boxes are checked."""
        if attacker["side"] != "pc":
            return 0
        total = 0
        for u, record in self.supporters(attacker, "damage"):
            record["box"] = "checked"
            self.emit("support", **{"from": u["id"]}, to=attacker["id"], kind="damage", value=record["value"])
            total += record["value"]
        return total

    # -- damage (K-DMG) ----------------------------------------------------------------------------------------
    def damage(self, target: Unit, pool: int, reduction: int = 0) -> None:
        dice = self.dice.roll(pool) if pool > 0 else []
        total = sum(dice)
        net = max(0, total - reduction)
        armour = target["ratings"]["装甲"]
        steps = sum(1 for m in self.options.get("damage_steps", [1, 2, 3, 4]) if net >= m * armour)
        before = target["steps"]
        self.add_steps(target, steps)
        self.emit(
            "damage", unit=target["id"], dice=dice, total=total, reduction=reduction, net=net, armour=armour,
            steps=steps, before=before, after=target["steps"], state=STATES[target["steps"]],
        )  # fmt: skip

    # -- unable to act outside a battle (K-OUT-1) ----------------------------------------------------------------
    def able_ids(self) -> set[str]:
        return {u["id"] for u in self.units if unable_reason(u) is None}

    def newly_unable(self, before: set[str]) -> None:
        """`unable_to_act` for each unit that went from able to unable during the action (encounter order)."""
        for u in self.units:
            if u["id"] in before and (reason := unable_reason(u)) is not None:
                self.emit("unable_to_act", unit=u["id"], reason=reason)

    def drop_modifiers(self, until: str) -> None:
        for u in self.units:
            u["modifiers"] = [m for m in u["modifiers"] if m.get("until") != until]
