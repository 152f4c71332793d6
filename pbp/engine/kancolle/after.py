"""The after-battle deadline (§9, §12.6): a wipe-out's losses, or the spoils and the salvage of sunk PCs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbp.engine.errors import BadInput, Problem
from pbp.engine.kancolle.core import RESOURCES, Unit, emotion_value, unable_reason

if TYPE_CHECKING:
    from pbp.engine.kancolle.battle import Battle


def resource_cap(state: dict[str, Any]) -> int:
    """K-END-5: each resource's stock is at most base level + 20."""
    return int(state["base"].get("level", 1)) + 20


def lose(run: Battle, unit: Unit) -> None:
    """K-LOST-1: sunk for good; the next sheet's experience (½ kept, ⅓ new, ones digit dropped)."""
    exp = int(unit.get("exp", 0))
    unit["lost"] = True
    penalties = {"exp_keep": exp // 2 // 10 * 10, "exp_new": exp // 3 // 10 * 10}
    run.emit("lost", unit=unit["id"], penalties=penalties)


def after_battle(run: Battle) -> None:
    run.new_ids(run.state["round"])
    run.phase, run.pass_ = "after", None
    outcome = run.b["outcome"]
    if outcome == "wipeout":  # K-OUT-3
        for u in run.pcs():
            if not u.get("lost"):
                lose(run, u)
    else:
        if outcome == "victory":
            spoils(run)
        for target in run.pcs():
            if target["steps"] >= 4 and not target.get("lost"):
                salvage(run, target)
    run.b["settled"] = True


def spoils(run: Battle) -> None:
    """K-SPOILS-1/2: SNT once per enemy sunk."""
    base = run.state["base"]["resources"]
    cap = resource_cap(run.state)
    enemies = [u for u in run.units if u["side"] == "enemy"]
    living = [u for u in run.pcs() if not u.get("lost")]
    for n in range(1, sum(1 for u in enemies if u["steps"] >= 4) + 1):
        die = run.d6()
        if die == 6:
            run.emit("spoils", roll=n, die=die, resource=None, amount_die=None, amount=None, before=None, after=None)
            for u in living:
                if (toward := emotion_target(run, u)) is not None:
                    run.raise_emotion(u, toward, 1)
            continue
        resource = RESOURCES[die - 1] if die <= 4 else chosen_resource(run, living)
        amount_die = run.d6()
        amount = amount_die + len(enemies)
        before = base.get(resource, 0)
        after = max(before, min(cap, before + amount))
        base[resource] = after
        run.emit("spoils", roll=n, die=die, resource=resource, amount_die=amount_die, amount=amount, before=before,
                 after=after)  # fmt: skip


def chosen_resource(run: Battle, living: list[Unit]) -> str:
    """Row 5: the first `spoils.resource` among the entries, else the lowest stock (ties in resource order)."""
    for u in living:
        wanted = (run.entry(u).get("spoils") or {}).get("resource")
        if wanted:
            return str(wanted)
    base = run.state["base"]["resources"]
    return min(RESOURCES, key=lambda r: base.get(r, 0))


def emotion_target(run: Battle, unit: Unit) -> Unit | None:
    """Row 6's choice: the entry's `spoils.emotion_to` (a unit, or another character by name, C-10), else the first
    other ship girl in encounter order (none for a fleet of one)."""
    wanted = (run.entry(unit).get("spoils") or {}).get("emotion_to")
    if wanted is None or wanted == unit["id"]:
        return next((u for u in run.pcs() if u is not unit), None)
    return run.by_id.get(wanted) or {"id": wanted, "name": wanted}


def salvage(run: Battle, target: Unit) -> None:
    """K-SALV-4: one action per sunk PC; nobody qualifies or a failed check: lost."""
    before = run.able_ids()
    salvager = next(
        (u for u in run.pcs() if u is not target and not u.get("lost")
         and target["id"] in (run.entry(u).get("salvage") or [])
         and emotion_value(u, target) >= 1 and unable_reason(u) is None),
        None,
    )  # fmt: skip
    if salvager is None:
        run.emit("salvage", target=target["id"], salvager=None, trait_roll=None, trait=None, check=None,
                 success=False)  # fmt: skip
        lose(run, target)
    else:
        c = run.d6()
        r = sum(run.dice.roll(2))
        trait = next((name for name, cell in run.grid.items() if cell == (c, r)), None)
        if trait is None:
            raise BadInput(Problem("grid", f"the salvage roll [{c}, {r}] lands on a cell the grid does not name"))
        ev = run.check(salvager, "salvage", trait, rating=emotion_value(salvager, target))
        run.emit("salvage", target=target["id"], salvager=salvager["id"], trait_roll=[c, r], trait=trait,
                 check=ev["id"], success=ev["success"])  # fmt: skip
        if not ev["success"]:
            lose(run, target)
    run.newly_unable(before)
