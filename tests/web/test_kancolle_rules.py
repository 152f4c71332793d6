"""The players' rules page for kancolle (/rules/kancolle/, issue 32): the primer of the game's words in the page's
language (a behaviour check, the grid, AP and re-challenges, emotion and support, the battle's phases, the night,
damage states), then every K-rule of docs/rules/kancolle.md under its id, every refusal reason of the engine linked
to a rule there. The kancolle report's dice log linking to it is tested with the journey (tests/web/
test_kancolle_journey.py)."""

from __future__ import annotations

import re

import pytest

from pbp.web.data.rulebook import KANCOLLE_REASON_RULES, RULES_DIR, anchor_of
from tests.web.conftest import make_app

PRIMER = ("check", "grid", "ap", "emotion", "battle", "night", "damage")


@pytest.fixture(params=["ja", "en"])
def page(world, request) -> tuple[str, str]:
    response = make_app(world.url, LOCALE=request.param).test_client().get("/rules/kancolle/")
    assert response.status_code == 200
    return response.get_data(as_text=True), request.param


def test_every_kancolle_rule_has_its_anchor_and_the_primer_its_sections(page):
    html, _lang = page
    ids = re.findall(r"^- \*\*(K-[A-Z]+-\d+)\*\*", (RULES_DIR / "kancolle.md").read_text(encoding="utf-8"), re.M)
    assert len(ids) > 150
    for rule in ids:
        assert f'<li id="{rule}">' in html, rule
    assert '<a href="#K-RETRY-4">K-RETRY-4</a>' in html  # a mention (inside K-PLAY-2) links to its rule
    for anchor in PRIMER:
        assert f'<h2 id="{anchor}">' in html and f'<li><a href="#{anchor}">' in html, anchor


def test_the_primer_is_in_the_pages_language(page):
    html, lang = page
    primer = html.split('<section class="primer">', 1)[1].split("</section>", 1)[0]
    if lang == "ja":
        assert "行為判定</h2>" in primer and "夜戦</h2>" in primer and "behaviour check" not in primer
    else:
        assert "A behaviour check (行為判定)</h2>" in primer and "The night battle (夜戦)</h2>" in primer


def test_every_kancolle_refusal_reason_links_to_a_rule_on_the_page(page):
    html, _lang = page
    digest = (RULES_DIR / "kancolle.md").read_text(encoding="utf-8")
    listed = re.search(r"reasons: ([a-z_,\s]+)\.", digest)[1]
    reasons = {r.strip() for r in listed.split(",")}
    assert reasons == set(KANCOLLE_REASON_RULES), "map each refusal reason of §13 to its rule"
    for reason in reasons:
        anchor = anchor_of(reason, "kancolle")
        assert f'<li id="{anchor}">' in html, (reason, anchor)
    assert anchor_of("target_gone", "pool") == "R-FIX-7"  # each ruleset its own reasons


def test_pools_rules_page_keeps_its_primer(world):
    html = make_app(world.url, LOCALE="en").test_client().get("/rules/pool/").get_data(as_text=True)
    for anchor in ("check", "engagement", "gauge", "statuses", "round"):
        assert f'<li><a href="#{anchor}">' in html, anchor


@pytest.mark.parametrize(
    ("locale", "ruleset", "title"),
    [
        ("ja", "kancolle", "ルール：艦これRPG"),
        ("en", "kancolle", "Rules: KanColle RPG"),
        ("ja", "pool", "ルール：成功数ルール"),
        ("en", "pool", "Rules: Success-count rules"),
    ],
)
def test_the_rules_page_names_its_ruleset_in_the_pages_language_not_by_its_id(world, locale, ruleset, title):
    html = make_app(world.url, LOCALE=locale).test_client().get(f"/rules/{ruleset}/").get_data(as_text=True)
    assert f"<h1>{title}</h1>" in html and f"<title>{title} — " in html
