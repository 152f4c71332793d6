"""The `pbp` command line. Commands are thin: parse, call the engine or a service, print.

Bad input never shows a traceback: every problem is one line on stderr and the exit status is 2.
"""

from __future__ import annotations

import sys

import click

from pbp.engine.errors import BadInput, EngineError
from pbp.errors import UserError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pbp")
def cli() -> None:
    """pbp: play-by-post campaigns, batch-resolved rounds and short-story reports."""


def _register() -> None:
    from pbp.cli import campaign, db, demo, engine, pack, rounds, scheduler, site, verify

    for module in (engine, pack, db, campaign, rounds, demo, verify, site, scheduler):
        module.register(cli)


def fail(message: str) -> None:
    """Print one line per problem on stderr and exit 2 (the CLI's contract for bad input)."""
    for line in message.splitlines() or [""]:
        click.echo(f"pbp: {line}", err=True)
    sys.exit(2)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: maps the project's errors to exit status 2 with one line each."""
    _register()
    try:
        cli.main(args=argv, prog_name="pbp", standalone_mode=False)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.ClickException as e:
        e.show()
        sys.exit(2)
    except click.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(1)
    except BadInput as e:
        fail("\n".join(str(p) for p in e.problems))
    except (EngineError, UserError) as e:
        fail(str(e))
    except BrokenPipeError:
        sys.exit(1)
