"""`pbp campaign load DIR`: load (or reload) a campaign pack into the database; `pbp campaign set SLUG ...`: its
publishing policy, the guard's share and its webhook."""

from __future__ import annotations

import click

from pbp.cli.db import open_db
from pbp.packs import find_pack


def register(cli: click.Group) -> None:
    cli.add_command(campaign)


@click.group()
def campaign() -> None:
    """Campaigns in the database."""


@campaign.command("load")
@click.argument("directory")
@click.option("--owner", help="user name of the campaign's owner (its GM; a reload naming another hands it over)")
def load(directory: str, owner: str | None) -> None:
    """Load the pack in DIRECTORY (a path, or a name under campaigns/) as a campaign, or upgrade the campaign to it
    (refused, listing what breaks, when a running scenario or a sheet would not validate under it)."""
    from pbp.errors import NotFound
    from pbp.models import User
    from pbp.services.campaigns import load_campaign

    with open_db():
        gm_id = None
        if owner is not None:
            user = User.get_or_none(User.name == owner)
            if user is None:
                raise NotFound(f"no user {owner!r} (create the account first)")
            gm_id = user.id
        loaded = load_campaign(find_pack(directory).resolve(), gm_id=gm_id)
        count = loaded.scenarios.count()
    click.echo(f"campaign {loaded.slug} (id {loaded.id}): {loaded.name}, {count} scenarios")


@campaign.command("set")
@click.argument("slug")
@click.option("--publish-automatically/--review-first", default=None, help="publish rounds as soon as resolved")
@click.option("--hold-share", type=float, help="hold a round when more than this share (0-1) of entries is missing")
@click.option("--webhook", help="URL the campaign's notifications are POSTed to as JSON ('' for none)")
def set_(slug: str, publish_automatically: bool | None, hold_share: float | None, webhook: str | None) -> None:
    """Set a campaign's publishing policy, the scheduler's guard and its webhook; prints them."""
    from pbp.errors import NotFound
    from pbp.models import Campaign
    from pbp.services import campaign_settings
    from pbp.services.rounds import policy

    given = {"publish_automatically": publish_automatically, "hold_share": hold_share, "webhook": webhook}
    with open_db():
        found = Campaign.get_or_none(Campaign.slug == slug)
        if found is None:
            raise NotFound(f"no campaign {slug!r}")
        campaign_settings.change(found.id, actor_id=None, **{k: v for k, v in given.items() if v is not None})
        now = Campaign.get_by_id(found.id)
    auto = policy(now.policies, "publish_automatically")
    click.echo(
        f"campaign {now.slug}: publish automatically {'yes' if auto else 'no'}, hold share {now.hold_share:g}, "
        f"webhook {now.webhook_url or 'none'}"
    )
