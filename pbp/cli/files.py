"""The files a command is given: read as UTF-8 text, and a problem is one line naming the file (exit 2)."""

from __future__ import annotations

import click

from pbp.errors import UserError


def read_text(path: str, what: str = "the file") -> str:
    """The text of `path` (`-`: standard input), newlines as `\\n`; UserError naming the file when it cannot be read
    or is not UTF-8 text (a Markdown file saved as Shift_JIS, say)."""
    try:
        with click.open_file(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise UserError(f"{path}: cannot read {what}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise UserError(f"{path}: {what} must be UTF-8 text") from None
