"""`pbp serve` and `pbp export-site DIR`: the web app, and the public blog as static files."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from flask import Flask


def register(cli: click.Group) -> None:
    cli.add_command(serve)
    cli.add_command(export_site)


def _app(site_url: str | None = None) -> Flask:
    """The app for a command (Flask is imported lazily, so other commands start without the web stack)."""
    from pbp.cli.db import open_db
    from pbp.web import create_app

    with open_db():  # refuses, with a hint, a database that is missing or behind the code
        pass
    app = create_app()
    if site_url:
        app.config["SITE_URL"] = site_url
    return app


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--debug", is_flag=True, help="Flask's debugger and reloader (never on a public address).")
def serve(host: str, port: int, debug: bool) -> None:
    """Serve the web app (development server; run gunicorn 'pbp.web:create_app()' in production)."""
    _app().run(host=host, port=port, debug=debug, use_reloader=debug)


@click.command("export-site")
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--base-url", help="Absolute URL the export will be served from (feeds and OpenGraph need it).")
def export_site(directory: str, base_url: str | None) -> None:
    """Write the whole public blog (pages, feeds, bundles, assets) as static files under DIRECTORY: a new or empty
    folder, or one an earlier export wrote (it holds a .pbp-export file)."""
    from pbp.errors import UserError
    from pbp.web.export import check_target
    from pbp.web.export import export_site as export

    if not directory.strip():  # Path("") is the current folder
        raise UserError("export-site needs a folder to write to: DIRECTORY is empty")
    out = Path(directory)
    check_target(out)  # before the database is opened: a wrong folder is said at once
    app = _app(base_url)
    try:
        files = export(app, out)
    except OSError as e:
        raise UserError(f"cannot write {e.filename or directory}: {e.strerror}") from None
    click.echo(f"{len(files)} files written to {directory}")
    if not app.config["SITE_URL"]:
        click.echo("note: no --base-url (nor SITE_URL): the feeds' ids and links and the OpenGraph URLs point at "
                   "http://localhost/; pass --base-url https://your.site/ for an export others read")  # fmt: skip
