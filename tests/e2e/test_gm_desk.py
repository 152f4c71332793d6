"""Issue 31, deliverables 1, 4 and 5, in a real browser: the 要対応 panel lists a held round and a refused publication
with their links; the GM keeps a secret term on its page and a short secret in an override reason is refused
beside the reason; the roster accepts two applicants and removes one. At 1280 and 360 px in ja and en, no sideways
scrolling; each page is saved under tests/e2e/screenshots/ (ignored by git) to be looked at."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pbp.models import Campaign, Character, Participation, Scenario, User
from pbp.services import entries, publishing, rounds, scenarios, secret_terms
from pbp.services.demo import PLAYERS
from pbp.services.publishing import LeakFound
from tests.e2e.conftest import log_in, shot
from tests.e2e.runs import cast, draft_round, entries_arrive

TERM = "紅月之契"  # a secret term of four kanji: the phrase check alone would pass it
SAYS = {
    "ja": {"held": "保留中", "refused": "公開停止", "term": "の秘密の語句", "accepted": "参加を認めました"},
    "en": {"held": "Held", "refused": "Publication refused", "term": "secret term of", "accepted": "Accepted"},
}


def _shot(page, name: str, lang: str, width: int) -> None:
    shot(page, f"gm-desk-{name}-{lang}-{width}")


def _held_and_refused(site) -> tuple[int, int, str]:
    """A run's open round held by the GM, and another run's resolved round whose automatic publication the leak
    check refused (its outro names the secret term); their ids, and the second run's slug."""
    held_run, refused_run = site.new_run(), site.new_run()
    cast(site, held_run)
    cast(site, refused_run)
    held = draft_round(site, held_run)
    refused = draft_round(site, refused_run, hours=1)
    with site.db():
        gm = User.get(User.name == "gm").id
        rounds.open_round(held, actor_id=gm, clock=site.clock)
        rounds.hold_round(held, reason="待って", actor_id=gm, clock=site.clock)
        rounds.open_round(refused, actor_id=gm, clock=site.clock)
    entries_arrive(site, refused)
    with site.db():
        rounds.resolve_by_hand(refused, anyway=True, actor_id=gm, clock=site.clock)
        scenario = Scenario.get(Scenario.slug == refused_run).id
        secret_terms.set_terms(scenario, TERM, actor_id=gm, clock=site.clock)
        publishing.edit_report(refused, outro=f"{TERM}が結ばれた。", actor_id=gm, clock=site.clock)
        with pytest.raises(LeakFound):
            publishing.publish_automatically(refused, clock=site.clock)
    return held, refused, refused_run


def _applicants(site) -> tuple[str, list[int]]:
    """A run with a sign-up deadline the demo players' characters applied for; its slug and their ids."""
    run = site.new_run()
    with site.db():
        scenario = Scenario.get(Scenario.slug == run)
        scenarios.set_signup_deadline(scenario.id, site.clock.now() + timedelta(hours=6), clock=site.clock)
    cast(site, run)
    with site.db():
        campaign = Campaign.get(Campaign.slug == "demo").id
        users = [User.get(User.name == name).id for name in PLAYERS]
        ids = [Character.get(Character.owner == uid, Character.campaign == campaign).id for uid in users]
        assert {p.status for p in Participation.select().where(Participation.scenario == scenario.id)} == {"applied"}
    return run, ids


@pytest.mark.parametrize("width", [1280, 360])
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_desk_the_secret_terms_and_the_roster(site, page_factory, lang, width) -> None:
    says = SAYS[lang]
    held, refused, refused_run = _held_and_refused(site)
    page = page_factory(lang, width)
    log_in(page, site.url, "gm")

    page.goto(site.url + "/gm/demo/")
    held_item = page.locator(f"li.desk-held:has(a[href='/gm/demo/rounds/{held}/'])")
    refused_item = page.locator(f"li.desk-publish_refused:has(a[href='/gm/demo/rounds/{refused}/report'])")
    assert says["held"] in held_item.inner_text() and says["refused"] in refused_item.inner_text()
    _shot(page, "panel", lang, width)
    refused_item.locator("a").click()
    page.wait_for_url(f"**/gm/demo/rounds/{refused}/report")
    assert TERM in page.locator("p.watched").inner_text()

    page.goto(site.url + f"/gm/demo/scenarios/{refused_run}/secrets")
    assert TERM in page.locator("textarea[name=secret_terms]").input_value()
    _shot(page, "secrets", lang, width)

    page.goto(site.url + f"/gm/demo/rounds/{refused}/review")
    page.select_option("select[name=check]", index=1)  # the first is the prompt
    page.fill("input[name=successes]", "0")
    page.fill("textarea#reason", f"{TERM}のため")  # the override's (the judging forms have theirs)
    page.click("section.override-form button.primary")
    page.wait_for_selector("section.override-form .error")
    assert says["term"] in page.locator("section.override-form .error").inner_text()
    assert page.locator("textarea#reason").input_value() == f"{TERM}のため"
    _shot(page, "override-refused", lang, width)

    run, (first, second) = _applicants(site)
    roster = f"/gm/demo/scenarios/{run}/roster"
    page.goto(site.url + roster)
    for character in (first, second):
        page.click(f"tr#signup-{character} button[value=accept]")
        page.wait_for_url(f"**{roster}?done=accept")
        assert says["accepted"] in page.locator("p.notice[role=status]").inner_text()
    page.click(f"tr#signup-{second} button[value=remove]")
    page.wait_for_url(f"**{roster}?done=remove")
    _shot(page, "roster", lang, width)
    with site.db():
        scenario = Scenario.get(Scenario.slug == run).id
        signed = {p.character_id: p.status for p in Participation.select().where(Participation.scenario == scenario)}
    assert signed == {first: "joined"}
    with site.db():  # the hand-resolved round stays unpublished; the term watched there is the GM's to drop
        assert rounds.Round.get_by_id(refused).state == "resolved"
        assert entries.Entry.select().where(entries.Entry.round == refused).count() == len(PLAYERS)
