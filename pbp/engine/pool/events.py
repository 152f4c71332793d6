"""The event vocabulary of the `pool` ruleset: every event `resolve` emits, with its fields.

Every event also carries `type` and `round`. Narration (templates/narrative/pool/...) must cover each type; a
test walks this table. Fields marked optional may be absent.
"""

from __future__ import annotations

EVENT_TYPES: dict[str, str] = {
    "initiative": "start of a round: `order` lists the acting unit ids in initiative order (R-ROUND-1/2, R-FIX-1)",
    "gimmick": "a scenario gimmick fired: `id`, `timing`, `effects`, `units` (ids affected)",
    "ability": "a unit used an ability (スキル): `unit`, `id`, `timing`, `target` (id or null), `effects`",
    "move": "a unit moved: `unit`, `action` (minor|major), `kind` (move|full_move|leave), `from`, `to` ([x, y]), "
    "`distance` (metres actually moved), `toward` (unit id or null)",
    "engage": "a unit entered an engagement: `unit`, `engagement` (e1, e2, ...), `with` (unit ids already there)",
    "disengage": "a unit left an engagement: `unit`, `engagement`",
    "reload": "a weapon's ammo back to its maximum: `unit`, `action`, `weapon`, `ammo`",
    "swap": "weapon swap: `unit`, `weapon` (now in `slot`), `with` (now in `with_slot`)",
    "attack": "one attack against one target: `attacker`, `target`, `weapon`, `skill`, `attack_check` (id), "
    "`attack_dice`, `attack_successes`, `attack_detail`, `evade_check` (id or null), `evade_dice`, "
    "`evade_successes`, `evade_detail`, `hit`, `margin`, `damage` (before R-DMG-3); optional `skipped` "
    "('heat': nothing rolled, so check ids and details null, dice [], successes 0, hit false, margin and damage 0; "
    "it also names every target in `targets`), optional `overrides` [{check, was, now, reason}]",
    "damage": "damage dealt to a gauge: `unit`, `gauge` (injury|damage), `amount` (after R-DMG-3's +6, before "
    "capacity), `checked` (stage indexes newly checked), `taken` (the gauge after), `source` "
    "(attack|heat|lock_on), `by` (attacker id or null), `redirected` (true when R-DMG-3's +6 applied)",
    "status": "a bad status changed: `unit`, `id`, `change` (applied|ended|fired: a lock-on beam at cleanup, heat "
    "when its unit attacks), `by` (unit id or null); "
    "optional `renewed` (true on `applied` when the unit already had it: stun restarts its 3 rounds, R-FIX-6); "
    "arm_damage carries `unequipped` (weapon ids moved to spare)",
    "check": "a rolled check outside an attack: `unit`, `skill`, `purpose` (scene|recover|adhoc: a GM's ad-hoc "
    "check rolled after the round, with `label` its reason and `text` the GM's words for the outcome), `check` (id "
    "or null when nothing was rolled), `dice`, `successes`, `need`, `success`, `detail`, optional `item` (the item "
    "that applied), optional `overrides`",
    "restore": "damage removed from a gauge by an effect: `unit`, `gauge`, `amount`, `taken` (the gauge after)",
    "refused": "an order not carried out: `unit`, `action` (setup|minor|major|item|evade_item), `order` (its type; "
    "`item` and `evade_item` for an item refused on its own, R-FIX-14, which also carries `item`: its id), "
    "`reason` (out_of_range|no_ammo|arm_damage|leg_damage|system_down|item_while_riding|dead|removed|engaged|"
    "not_ready|not_engaged|no_uses|wrong_timing|not_recoverable|not_reloadable|item_not_applicable|"
    "target_gone|cannot_move|one_setup_action)",
    "cleanup": "the cleanup process of a round begins (R-CLEAN-1)",
    "death": "a character died: `unit`, `cause` (injury|destroyed)",
    "removed": "a unit left the battle: `unit`, `reason` (dead|destroyed)",
}
