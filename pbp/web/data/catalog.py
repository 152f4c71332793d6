"""What a campaign's game-data pages may show: the public part of its loaded pack, built afresh from the pack each
time (nothing is copied by hand, so the pages always match what the engine uses).

Everything but the GM's secrets is public: stats and skills, statuses, items, growth and the creation budget, and
the weapons, vehicles and abilities players can have. An enemy type is shown only with `public = true`, a scenario's
gimmick likewise; a vehicle the players cannot take (`playable = false`) only when a public enemy rides it; a weapon
or ability only some enemy or unplayable vehicle has, only when one of those is shown (an Orochi's tail sweep would
give the Orochi away). `gm_notes`, placed enemies and terrain are never read here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pbp.web.data.fleet import Fleet, fleet, fold

#: The sections of the pages, in reading order; each is one page, its entries anchored as `<kind>-<id>`.
SECTIONS = ("stats", "statuses", "vehicles", "weapons", "items", "abilities", "growth", "enemies", "gimmicks")
#: An entry's kind -> the section page it is on.
SECTION_OF = {
    "stat": "stats",
    "skill": "stats",
    "status": "statuses",
    "vehicle": "vehicles",
    "weapon": "weapons",
    "item": "items",
    "ability": "abilities",
    "enemy": "enemies",
    "gimmick": "gimmicks",
}
#: The pack section each kind's entries come from.
_PACK_SECTION = {
    "stat": "stats",
    "skill": "skills",
    "status": "statuses",
    "vehicle": "vehicles",
    "weapon": "weapons",
    "item": "items",
    "ability": "abilities",
    "enemy": "enemies",
}


@dataclass(frozen=True)
class Entry:
    """One entry of a page: its kind and id, names, the pack's description and its other fields as data."""

    kind: str
    id: str
    ja: str
    en: str
    description: str
    data: dict[str, Any] = field(repr=False)
    scenario: str | None = None  # a gimmick's scenario (its pack id)
    description_en: str = ""

    @property
    def anchor(self) -> str:
        """The fragment naming it on its section's page (ids may be Japanese; whitespace is not allowed in ids)."""
        key = f"{self.scenario}-{self.id}" if self.scenario else self.id
        return f"{self.kind}-{'_'.join(key.split())}"

    @property
    def section(self) -> str:
        return SECTION_OF[self.kind]

    def name(self, locale: str) -> str:
        return (self.en if locale == "en" else self.ja) or self.ja or self.en or self.id

    def described(self, locale: str) -> str:
        """The description in `locale`: the pack's English where it gives one, else its Japanese."""
        return (self.description_en if locale == "en" else "") or self.description


@dataclass(frozen=True)
class Scenario:
    id: str
    ja: str
    en: str

    def name(self, locale: str) -> str:
        return (self.en if locale == "en" else self.ja) or self.ja or self.id


@dataclass
class Catalog:
    """The public game data of one campaign."""

    campaign: dict[str, Any]  # id, ja, en, ruleset (nothing else of `[campaign]` is needed)
    entries: dict[str, dict[str, Entry]]  # kind -> id -> entry (gimmicks keyed by "<scenario>/<id>")
    scenarios: dict[str, Scenario]  # the scenarios with public gimmicks
    gauges: dict[str, Any]
    growth: dict[str, Any]
    creation: dict[str, Any]
    character: dict[str, Any]
    fleet: Fleet | None = None  # a kancolle campaign's grid, ships and event tables (its pages show these instead)

    def of(self, kind: str) -> list[Entry]:
        return list(self.entries.get(kind, {}).values())

    def get(self, kind: str, key: str) -> Entry | None:
        return self.entries.get(kind, {}).get(key)

    def count(self, section: str) -> int:
        """Entries a section page lists (skills are under their stats, so `stats` counts the stats)."""
        return sum(1 for entry in self.all() if entry.section == section and entry.kind != "skill")

    def all(self) -> Iterator[Entry]:
        for kinds in self.entries.values():
            yield from kinds.values()

    def search(self, query: str) -> list[Entry]:
        """Entries whose Japanese or English name or id contains `query` (case and width folded), page order."""
        words = fold(query).split()
        if not words:
            return []
        found = []
        for section in SECTIONS:
            for entry in self.all():
                if entry.section == section:
                    hay = fold(" ".join((entry.ja, entry.en, entry.id)))
                    if all(w in hay for w in words):
                        found.append(entry)
        return found


def _tables(pack: dict[str, Any], section: str) -> dict[str, dict[str, Any]]:
    """A section's entries in id order: the database keeps no pack order (PostgreSQL's jsonb orders keys its own
    way), so the pages are the same on either."""
    entries = pack.get(section)
    tables = {str(k): v for k, v in entries.items() if isinstance(v, dict)} if isinstance(entries, dict) else {}
    return dict(sorted(tables.items()))


def _entry(kind: str, key: str, table: dict[str, Any], scenario: str | None = None) -> Entry:
    data = {
        k: v for k, v in table.items() if k not in ("ja", "en", "description", "description_en", "public", "gm_notes")
    }
    return Entry(
        kind, key, str(table.get("ja") or ""), str(table.get("en") or ""), str(table.get("description") or ""), data,
        scenario, str(table.get("description_en") or ""),
    )  # fmt: skip


def _ids(table: dict[str, Any], key: str) -> list[str]:
    value = table.get(key)
    return [str(v) for v in value] if isinstance(value, list) else []


def _shown(candidates: Iterable[str], users: dict[str, list[tuple[str, bool]]]) -> set[str]:
    """Ids used by nothing, or by at least one thing shown: the rest only hidden things have."""
    return {key for key in candidates if not users.get(key) or any(shown for _, shown in users[key])}


def catalog(pack: dict[str, Any]) -> Catalog:
    """The public game data of a loaded pack (`Campaign.pack`)."""
    enemies = {k: v for k, v in _tables(pack, "enemies").items() if v.get("public") is True}
    vehicles = _tables(pack, "vehicles")
    ridden = {str(e.get("vehicle")) for e in enemies.values()}
    shown_vehicles = {k for k, v in vehicles.items() if v.get("playable", True) is not False or k in ridden}
    weapon_users: dict[str, list[tuple[str, bool]]] = {}
    ability_users: dict[str, list[tuple[str, bool]]] = {}
    for vid, vehicle in vehicles.items():
        for wid in _ids(vehicle, "weapons"):
            weapon_users.setdefault(wid, []).append((vid, vid in shown_vehicles))
    for eid, enemy in _tables(pack, "enemies").items():
        for wid in _ids(enemy, "weapons"):
            weapon_users.setdefault(wid, []).append((eid, eid in enemies))
        for aid in _ids(enemy, "abilities"):
            ability_users.setdefault(aid, []).append((eid, eid in enemies))
    for sheet in _tables(pack, "characters").values():  # ready-made PCs are the players'
        for wid in _ids(sheet, "weapons") + _ids(sheet, "vehicle_weapons"):
            weapon_users.setdefault(wid, []).append(("", True))
        for aid in _ids(sheet, "abilities"):
            ability_users.setdefault(aid, []).append(("", True))
    keep = {
        "vehicle": shown_vehicles,
        "weapon": _shown(_tables(pack, "weapons"), weapon_users),
        "ability": _shown(_tables(pack, "abilities"), ability_users),
        "enemy": set(enemies),
    }
    entries: dict[str, dict[str, Entry]] = {}
    for kind, section in _PACK_SECTION.items():
        tables = _tables(pack, section)
        entries[kind] = {k: _entry(kind, k, v) for k, v in tables.items() if kind not in keep or k in keep[kind]}
    entries["gimmick"], scenarios = {}, {}
    for sid, scenario in _tables(pack, "scenarios").items():
        gimmicks = scenario.get("gimmicks") if isinstance(scenario.get("gimmicks"), list) else []
        for g in gimmicks:
            if isinstance(g, dict) and g.get("public") is True:
                entries["gimmick"][f"{sid}/{g.get('id')}"] = _entry("gimmick", str(g.get("id")), g, sid)
                scenarios[sid] = Scenario(sid, str(scenario.get("ja") or ""), str(scenario.get("en") or ""))
    about = pack.get("campaign") if isinstance(pack.get("campaign"), dict) else {}
    return Catalog(
        campaign={k: about.get(k) for k in ("id", "ja", "en", "ruleset")},
        entries=entries,
        scenarios=scenarios,
        gauges=pack.get("gauges") or {},
        growth=pack.get("growth") or {},
        creation=pack.get("creation") or {},
        character=pack.get("character") or {},
        fleet=fleet(pack) if about.get("ruleset") == "kancolle" else None,
    )
