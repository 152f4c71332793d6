"""The fleet battle (§7, §12.4-5): the start (battlefield, formation, recon), then one round per deadline: air,
opening torpedo, shelling by range, torpedo, the retreat window, the night check and the night round."""

from __future__ import annotations

from typing import Any

from pbp.engine.kancolle.core import Run, Unit, unable_reason

BATTLEFIELDS = ("同航戦", "反航戦", "T字有利", "T字不利", "悪天候", "悪海象")  # SNZ, K-FIELD-1
RANGES = ("短", "中", "長", "超長")
RANK = {r: i for i, r in enumerate(RANGES)}
LONG_FIRST = ("超長", "長", "中", "短")
SHORT_FIRST = ("短", "中", "長", "超長")
PLAN = [1, 2, 3, 4]


def pieces_by_id(unit: Unit) -> dict[str, dict[str, Any]]:
    return {p["id"]: p for p in unit["equipment"]}


class Battle(Run):
    """A battle deadline (or several, `--rounds N`) on the encounter."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.b: dict[str, Any] = self.state["battle"]
        self.in_battle = self.b["outcome"] is None
        self.order_index = {u["id"]: i for i, u in enumerate(self.units)}
        self.flagship = next(
            (u for u in self.units if u["side"] == "enemy" and u.get("flagship")),
            next((u for u in self.units if u["side"] == "enemy"), None),
        )

    # -- the run -----------------------------------------------------------------------------------------------
    def run(self, rounds: int) -> None:
        """C-4: the start when not yet started, then rounds until `rounds` deadlines or `battle_end`."""
        from pbp.engine.kancolle.after import after_battle

        if self.b["outcome"] is not None:
            if not self.b["settled"]:
                after_battle(self)
            return
        for _ in range(rounds):
            if not self.b["started"]:
                if self.b["revealed"] is None:
                    split = self.first_formation()
                    if self.ended():
                        return
                    if split:  # F1 is a deadline of its own (K-FORM-3 (3))
                        continue
                else:
                    self.replot()
                self.reveal()
            self.play_round()
            if self.ended():
                return

    # -- helpers -----------------------------------------------------------------------------------------------
    def ended(self) -> bool:
        return self.b["outcome"] is not None

    def acting(self, units: list[Unit]) -> list[Unit]:
        """K-FLEET-2: ascending position, PCs before enemies, then encounter order."""
        return sorted(units, key=lambda u: (u["position"], u["side"] != "pc", self.order_index[u["id"]]))

    def present(self, side: str | None = None) -> list[Unit]:
        return [u for u in self.units if not u["removed"] and (side is None or u["side"] == side)]

    def refuse(self, unit: Unit, action: str, reason: str) -> None:
        self.emit("refused", unit=unit["id"], action=action, reason=reason)

    def round_entries(self, n: int) -> dict[str, dict[str, Any]]:
        """C-13: the `orders` entry, with `rounds[n]`'s fields replacing its own."""
        out = {uid: dict(e) for uid, e in self.base_entries().items()}
        for e in (self.orders.get("rounds") or {}).get(str(n)) or []:
            out[e["unit"]] = {**out.get(e["unit"], {}), **e}
        return out

    def removal(self) -> None:
        """K-OUT-1's removal step."""
        for u in self.units:
            if not u["removed"] and (reason := unable_reason(u)) is not None:
                self.emit("unable_to_act", unit=u["id"], reason=reason)
                self.emit("removed", unit=u["id"])
                u["removed"] = True

    def after_action(self) -> bool:
        """The removal step and the end test (K-BEND-1); True when the battle ended."""
        self.removal()
        return self.end_test()

    def end_test(self) -> bool:
        if not self.present("enemy"):
            self.end_battle("victory", "annihilation")
        elif not self.present("pc"):
            self.end_battle("wipeout", "annihilation")
        return self.b["outcome"] is not None

    def end_battle(self, outcome: str, cause: str) -> None:
        self.phase, self.pass_ = "end", None
        self.b["outcome"] = outcome
        sunk = [u["id"] for u in self.units if u["steps"] >= 4]
        self.emit("battle_end", outcome=outcome, cause=cause, sunk=sunk)
        self.drop_modifiers("battle")
        self.in_battle = False

    def plan_end(self) -> None:
        flag = self.flagship
        won = self.options.get("victory", "flagship") == "flagship" and flag is not None and flag["removed"]
        self.end_battle("victory", "flagship") if won else self.end_battle("draw", "plan_end")

    # -- start: battlefield and formation (K-FIELD-1, K-FORM) -----------------------------------------------------
    def first_formation(self) -> bool:
        """F1: the battlefield, positions, recons. True when the start takes a second deadline (K-FORM-3 (3))."""
        self.new_ids(0)
        self.phase, self.pass_ = "start", None
        fixed = self.b["battlefield"] is not None
        roll = None if fixed else self.d6()
        if roll is not None:
            self.b["battlefield"] = BATTLEFIELDS[roll - 1]
        self.emit("battle_start", battlefield=self.b["battlefield"], battlefield_roll=roll, fixed=fixed, plan=PLAN)
        for u in self.units:
            pos = (self.entry(u).get("formation") or {}).get("position")
            if pos is not None:
                u["position"] = pos
        self.b["revealed"] = []
        reconers = [u for u in self.acting(self.units) if (self.entry(u).get("formation") or {}).get("recon")]
        for u in reconers:
            if not u["removed"]:
                self.recon(u)
                if self.b["outcome"] is not None:
                    return False
        if reconers and self.options.get("replot_after_recon", True):
            shown = {uid: self.by_id[uid]["position"] for uid in self.b["revealed"]}
            self.emit("positions", positions=shown, final=False)
            return True
        return False

    def recon(self, u: Unit) -> None:
        if unable_reason(u) is not None:
            return self.refuse(u, "recon", "unable_to_act")
        values = [p["recon"] for p in u["equipment"] if p.get("recon") is not None]
        if not values:
            return self.refuse(u, "recon", "no_piece")
        wanted = (self.entry(u).get("formation") or {}).get("recon") or []
        target = next(
            (self.by_id[t] for t in wanted if t in self.by_id and not self.by_id[t]["removed"]
             and t not in self.b["revealed"]),
            None,
        )  # fmt: skip
        if target is None:
            return self.refuse(u, "recon", "target_gone")
        value: Any = "-" if "-" in values else max(values)
        ev = self.check(u, "recon", "索敵")
        void = revealed = False
        shown: list[dict[str, Any]] = []
        reduction = 0
        if ev["success"]:
            defenders, reduction = self.anti_air(target, u, "recon")
            shown = [{"unit": d["id"], "value": v} for d, v in defenders]
            void = bool(defenders) and value != "-" and max(v for _, v in defenders) >= value
            if not void:
                revealed = True
                self.b["revealed"].append(target["id"])
        self.emit(
            "recon", unit=u["id"], target=target["id"], check=ev["id"], recon=value, anti_air=shown,
            aa_reduction=reduction, void=void, revealed=revealed,
        )  # fmt: skip
        self.after_action()
        return None

    def replot(self) -> None:
        """F2: each unit still in the battle moves to its entry's position unless it was revealed."""
        self.new_ids(0)
        self.phase, self.pass_ = "start", None
        for u in self.units:
            want = (self.entry(u).get("formation") or {}).get("position")
            if u["removed"] or want is None or want == u["position"]:
                continue
            if u["id"] in self.b["revealed"]:
                self.refuse(u, "formation", "revealed")
            else:
                u["position"] = want

    def reveal(self) -> None:
        self.phase, self.pass_ = "start", None
        self.round = 0
        self.emit("positions", positions={u["id"]: u["position"] for u in self.units}, final=True)
        self.b["started"] = True

    # -- anti-air (K-AA) ---------------------------------------------------------------------------------------
    def can_anti_air(self, u: Unit, flag: str) -> bool:
        policy = self.entry(u).get("anti_air") or {}
        keep = 1 if policy.get("keep") is None else policy["keep"]
        return not u["removed"] and unable_reason(u) is None and bool(policy.get(flag)) and u["ap"] - 2 >= keep

    def roll_anti_air(self, u: Unit, value: int, covered: Unit, role: str) -> int:
        self.set_ap(u, u["ap"] - 2, "anti_air")
        dice = self.dice.roll(value)
        self.emit("anti_air", unit=u["id"], **{"for": covered["id"]}, role=role, dice=dice, value=sum(dice))
        return sum(dice)

    def anti_air(self, target: Unit, acting: Unit, flag: str) -> tuple[list[tuple[Unit, int]], int]:
        """K-AA-3/5: the defenders' rolls, then the acting side's reductions; (defender, reduced value), R."""
        rolled: list[tuple[Unit, int]] = []
        allies = [u for u in self.units if u["side"] == target["side"] and u is not target]
        for d in [target, *allies]:
            values = [p["anti_air"] for p in d["equipment"]
                      if p.get("anti_air", 0) > 0 and (d is target or p.get("super_anti_air"))]  # fmt: skip
            if values and self.can_anti_air(d, flag):
                rolled.append((d, self.roll_anti_air(d, max(values), target, "defend")))
        reduction = 0
        if rolled:
            for u in self.units:
                if u["side"] != acting["side"]:
                    continue
                values = [p["anti_air"] for p in u["equipment"] if p.get("super_anti_air") and p.get("anti_air", 0) > 0]
                if values and self.can_anti_air(u, flag):
                    reduction += self.roll_anti_air(u, max(values), acting, "reduce")
        return [(d, max(0, v - reduction)) for d, v in rolled], reduction

    # -- rounds ------------------------------------------------------------------------------------------------
    def play_round(self) -> None:
        n = self.state["round"]
        self.new_ids(n)
        self.entries = self.round_entries(n)
        self.phase, self.pass_ = "start", None
        self.emit("round_start")
        if not self.after_action():
            ended = False
            for step in self.plan(n):
                if step():
                    ended = True
                    break
            if not ended and n <= 3:
                ended = self.retreat_window()
            if not ended and n == 3:
                ended = self.night_check()
            if not ended and n == 4:
                self.plan_end()
        self.phase, self.pass_ = "end", None
        self.emit("round_end")
        self.state["round"] = n + 1

    def plan(self, n: int) -> list[Any]:
        """K-FLEET-1's default plan: the phases of round n, each a callable returning True when the battle ended."""
        if n == 1:
            return [
                lambda: self.piece_phase("air"),
                lambda: self.piece_phase("opening_torpedo"),
                lambda: self.shelling(LONG_FIRST),
            ]
        if n == 2:
            return [lambda: self.shelling(LONG_FIRST if self.b["battlefield"] == "反航戦" else SHORT_FIRST)]
        if n == 3:
            return [lambda: self.piece_phase("torpedo")]
        return [lambda: self.shelling(("短",), night=True)]

    # -- target picks (K-PLAY-5, K-FLEET-4, K-RAND-1) --------------------------------------------------------------
    def pick_target(self, u: Unit, targets: list[str] | None, action: str) -> Unit | None:
        if targets:
            for t in targets:
                if t in self.by_id and not self.by_id[t]["removed"]:
                    return self.by_id[t]
        elif u["side"] == "enemy":
            found = self.target_table(u)
            if found is not None:
                return found
        self.refuse(u, action, "target_gone")
        return None

    def target_table(self, u: Unit) -> Unit | None:
        """MHT: 1 highest position (smallest number), 2 most steps, 3 lowest 装甲, 4 lowest 回避, 5 highest 火力,
        6 random; ties to the first in encounter order."""
        cands = self.present("pc")
        if not cands:
            return None
        die = self.d6()
        rand: list[int] = []
        if die == 1:
            pick = min(cands, key=lambda c: c["position"])
        elif die == 2:
            pick = max(cands, key=lambda c: c["steps"])
        elif die == 3:
            pick = min(cands, key=lambda c: c["ratings"]["装甲"])
        elif die == 4:
            pick = min(cands, key=lambda c: c["ratings"]["回避"])
        elif die == 5:
            pick = max(cands, key=lambda c: c["ratings"]["火力"])
        else:
            pick = cands[self.random_index(len(cands), rand)]
        self.emit("target_roll", unit=u["id"], die=die, row=die, rand=rand, target=pick["id"])
        return pick

    def random_index(self, n: int, rolled: list[int]) -> int:
        """K-RAND-1 over n candidates; the dice rolled are appended to `rolled`."""
        if n == 1:
            return 0
        while True:
            if n <= 6:
                v = self.d6()
                rolled.append(v)
            else:
                a, b = self.dice.roll(2)
                rolled += [a, b]
                v = (a - 1) * 6 + b
            if v <= n:
                return v - 1

    # -- air and torpedo phases (K-AIR-1, K-TORP) ------------------------------------------------------------
    def piece_attacks(self, u: Unit, phase: str) -> list[dict[str, Any]]:
        """The unit's attacks in an air or torpedo phase: its entry's list, or an enemy's default (K-ENEMY-1)."""
        if phase != "air" and u["side"] == "enemy" and self.options.get("torpedo_pc_only"):
            return []
        e = self.entry(u)
        if phase in e or u["side"] == "pc":
            return list(e.get(phase) or [])
        if phase == "air":
            usable = [p for p in u["equipment"] if p.get("air", 0) > 0]
        else:
            usable = [p for p in u["equipment"]
                      if p["kind"] == "torpedo" and (phase == "torpedo" or p.get("opening"))]  # fmt: skip
        return [{"piece": p["id"], "targets": None} for p in usable]

    def piece_phase(self, phase: str) -> bool:
        self.phase, self.pass_ = phase, None
        planned = {u["id"]: self.piece_attacks(u, phase) for u in self.present()}
        order = [u for u in self.acting(self.present()) if planned[u["id"]]]
        self.emit("phase", order=[u["id"] for u in order])
        for u in order:
            for attack in planned[u["id"]]:
                if u["removed"]:
                    self.refuse(u, phase, "removed")
                    break
                piece = pieces_by_id(u)[attack["piece"]]
                if self.piece_attack(u, piece, attack.get("targets"), phase):
                    return True
        return False

    def piece_attack(self, u: Unit, piece: dict[str, Any], targets: list[str] | None, phase: str) -> bool:
        target = self.pick_target(u, targets, phase)
        if target is None:
            return False
        air = phase == "air"
        ev = self.check(u, "air" if air else "torpedo", "航空戦" if air else "魚雷", piece_dc=piece.get("dc"))
        kind = "air_attack" if air else "torpedo"
        fields: dict[str, Any] = {
            "attacker": u["id"], "target": target["id"], "piece": piece["id"], "check": ev["id"],
            "hit": ev["success"], "special": ev["special"],
        }  # fmt: skip
        if ev["success"]:
            defended: list[tuple[Unit, int]] = []
            reduction = 0
            if air:
                defended, reduction = self.anti_air(target, u, "air")
            support = self.damage_support(u)
            value = piece.get("air" if air else "torpedo", 0)
            special = 2 if ev["special"] else 0
            total = max(0, value + special + support)
            fields["pool"] = {"value": value, "special": special, "support": support, "total": total}
            anti = sum(v for _, v in defended)
            if air:
                fields["anti_air"] = anti
                fields["aa_reduction"] = reduction
            self.emit(kind, **fields)
            self.damage(target, total, anti)
        else:
            self.emit(kind, **fields)
        return self.after_action()

    # -- shelling and night (K-SHELL, K-NIGHT) ---------------------------------------------------------------
    def shell_plan(self, u: Unit, night: bool) -> dict[str, Any] | None:
        """What the unit fires this phase: {pass, chain, targets, refusal, refusal_pass}, or None (no attack)."""
        key = "night" if night else "shelling"
        e = self.entry(u)
        if u["side"] == "pc" or key in e:
            order = e.get(key)
            if order is None:  # null or absent: no attack (C-13); {} is an order with the defaults
                return None
        else:
            order = {}
        pieces = pieces_by_id(u)
        chain = [pieces[pid] for pid in order.get("chain") or []]
        refusal = None
        if not chain:
            ranged = [p for p in u["equipment"] if p.get("range") and not (night and p.get("carrier_aircraft"))]
            if ranged:
                longest = max(RANK[p["range"]] for p in ranged)
                chain = [ranged[0] if night else next(p for p in ranged if RANK[p["range"]] == longest)]
            elif u["side"] == "enemy":
                return None
            else:
                refusal = "no_piece"
        if night:
            pass_ = "短"
            if refusal is None and u["side"] == "pc" and u["steps"] == 3:
                refusal = "taiha_night"
            elif refusal is None and any(p.get("carrier_aircraft") for p in chain):
                refusal = "night_aircraft"
        else:
            shortest = min((RANK[p["range"]] for p in chain), default=0)
            pass_ = order.get("pass") or RANGES[shortest]
            if refusal is None and any(RANK[p["range"]] < RANK[pass_] for p in chain):
                refusal = "out_of_range"
        return {"pass": pass_, "chain": chain, "targets": order.get("targets"), "refusal": refusal}

    def shelling(self, passes: tuple[str, ...], night: bool = False) -> bool:
        phase = "night" if night else "shelling"
        self.phase = phase
        plans = {u["id"]: p for u in self.present() if (p := self.shell_plan(u, night)) is not None}
        for i, pass_ in enumerate(passes):
            self.pass_ = pass_
            here = self.acting([u for u in self.present() if u["id"] in plans])
            order = [u for u in here if plans[u["id"]]["refusal"] is None and plans[u["id"]]["pass"] == pass_]
            self.emit("phase", order=[u["id"] for u in order])
            for u in here:
                refusal = plans[u["id"]]["refusal"]
                if refusal is None:
                    continue
                if (
                    (refusal == "no_piece" and i == 0)
                    or (refusal == "out_of_range" and plans[u["id"]]["pass"] == pass_)
                    or refusal in ("taiha_night", "night_aircraft")
                ):
                    self.refuse(u, phase, refusal)
            for u in order:
                if u["removed"]:
                    self.refuse(u, phase, "removed")
                    continue
                if self.shell(u, plans[u["id"]], night):
                    return True
        return False

    def shell(self, u: Unit, plan: dict[str, Any], night: bool) -> bool:
        action = "night" if night else "shelling"
        target = self.pick_target(u, plan["targets"], action)
        if target is None:
            return False
        chain = plan["chain"]
        hit_checks: list[str] = []
        special = False
        fields: dict[str, Any] = {"attacker": u["id"], "target": target["id"], "chain": [p["id"] for p in chain]}
        for i, piece in enumerate(chain):
            ev = self.check(
                u, "hit", piece.get("trait"), rating=u["ratings"]["命中"], modifier=-2 * i,
                interfere=target["ratings"]["回避"], night=night, piece_dc=piece.get("dc"),
            )  # fmt: skip
            if ev["id"] is not None:
                hit_checks.append(ev["id"])
            special = special or ev["special"]
            if not ev["success"]:
                self.emit("attack", **fields, hit_checks=hit_checks, evade_check=None, void=True, hit=False,
                          special=special)  # fmt: skip
                return self.after_action()
        evade = self.check(
            target, "evasion", chain[0].get("trait"), rating=target["ratings"]["回避"],
            interfere=u["ratings"]["命中"], night=night,
        )  # fmt: skip
        hit = not evade["success"]
        fields.update(hit_checks=hit_checks, evade_check=evade["id"], void=False, hit=hit, special=special)
        if not hit:
            self.emit("attack", **fields)
            return self.after_action()
        support = self.damage_support(u)
        pieces = sum(p.get("firepower", 0) + (1 if night and p["range"] in ("短", "中") else 0) for p in chain)
        abyssal = 0
        if u["side"] == "enemy" and not any(p["position"] == u["position"] for p in self.pcs()):
            abyssal = 2
        firepower = u["ratings"]["火力"]
        bonus = 2 if special else 0
        total = max(0, firepower + pieces + bonus + support + abyssal)
        fields["pool"] = {"火力": firepower, "pieces": pieces, "special": bonus, "support": support,
                          "abyssal": abyssal, "total": total}  # fmt: skip
        self.emit("attack", **fields)
        self.damage(target, total)
        return self.after_action()

    # -- retreat and night check (K-RETREAT, K-NIGHT) --------------------------------------------------------
    def retreat_window(self) -> bool:
        self.phase, self.pass_ = "retreat", None
        for side, outcome in (("pc", "defeat"), ("enemy", "victory")):
            asking = [u for u in self.units if u["side"] == side and self.entry(u).get("retreat")]
            who = next((u for u in asking if not u["removed"] and unable_reason(u) is None), None)
            if who is None:
                continue
            ev = self.check(who, "retreat", "退却")
            self.emit("retreat", side=side, unit=who["id"], check=ev["id"], success=ev["success"])
            self.removal()
            if ev["success"]:
                self.end_battle(outcome, "retreat")
                return True
            if self.end_test():
                return True
        return False

    def night_check(self) -> bool:
        self.phase, self.pass_ = "night_check", None
        rep = next(
            (u for u in self.pcs() if not u["removed"] and unable_reason(u) is None
             and self.entry(u).get("night_volunteer")),
            None,
        )  # fmt: skip
        if rep is None:
            self.emit("night_check", unit=None, check=None, success=False)
            self.plan_end()
            return True
        ev = self.check(rep, "night", "夜戦")
        self.emit("night_check", unit=rep["id"], check=ev["id"], success=ev["success"])
        if self.after_action():
            return True
        if ev["success"]:
            self.b["night"] = True
            return False
        self.plan_end()
        return True
