"""The event vocabulary of the `kancolle` ruleset (C-17): every event `resolve` emits.

Every event also carries `type`, `round`, `phase`, and `pass` in the shelling and night phases.
"""

from __future__ import annotations

EVENT_TYPES: dict[str, str] = {
    "battle_start": "the battle begins: `battlefield`, `battlefield_roll` (die or null when fixed), `fixed`, `plan`",
    "recon": "a recon: `unit`, `target`, `check`, `recon` (value or '-'), `anti_air` [{unit, value}], "
    "`aa_reduction`, `void`, `revealed`",
    "positions": "positions shown: `positions` {unit: position}, `final` (false at F1's end, true at the reveal)",
    "round_start": "a battle round begins",
    "round_end": "a battle round ends",
    "phase": "a phase or a pass begins: `order` (the units that will act, in acting order)",
    "target_roll": "an enemy picks its target on MHT: `unit`, `die`, `row`, `rand` (K-RAND-1 dice), `target`",
    "check": "a behaviour check: `id`, `unit`, `kind`, `designated`, `used` {trait, weakness}, `distance`, `dc`, "
    "`tries` [...], `success`, `special`, `fumble`, `auto_fail`; `overrides` when the GM overrode it",
    "accident": "the accident table: `unit`, `die`, `entry`, `check`, `effects`",
    "ap": "AP changed: `unit`, `before`, `after`, `reason`",
    "support": "support given: `from`, `to`, `kind` (check|damage), `value`; `check` for check support",
    "anti_air": "an anti-air roll: `unit`, `for`, `role` (defend|reduce), `dice`, `value`",
    "attack": "a shelling or night attack: `attacker`, `target`, `chain`, `hit_checks`, `evade_check`, `void`, "
    "`hit`, `special`; `pool` when it hit",
    "torpedo": "a torpedo attack: `attacker`, `target`, `piece`, `check`, `hit`, `special`; `pool` when it hit",
    "air_attack": "an air attack: as `torpedo`, and `anti_air`, `aa_reduction` when it hit",
    "damage": "a damage roll: `unit`, `dice`, `total`, `reduction`, `net`, `armour`, `steps`, `before`, `after`, "
    "`state`",
    "unable_to_act": "a unit can no longer act: `unit`, `reason` (ap0|sunk)",
    "removed": "a unit leaves the battle: `unit`",
    "retreat": "a retreat check: `side`, `unit`, `check`, `success`",
    "night_check": "the night check: `unit` (or null), `check`, `success`",
    "battle_end": "the battle ends: `outcome` (the PCs'), `cause`, `sunk`",
    "refused": "an order that could not be carried out: `unit`, `action`, `reason`",
    "cycle_start": "a base-phase cycle begins: `cycle`, `scene_order`",
    "cycle_end": "a base-phase cycle ends: `cycle`",
    "scene": "a scene: `unit`, `card`, `event_roll`, `row`, `event`, `trait`, `appearing`, `partner`",
    "emotion": "an emotion value changed: `from`, `to`, `before`, `after`, `attribute`, `box_cleared`",
    "resource": "a base resource effect: `resource`, `before`, `after`, `reason`",
    "supply": "supply: `unit`, `resource`, `spent`",
    "discovery": "a discovery: `unit`, `trait`, `die`, `kind` (or null), `failed`",
    "dock": "docking: `unit`, `steps_before`, `steps_after`, `cost`",
    "spoils": "a spoils roll: `roll`, `die`, `resource`, `amount_die`, `amount`, `before`, `after`",
    "salvage": "a salvage: `target`, `salvager`, `trait_roll`, `trait`, `check`, `success`",
    "lost": "a ship girl is lost for good: `unit`, `penalties` {exp_keep, exp_new}",
    "end_phase": "the end phase: `resets`, `drops`, `trims`, `scraps`",
}
