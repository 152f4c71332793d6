"""The `kancolle` ruleset object (seed 000): validation first, then the run the encounter's `mode` names."""

from __future__ import annotations

from typing import Any

from pbp.engine.dice import DiceSource
from pbp.engine.errors import N_, BadInput, Problem
from pbp.engine.kancolle import legal, schema, sheets
from pbp.engine.kancolle.base import BaseRun
from pbp.engine.kancolle.battle import Battle
from pbp.engine.kancolle.events import EVENT_TYPES
from pbp.engine.ruleset import Resolution


def _with_pack_grid(encounter: dict[str, Any], pack: dict[str, Any] | None) -> dict[str, Any]:
    """C-7: the encounter's own `grid` adds to and overrides the pack's names."""
    grid = (pack or {}).get("grid")
    if not isinstance(grid, dict) or not isinstance(encounter, dict) or not isinstance(encounter.get("grid", {}), dict):
        return encounter
    return {**encounter, "grid": {**grid, **encounter.get("grid", {})}}


class KancolleRuleset:
    """Seed 000's 2d6 behaviour checks, base phase and fleet battle."""

    id = "kancolle"
    name = N_("KanColle RPG")
    modes: tuple[str, ...] = ("battle", "base", "checks", "end")
    override_field = "result"
    gm_action_kinds: tuple[str, ...] = ()  # not in contract v3 (the 提督 records them by hand)
    event_types = EVENT_TYPES

    def validate_pack(self, pack: dict[str, Any]) -> list[Problem]:
        return sheets.validate_pack(pack)

    def validate_character(self, pack: dict[str, Any], sheet: dict[str, Any]) -> list[Problem]:
        return sheets.validate_character(pack, sheet)

    def budget(self, pack: dict[str, Any], sheet: dict[str, Any]) -> dict[str, tuple[int, int]]:
        return sheets.budget(pack, sheet)

    def raise_cost(self, pack: dict[str, Any], sheet: dict[str, Any], skills: dict[str, int]) -> int:
        raise BadInput(Problem("skills", "kancolle has no skill levels to raise (traits change by discovery)"))

    def raise_cost_table(self, pack: dict[str, Any], sheet: dict[str, Any]) -> dict[str, dict[int, int]]:
        return {}

    def validate_encounter(self, encounter: dict[str, Any], pack: dict[str, Any] | None = None) -> list[Problem]:
        return schema.validate_encounter(_with_pack_grid(encounter, pack))

    def validate_orders(self, orders: dict[str, Any], encounter: dict[str, Any]) -> list[Problem]:
        return schema.validate_orders(orders, encounter)

    def build_encounter(
        self, pack: dict[str, Any], scenario_id: str, pcs: list[tuple[str, dict[str, Any]]]
    ) -> dict[str, Any]:
        return sheets.build_encounter(pack, scenario_id, pcs)

    def reinforcement(
        self, pack: dict[str, Any], enemy_type: str, unit_id: str, position: list[float]
    ) -> dict[str, Any]:
        return sheets.enemy_unit(pack, enemy_type, unit_id, int(position[0]) if position else 1)

    def default_orders(
        self, encounter: dict[str, Any], orders: dict[str, Any], sides: tuple[str, ...] = ("enemy",)
    ) -> dict[str, Any]:
        """Enemies without an entry follow K-ENEMY-1 inside the engine, so nothing is added for them; a PC without
        an entry gets the legal default (shell its first target) when asked for."""
        return legal.default_orders(encounter, orders, sides)

    def validate_overrides(self, overrides: list[dict[str, Any]]) -> list[Problem]:
        return schema.validate_overrides(overrides)

    def continued(self, state: dict[str, Any], number: int) -> dict[str, Any]:
        """The engine counts its own deadlines (`round` moves on in `resolve`): the state as it was left."""
        return dict(state)

    def orders_file(self, encounter: dict[str, Any], entries: list[dict[str, Any]]) -> dict[str, Any]:
        """A base cycle's entries are its `cycle` (C-12); every other deadline's are `orders`."""
        return {"cycle" if encounter.get("mode") == "base" else "orders": list(entries)}

    def legal_actions(self, encounter: dict[str, Any], unit: str, checks: list[dict[str, Any]] | None = None) -> Any:
        return legal.legal_actions(encounter, unit)

    def refusals(
        self, encounter: dict[str, Any], order: dict[str, Any], checks: list[dict[str, Any]] | None = None
    ) -> list[Problem]:
        return legal.refusals(encounter, order)

    def apply_gm_actions(
        self, encounter: dict[str, Any], actions: list[dict[str, Any]]
    ) -> dict[str, Any] | list[Problem]:
        if not actions:
            return dict(encounter)
        return [Problem(f"actions[{i}]", "GM actions between rounds are not in kancolle's contract v3")
                for i in range(len(actions))]  # fmt: skip

    def resolve(
        self,
        encounter: dict[str, Any],
        orders: dict[str, Any],
        dice: DiceSource,
        *,
        rounds: int = 1,
        overrides: list[dict[str, Any]] | None = None,
        pack: dict[str, Any] | None = None,
    ) -> Resolution:
        """C-4: validate (encounter, orders, overrides), then play the deadlines the encounter's mode names."""
        encounter = _with_pack_grid(encounter, pack)
        problems = [p.with_file("encounter") for p in schema.validate_encounter(encounter, orders)]
        if problems:
            raise BadInput(problems)
        problems = [p.with_file("orders") for p in schema.validate_orders(orders, encounter)]
        problems += [p.with_file("overrides") for p in schema.validate_overrides(overrides or [])]
        if rounds < 1:
            problems.append(Problem("rounds", f"must be at least 1, got {rounds}"))
        if problems:
            raise BadInput(problems)
        state = schema.with_defaults(encounter)
        args = (state, orders, dice, overrides or [])
        mode = state["mode"]
        if mode == "battle":
            battle = Battle(*args)
            battle.run(rounds)
            run: Battle | BaseRun = battle
        else:
            run = BaseRun(*args)
            if mode == "base":
                run.cycles(rounds)
            elif mode == "checks":
                run.free_checks(rounds)
            else:
                run.end_phase()
        unused = [o["check"] for o in overrides or [] if o["check"] not in run.used_overrides]  # file order
        return Resolution(state=state, events=run.events, unused_overrides=unused)

    def battle_over(self, state: dict[str, Any]) -> str | None:
        """A battle's outcome once its after-battle deadline has run (`battle.settled`, §9): a later deadline does
        nothing (C-4). A base phase, free checks or the end phase are never a battle that ended."""
        battle = state.get("battle") or {}
        if state.get("mode", "battle") != "battle" or not battle.get("settled"):
            return None
        return battle.get("outcome")

    def roll_adhoc(
        self,
        encounter: dict[str, Any],
        resolved: Resolution,
        checks: list[dict[str, Any]],
        dice: DiceSource,
        overrides: list[dict[str, Any]],
    ) -> Resolution:
        """Not in contract v3: the GM's ad-hoc checks and プレイングボーナス are pool's (a free check is an entry)."""
        raise BadInput([Problem("adhoc_checks", "the kancolle ruleset has no ad-hoc checks (pool only)")])


KANCOLLE = KancolleRuleset()
