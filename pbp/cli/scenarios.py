"""`pbp campaigns list`, `pbp scenarios list [CAMPAIGN]` and `pbp scenario import CAMPAIGN FILE.toml`: what the
database holds, and a scenario TOML imported as the operator (every problem on one line, nothing imported)."""

from __future__ import annotations

import json

import click

from pbp.cli.db import open_db
from pbp.cli.files import read_text


def register(cli: click.Group) -> None:
    cli.add_command(campaigns_group)
    cli.add_command(scenarios_group)
    cli.add_command(scenario_group)


def _table(header: list[str], rows: list[list[str]]) -> str:
    """A plain text table: columns padded to their widest cell (East Asian wide characters count twice)."""
    from unicodedata import east_asian_width

    def width(text: str) -> int:
        return sum(2 if east_asian_width(c) in "WF" else 1 for c in text)

    cells = [header, *rows]
    widths = [max(width(row[i]) for row in cells) for i in range(len(header))]
    return "\n".join(
        "  ".join(cell + " " * (widths[i] - width(cell)) for i, cell in enumerate(row)).rstrip() for row in cells
    )


@click.group("campaigns")
def campaigns_group() -> None:
    """Every campaign in the database."""


@campaigns_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="a JSON list of {slug, name, ruleset, pack, owner, scenarios}")
def campaigns_list(as_json: bool) -> None:
    """Every campaign: its slug, name, ruleset, pack folder, owner and number of scenarios."""
    from peewee import JOIN, fn

    from pbp.models import Campaign, Scenario, User

    with open_db():
        query = (
            Campaign.select(Campaign.slug, Campaign.name, Campaign.ruleset, Campaign.pack_name,
                            User.name.alias("owner"), fn.COUNT(Scenario.id).alias("scenarios"))
            .join(User, JOIN.LEFT_OUTER, on=(Campaign.gm == User.id))
            .switch(Campaign).join(Scenario, JOIN.LEFT_OUTER)
            .group_by(Campaign.id, User.name).order_by(Campaign.slug)
        )  # fmt: skip
        rows = [
            {"slug": c["slug"], "name": c["name"], "ruleset": c["ruleset"], "pack": c["pack_name"],
             "owner": c["owner"], "scenarios": c["scenarios"]}
            for c in query.dicts()
        ]  # fmt: skip
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False))
        return
    header = ["slug", "name", "ruleset", "pack", "owner", "scenarios"]
    click.echo(_table(header, [[str(r[k] if r[k] is not None else "-") for k in header] for r in rows]))


@click.group("scenarios")
def scenarios_group() -> None:
    """Scenarios in the database."""


@scenarios_group.command("list")
@click.argument("campaign", required=False)
@click.option("--json", "as_json", is_flag=True, help="a JSON list of the scenarios with their sign-ups")
def scenarios_list(campaign: str | None, as_json: bool) -> None:
    """Every scenario (of CAMPAIGN, a campaign's slug): state, slots, sign-ups, rounds."""
    from pbp.errors import NotFound
    from pbp.models import Campaign
    from pbp.services.authoring import summaries

    with open_db():
        ids = None
        if campaign is not None:
            found = Campaign.get_or_none(Campaign.slug == campaign)
            if found is None:
                raise NotFound(f"no campaign {campaign!r}")
            ids = [found.id]
        listed = summaries(ids)
    if as_json:
        click.echo(json.dumps([s.as_json() for s in listed], ensure_ascii=False))
        return
    header = ["campaign", "slug", "kind", "source", "state", "slots", "joined", "applied", "waitlisted", "rounds",
              "sign-up deadline", "title"]  # fmt: skip
    rows = [
        [s.campaign, s.slug, s.kind, s.source, s.state, str(s.slots), str(s.signups["joined"]),
         str(s.signups["applied"]), str(s.signups["waitlisted"]), str(s.rounds), s.signup_deadline or "-", s.title]
        for s in listed
    ]  # fmt: skip
    click.echo(_table(header, rows))


@click.group("scenario")
def scenario_group() -> None:
    """One scenario."""


@scenario_group.command("import")
@click.argument("campaign")
@click.argument("file")
def scenario_import(campaign: str, file: str) -> None:
    """Import the [scenarios.<id>] tables of FILE (a scenario TOML) into CAMPAIGN: every problem on one line and
    nothing imported, or every scenario."""
    from pbp.cli import fail
    from pbp.errors import NotFound
    from pbp.models import Campaign
    from pbp.services.authoring import ScenarioProblems, import_scenarios

    text = read_text(file, "scenario file")
    with open_db():
        found = Campaign.get_or_none(Campaign.slug == campaign)
        if found is None:
            raise NotFound(f"no campaign {campaign!r}")
        try:
            made = import_scenarios(found.id, text, actor_id=None)
        except ScenarioProblems as refusal:
            fail(*(f"{file}: {p}" for p in refusal.problems))
            return
    for s in made:
        click.echo(f"scenario {s.slug} (id {s.id}): {s.title}, {s.slots} slots")
