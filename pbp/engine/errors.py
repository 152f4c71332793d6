"""The engine's errors: few, specific, all `ValueError`s, each able to say where the problem is."""

from __future__ import annotations

from dataclasses import dataclass, replace


def N_(template: str) -> str:
    """Mark an English template (`%(name)s` placeholders) for the web's catalogs; the engine itself speaks English."""
    return template


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input: the file (when known), the field path inside it and what is wrong. A problem
    a page shows (a player's form, the GM's console) also keeps its `template` and `params`, so the page can say it
    in its reader's language (the message is the template with the params put in)."""

    path: str
    message: str
    file: str | None = None
    template: str | None = None
    params: tuple[tuple[str, object], ...] = ()

    @classmethod
    def said(cls, path: str, template: str, **params: object) -> Problem:
        """A problem worded by a marked template (`N_`) and its parameters."""
        return cls(path, template % params, template=template, params=tuple(params.items()))

    def with_file(self, file: str) -> Problem:
        return replace(self, file=file)

    def __str__(self) -> str:
        where = f"{self.file}: " if self.file else ""
        return f"{where}{self.path}: {self.message}" if self.path else f"{where}{self.message}"


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""


class BadInput(EngineError):
    """The input is malformed: every problem found is listed, not just the first."""

    def __init__(self, problems: list[Problem] | Problem):
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


class DiceExhausted(EngineError):
    """A scripted dice source ran out: the script was shorter than the rules needed."""

    def __init__(self, used: int):
        self.used = used
        super().__init__(f"dice exhausted after {used}")
