"""`pbp pack ...`: campaign pack commands."""

from __future__ import annotations

import click

from pbp.engine.errors import BadInput
from pbp.errors import UserError
from pbp.packs import Pack, find_pack, load_valid_pack

#: The sections `validate` counts in its summary line, in the order they are listed.
_COUNTED = ("stats", "skills", "vehicles", "weapons", "items", "abilities", "enemies", "characters", "scenarios")


def register(cli: click.Group) -> None:
    cli.add_command(pack)


@click.group()
def pack() -> None:
    """Campaign packs (campaigns/<name>/)."""


def _load(folder: str) -> Pack:
    """The valid pack a command names (a folder, or a campaign id under campaigns/); BadInput lists its problems."""
    return load_valid_pack(find_pack(folder))


@pack.command("validate")
@click.argument("folder", metavar="DIR")
def validate(folder: str) -> None:
    """Check a pack: `ok: ...` and exit 0, or the report, one `file: key.path: reason` line per problem on stdout,
    and exit 2 with one line on stderr."""
    try:
        p = _load(folder)
    except BadInput as e:
        for problem in e.problems:
            click.echo(str(problem))
        count = len(e.problems)
        raise UserError(f"{folder}: {count} problem{'s' if count != 1 else ''} (listed on stdout)") from None
    counts = ", ".join(f"{len(p.data.get(key) or {})} {key}" for key in _COUNTED)
    click.echo(f"ok: {p.id} ({counts})")


@pack.command("show")
@click.argument("folder", metavar="DIR")
def show(folder: str) -> None:
    """Summarise a valid pack in Japanese and English (public data only: no GM notes)."""
    d = _load(folder).data
    c = d["campaign"]
    click.echo(f"{c['ja']} / {c['en']}  [{c['id']}, ruleset {c['ruleset']}, {c['time_zone']}]")
    for stat, s in d["stats"].items():
        skills = ", ".join(f"{k} ({v['en']})" for k, v in d["skills"].items() if v["stat"] == stat)
        click.echo(f"  {stat} {s['en']}: {skills}")
    for section in ("vehicles", "weapons", "items", "abilities", "enemies", "characters", "scenarios"):
        entries = d.get(section) or {}
        click.echo(f"{section} ({len(entries)}):")
        for key, e in entries.items():
            click.echo(f"  {key}: {e['ja']} / {e['en']}")
