"""The `kancolle` ruleset (seed 000, 艦これRPG): 2d6 behaviour checks on a personality grid, the base phase and the
fleet battle. Rules: ../shared/rules/kancolle.md; contract: ../shared/spec/engine-cli-kancolle.md."""

from pbp.engine.kancolle.ruleset import KANCOLLE

__all__ = ["KANCOLLE"]
