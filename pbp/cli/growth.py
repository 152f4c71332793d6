"""`pbp growth list CAMPAIGN`, `pbp growth decide ID --approve|--deny --reason ...`: the GM's growth requests
(成長申請) from the command line, decided as the campaign's GM until the GM's console has its page."""

from __future__ import annotations

import click

from pbp.cli.db import ROW_ID, open_db


def register(cli: click.Group) -> None:
    cli.add_command(growth)


@click.group()
def growth() -> None:
    """Growth requests waiting for the GM."""


@growth.command("list")
@click.argument("campaign")
def list_pending(campaign: str) -> None:
    """The campaign's pending growth requests (its slug), oldest first: id, character, raises, cost, note."""
    from pbp.cli import fail
    from pbp.models import Campaign
    from pbp.services import characters

    with open_db():
        row = Campaign.get_or_none(Campaign.slug == campaign)
        if row is None:
            fail(f"no campaign {campaign!r} (its slug, as `pbp campaign load` printed it)")
        for r in characters.pending_growth(row.id):
            before = r.before.get("skills") or {}
            raises = ", ".join(f"{s} {before.get(s, 1)}->{n}" for s, n in characters.requested_levels(r).items())
            click.echo(f"{r.id}\t{r.character.name}\t{raises}\t{r.cost}\t{r.note}")


@growth.command("decide")
@click.argument("request_id", type=ROW_ID)
@click.option("--approve/--deny", required=True, help="Approve (apply the raise) or deny the request.")
@click.option("--reason", default="", help="Why (shown to the player; needed to deny).")
def decide(request_id: int, approve: bool, reason: str) -> None:
    """Approve or deny growth request ID as the GM of its campaign."""
    from pbp.cli import fail
    from pbp.models import GrowthRequest
    from pbp.services import characters

    with open_db():
        request = GrowthRequest.get_or_none(GrowthRequest.id == request_id)
        if request is None:
            fail(f"no growth request {request_id}")
        gm = request.character.campaign.gm_id
        decided = characters.decide_growth(request_id, approve, reason, actor_id=gm)
    click.echo(f"growth request {decided.id}: {decided.status}")
