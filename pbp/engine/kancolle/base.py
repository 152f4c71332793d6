"""Outside the battle: the base phase's cycles (§6, §12.7), free checks (K-GM-2, §12.9) and the end phase (§10)."""

from __future__ import annotations

from typing import Any

from pbp.engine.kancolle.core import RESOURCES, Run, Unit, unable_reason


class BaseRun(Run):
    """Mode base, checks or end on the encounter."""

    # -- free checks -------------------------------------------------------------------------------------------
    def free_checks(self, plays: int) -> None:
        self.phase = "check"
        for _ in range(plays):
            self.new_ids(self.state["round"])
            for c in self.state.get("checks") or []:
                before = self.able_ids()
                self.check(
                    self.by_id[c["unit"]], c.get("kind") or "other", c.get("designated"), rating=c.get("rating") or 0,
                    modifier=c.get("modifier") or 0, interfere=c.get("interfere"), night=bool(c.get("night")),
                    piece_dc=c.get("dc"), substitute=c.get("substitute"),
                )  # fmt: skip
                self.newly_unable(before)
            self.state["round"] += 1

    # -- base cycles -------------------------------------------------------------------------------------------
    def cycles(self, n: int) -> None:
        self.phase = "scene"
        self.entries = {}
        for e in self.orders.get("cycle") or []:
            self.entries.setdefault(e["unit"], e)
        for _ in range(n):
            self.one_cycle()

    def one_cycle(self) -> None:
        number = self.state["round"]
        self.new_ids(number)
        scene_order = [u for u in self.pcs() if u["id"] in self.entries]
        self.emit("cycle_start", cycle=number, scene_order=[u["id"] for u in scene_order])
        for u in scene_order:
            self.supply(u, self.entries[u["id"]].get("supply") or {})
        for u in scene_order:
            self.scene(u, self.entries[u["id"]])
        self.emit("cycle_end", cycle=number)
        self.drop_modifiers("cycle")
        self.state["round"] = number + 1

    def supply(self, u: Unit, wanted: dict[str, int]) -> None:
        """K-BASE-8: ○ 1 for 1 AP, △ 2 for 1 AP, × refused; only what the gain costs is spent."""
        stock = self.state["base"]["resources"]
        for resource in RESOURCES:
            if resource not in wanted:
                continue
            amount = wanted[resource]
            mark = (u.get("affinity") or {}).get(resource)
            if mark not in ("○", "△"):
                self.emit("refused", unit=u["id"], action="supply", reason="no_affinity")
                continue
            if stock.get(resource, 0) < amount:
                self.emit("refused", unit=u["id"], action="supply", reason="no_resources")
                continue
            gain = min(amount if mark == "○" else amount // 2, u["ap_max"] - u["ap"])
            spent = gain if mark == "○" else 2 * gain
            stock[resource] -= spent
            self.set_ap(u, u["ap"] + gain, "supply")
            self.emit("supply", unit=u["id"], resource=resource, spent=spent)

    def scene(self, u: Unit, entry: dict[str, Any]) -> None:
        """K-BASE-4: the event roll, the event check and its effects (one action), then the sub actions."""
        scene = entry.get("scene") or {}
        card = entry["card"]
        faces = self.dice.roll(2)
        row = self.state["event_tables"][card["type"]][str(faces[0] + faces[1])]
        trait = card.get("trait") or row["trait"]
        appearing_ids = {u["id"], *(scene.get("appearing") or [])}
        appearing = [x for x in self.units if x["id"] in appearing_ids]
        partner = self.by_id.get(str(scene["partner"])) if scene.get("partner") else None
        self.emit(
            "scene", unit=u["id"], card={"type": card["type"], "keyword": card.get("keyword")}, event_roll=faces,
            row=faces[0] + faces[1], event=row["name"], trait=trait, appearing=[x["id"] for x in appearing],
            partner=partner["id"] if partner else None,
        )  # fmt: skip
        before = self.able_ids()
        ev = self.check(u, "event", trait, substitute=scene.get("substitute"))
        for effect in row.get("success" if ev["success"] else "failure") or []:
            self.effect(u, effect, partner, appearing)
        self.newly_unable(before)
        for sub in scene.get("sub") or []:
            before = self.able_ids()
            if sub["type"] == "discovery":
                self.discovery(u, sub["trait"])
            else:
                self.dock(u, sub["steps"])
            self.newly_unable(before)

    def effect(self, u: Unit, effect: dict[str, Any], partner: Unit | None, appearing: list[Unit]) -> None:
        """C-15's effect vocabulary."""
        kind = effect["kind"]
        names = [effect.get("on", "self")] if kind == "ap" else [effect.get("from", "self"), effect.get("to", "self")]
        if kind != "resource" and "partner" in names and partner is None:
            self.emit("refused", unit=u["id"], action="event", reason="no_partner")
            return
        chosen: dict[str, list[Unit]] = {"self": [u], "partner": [partner] if partner else [], "appearing": appearing}
        if kind == "ap":
            for x in chosen[effect.get("on", "self")]:
                value = self.d6() if effect["value"] == "1d6" else effect["value"]
                self.set_ap(x, x["ap"] + value, "event")
        elif kind == "emotion":
            to = chosen[effect.get("to", "self")][0]
            for holder in chosen[effect.get("from", "self")]:
                if holder is not to:
                    self.raise_emotion(holder, to, effect["value"])
        else:
            stock = self.state["base"]["resources"]
            resource = effect["resource"]
            value = self.d6() if effect["value"] == "1d6" else effect["value"]
            before = stock.get(resource, 0)
            cap = int(self.state["base"].get("level", 1)) + 20
            after = max(before, min(cap, before + value)) if value >= 0 else max(0, before + value)
            stock[resource] = after
            self.emit("resource", resource=resource, before=before, after=after, reason="event")

    def discovery(self, u: Unit, trait: str) -> None:
        """K-BASE-5: refused in the order of its tests; else the 1d6 paid: odd a merit, even a weakness."""
        reason = None
        if unable_reason(u) is not None:
            reason = "unable_to_act"
        elif u.get("discovered"):
            reason = "discovery_taken"
        elif any(t["name"] == trait for t in u["traits"]):
            reason = "trait_held"
        elif len(u["traits"]) >= self.options.get("max_traits", 6):
            reason = "too_many_traits"
        if reason:
            self.emit("refused", unit=u["id"], action="discovery", reason=reason)
            return
        die = self.d6()
        u["discovered"] = True
        if die > u["ap"]:
            self.set_ap(u, 0, "discovery")
            self.emit("discovery", unit=u["id"], trait=trait, die=die, kind=None, failed=True)
            return
        self.set_ap(u, u["ap"] - die, "discovery")
        kind = "merit" if die % 2 else "weakness"
        u["traits"].append({"name": trait, "kind": kind})
        self.emit("discovery", unit=u["id"], trait=trait, die=die, kind=kind, failed=False)

    def dock(self, u: Unit, wanted: int) -> None:
        """K-BASE-10: each step costs level + repair of 燃料 and of 鋼材."""
        if u["steps"] == 0:
            return
        stock = self.state["base"]["resources"]
        cost = int(u.get("level", 1)) + int(u["repair"])
        k = min(wanted, u["steps"], stock.get("燃料", 0) // cost, stock.get("鋼材", 0) // cost)
        if k == 0:
            self.emit("refused", unit=u["id"], action="dock", reason="no_resources")
            return
        before = u["steps"]
        u["steps"] -= k
        stock["燃料"] -= k * cost
        stock["鋼材"] -= k * cost
        self.emit("dock", unit=u["id"], steps_before=before, steps_after=u["steps"],
                  cost={"燃料": k * cost, "鋼材": k * cost})  # fmt: skip

    # -- the end phase -----------------------------------------------------------------------------------------
    def end_phase(self) -> None:
        self.new_ids(self.state["round"])
        self.phase = "end_phase"
        living = [u for u in self.pcs() if not u.get("lost")]
        ends = {u["id"]: self.entry(u).get("end") or {} for u in living}
        for u in living:
            u.update(items=[], steps=0, ap=u["ap_max"], modifiers=[], removed=False)
        drops = []
        for u in living:
            for trait in ends[u["id"]].get("drop") or []:
                if len(u["traits"]) - 1 < u.get("initial_traits", 0):
                    self.emit("refused", unit=u["id"], action="drop", reason="too_few_traits")
                    continue
                u["traits"] = [t for t in u["traits"] if t["name"] != trait]
                drops.append({"unit": u["id"], "trait": trait})
        trims = []
        for u in living:
            trims += self.trim(u, ends[u["id"]].get("trim") or [])
        scraps = []
        store = self.state["base"]["store"]
        for u in living:
            for pid in ends[u["id"]].get("scrap") or []:
                faces: list[int] = []
                while True:
                    a, b = self.dice.roll(2)
                    faces += [a, b]
                    v = (a - 1) * 6 + b
                    if v <= 32:
                        break
                self.state["base"]["store"] = store = [p for p in store if p["id"] != pid]
                scraps.append({"unit": u["id"], "piece": pid, "dice": faces, "d8": (v - 1) % 8 + 1})
        self.emit("end_phase", resets=[u["id"] for u in living], drops=drops, trims=trims, scraps=scraps)

    def trim(self, u: Unit, first: list[str]) -> list[dict[str, Any]]:
        """K-EMO-4: totals at most level + 5; the named keys first, then the smallest non-zero values."""
        emotions = u.get("emotions") or {}
        excess = sum(e["value"] for e in emotions.values()) - (int(u.get("level", 1)) + 5)
        out: list[dict[str, Any]] = []
        keys = list(emotions)
        rest = sorted((k for k in keys if k not in first), key=lambda k: (emotions[k]["value"], keys.index(k)))
        for key in [k for k in first if k in emotions] + rest:
            if excess <= 0:
                break
            e = emotions[key]
            if e["value"] == 0:
                continue
            take = min(excess, e["value"])
            out.append({"unit": u["id"], "toward": key, "before": e["value"], "after": e["value"] - take})
            e["value"] -= take
            excess -= take
        return out
