"""The shapes of the `pool` ruleset's data: an encounter and its units, orders, overrides and the events `resolve`
emits (spec/engine-cli.md). The contract is JSON, so these are TypedDicts: plain dicts at run time (nothing is
converted, the output stays byte-identical), checked by mypy wherever the engine reads or builds them.

Validation (`schema`) is what turns untrusted JSON (`Any`) into these shapes: everything past it (the battle,
`legal`, `tactics`, the narrator in `pbp.reports`) may rely on them. Keys marked NotRequired may be absent in an
input; the battle fills the few it writes to (`statuses`, `weapons`, `items`, `skills`) before it starts.
"""

from typing import Literal, NotRequired, TypeAlias, TypedDict

#: A point [x, y] in metres (whole or decimal numbers; the battle's own moves end on whole metres).
Point: TypeAlias = list[float]
#: A rectangle [[x1, y1], [x2, y2]] (corners in any order).
Rect: TypeAlias = list[Point]


# ---- a unit and what it carries ---------------------------------------------------------------------------------
class Gauge(TypedDict):
    """R-GAUGE-1: five stages, each with its capacity and the damage it holds; stages fill in order."""

    capacity: list[int]
    taken: list[int]


class Weapon(TypedDict):
    id: str
    skill: str
    damage: int
    ammo: NotRequired[int | None]  # null (or absent, with ammo_max): no ammunition needed
    ammo_max: NotRequired[int | None]
    range: list[float]  # [min, max] metres; [0, 0] is melee (R-ENG-5)
    slot: NotRequired[str]  # arm (default), torso or spare (R-FIX-2)
    gauge: NotRequired[str | None]  # the gauge its damage goes to (R-FIX-5)
    inflicts: NotRequired[str | None]  # a bad status it inflicts on a hit
    targets: NotRequired[int]  # how many targets one attack may name (default 1; more: an area weapon, R-HIT-3)


class Item(TypedDict):
    id: str
    dice: NotRequired[int]
    successes: NotRequired[int]
    skills: NotRequired[list[str] | None]  # R-CHECK-7: the skills it helps (null: every skill)


class Status(TypedDict):
    """A bad status and the counters cleanup advances (R-BS-1, R-BS-3, R-BS-4, R-FIX-6, R-FIX-13)."""

    id: str
    rounds_left: NotRequired[int]
    elapsed: NotRequired[int]  # system_down: rounds elapsed
    fires_at_round: NotRequired[int]  # lock_on: the round whose cleanup fires the beam


class Effect(TypedDict):
    """An ability's or a gimmick's effect: dice, successes, status, cure or restore."""

    kind: str
    value: NotRequired[int]  # dice, successes, restore
    skills: NotRequired[list[str] | None]  # dice, successes: the skills it helps (null: every skill)
    rounds: NotRequired[int | None]  # dice, successes, status: how long it lasts
    id: NotRequired[str]  # status, cure: the status
    gauge: NotRequired[str]  # restore
    on: NotRequired[str | None]  # self, target or area


class Ability(TypedDict):
    id: str
    timing: str  # setup, minor or major
    uses: NotRequired[int | None]  # null: unlimited
    effects: NotRequired[list[Effect]]


class Modifier(TypedDict):
    """A dice or success modifier an effect left on a unit, for `rounds_left` more rounds."""

    kind: str  # dice or successes
    value: int
    skills: list[str] | None
    rounds_left: int
    source: str


class Vehicle(TypedDict):
    id: NotRequired[str]
    kind: NotRequired[str]  # savior, fighter, yamatsukami (a fighter's hand slot is its torso)
    move: int
    movement: NotRequired[str]  # ground (default) or air
    size: NotRequired[str]  # large or human (R-ROUGH-1)
    stat_mods: NotRequired[dict[str, int]]
    damage: Gauge
    weapons: NotRequired[list[Weapon]]


class Unit(TypedDict):
    id: str
    name: NotRequired[str]
    side: str  # pc or enemy
    stats: dict[str, int]
    skills: NotRequired[dict[str, int]]  # a skill absent is level 1
    skill_stats: NotRequired[dict[str, str]]  # skill -> parent stat; the pack supplies what is absent
    injury: Gauge
    weapons: NotRequired[list[Weapon]]  # personal weapons (used on foot, R-FIX-2)
    items: NotRequired[list[Item]]
    vehicle: NotRequired[Vehicle | None]  # null: on foot
    statuses: NotRequired[list[Status]]
    abilities: NotRequired[list[Ability] | None]
    modifiers: NotRequired[list[Modifier] | None]
    position: Point
    engagement: NotRequired[str | None]
    move: NotRequired[int | None]  # metres on foot (R-FIX-8)
    removed: NotRequired[bool]
    dead: NotRequired[bool]
    dismounted: NotRequired[bool]  # R-GAUGE-6 option: the pilot survived its vehicle's destruction


# ---- the encounter ------------------------------------------------------------------------------------------------
class Options(TypedDict, total=False):
    clamp_successes: bool
    destroyed_kills_pilot: bool


class Terrain(TypedDict):
    rect: Rect
    rough: NotRequired[float]  # R-ROUGH-1: a factor from 0.25 to 1


class Gimmick(TypedDict):
    id: str
    timing: str  # setup, cleanup or round_start
    area: NotRequired[Rect | None]  # null: everywhere
    effects: NotRequired[list[Effect]]


class Encounter(TypedDict):
    """ENCOUNTER.json, and the state `resolve` returns (the same shape, one round on)."""

    ruleset: NotRequired[str]
    round: NotRequired[int]
    options: NotRequired[Options]
    units: list[Unit]
    terrain: NotRequired[list[Terrain] | None]
    gimmicks: NotRequired[list[Gimmick] | None]


# ---- orders and overrides -----------------------------------------------------------------------------------------
#: One minor or major action; which keys it holds depends on its type (spec/engine-cli.md, ORDERS.json). `with` is
#: a Python keyword, hence the functional form.
Action = TypedDict(
    "Action",
    {
        "type": str,
        "toward": NotRequired[str | Point | None],  # move, full_move, leave: a unit id or a point
        "weapon": NotRequired[str],  # attack, reload, swap
        "with": NotRequired[str],  # swap
        "targets": NotRequired[list[str]],  # attack
        "item": NotRequired[str | None],  # attack, recover, check: the item used (R-CHECK-5)
        "status": NotRequired[str],  # recover
        "id": NotRequired[str],  # ability
        "target": NotRequired[str | None],  # ability
        "skill": NotRequired[str],  # check
        "need": NotRequired[int],  # check
        "label": NotRequired[str | None],  # check: the scenario's id of the check (R-GM-2)
    },
)


class Order(TypedDict):
    unit: str
    minor: NotRequired[Action | None]
    major: NotRequired[Action | None]
    damage_to: NotRequired[str | None]  # the gauge this unit takes damage in this round (R-DMG-2)
    evade_item: NotRequired[str | None]  # R-FIX-3
    setup: NotRequired[list[str] | None]  # setup abilities, before round 1 (R-SETUP-1, R-FIX-11)


class Orders(TypedDict):
    orders: NotRequired[list[Order]]


class Override(TypedDict):
    """R-GM-1: a check's successes replaced, with the published reason."""

    check: str
    successes: int
    reason: str


# ---- events (events.EVENT_TYPES describes each) ----------------------------------------------------------------
class OverrideNote(TypedDict):
    """An override as the event of its check records it."""

    check: str
    was: int
    now: int
    reason: str


class CheckDetail(TypedDict):
    """How a check's pool was made (R-CHECK-8): each modifier as [source, value], multipliers as [source, factor]."""

    stat: str
    base: int
    mods: list[list[str | int]]
    mult: list[list[str | float]]
    dice: int
    level: int
    bonus: list[list[str | int]]


class InitiativeEvent(TypedDict):
    type: Literal["initiative"]
    round: int
    order: list[str]


class GimmickEvent(TypedDict):
    type: Literal["gimmick"]
    round: int
    id: str
    timing: str
    effects: list[Effect]
    units: list[str]


class AbilityEvent(TypedDict):
    type: Literal["ability"]
    round: int
    unit: str
    id: str
    timing: str
    target: str | None
    effects: list[Effect]


MoveEvent = TypedDict(
    "MoveEvent",
    {
        "type": Literal["move"],
        "round": int,
        "unit": str,
        "action": str,
        "kind": str,
        "toward": str | None,
        "distance": int,
        "from": Point,
        "to": Point,
    },
)
EngageEvent = TypedDict(
    "EngageEvent",
    {"type": Literal["engage"], "round": int, "unit": str, "engagement": str, "with": list[str]},
)


class DisengageEvent(TypedDict):
    type: Literal["disengage"]
    round: int
    unit: str
    engagement: str


class ReloadEvent(TypedDict):
    type: Literal["reload"]
    round: int
    unit: str
    action: str
    weapon: str
    ammo: int | None


SwapEvent = TypedDict(
    "SwapEvent",
    {
        "type": Literal["swap"],
        "round": int,
        "unit": str,
        "weapon": str,
        "slot": str,
        "with": str,
        "with_slot": str,
    },
)


class AttackEvent(TypedDict):
    type: Literal["attack"]
    round: int
    attacker: str
    target: str
    targets: NotRequired[list[str]]  # a skipped attack names every target
    weapon: str
    skill: str
    skipped: NotRequired[str]  # heat: nothing was rolled
    attack_check: str | None
    attack_dice: list[int]
    attack_successes: int
    attack_detail: CheckDetail | None
    evade_check: str | None
    evade_dice: list[int]
    evade_successes: int
    evade_detail: CheckDetail | None
    hit: bool
    margin: int
    damage: int
    overrides: NotRequired[list[OverrideNote]]


class DamageEvent(TypedDict):
    type: Literal["damage"]
    round: int
    unit: str
    gauge: str
    amount: int
    checked: list[int]
    taken: list[int]
    source: str  # attack, heat or lock_on
    by: str | None
    redirected: bool


class StatusEvent(TypedDict):
    type: Literal["status"]
    round: int
    unit: str
    id: str
    change: str  # applied, ended or fired
    by: str | None
    renewed: NotRequired[bool]
    unequipped: NotRequired[list[str]]  # arm_damage: the weapons moved to spare


class CheckEvent(TypedDict):
    type: Literal["check"]
    round: int
    unit: str
    skill: str
    purpose: str  # scene, recover or adhoc (a GM's ad-hoc check, `pbp.engine.pool.adhoc`)
    check: str | None
    dice: list[int]
    successes: int
    need: int
    success: bool
    detail: CheckDetail | None
    status: NotRequired[str]  # recover: the status recovered from
    item: NotRequired[str]
    label: NotRequired[str]
    text: NotRequired[str]  # adhoc: the GM's words for the outcome rolled
    overrides: NotRequired[list[OverrideNote]]


class RestoreEvent(TypedDict):
    type: Literal["restore"]
    round: int
    unit: str
    gauge: str
    amount: int
    taken: list[int]


class RefusedEvent(TypedDict):
    type: Literal["refused"]
    round: int
    unit: str
    action: str  # setup, minor, major, item or evade_item
    order: str | None
    reason: str
    item: NotRequired[str]


class CleanupEvent(TypedDict):
    type: Literal["cleanup"]
    round: int


class DeathEvent(TypedDict):
    type: Literal["death"]
    round: int
    unit: str
    cause: str  # injury or destroyed


class RemovedEvent(TypedDict):
    type: Literal["removed"]
    round: int
    unit: str
    reason: str  # dead or destroyed


#: Every event `resolve` emits; `type` tells which (mypy narrows on `event["type"] == "attack"`).
Event: TypeAlias = (
    InitiativeEvent
    | GimmickEvent
    | AbilityEvent
    | MoveEvent
    | EngageEvent
    | DisengageEvent
    | ReloadEvent
    | SwapEvent
    | AttackEvent
    | DamageEvent
    | StatusEvent
    | CheckEvent
    | RestoreEvent
    | RefusedEvent
    | CleanupEvent
    | DeathEvent
    | RemovedEvent
)
