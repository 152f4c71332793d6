"""Small checks every service shares: fetching a row or refusing, and text limits."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, TypeVar

from pbp.db import is_sqlite
from pbp.engine import Problem, canonical
from pbp.errors import N_, Joined, NotFound, Refusals, Text, UserError
from pbp.models import BaseModel
from pbp.text import first_non_text, hidden_character, text_problem

M = TypeVar("M", bound=BaseModel)

NAME_LIMIT = 80
REASON_LIMIT = 500
MARKDOWN_LIMIT = 50_000  # what pbp.reports renders at most
SHEET_LIMIT = 20_000  # characters of a character sheet's canonical JSON (descriptions included)
ORDER_LIMIT = 4_000  # characters of one entry's order (canonical JSON)
ROW_ID_MAX = 2**63 - 1  # the largest id a database row can have (a larger one overflows the query's integer)


def get_or_fail(model: type[M], row_id: int, label: str) -> M:
    """The row, or a UserError naming what is missing (e.g. "no round 12"); an id no row can have (a form may send
    any number) is missing too, not an overflow in the query."""
    row = model.get_or_none(model.id == row_id) if 1 <= row_id <= ROW_ID_MAX else None
    if row is None:
        raise NotFound(N_("no %(label)s %(id)s", label=label, id=row_id))
    return row


def problem_message(problem: Problem) -> str:
    """A problem's message, as a `Text` when the engine worded it by a marked template (a page then says it in its
    language), else the engine's English."""
    return problem.message if problem.template is None else Text(problem.template, **dict(problem.params))


def said_problems(problems: Iterable[Problem]) -> Joined:
    """The engine's problems as the English line the CLI prints (each after its file and field path, as
    `Problem.__str__` puts them, joined by "; "), each said in a page's language where the engine worded it by a
    template: what a refusal puts in its message."""
    return Joined([Joined([str(p).removesuffix(p.message), problem_message(p)]) for p in problems], "; ")


def order_refusal(problems: Iterable[Problem]) -> Refusals:
    """The engine's problems with an order (a form's single order: `orders[0].` is not part of their paths) as one
    refusal of the "order": the English line the CLI prints (`said_problems`), and each problem with its path,
    which the entry form places beside its field."""
    problems = list(problems)
    placed = [(re.sub(r"^(?:orders|cycle)\[0\]\.", "", p.path), problem_message(p)) for p in problems]
    return Refusals(said_problems(problems), "order", placed)


def is_text(value: str) -> bool:
    """Whether `value` is text a service may store or look up (see `text_problem`)."""
    return text_problem(value) is None


def lf_lines(text: str) -> str:
    """A textarea's text with its line breaks as LF: a browser sends CRLF, and one line break is one character,
    counted and stored the same way the form's counter counts it."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def storable_text(value: str, field: str) -> str:
    """`value` as it is, refused (naming `field`) when it is not text (see `text_problem`): nothing is dropped."""
    problem = text_problem(value)
    if problem:
        raise UserError(N_("%(field)s %(problem)s: not text", field=field, problem=problem), field)
    return value


def checked_text(value: str, field: str, limit: int, *, required: bool = True) -> str:
    """`value` stripped, refused when it is not text, empty (if required) or longer than `limit`."""
    text = storable_text(value, field).strip()
    if required and not text:
        raise UserError(N_("%(field)s must not be empty", field=field), field)
    if len(text) > limit:
        raise UserError(
            N_(
                "%(field)s has %(count)d characters, over the limit of %(limit)d",
                field=field,
                count=len(text),
                limit=limit,
            ),
            field,
        )
    return text


def checked_name(value: str, field: str, limit: int = NAME_LIMIT) -> str:
    """A name (a user's display name, a character's): `checked_text`, and refused when it holds a character that
    hides or reorders text (`_NOT_IN_NAMES`); the message names the character."""
    text = checked_text(value, field, limit)
    char = hidden_character(text)
    if char:
        raise UserError(
            N_(
                "%(field)s holds %(char)s, a control, invisible or direction-changing character: "
                "type the name without it",
                field=field,
                char=char,
            ),
            field,
        )
    return text


def storable_json(value: Any, field: str) -> Any:
    """`value` as it is, refused when a string anywhere in it is not text; the message names its key path
    (`order.major.targets[0] holds a NUL character`)."""
    found = first_non_text(value, field)
    if found:
        raise UserError(N_("%(field)s %(problem)s: not text", field=found[0], problem=found[1]), field)
    return value


def checked_json(value: Any, field: str, limit: int) -> dict[str, Any]:
    """`value` if it is a JSON object of text (see `storable_json`) whose canonical form has at most `limit`
    characters."""
    if not isinstance(value, dict):
        raise UserError(N_("%(field)s must be a JSON object", field=field), field)
    try:
        size = len(canonical.dumps(value))
    except RecursionError:
        raise UserError(N_("%(field)s is nested too deep", field=field), field) from None
    if size > limit:
        raise UserError(
            N_(
                "%(field)s has %(count)d characters of JSON, over the limit of %(limit)d",
                field=field,
                count=size,
                limit=limit,
            ),
            field,
        )
    return storable_json(value, field)


def locked(model: type[M], row_id: int, label: str) -> M:
    """The row as it is now, inside the caller's write transaction, locked until the commit (PostgreSQL: FOR UPDATE;
    SQLite's BEGIN IMMEDIATE already serialises writers); a UserError naming what is missing. A change starts from
    this copy, never from one read before the transaction, which another writer may have changed since."""
    query = model.select().where(model.id == row_id)
    rows = list(query if is_sqlite() else query.for_update())
    if not rows:
        raise NotFound(N_("no %(label)s %(id)s", label=label, id=row_id))
    return rows[0]
