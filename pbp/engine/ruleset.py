"""The ruleset protocol: the only thing the rest of pbp calls. Rulesets are found by id.

A second ruleset (seeds 000-003) plugs in by implementing this protocol and registering itself in
`_REGISTRY`; nothing outside its own package changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from pbp.engine.dice import DiceSource
from pbp.engine.errors import N_, BadInput, Problem


@dataclass
class Resolution:
    """What resolving rounds produces: the new encounter state and the ordered events (the facts)."""

    state: dict[str, Any]
    events: list[dict[str, Any]]
    unused_overrides: list[str] = field(default_factory=list)


class Ruleset(Protocol):
    """What every ruleset offers the core."""

    id: str
    #: The ruleset's name as a reader knows it (English, marked for the web's catalogs: 艦これRPG on a Japanese page),
    #: shown wherever a page names the ruleset; `id` stays in addresses and files.
    name: str
    #: The deadlines an encounter's `mode` may name: `pool` has battle rounds only; `kancolle` also base-phase
    #: cycles, free checks and the end phase (a deadline that is not a battle round).
    modes: tuple[str, ...]
    #: Every event type `resolve` may emit, with a one-line description (narration must cover each).
    event_types: dict[str, str]
    #: What a GM override sets on a check: `successes` (a whole number: pool, R-GM-1) or `result` (`success` or
    #: `failure`: kancolle, K-GM-1). An override is `{"check", <this field>, "reason"}`.
    override_field: str
    #: The kinds of GM action `apply_gm_actions` takes between rounds (empty: it refuses every one, and the GM's
    #: console says so instead of offering a form).
    gm_action_kinds: tuple[str, ...]

    def validate_overrides(self, overrides: list[dict[str, Any]]) -> list[Problem]:
        """Every problem of a list of GM overrides, each under its path (`overrides[i]...`)."""
        ...

    def validate_pack(self, pack: dict[str, Any]) -> list[Problem]:
        """Every problem in a parsed campaign pack (paths are key paths inside the pack)."""
        ...

    def validate_character(self, pack: dict[str, Any], sheet: dict[str, Any]) -> list[Problem]:
        """Every problem in a character sheet under the pack's rules (levels, budgets, gear limits)."""
        ...

    def budget(self, pack: dict[str, Any], sheet: dict[str, Any]) -> dict[str, tuple[int, int]]:
        """What a sheet spends against each of the pack's limits, as (spent, limit); `skills` is growth points."""
        ...

    def raise_cost(self, pack: dict[str, Any], sheet: dict[str, Any], skills: dict[str, int]) -> int:
        """Growth points to raise the sheet's skills to the given levels; BadInput when that is not allowed."""
        ...

    def raise_cost_table(self, pack: dict[str, Any], sheet: dict[str, Any]) -> dict[str, dict[int, int]]:
        """`raise_cost` of each skill alone to each level it may reach, skill -> level -> cost, in one call."""
        ...

    def validate_encounter(self, encounter: dict[str, Any], pack: dict[str, Any] | None = None) -> list[Problem]:
        """Every problem in an encounter; `pack` supplies defaults (skill -> parent stat) the encounter omits."""
        ...

    def validate_orders(self, orders: dict[str, Any], encounter: dict[str, Any]) -> list[Problem]:
        """Every problem in a set of orders against an encounter (unknown unit or weapon, bad type)."""
        ...

    def build_encounter(
        self, pack: dict[str, Any], scenario_id: str, pcs: list[tuple[str, dict[str, Any]]]
    ) -> dict[str, Any]:
        """The encounter of a scenario's first round, with the PCs `pcs` ([(unit id, character sheet)])."""
        ...

    def reinforcement(
        self, pack: dict[str, Any], enemy_type: str, unit_id: str, position: list[float]
    ) -> dict[str, Any]:
        """A unit of the pack's enemy type `enemy_type` (a GM's reinforcement); BadInput for an unknown type."""
        ...

    def default_orders(
        self, encounter: dict[str, Any], orders: dict[str, Any], sides: tuple[str, ...] = ("enemy",)
    ) -> dict[str, Any]:
        """`orders` completed for the units of `sides` nobody gave orders to (by default the GM's enemies)."""
        ...

    def continued(self, state: dict[str, Any], number: int) -> dict[str, Any]:
        """The encounter the scenario's deadline `number` starts from, given the final state the previous one left:
        pool numbers its rounds by the deadlines; a ruleset whose state counts its own (kancolle: a recon fleet's
        first formation is a deadline of its own, K-FORM-3 (3)) keeps its count."""
        ...

    def orders_file(self, encounter: dict[str, Any], entries: list[dict[str, Any]]) -> dict[str, Any]:
        """ORDERS.json of these entries (each with its `unit`) for the encounter's next deadline: a battle round's
        entries are `orders`; a ruleset whose deadlines are not all battle rounds files the others its own way."""
        ...

    def legal_actions(self, encounter: dict[str, Any], unit: str, checks: list[dict[str, Any]] | None = None) -> Any:
        """What `unit` may order this round (the entry form offers exactly this); `checks` are the scenario's."""
        ...

    def refusals(
        self, encounter: dict[str, Any], order: dict[str, Any], checks: list[dict[str, Any]] | None = None
    ) -> list[Problem]:
        """Every reason a well-formed order can never succeed this round (the server refuses it on save)."""
        ...

    def apply_gm_actions(
        self, encounter: dict[str, Any], actions: list[dict[str, Any]]
    ) -> dict[str, Any] | list[Problem]:
        """The encounter after the GM's actions between rounds (a new object), or the list of every Problem found
        (paths `encounter...`, `actions[i]...`); never raises on any JSON input. Pure: the same input gives the
        same output, so `verify` can re-apply a published round's actions."""
        ...

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
        """Play `rounds` rounds. Raises BadInput for malformed input; never mutates its arguments."""
        ...

    def battle_over(self, state: dict[str, Any]) -> str | None:
        """How the battle ended (kancolle: victory, defeat, wipeout, draw) once `state`, a deadline's final state,
        leaves a further deadline nothing to play: no new deadline is then created or opened for its scenario (one
        would resolve with no events). None while one still has something to play, and always for pool, whose GM
        may bring its battle back: reinforcements and revivals are GM actions on the next round, and a scene's
        checks need no enemy."""
        ...

    def roll_adhoc(
        self,
        encounter: dict[str, Any],
        resolved: Resolution,
        checks: list[dict[str, Any]],
        dice: DiceSource,
        overrides: list[dict[str, Any]],
    ) -> Resolution:
        """`resolved` (one round played from `encounter` with `dice`) with the GM's ad-hoc checks rolled after it
        from the same `dice` (pool: `pbp.engine.pool.adhoc`); BadInput where the ruleset has none (the GM's console
        offers them only where `"bonus" in gm_action_kinds`, the judging of the プレイング)."""
        ...


def _registry() -> dict[str, Ruleset]:
    from pbp.engine.kancolle import KANCOLLE
    from pbp.engine.pool import POOL

    return {POOL.id: POOL, KANCOLLE.id: KANCOLLE}


def ruleset_ids() -> list[str]:
    return sorted(_registry())


def find_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset registered under `ruleset_id`; KeyError names the known ones."""
    reg = _registry()
    try:
        return reg[ruleset_id]
    except KeyError:
        raise KeyError(f"unknown ruleset {ruleset_id!r} (known: {', '.join(sorted(reg))})") from None


def ruleset_named(value: Any, field: str = "ruleset", file: str | None = None) -> Ruleset:
    """The registered ruleset `value` names; BadInput naming `field` (in `file`) and the known rulesets when it names
    none or is not a string. Used wherever a ruleset comes from outside: a bundle, an encounter, `--ruleset`."""
    if isinstance(value, str) and value in ruleset_ids():
        return find_ruleset(value)
    unknown = Problem.said(
        field, N_("unknown ruleset %(value)r (known: %(known)s)"), value=value, known=", ".join(ruleset_ids())
    )
    raise BadInput(unknown.with_file(file) if file else unknown)
