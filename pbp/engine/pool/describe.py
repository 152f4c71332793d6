"""One plain line per event: the dice log `pbp engine demo` prints.

The stories readers see are written by `pbp.reports` from templates; this is the terse factual form.
"""

from __future__ import annotations

from pbp.engine.pool import rules


def _dice(dice: list[int] | None) -> str:
    return "[" + ",".join(map(str, dice or [])) + "]"


def describe(ev: dict, names: dict[str, str]) -> str:
    """`ev` as one line; `names` maps unit ids to display names."""

    def n(uid: str | None) -> str:
        return names.get(uid, uid) if uid else "-"

    t = ev["type"]
    if t == "initiative":
        return "initiative: " + " > ".join(n(u) for u in ev["order"])
    if t == "attack":
        if ev.get("skipped"):
            return f"{n(ev['attacker'])} attacks with {ev['weapon']}: {ev['skipped']}! the attack is skipped"
        over = "".join(f" (GM: {o['check']} {o['was']}->{o['now']}: {o['reason']})" for o in ev.get("overrides", []))
        result = f"HIT by {ev['margin']}, {ev['damage']} damage" if ev["hit"] else "miss"
        return (
            f"{n(ev['attacker'])} -> {n(ev['target'])} {ev['weapon']} ({ev['skill']}): "
            f"{_dice(ev['attack_dice'])} {ev['attack_successes']} vs {_dice(ev['evade_dice'])} "
            f"{ev['evade_successes']}: {result}{over}"
        )
    if t == "damage":
        stages = ", ".join(rules.STAGE_NAMES[ev["gauge"]][i] for i in ev["checked"])
        extra = " (+6: could not take it there)" if ev.get("redirected") else ""
        return f"{n(ev['unit'])} takes {ev['amount']} to the {ev['gauge']} gauge ({ev['source']}){extra}" + (
            f", checks {stages}" if stages else ""
        )
    if t == "check":
        verdict = "success" if ev["success"] else "failure"
        return (
            f"{n(ev['unit'])} {ev['skill']} check ({ev['purpose']}): {_dice(ev['dice'])} "
            f"{ev['successes']} of {ev['need']} needed: {verdict}"
        )
    if t == "move":
        return f"{n(ev['unit'])} {ev['kind']} {ev['from']} -> {ev['to']} ({ev['distance']} m)"
    if t == "status":
        return f"{n(ev['unit'])}: {ev['id']} {ev['change']}"
    if t == "refused":
        return f"{n(ev['unit'])}: {ev['action']} {ev['order']} refused ({ev['reason']})"
    if t in ("engage", "disengage"):
        return f"{n(ev['unit'])} {t}s {ev['engagement']}"
    if t in ("death", "removed"):
        return f"{n(ev['unit'])}: {t}"
    if t == "gimmick":
        return f"gimmick {ev['id']} ({ev['timing']}) on {', '.join(n(u) for u in ev['units']) or 'nobody'}"
    if t == "ability":
        return f"{n(ev['unit'])} uses {ev['id']}" + (f" on {n(ev['target'])}" if ev.get("target") else "")
    if t == "cleanup":
        return "cleanup"
    rest = ", ".join(f"{k}={v}" for k, v in ev.items() if k not in ("type", "round"))
    return f"{t}: {rest}"
