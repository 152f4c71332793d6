"""pbp: a play-by-post campaign manager with short-story (SS) reports."""

__version__ = "0.1.0"
