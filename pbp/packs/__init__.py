"""Campaign packs: the TOML folders under campaigns/ that hold every number the seeds leave open.

This package reads the files (the engine reads none): it parses every `*.toml` of a pack folder, merges them into
one dict and remembers which file each table came from, so that every problem, the loader's or the ruleset's,
names its file. The format is documented in docs/campaign-packs.md.
"""

from __future__ import annotations

import re
import tomllib
import zoneinfo
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbp.engine import BadInput, Problem, find_ruleset
from pbp.engine.errors import N_
from pbp.engine.ruleset import ruleset_named
from pbp.paths import CAMPAIGNS_DIR
from pbp.text import non_text, unfit_to_show

#: The slug rule: a campaign id (and its pack folder's name) and a scenario slug are 1-64 letters, digits, `_` or
#: `-`, since they are path segments of the blog's URLs. The one definition: import it from here.
SLUG = re.compile(r"[A-Za-z0-9_-]{1,64}\Z")  # \Z: `$` would also match before a final newline
SLUG_RULE = N_("1-64 letters, digits, '_' or '-'")


@dataclass(frozen=True)
class Pack:
    """A parsed campaign pack. `data` is the merged TOML; `origins` maps `section` and `section.entry` key paths
    to the file that defined them."""

    id: str
    ruleset: str
    path: Path
    data: dict[str, Any]
    origins: dict[str, str] = field(default_factory=dict, repr=False)

    def file_of(self, key_path: str) -> str:
        """The file that defined the deepest table on `key_path` (the pack folder when none did)."""
        for prefix in sorted(self.origins, key=len, reverse=True):
            if key_path == prefix or key_path.startswith((f"{prefix}.", f"{prefix}[")):
                return self.origins[prefix]
        return str(self.path)

    def locate(self, problems: list[Problem]) -> list[Problem]:
        """The same problems, each naming the file its key path came from."""
        return [p if p.file else p.with_file(self.file_of(p.path)) for p in problems]


#: How deep tables and arrays may nest in a pack file: the format needs 8 levels; far deeper text (a hostile
#: `[[[[...`) would exhaust the parser's and the validators' recursion.
MAX_DEPTH = 32


def _toml_files(folder: Path) -> tuple[list[Path], Problem | None]:
    """The `*.toml` files of a pack folder, or the problem that there are none (or no readable folder)."""
    try:
        files = sorted(folder.glob("*.toml")) if folder.is_dir() else []
    except OSError as e:  # a name too long for the file system, a folder we may not list
        unreadable = Problem.said("", N_("cannot read the pack folder: %(reason)s"), reason=e.strerror)
        return [], unreadable.with_file(str(folder))
    if not files:
        empty = N_("a campaign pack has no *.toml files") if folder.is_dir() else N_("a campaign pack is not a folder")
        return [], Problem.said("", empty).with_file(str(folder))
    return files, None


def _parse(file: Path) -> tuple[dict[str, Any], Problem | None]:
    """One pack file's TOML, or the problem with it. Only regular files are read: a FIFO named `x.toml` would
    block the reader for ever, a device would never end."""
    name = str(file)
    if not file.is_file():
        return {}, Problem.said("", N_("is not a regular file (only regular *.toml files are read)")).with_file(name)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as e:
        return {}, Problem.said("", N_("cannot read: %(reason)s"), reason=e.strerror).with_file(name)
    except UnicodeDecodeError:
        return {}, Problem.said("", N_("must be UTF-8 text")).with_file(name)
    return parse_toml(text, name)


def parse_toml(text: str, name: str) -> tuple[dict[str, Any], Problem | None]:
    """TOML text (a pack file's, or a scenario the GM imports), or the problem with it, naming it `name`: its
    syntax, or nesting deeper than `MAX_DEPTH`."""
    try:
        parsed = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        return {}, Problem.said("", N_("not valid TOML: %(error)s"), error=str(e)).with_file(name)
    except RecursionError:
        parsed = None
    if parsed is None or _deeper_than(parsed, MAX_DEPTH):
        too_deep = Problem.said("", N_("tables and arrays nest deeper than %(limit)s levels"), limit=MAX_DEPTH)
        return {}, too_deep.with_file(name)
    return parsed, None


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether tables and arrays nest in `value` more than `limit` levels (walked without recursion)."""
    level: list[Any] = [value]
    for _ in range(limit):
        level = [x for v in level for x in (v.values() if isinstance(v, dict) else v) if isinstance(x, dict | list)]
        if not level:
            return False
    return True


def _read(path: str | Path) -> tuple[Pack, list[Problem]]:
    """Parse and merge every TOML file of a pack folder; structural problems are returned, never raised.

    Two files may share a section (`weapons` in two files) but not an entry of it (`weapons.rifle` twice)."""
    folder = Path(path)
    data: dict[str, Any] = {}
    origins: dict[str, str] = {}
    problems: list[Problem] = []
    files, missing = _toml_files(folder)
    if missing:
        return Pack(folder.name, "", folder, data), [missing]
    for file in files:
        name = str(file)
        parsed, problem = _parse(file)
        if problem:
            problems.append(problem)
            continue
        for key, value in parsed.items():
            if key not in data:
                data[key] = dict(value) if isinstance(value, dict) else value
                origins[key] = name
                origins.update({f"{key}.{sub}": name for sub in value} if isinstance(value, dict) else {})
            elif isinstance(value, dict) and isinstance(data[key], dict):
                for sub, entry in value.items():
                    if sub in data[key]:
                        first = origins.get(f"{key}.{sub}", origins[key])
                        problems.append(_defined_again(f"{key}.{sub}", first, name))
                    else:
                        data[key][sub] = entry
                        origins[f"{key}.{sub}"] = name
            else:
                problems.append(_defined_again(key, origins[key], name))
    campaign = data.get("campaign") if isinstance(data.get("campaign"), dict) else {}
    pack = Pack(str(campaign.get("id", folder.name)), str(campaign.get("ruleset", "")), folder, data, origins)
    # A TOML "\u0000" escape; a "\u202e" in a name.
    strings = [Problem.said(at, N_("%(problem)s: not text"), problem=why) for at, why in sorted(non_text(data))]
    strings += [Problem(at, why) for at, why in sorted(unfit_to_show(data))]
    located = _settings_problems(campaign) + _scenario_id_problems(data.get("scenarios")) + strings
    return pack, problems + pack.locate(located)


def _defined_again(path: str, first: str, file: str) -> Problem:
    return Problem.said(path, N_("defined again (first in %(first)s)"), first=first).with_file(file)


def _not_a_slug(path: str, campaign_id: object) -> Problem:
    return Problem.said(path, N_("%(value)r is not a campaign id (%(rule)s)"), value=campaign_id, rule=SLUG_RULE)


def _settings_problems(campaign: dict[str, Any]) -> list[Problem]:
    """What every ruleset relies on: the id is a slug (it is in every blog URL), and what only a reader of the
    outside world can check: the time zone exists, the ruleset is registered."""
    problems = []
    campaign_id = campaign.get("id")
    if isinstance(campaign_id, str) and campaign_id and not SLUG.match(campaign_id):  # else the ruleset complains
        problems.append(_not_a_slug("campaign.id", campaign_id))
    tz = campaign.get("time_zone")
    if isinstance(tz, str):
        try:
            zoneinfo.ZoneInfo(tz)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            problems.append(Problem.said("campaign.time_zone", N_("unknown time zone %(value)r"), value=tz))
    ruleset = campaign.get("ruleset")
    if ruleset is None:
        problems.append(Problem.said("campaign.ruleset", N_("missing")))
    else:
        try:
            ruleset_named(str(ruleset), "campaign.ruleset")
        except BadInput as e:
            problems += e.problems
    return problems


def _scenario_id_problems(scenarios: Any) -> list[Problem]:
    """Each scenario id is a slug: `campaign load` makes it the scenario's URL slug (the blog could not link to
    `tama river/2`). Keys only: the ruleset reports what is wrong inside the entries."""
    return [
        Problem.said(f"scenarios.{sid}", N_("%(value)r is not a scenario id (%(rule)s)"), value=sid, rule=SLUG_RULE)
        for sid in (scenarios if isinstance(scenarios, dict) else ())
        if not (isinstance(sid, str) and SLUG.match(sid))
    ]


def load_pack(path: str | Path) -> Pack:
    """Read a pack folder; BadInput lists every structural problem (TOML syntax, duplicates, unknown ruleset)."""
    pack, problems = _read(path)
    if problems:
        raise BadInput(problems)
    return pack


def validate_pack_dir(path: str | Path) -> list[Problem]:
    """Every problem of a pack folder, the loader's and its ruleset's, each naming its file and key path."""
    pack, problems = _read(path)
    if any(p.path == "campaign.ruleset" for p in problems) or not pack.data:
        return problems
    return problems + pack.locate(find_ruleset(pack.ruleset).validate_pack(pack.data))


def load_valid_pack(path: str | Path) -> Pack:
    """A pack with no problem at all: what every caller uses. BadInput lists every problem."""
    problems = validate_pack_dir(path)
    if problems:
        raise BadInput(problems)
    return _read(path)[0]


def pack_dir(campaign_id: str) -> Path:
    """The folder of campaign `campaign_id` under campaigns/, whatever the current directory."""
    if not SLUG.match(campaign_id):
        raise BadInput(_not_a_slug("campaign", campaign_id))
    return CAMPAIGNS_DIR / campaign_id


def find_pack(folder: str) -> Path:
    """The pack folder a command names: a path, or a bare campaign id under the project's campaigns/ (from any
    current directory) when no such path exists here."""
    path = Path(folder)
    try:
        here = path.exists()
    except OSError:  # a name too long for the file system: reading it reports the problem
        here = False
    return path if here or not SLUG.match(folder) else CAMPAIGNS_DIR / folder


def load_pack_by_id(campaign_id: str) -> Pack:
    """The valid pack of campaign `campaign_id` (campaigns/<id>/)."""
    return load_valid_pack(pack_dir(campaign_id))


def demo_pack() -> Pack:
    """The demo campaign (campaigns/demo/): the engine CLI's default pack."""
    return load_pack_by_id("demo")


__all__ = [
    "Pack",
    "SLUG",
    "SLUG_RULE",
    "demo_pack",
    "find_pack",
    "load_pack",
    "load_pack_by_id",
    "load_valid_pack",
    "pack_dir",
    "parse_toml",
    "validate_pack_dir",
]
