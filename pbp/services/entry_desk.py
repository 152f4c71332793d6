"""What the entry form shows one player for one round: the round and its deadline, the character's unit in the
round's starting encounter, the actions the rules allow it (`legal_actions`), the odds of each check, the entry
as saved and its latest saves (all of them when asked). A read: nothing here changes state; `entries.save_entry`
does.

Only the player's own entry and their own unit's private data are read; of the other units the form may show only
what is public (positions, names; enemies' gauges, statuses and effects stay the GM's). An enemy whose type the
game-data pages show (`public = true` in the pack) is a public foe: the odds against it are worked out from a fresh
unit of its type standing where it stands, never from the enemy as the GM's state has it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Any

from pbp.engine import find_ruleset
from pbp.engine.errors import BadInput
from pbp.engine.odds import opposed, p_at_least
from pbp.engine.pool.legal import CheckPools, LegalActions
from pbp.errors import N_, Forbidden, InvalidState
from pbp.models import Campaign, Character, Entry, EntryRevision, Participation, Round, Scenario, ScenarioSecret
from pbp.services._common import get_or_fail
from pbp.services.characters import unit_id
from pbp.services.clock import SYSTEM, Clock, to_db
from pbp.services.entries import closed_reason_of
from pbp.services.rounds import round_context, shaped_encounter
from pbp.services.scenarios import scenario_checks

#: How many saves the entry form lists unless asked for all: a player who saved 300 times gets 10 rows, not 300.
HISTORY_SHOWN = 10


@dataclass(frozen=True)
class Saved:
    """One save or withdrawal as the form lists it: when, which, its receipt and the text it saved (None: a
    withdrawal), so a player finds any version again."""

    action: str
    receipt: str
    saved_at: datetime
    prose: str | None = None
    prose_en: str | None = None


@dataclass(frozen=True)
class Odds:
    """The chance an attack or check succeeds: exact when every side's numbers are known to the player; else only
    the player's own distribution (`at_least[k]` = P(successes >= k))."""

    dice: int
    level: int
    bonus: int
    p_success: Fraction | None
    at_least: dict[int, Fraction]


@dataclass(kw_only=True)
class OrderDesk:
    """What an order form needs of one unit (the player's entry form, the GM's order for an enemy): the encounter
    the round is played from, what the unit may do, the scene's checks, and the odds."""

    unit: str
    encounter: dict[str, Any]
    legal: LegalActions
    checks: list[dict[str, Any]]
    accepting: bool
    #: The enemies of a public type, each as a fresh unit of its type where it stands (see the module's docstring).
    public_foes: dict[str, dict[str, Any]] = field(default_factory=dict)

    def own(self) -> dict[str, Any]:
        return self.units[self.unit]

    @cached_property
    def units(self) -> dict[str, dict[str, Any]]:
        return {u["id"]: u for u in self.encounter["units"]}

    def ally(self, unit: str) -> bool:
        """Whether `unit` is on this unit's side (the rules let one shoot it: the form says it is an ally)."""
        return bool(self.units[unit]["side"] == self.own()["side"])

    def foes_first(self, units: list[str]) -> list[str]:
        """`units` with the foes before the allies, each in its order: what a target list offers first."""
        return sorted(units, key=self.ally)

    @cached_property
    def _pools(self) -> CheckPools:
        return CheckPools(self.encounter)

    @cached_property
    def _public_pools(self) -> CheckPools:
        """The pools of the encounter as a player knows it: each public foe as a fresh unit of its type."""
        units = [self.public_foes.get(u["id"], u) for u in self.encounter["units"]]
        return CheckPools({**self.encounter, "units": units})

    def attack_odds(self, weapon_id: str, target: str, item: str | None = None) -> Odds:
        """An attack's odds (R-HIT-1/2): exact against a PC (whose sheet is public in the campaign) and against a
        public foe as its type's public numbers have it; the player's own successes only against any other enemy
        (its evasion is the GM's secret)."""
        weapon = next(w for w in _arsenal(self.own()) if w["id"] == weapon_id)
        dice, level, bonus = self._pools.pool(self.unit, weapon["skill"], item)
        p_hit = None
        pools = self._pools if self.units[target]["side"] == "pc" else None
        if pools is None and target in self.public_foes:
            pools = self._public_pools
        if pools is not None:
            e_dice, e_level, e_bonus = pools.pool(target, "回避", evasion=True)
            p_hit = _opposed(dice, level, e_dice, e_level, bonus, e_bonus)
        return Odds(dice, level, bonus, p_hit, _at_least(dice, level, bonus))

    def check_odds(self, check_id: str, item: str | None = None) -> Odds:
        """A scene check's exact odds (R-CHECK-2, R-GM-2)."""
        check = next(c for c in self.checks if c["id"] == check_id)
        dice, level, bonus = self._pools.pool(self.unit, check["skill"], item)
        return Odds(dice, level, bonus, p_at_least(dice, level, check["need"], bonus), _at_least(dice, level, bonus))


@dataclass(kw_only=True)
class EntryDesk(OrderDesk):
    round: Round
    scenario: Scenario
    campaign: Campaign
    character: Character
    entry: Entry | None
    history: list[Saved]  # the latest first: HISTORY_SHOWN of them, or all when asked
    saves: int  # how many there are in all
    closed_reason: str | None


@lru_cache(maxsize=4096)
def _opposed(dice: int, level: int, e_dice: int, e_level: int, bonus: int, e_bonus: int) -> Fraction:
    """P(hit) of one pool against another: a form lists every PC in reach, most with the same pools."""
    return opposed(dice, level, e_dice, e_level, bonus, e_bonus)[0]


def _arsenal(unit: dict[str, Any]) -> list[dict[str, Any]]:
    vehicle = unit.get("vehicle")
    return list(vehicle.get("weapons") or []) if vehicle else list(unit.get("weapons") or [])


@lru_cache(maxsize=1024)
def _at_least(dice: int, level: int, bonus: int) -> dict[int, Fraction]:
    return {k + bonus: p_at_least(dice, level, k + bonus, bonus) for k in range(1, dice + 1)}


def entry_desk(
    round_id: int, character_id: int, *, user_id: int, clock: Clock = SYSTEM, whole_history: bool = False
) -> EntryDesk:
    """The entry form's facts for `user_id`'s character in a round of a scenario it has joined; a UserError when
    the character is not theirs or not taking part (Forbidden: a page answers 403, never another player's data).
    The history is the latest HISTORY_SHOWN saves unless `whole_history`."""
    rnd = get_or_fail(Round, round_id, N_("round"))
    character = get_or_fail(Character, character_id, N_("character"))
    if character.owner_id != user_id:
        raise Forbidden(N_("character %(id)s is not yours", id=character_id))
    scenario = round_context(rnd)
    joined = Participation.get_or_none(
        Participation.scenario == rnd.scenario_id,
        Participation.character == character_id,
        Participation.status == "joined",
    )
    if joined is None:
        raise Forbidden(N_("%(name)s is not taking part in this scenario", name=character.name))
    campaign = Campaign.get_by_id(scenario.campaign_id)
    encounter = shaped_encounter(rnd, scenario).encounter  # the round's starting state after the GM's actions
    unit = unit_id(character_id)
    if not any(u["id"] == unit for u in encounter["units"]):
        raise InvalidState(N_("%(name)s is not on this round's map", name=character.name))
    checks = scenario_checks(scenario)
    ruleset = find_ruleset(campaign.ruleset)
    legal = ruleset.legal_actions(encounter, unit, checks)
    pool_weapons = isinstance(legal, LegalActions) and legal.weapons  # what the odds against foes are for
    entry = Entry.get_or_none(Entry.round == round_id, Entry.character == character_id)
    history, saves = _history(round_id, character_id, None if whole_history else HISTORY_SHOWN)
    now = to_db(clock.now())
    closed_reason = closed_reason_of(rnd, now) or (None if character.alive else "dead")
    return EntryDesk(
        round=rnd,
        scenario=scenario,
        campaign=campaign,
        character=character,
        unit=unit,
        encounter=encounter,
        legal=legal,
        checks=checks,
        public_foes=_public_foes(ruleset, campaign, scenario, encounter) if pool_weapons else {},
        entry=entry,
        history=history,
        saves=saves,
        accepting=closed_reason is None,
        closed_reason=closed_reason,
    )


def _public_foes(
    ruleset: Any, campaign: Campaign, scenario: Scenario, encounter: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """The enemies on the field whose type is public, each as a fresh unit of its type where it stands. A placed
    enemy's type is the scenario's setup's word (whatever name the GM gave it); any other enemy (a reinforcement)
    is of the type whose name it bears, as `leaks` reads it."""
    types = {str(t): e for t, e in (campaign.pack.get("enemies") or {}).items() if isinstance(e, dict)}
    by_name = {str(e.get("ja")): t for t, e in types.items()}
    setup = ScenarioSecret.select(ScenarioSecret.setup).where(ScenarioSecret.scenario == scenario.id).get().setup
    placed = {str(e.get("id")): str(e.get("type")) for e in (setup or {}).get("enemies") or [] if isinstance(e, dict)}
    fresh: dict[str, dict[str, Any] | None] = {}  # one unit built per type (a horde is mostly one or two types)
    foes: dict[str, dict[str, Any]] = {}
    for unit in encounter["units"]:
        if unit.get("side") == "pc" or unit.get("removed"):
            continue
        kind = placed.get(unit["id"]) if unit["id"] in placed else by_name.get(str(unit.get("name")))
        if kind is None or types.get(kind, {}).get("public") is not True:
            continue
        if kind not in fresh:
            try:
                fresh[kind] = ruleset.reinforcement(campaign.pack, kind, unit["id"], list(unit["position"]))
            except BadInput:  # the pack's type no longer builds: no odds rather than a guess
                fresh[kind] = None
        built = fresh[kind]
        if built is not None:  # the battle the odds are counted in copies the encounter: sharing is safe
            foes[unit["id"]] = {**built, "id": unit["id"], "position": list(unit["position"]), "side": unit["side"],
                                "engagement": unit.get("engagement")}  # fmt: skip
    return foes


def _history(round_id: int, character_id: int, limit: int | None) -> tuple[list[Saved], int]:
    """The entry's latest `limit` saves (None: all) and how many there are: only the columns the list shows (each
    version's text, not its order); counted apart only when the list is cut short."""
    columns = (EntryRevision.action, EntryRevision.receipt, EntryRevision.saved_at)
    revisions = EntryRevision.select(*columns, EntryRevision.prose, EntryRevision.prose_en).where(
        EntryRevision.round == round_id, EntryRevision.character == character_id
    )
    latest = [Saved(*row) for row in revisions.order_by(EntryRevision.id.desc()).limit(limit).tuples()]
    return latest, revisions.count() if limit is not None and len(latest) == limit else len(latest)
