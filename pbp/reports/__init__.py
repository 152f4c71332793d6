"""Reports: the engine's events told as a short story (SS), people's Markdown made safe, the dice log, the feeds.

This layer sits beside the models, above the engine: it reads plain data (round bundles, Markdown text) and returns
text. It imports neither Flask nor peewee, so the scheduler, the CLI and the web app all use it alike. `draft_report`
picks the narrator by the bundle's ruleset (pool's battles and scenes, kancolle's fleet battle and base phase).
"""

from pbp.reports.markdown import plain_text, render_markdown
from pbp.reports.narrative import NarrativeError, draft_report, sentences

__all__ = ["NarrativeError", "draft_report", "plain_text", "render_markdown", "sentences"]
