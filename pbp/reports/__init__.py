"""Reports: the engine's events told as a short story (SS), people's Markdown made safe, the dice log, the feeds.

This layer sits beside the models, above the engine: it reads plain data (round bundles, Markdown text) and returns
text. It imports neither Flask nor peewee, so the scheduler, the CLI and the web app all use it alike.
"""

from importlib.util import find_spec
from typing import Any

from pbp.reports import narrative
from pbp.reports.fallback import fallback_report
from pbp.reports.markdown import plain_text, render_markdown
from pbp.reports.narrative import NarrativeError, sentences


def draft_report(bundle: dict[str, Any], **kwargs: Any) -> str:
    """The generated story of one round (`narrative.draft_report`, whose arguments these are, picks the narrator
    by the bundle's ruleset). A ruleset other than pool whose stories have not landed (no `<ruleset>_story`
    module) gets the plain factual draft instead, so that its rounds resolve and publish meanwhile."""
    ruleset = str(bundle.get("ruleset") or "pool")
    if ruleset == "pool" or find_spec(f"pbp.reports.{ruleset}_story") is not None:
        return narrative.draft_report(bundle, **kwargs)
    return fallback_report(bundle, prose=kwargs["prose"], locale=kwargs.get("locale", "ja"), names=kwargs.get("names"))


__all__ = ["NarrativeError", "draft_report", "plain_text", "render_markdown", "sentences"]
