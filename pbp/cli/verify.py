"""`pbp verify ROUND_ID | --bundle FILE` and `pbp export-round ROUND_ID`: anyone can re-run a published round."""

from __future__ import annotations

import sys

import click

from pbp.cli.db import ROW_ID
from pbp.engine import BadInput
from pbp.errors import UserError


def register(cli: click.Group) -> None:
    cli.add_command(verify)
    cli.add_command(export_round)


@click.command()
@click.argument("round_id", type=ROW_ID, required=False)
@click.option("--bundle", "bundle_path", type=click.Path(dir_okay=False), help="a bundle file (no database needed)")
def verify(round_id: int | None, bundle_path: str | None) -> None:
    """Re-run a published round from its inputs and revealed seed (ROUND_ID: and check it starts where the
    scenario's previous round ended): prints OK (exit 0) or the first difference (exit 1)."""
    from pbp.cli.files import read_json
    from pbp.engine.verify import verify_bundle

    if (round_id is None) == (bundle_path is None):
        raise UserError("give a ROUND_ID or --bundle FILE")
    if bundle_path:
        bundle = read_json(bundle_path, "the bundle")
        if not isinstance(bundle, dict):
            raise UserError(f"{bundle_path}: not a JSON object")
        try:
            difference = verify_bundle(bundle)
        except BadInput as e:  # name the bundle file
            raise BadInput([p if p.file else p.with_file(bundle_path) for p in e.problems]) from None
    else:
        from pbp.cli.db import open_db
        from pbp.services.publishing import verify_round

        with open_db():
            difference = verify_round(round_id)
    if difference:
        click.echo(f"DIFFERENT: {difference}")
        sys.exit(1)
    click.echo("OK")


@click.command("export-round")
@click.argument("round_id", type=ROW_ID)
def export_round(round_id: int) -> None:
    """Write a published round's bundle (JSON) on stdout."""
    from pbp.cli.db import open_db
    from pbp.engine import canonical
    from pbp.services.publishing import round_bundle

    with open_db():
        bundle = round_bundle(round_id)
    click.echo(canonical.dumps(bundle))
