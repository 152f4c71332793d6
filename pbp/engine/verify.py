"""Round bundles: everything needed to re-run a published round, and the re-run that checks it.

Pure (no database, no clock): `pbp verify --bundle`, `pbp export-round` and the blog's bundle download all use it.
A bundle is plain JSON:
`{"format", "round", "ruleset", "seed", "seed_hash", "encounter", "orders", "overrides", "events", "state"}`, and
when the GM shaped the round between rounds also `"start"` (the state before the GM's actions) and `"gm_actions"`
(the actions, in order, each with its reason; a プレイングボーナス is one, of kind `bonus`): `encounter` is then
`start` after them; when the GM added ad-hoc checks, `"adhoc_checks"` (in order: rolled after the round from the
same stream, `pbp.engine.pool.adhoc`).
Verifying checks that the seed matches the hash published before the deadline, that the GM's actions applied to
`start` give exactly `encounter`, then re-runs the engine from the stored inputs with that seed (overrides
included, R-GM-1), rolls the ad-hoc checks after it, and compares every event and the final state.
"""

from __future__ import annotations

from typing import Any

from pbp.engine import SeededDice, find_ruleset, ruleset_named, seed_hash
from pbp.engine.ruleset import Resolution

FORMAT = "pbp-round-bundle/1"
BUNDLE_KEYS = ("format", "round", "ruleset", "seed", "seed_hash", "encounter", "orders", "overrides", "events", "state")


def build_bundle(
    *,
    round_info: dict[str, Any],
    ruleset: str,
    seed: str | None,
    seed_hash: str | None,
    encounter: dict[str, Any],
    orders: dict[str, Any],
    overrides: list[dict[str, Any]],
    events: list[dict[str, Any]],
    state: dict[str, Any],
    start: dict[str, Any] | None = None,
    gm_actions: list[dict[str, Any]] | None = None,
    adhoc_checks: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The bundle of one round; `seed` is None while the round is unpublished (the draft report sees no seed).
    `start` and `gm_actions` appear only when the GM shaped the round, `adhoc_checks` only when the GM added some
    (a bundle without them is as before)."""
    shaped: dict[str, Any] = {"start": start, "gm_actions": gm_actions} if gm_actions else {}
    if adhoc_checks:
        shaped["adhoc_checks"] = adhoc_checks
    return {
        "format": FORMAT,
        "round": round_info,
        "ruleset": ruleset,
        "seed": seed,
        "seed_hash": seed_hash,
        "encounter": encounter,
        "orders": orders,
        "overrides": overrides,
        "events": events,
        "state": state,
        **shaped,
    }


def run_engine(
    ruleset: str,
    encounter: dict[str, Any],
    orders: dict[str, Any],
    seed: str,
    overrides: list[dict[str, Any]],
    adhoc_checks: list[dict[str, Any]] | None = None,
) -> Resolution:
    """One round through the engine with the round's seeded dice, then the GM's ad-hoc checks from the same stream:
    the single place resolve and verify share."""
    rules, dice = find_ruleset(ruleset), SeededDice(seed)
    result = rules.resolve(encounter, orders, dice, rounds=1, overrides=overrides or None)
    return rules.roll_adhoc(encounter, result, adhoc_checks, dice, overrides or []) if adhoc_checks else result


def first_difference(stored: Any, rerun: Any, path: str = "", *, other: str = "re-run") -> str | None:
    """The first place two JSON values differ, as `path: stored X, re-run Y` (`other` names the second value);
    None when they are equal."""
    if isinstance(stored, dict) and isinstance(rerun, dict):
        for key in sorted(set(stored) | set(rerun), key=str):
            sub = f"{path}.{key}" if path else str(key)
            if key not in rerun:
                return f"{sub}: stored {_short(stored[key])}, missing in the {other}"
            if key not in stored:
                return f"{sub}: missing in the stored data, {other} {_short(rerun[key])}"
            found = first_difference(stored[key], rerun[key], sub, other=other)
            if found:
                return found
        return None
    if isinstance(stored, list) and isinstance(rerun, list):
        for i, (a, b) in enumerate(zip(stored, rerun, strict=False)):
            found = first_difference(a, b, f"{path}[{i}]", other=other)
            if found:
                return found
        if len(stored) != len(rerun):
            return f"{path}: stored {len(stored)} items, {other} {len(rerun)}"
        return None
    if stored != rerun or type(stored) is not type(rerun):
        return f"{path or '(top)'}: stored {_short(stored)}, {other} {_short(rerun)}"
    return None


def continued(state: dict[str, Any], number: int) -> dict[str, Any]:
    """The encounter round `number` starts from, given the final state the scenario's previous round stored, as its
    ruleset continues it (pool: the round number moved on; kancolle: its own count). The lifecycle builds it so;
    the chain check below expects it so."""
    return ruleset_named(state.get("ruleset", "pool"), "state.ruleset").continued(state, number)


def chain_difference(
    encounter: dict[str, Any], previous_state: dict[str, Any], *, number: int, previous_number: int
) -> str | None:
    """None when round `number`'s stored input encounter is exactly the final state round `previous_number` (the
    scenario's previous resolved round) stored; else the first difference. Each round re-running to its own result
    proves nothing if a round started from a state the previous one no longer ends in."""
    found = first_difference(
        encounter, continued(previous_state, number), "encounter", other="previous round's final state"
    )
    if found is None:
        return None
    return f"round {number} does not start where round {previous_number} ended: {found}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def verify_bundle(bundle: dict[str, Any]) -> str | None:
    """None when the bundle re-runs to exactly its stored events and state; else the first difference.

    BadInput when the bundle cannot be re-run at all (an unknown ruleset, a malformed encounter)."""
    missing = [k for k in BUNDLE_KEYS if k not in bundle]
    if missing:
        return f"not a round bundle: missing {', '.join(missing)}"
    if bundle["format"] != FORMAT:
        return f"format: expected {FORMAT!r}, got {bundle['format']!r}"
    ruleset_named(bundle["ruleset"])  # an unknown ruleset is bad input (exit 2), not a difference
    seed = bundle["seed"]
    if not isinstance(seed, str):
        return "seed: not revealed (the round is not published)"
    if seed_hash(seed) != bundle["seed_hash"]:
        return f"seed_hash: sha256(seed) is {seed_hash(seed)}, the bundle says {bundle['seed_hash']}"
    shaped = gm_actions_difference(bundle)
    if shaped:
        return shaped
    adhoc = bundle.get("adhoc_checks")
    result = run_engine(bundle["ruleset"], bundle["encounter"], bundle["orders"], seed, bundle["overrides"], adhoc)
    return first_difference(
        {"events": bundle["events"], "state": bundle["state"]}, {"events": result.events, "state": result.state}
    )


def gm_actions_difference(bundle: dict[str, Any]) -> str | None:
    """None when the bundle has no GM actions or its `start` after them is exactly its `encounter`; else what is
    wrong (the actions do not apply, or the first difference)."""
    if "gm_actions" not in bundle and "start" not in bundle:
        return None
    if not ("gm_actions" in bundle and "start" in bundle):
        return "gm_actions: a bundle with GM actions has both start and gm_actions"
    actions = bundle["gm_actions"]
    if not isinstance(actions, list):
        return f"gm_actions: must be a list, got {type(actions).__name__}"
    shaped = find_ruleset(bundle["ruleset"]).apply_gm_actions(bundle["start"], actions)
    if isinstance(shaped, list):
        return "gm_actions: they do not apply to start: " + "; ".join(map(str, shaped))
    return first_difference(bundle["encounter"], shaped, "encounter", other="start after the GM actions")
