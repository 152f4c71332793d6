"""A ruleset's rules page: a primer of the game's words for players (`docs/rules/<ruleset>.players.md`, or its
translation `<ruleset>.players.<locale>.md`), then the project's own rules reference (`docs/rules/<ruleset>.md`, or
its translation `<ruleset>.<locale>.md` where there is one) rendered, each rule anchored by its id (`#R-HIT-2`),
each bad status of the R-BS table by `#status-<id>`, every mention of a rule linked to it; and which rule an engine
refusal (`refused` event `reason`) follows, so a page can link a reason to its rule.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import markdown

from pbp.engine.ruleset import ruleset_ids
from pbp.paths import PROJECT_ROOT

RULES_DIR = PROJECT_ROOT / "docs" / "rules"
RULE_ID = re.compile(r"[RK]-[A-Z]+-\d+")  # pool's R-HIT-2, kancolle's K-CHECK-7
_RULE_ITEM = re.compile(r"<li><strong>([RK]-[A-Z]+-\d+)</strong>")
_PRIMER_HEADING = re.compile(r'<h2 id="([a-z-]+)">(.*?)</h2>')
_STATUS_ROW = re.compile(r"<tr>\n<td><code>([a-z_]+)</code></td>")
_HEADING = re.compile(r"<h([23])>(.*?)</h\1>")
_TAG_OR_TEXT = re.compile(r"(<[^>]*>)")

#: The `pool` engine's refusal reasons (pbp/engine/pool/events.py, `refused`) -> the rule (or the R-BS table row)
#: that refuses the order.
REASON_RULES: dict[str, str] = {
    "out_of_range": "R-ENG-5",
    "no_ammo": "R-MAJOR-1",
    "arm_damage": "status-arm_damage",
    "leg_damage": "status-leg_damage",
    "system_down": "status-system_down",
    "item_while_riding": "R-CHECK-6",
    "item_not_applicable": "R-CHECK-7",
    "dead": "R-FIX-7",
    "removed": "R-FIX-7",
    "target_gone": "R-FIX-7",
    "engaged": "R-FIX-7",
    "not_ready": "R-FIX-2",
    "not_engaged": "R-ENG-4",
    "no_uses": "R-FIX-11",
    "wrong_timing": "R-SETUP-1",
    "one_setup_action": "R-FIX-11",
    "not_recoverable": "R-MAJOR-1",
    "not_reloadable": "R-MINOR-1",
    "cannot_move": "R-MINOR-1",
    "heat": "status-heat",  # an attack skipped by heat (`skipped: "heat"`)
}
#: The `kancolle` engine's refusal reasons (its digest's §13) -> the rule that refuses the order.
KANCOLLE_REASON_RULES: dict[str, str] = {
    "unable_to_act": "K-CHECK-11",
    "removed": "K-OUT-1",
    "target_gone": "K-PLAY-5",
    "out_of_range": "K-SHELL-5",
    "no_piece": "K-NIGHT-3",
    "night_aircraft": "K-NIGHT-3",
    "taiha_night": "K-NIGHT-3",
    "revealed": "K-FORM-3",
    "no_partner": "K-BASE-4",
    "discovery_taken": "K-BASE-5",
    "trait_held": "K-BASE-5",
    "too_many_traits": "K-BASE-5",
    "no_resources": "K-BASE-8",
    "no_affinity": "K-BASE-8",
    "too_few_traits": "K-END-2",
}
_REASONS = {"pool": REASON_RULES, "kancolle": KANCOLLE_REASON_RULES}


def known(ruleset: str) -> bool:
    return ruleset in ruleset_ids() and reference(ruleset).is_file()


def language(ruleset: str, locale: str) -> str:
    """The language a page in `locale` shows the reference in: `locale` where it is translated (`pool.ja.md`), else
    English, the reference's own (`pool.md`)."""
    return locale if reference(ruleset, locale).is_file() else "en"


def reference(ruleset: str, lang: str = "en", part: str = "") -> Path:
    """The reference's file (`part` "players": the primer's) in `lang`."""
    name = f"{ruleset}.{part}" if part else ruleset
    return RULES_DIR / (f"{name}.md" if lang == "en" else f"{name}.{lang}.md")


@cache
def primer(ruleset: str, locale: str) -> str | None:
    """The players' primer (what a check, an engagement, a gauge and each status are) as HTML in `locale`, else in
    English; None for a ruleset without one. Its first heading is left out: the page sets its own."""
    lang = locale if reference(ruleset, locale, "players").is_file() else "en"
    path = reference(ruleset, lang, "players")
    if not path.is_file():
        return None
    html = markdown.markdown(
        path.read_text(encoding="utf-8"), extensions=["sane_lists", "attr_list"]
    )  # the project's own text
    return re.sub(r"^<h1>.*?</h1>\n?", "", html)


def primer_sections(html: str) -> list[tuple[str, str]]:
    """The primer's sections as (anchor, title), for the page's short table of contents."""
    return [(anchor, re.sub(r"<[^>]+>", "", title)) for anchor, title in _PRIMER_HEADING.findall(html)]


def anchor_of(rule_or_reason: str, ruleset: str = "pool") -> str:
    """The fragment a rule id or a refusal reason of `ruleset` links to on its rules page."""
    return _REASONS.get(ruleset, {}).get(rule_or_reason, rule_or_reason)


def _link_mentions(html: str, ids: set[str]) -> str:
    """Every `R-XXX-N` of the text a link to its anchor; never inside a tag, a link (a rule's own heading) or code
    (`@pytest.mark.rule("R-HIT-2")` is an example, not a reference)."""
    out, inside = [], None  # the element whose text is left alone: "a" or "code"
    for part in _TAG_OR_TEXT.split(html):
        if part.startswith("<"):
            name = re.match(r"</?(\w+)", part)
            if inside is None and name and name[1] in ("a", "code") and not part.startswith("</"):
                inside = name[1]
            elif inside is not None and part == f"</{inside}>":
                inside = None
            out.append(part)
        elif inside is not None:
            out.append(part)
        else:
            out.append(RULE_ID.sub(lambda m: f'<a href="#{m[0]}">{m[0]}</a>' if m[0] in ids else m[0], part))
    return "".join(out)


@cache
def rules_page(ruleset: str, lang: str = "en") -> tuple[str, list[tuple[str, str]], list[str]]:
    """The reference in `lang` (`language`) as HTML (its first heading left out: the page sets its own), its
    sections as (anchor, title) for a table of contents, and every rule id it defines. Read once: the files are part
    of the installed code."""
    text = reference(ruleset, lang).read_text(encoding="utf-8")
    html = markdown.markdown(text, extensions=["tables", "sane_lists"])  # the project's own text: trusted
    html = re.sub(r"^<h1>.*?</h1>\n?", "", html)
    ids = _RULE_ITEM.findall(html)
    html = _RULE_ITEM.sub(r'<li id="\1"><a class="rule-id" href="#\1"><strong>\1</strong></a>', html)
    html = _link_mentions(html, set(ids))
    html = _STATUS_ROW.sub(r'<tr id="status-\1">\n<td><code>\1</code></td>', html)
    sections: list[tuple[str, str]] = []

    def heading(m: re.Match[str]) -> str:
        anchor = f"s{len(sections) + 1}"
        sections.append((anchor, re.sub(r"<[^>]+>", "", m[2])))
        return f'<h{m[1]} id="{anchor}">{m[2]}</h{m[1]}>'

    html = _HEADING.sub(heading, html)
    return html, sections, ids
