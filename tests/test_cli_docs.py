"""Every `pbp` command is documented: the README or a page under docs/ names it (a new command without docs fails)."""

from __future__ import annotations

import click

from pbp.cli import _register, cli
from pbp.paths import PROJECT_ROOT


def command_paths(group: click.Group, prefix: str = "pbp") -> list[str]:
    paths = []
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            paths += command_paths(command, f"{prefix} {name}")
        else:
            paths.append(f"{prefix} {name}")
    return paths


def test_every_command_is_named_in_the_readme_or_the_docs() -> None:
    _register()
    text = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8") + "".join(
        p.read_text(encoding="utf-8") for p in sorted((PROJECT_ROOT / "docs").rglob("*.md"))
    )
    paths = command_paths(cli)
    assert len(paths) > 20
    assert [p for p in paths if p not in text] == []
