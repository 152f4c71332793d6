"""docs/lifecycle.md documents every lifecycle command, and documents none that does not exist."""

from __future__ import annotations

import re

import click

from pbp.cli import campaign, db, demo, rounds, verify
from pbp.paths import PROJECT_ROOT

DOC = (PROJECT_ROOT / "docs" / "lifecycle.md").read_text(encoding="utf-8")


def _commands() -> set[str]:
    group = click.Group()
    for module in (db, campaign, rounds, demo, verify):
        module.register(group)
    names = set()
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            names |= {f"pbp {name} {sub}" for sub in command.commands}
        else:
            names.add(f"pbp {name}")
    return names


def test_every_command_is_documented_and_every_documented_one_exists() -> None:
    # A table row starts with the command: `pbp round open ID`, `pbp demo [--deadline-in ...]`, `pbp verify ...`.
    documented = {" ".join(m.split()[:3]) for m in re.findall(r"^\| `(pbp [a-z][a-z -]*)", DOC, re.M)}
    assert documented == _commands()
