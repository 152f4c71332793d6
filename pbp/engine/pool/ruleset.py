"""The `pool` ruleset object: validation first, then resolution (the protocol of pbp.engine.ruleset).

The protocol speaks plain JSON (`dict[str, Any]`), since every ruleset has shapes of its own; this is where the
pool's typed shapes (`types`) meet it. What comes in is checked by `schema` before anything trusts it as an
`Encounter` or `Orders`; what goes out is the same dicts, seen by the caller as JSON.
"""

from __future__ import annotations

import marshal
from typing import Any, cast

from pbp.engine.dice import DiceSource
from pbp.engine.errors import N_, BadInput, Problem
from pbp.engine.overrides import check_order, validate_overrides
from pbp.engine.pool import gm_actions, legal, schema, tactics
from pbp.engine.pool.battle import Battle
from pbp.engine.pool.events import EVENT_TYPES
from pbp.engine.pool.types import Encounter, Order, Orders, Override
from pbp.engine.ruleset import Resolution


def _pack_skill_stats(pack: dict[str, Any] | None) -> dict[str, str] | None:
    if pack is None:
        return None
    from pbp.engine.pool.pack_data import skill_stats

    return skill_stats(pack)


class PoolRuleset:
    """Seed 004's success-count rules."""

    id = "pool"
    name = N_("Success-count rules")
    modes: tuple[str, ...] = ("battle",)
    override_field = "successes"
    gm_action_kinds = gm_actions.KINDS
    event_types = EVENT_TYPES

    def validate_pack(self, pack: dict[str, Any]) -> list[Problem]:
        from pbp.engine.pool.pack_checks import validate_pack

        return validate_pack(pack)

    def validate_character(self, pack: dict[str, Any], sheet: dict[str, Any]) -> list[Problem]:
        from pbp.engine.pool.pack_checks import validate_character

        return validate_character(pack, sheet)

    def budget(self, pack: dict[str, Any], sheet: dict[str, Any]) -> dict[str, tuple[int, int]]:
        from pbp.engine.pool.budgets import budget

        return budget(pack, sheet)

    def raise_cost(self, pack: dict[str, Any], sheet: dict[str, Any], skills: dict[str, int]) -> int:
        from pbp.engine.pool.budgets import raise_cost

        return raise_cost(pack, sheet, skills)

    def raise_cost_table(self, pack: dict[str, Any], sheet: dict[str, Any]) -> dict[str, dict[int, int]]:
        from pbp.engine.pool.budgets import raise_cost_table

        return raise_cost_table(pack, sheet)

    def validate_encounter(self, encounter: dict[str, Any], pack: dict[str, Any] | None = None) -> list[Problem]:
        return schema.validate_encounter(encounter, _pack_skill_stats(pack))

    def validate_orders(
        self, orders: dict[str, Any], encounter: dict[str, Any], pack: dict[str, Any] | None = None
    ) -> list[Problem]:
        return schema.validate_orders(orders, _trusted(encounter), _pack_skill_stats(pack))

    def build_encounter(
        self, pack: dict[str, Any], scenario_id: str, pcs: list[tuple[str, dict[str, Any]]]
    ) -> dict[str, Any]:
        from pbp.engine.pool.encounters import build_encounter

        return cast(dict[str, Any], build_encounter(pack, scenario_id, pcs))

    def reinforcement(
        self, pack: dict[str, Any], enemy_type: str, unit_id: str, position: list[float]
    ) -> dict[str, Any]:
        from pbp.engine.pool.encounters import unit_from_enemy

        return cast(dict[str, Any], unit_from_enemy(pack, enemy_type, unit_id, position))

    def default_orders(
        self, encounter: dict[str, Any], orders: dict[str, Any], sides: tuple[str, ...] = ("enemy",)
    ) -> dict[str, Any]:
        """`encounter` and `orders` are valid (the caller validated them)."""
        return cast(dict[str, Any], tactics.default_orders(_trusted(encounter), cast(Orders, orders), sides))

    def validate_overrides(self, overrides: list[dict[str, Any]]) -> list[Problem]:
        return validate_overrides(overrides)

    def continued(self, state: dict[str, Any], number: int) -> dict[str, Any]:
        return {**state, "round": number}

    def orders_file(self, encounter: dict[str, Any], entries: list[dict[str, Any]]) -> dict[str, Any]:
        return {"orders": list(entries)}

    def legal_actions(
        self, encounter: dict[str, Any], unit: str, checks: list[dict[str, Any]] | None = None
    ) -> legal.LegalActions:
        """`encounter` is valid (the caller validated it)."""
        return legal.legal_actions(_trusted(encounter), unit, checks)

    def refusals(
        self, encounter: dict[str, Any], order: dict[str, Any], checks: list[dict[str, Any]] | None = None
    ) -> list[Problem]:
        """`encounter` and `order` are valid (the caller validated them)."""
        return legal.refusals(_trusted(encounter), cast(Order, order), checks)

    def apply_gm_actions(
        self, encounter: dict[str, Any], actions: list[dict[str, Any]]
    ) -> dict[str, Any] | list[Problem]:
        from pbp.engine.pool.gm_actions import apply_gm_actions

        return cast("dict[str, Any] | list[Problem]", apply_gm_actions(encounter, actions))

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
        skill_stats = _pack_skill_stats(pack)
        # Problems name the input they are in ("encounter", "orders", "overrides"); a caller that read those from
        # files maps the names to its paths (the CLI does).
        problems = [p.with_file("encounter") for p in schema.validate_encounter(encounter, skill_stats)]
        if problems:
            raise BadInput(problems)
        problems = [p.with_file("orders") for p in schema.validate_orders(orders, _trusted(encounter), skill_stats)]
        problems += [p.with_file("overrides") for p in validate_overrides(overrides or [])]
        if rounds < 1:
            problems.append(Problem("rounds", f"must be at least 1, got {rounds}"))
        if problems:
            raise BadInput(problems)
        # A private copy: resolve never mutates its arguments. The input is JSON-shaped (validated above), so
        # marshal's round trip is an exact deep copy, about 5x faster than json's.
        state: Encounter = marshal.loads(marshal.dumps(encounter))
        battle = Battle(state, cast(Orders, orders), dice, cast(list[Override], overrides or []), skill_stats)
        battle.run(rounds)
        unused = sorted(set(battle.overrides) - battle.used_overrides, key=check_order)  # the order they would roll in
        return Resolution(
            state=cast(dict[str, Any], state), events=cast(list[dict[str, Any]], battle.events), unused_overrides=unused
        )

    def battle_over(self, state: dict[str, Any]) -> str | None:
        """Never: with every enemy or every PC removed, the GM may still add units or revive on the next round."""
        return None

    def roll_adhoc(
        self,
        encounter: dict[str, Any],
        resolved: Resolution,
        checks: list[dict[str, Any]],
        dice: DiceSource,
        overrides: list[dict[str, Any]],
    ) -> Resolution:
        from pbp.engine.pool.adhoc import roll_adhoc

        return roll_adhoc(encounter, resolved, checks, dice, overrides)


def _trusted(encounter: dict[str, Any]) -> Encounter:
    """An encounter the caller has validated, seen as the pool's shape."""
    return cast(Encounter, encounter)


POOL = PoolRuleset()
