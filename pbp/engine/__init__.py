"""The rules engine. It is pure: no I/O, no clock, no framework.

Nothing in this package reads a file, looks at the time, or imports Flask, peewee, APScheduler, Jinja or
markdown (a test checks it in a fresh interpreter). Inputs are plain data (parsed JSON/TOML), a dice source and
options; outputs are plain data. The same inputs and dice give byte-identical output.
"""

from pbp.engine.dice import DiceSource, ScriptedDice, SeededDice, seed_hash
from pbp.engine.errors import BadInput, DiceExhausted, EngineError, Problem
from pbp.engine.ruleset import Resolution, Ruleset, find_ruleset, ruleset_ids, ruleset_named

__all__ = [
    "BadInput",
    "DiceExhausted",
    "DiceSource",
    "EngineError",
    "Problem",
    "Resolution",
    "Ruleset",
    "ScriptedDice",
    "SeededDice",
    "find_ruleset",
    "ruleset_ids",
    "ruleset_named",
    "seed_hash",
]
