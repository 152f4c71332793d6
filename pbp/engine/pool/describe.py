"""One plain line per event: the dice log `pbp engine demo` prints.

The stories readers see are written by `pbp.reports` from templates; this is the terse factual form.
"""

from __future__ import annotations

from pbp.engine.pool import rules
from pbp.engine.pool.types import Event


def _dice(dice: list[int] | None) -> str:
    return "[" + ",".join(map(str, dice or [])) + "]"


def describe(ev: Event, names: dict[str, str]) -> str:
    """`ev` as one line; `names` maps unit ids to display names."""

    def name(uid: str | None) -> str:
        return names.get(uid, uid) if uid else "-"

    if ev["type"] == "initiative":
        return "initiative: " + " > ".join(name(u) for u in ev["order"])
    if ev["type"] == "attack":
        if ev.get("skipped"):
            return f"{name(ev['attacker'])} attacks with {ev['weapon']}: {ev.get('skipped')}! the attack is skipped"
        over = "".join(f" (GM: {o['check']} {o['was']}->{o['now']}: {o['reason']})" for o in ev.get("overrides", []))
        result = f"HIT by {ev['margin']}, {ev['damage']} damage" if ev["hit"] else "miss"
        return (
            f"{name(ev['attacker'])} -> {name(ev['target'])} {ev['weapon']} ({ev['skill']}): "
            f"{_dice(ev['attack_dice'])} {ev['attack_successes']} vs {_dice(ev['evade_dice'])} "
            f"{ev['evade_successes']}: {result}{over}"
        )
    if ev["type"] == "damage":
        stages = ", ".join(rules.STAGE_NAMES[ev["gauge"]][i] for i in ev["checked"])
        extra = " (+6: could not take it there)" if ev.get("redirected") else ""
        return f"{name(ev['unit'])} takes {ev['amount']} to the {ev['gauge']} gauge ({ev['source']}){extra}" + (
            f", checks {stages}" if stages else ""
        )
    if ev["type"] == "check":
        verdict = "success" if ev["success"] else "failure"
        return (
            f"{name(ev['unit'])} {ev['skill']} check ({ev['purpose']}): {_dice(ev['dice'])} "
            f"{ev['successes']} of {ev['need']} needed: {verdict}"
        )
    if ev["type"] == "move":
        return f"{name(ev['unit'])} {ev['kind']} {ev['from']} -> {ev['to']} ({ev['distance']} m)"
    if ev["type"] == "status":
        return f"{name(ev['unit'])}: {ev['id']} {ev['change']}"
    if ev["type"] == "refused":
        return f"{name(ev['unit'])}: {ev['action']} {ev['order']} refused ({ev['reason']})"
    if ev["type"] == "engage" or ev["type"] == "disengage":
        return f"{name(ev['unit'])} {ev['type']}s {ev['engagement']}"
    if ev["type"] == "death" or ev["type"] == "removed":
        return f"{name(ev['unit'])}: {ev['type']}"
    if ev["type"] == "gimmick":
        return f"gimmick {ev['id']} ({ev['timing']}) on {', '.join(name(u) for u in ev['units']) or 'nobody'}"
    if ev["type"] == "ability":
        return f"{name(ev['unit'])} uses {ev['id']}" + (f" on {name(ev['target'])}" if ev.get("target") else "")
    if ev["type"] == "cleanup":
        return "cleanup"
    rest = ", ".join(f"{k}={v}" for k, v in ev.items() if k not in ("type", "round"))
    return f"{ev['type']}: {rest}"
