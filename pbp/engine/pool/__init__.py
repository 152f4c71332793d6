"""The `pool` ruleset (seed 004): success-count checks, engagements, two gauges, six bad statuses."""

from pbp.engine.pool.ruleset import POOL

__all__ = ["POOL"]
