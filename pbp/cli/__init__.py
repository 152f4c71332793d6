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


def _register(args: list[str] | None = None) -> None:
    """Register the commands. `pbp engine ...` registers the engine's alone: it imports no database driver, web
    framework or scheduler (half of its start-up time went to importing them)."""
    from pbp.cli import engine

    if (args or [])[:1] == ["engine"]:
        engine.register(cli)
        return
    from pbp.cli import campaign, db, demo, growth, notify, pack, rounds, run, scenarios, scheduler, site, users, verify

    modules = (engine, pack, db, campaign, scenarios, rounds, growth, demo, verify, site, scheduler, run, notify, users)
    for module in modules:
        module.register(cli)


def fail(*problems: str) -> None:
    """Exit 2 with one line on stderr (the CLI's contract for bad input): several problems are joined by "; "."""
    text = "; ".join(" ".join(p.split()) for p in problems if p.strip())
    click.echo(f"pbp: {text}", err=True)
    sys.exit(2)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: maps the project's errors to exit status 2 with one line each."""
    args = sys.argv[1:] if argv is None else argv
    _register(args)
    try:
        cli.main(args=args, prog_name="pbp", standalone_mode=False)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.UsageError as e:  # a mistyped command line: click's message, on one line like any bad input
        command = e.ctx.command_path if e.ctx else "pbp"
        where = command.removeprefix("pbp").strip()
        fail(f"{where + ': ' if where else ''}{e.format_message()} (see {command} --help)")
    except click.ClickException as e:
        fail(e.format_message())
    except click.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(1)
    except BadInput as e:
        fail(*(str(p) for p in e.problems))
    except (EngineError, UserError) as e:
        fail(str(e))
    except BrokenPipeError:
        sys.exit(1)
