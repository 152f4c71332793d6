"""Where and when a scenario is told: its place, time of day and weather from the campaign pack (`setting`, `time`,
`weather`, each `{ ja, en }`), whether it is a battle or a scene, and its title.

Both narrators open a round on these facts, so a story never invents its setting: a hangar at night is not told as
a riverbank at dawn. Pure data access: no Flask, no database; anything missing or malformed is an empty string.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbp.text import is_japanese

#: The pack keys of a scenario's setting, in the order a story opens on them.
SETTING_KEYS = ("setting", "time", "weather")


@dataclass(frozen=True)
class Setting:
    """A scenario's setting in one locale; "" where the pack says nothing (a story then leaves it out)."""

    place: str = ""
    time: str = ""
    weather: str = ""
    kind: str = "battle"  # "battle" | "scene"
    title: str = ""

    @property
    def scene(self) -> bool:
        return self.kind == "scene"


def _localized(value: Any, locale: str) -> str:
    """A `{ ja, en }` table's text in `locale`: never the other language's (an English story with a Japanese place
    name in its narration is not English), "" when absent or not a string."""
    if not isinstance(value, dict):
        return ""
    text = value.get(locale)
    if not isinstance(text, str):
        return ""
    text = " ".join(text.split())
    return "" if locale != "ja" and is_japanese(text) else text


def scenario_setting(pack: dict[str, Any] | None, scenario_id: str | None, locale: str) -> Setting:
    """The setting of `scenario_id` in the pack, in `locale`; an unknown scenario is a battle with no setting (the
    narrators' old behaviour), a scene is one whose pack `kind` says so."""
    scenarios = (pack or {}).get("scenarios") if isinstance(pack, dict) else None
    own = scenarios.get(scenario_id) if isinstance(scenarios, dict) and scenario_id else None
    if not isinstance(own, dict):
        return Setting()
    title = own.get(locale)
    title = " ".join(title.split()) if isinstance(title, str) else ""
    if locale != "ja" and is_japanese(title):
        title = ""
    return Setting(
        place=_localized(own.get("setting"), locale),
        time=_localized(own.get("time"), locale),
        weather=_localized(own.get("weather"), locale),
        kind="scene" if own.get("kind") == "scene" else "battle",
        title=title,
    )
