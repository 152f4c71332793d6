"""The files a command is given: read as UTF-8 text, and a problem is one line naming the file (exit 2)."""

from __future__ import annotations

import json
from typing import Any

import click

from pbp.engine.errors import BadInput, Problem
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


def read_json(path: str, what: str) -> Any:
    """The JSON value in `path`; BadInput naming the file when it is not JSON: malformed, NaN or Infinity (Python's
    parser takes them), nested too deep to read, or holding text that is not Unicode (a lone surrogate escape)."""
    text = read_text(path, what)
    try:
        value = json.loads(text, parse_constant=_not_json)
        json.dumps(value, ensure_ascii=False).encode("utf-8")  # a "\ud800" escape parses but is no character
    except json.JSONDecodeError as e:
        raise BadInput(Problem("", f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}", path)) from None
    except RecursionError:
        raise BadInput(Problem("", "not readable JSON: nested too deep", path)) from None
    except UnicodeEncodeError:
        raise BadInput(
            Problem("", "not valid JSON text: a \\u escape names half a character (a lone surrogate)", path)
        ) from None
    except ValueError as e:  # NaN, Infinity
        raise BadInput(Problem("", f"not valid JSON: {e}", path)) from None
    return value


def _not_json(name: str) -> None:
    """NaN and Infinity are not JSON (Python's parser accepts them): refused like any other malformed text."""
    raise ValueError(f"{name} is not a JSON number")
