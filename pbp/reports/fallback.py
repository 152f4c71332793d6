"""A plain factual draft for a ruleset whose stories are not written yet: one line per event, naming who did it.

The GM edits the draft before publishing, as always; this only keeps a resolved round of such a ruleset from
having no report (and its publication from failing). A ruleset's own narrator replaces it in `draft_report`.
"""

from __future__ import annotations

from typing import Any

#: What a line says of an event, by locale; `{unit}` and `{target}` are display names, `{what}` the outcome.
_HEADS = {
    "ja": {"success": "成功", "failure": "失敗", "round": "第{round}ラウンド", "said": "{name}「{prose}」"},
    "en": {"success": "succeeded", "failure": "failed", "round": "Round {round}", "said": "{name}: “{prose}”"},
}
#: The unit fields an event may name, in the order a line names them.
_WHO = ("unit", "from", "attacker", "to", "target")


def fallback_report(
    bundle: dict[str, Any], *, prose: dict[str, str], locale: str = "ja", names: dict[str, str] | None = None
) -> str:
    """Markdown: the round's heading, each entered unit's prose as written, then one line per event."""
    words = _HEADS["ja" if locale == "ja" else "en"]
    names = names or {}
    units = {u.get("id"): u for u in (bundle.get("encounter") or {}).get("units") or [] if isinstance(u, dict)}

    def name(uid: Any) -> str:
        return str(names.get(uid) or (units.get(uid) or {}).get("name") or uid)

    number = (bundle.get("round") or {}).get("number", "")
    lines = [f"## {words['round'].format(round=number)}", ""]
    lines += [words["said"].format(name=name(uid), prose=text.strip()) for uid, text in prose.items() if text.strip()]
    lines.append("")
    for event in bundle.get("events") or []:
        who = " → ".join(name(event[k]) for k in _WHO if isinstance(event.get(k), str))
        outcome = ""
        if isinstance(event.get("success"), bool):
            outcome = words["success"] if event["success"] else words["failure"]
        lines.append(f"- {event.get('type')}" + (f": {who}" if who else "") + (f" ({outcome})" if outcome else ""))
    return "\n".join(lines).strip() + "\n"
