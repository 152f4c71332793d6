"""Issue 31, item 7 (first half), in a real browser: on the review of an open round the GM gives one entry a play
bonus and adds an ad-hoc check for a creative action; the round resolves and publishes, `pbp verify` reproduces
it, and the published report says both in words (the bonus among the GM's actions and in the dice log's pool, the
ad-hoc check under its roll and its outcome in the story), in ja and en, at 1280 and 360 px without sideways
scrolling. Pages are saved under tests/e2e/screenshots/ (ignored by git) to be looked at."""

from __future__ import annotations

import pytest

from pbp.models import Resolution, Round, User
from pbp.services import publishing, rounds
from tests.e2e.conftest import log_in, shot
from tests.e2e.runs import cast, draft_round, entries_arrive

REASON = {"ja": "挟撃の段取りが見事だった", "en": "a superb pincer plan"}
ADHOC = {"ja": "敵の無線を傍受する工夫", "en": "listening in on the enemy radio"}
TOLD = {"ja": "敵の通信が一瞬だけ聞き取れた。", "en": "For a moment the enemy channel came through."}
SAYS = {
    "ja": {"bonus": "プレイングボーナス", "adhoc": "GMの臨時判定", "judging": "プレイングの判定"},
    "en": {"bonus": "Play bonus for", "adhoc": "GM's ad-hoc check", "judging": "Judging the entries"},
}


def _shot(page, name: str, lang: str, width: int) -> None:
    shot(page, f"gm-judging-{name}-{lang}-{width}")


@pytest.mark.parametrize(("lang", "width"), [("ja", 360), ("en", 1280)])  # each language, each width (suite time)
def test_a_play_bonus_and_an_adhoc_check_reach_the_published_report(site, page_factory, lang, width) -> None:
    says = SAYS[lang]
    run = site.new_run()
    cast(site, run)
    rid = draft_round(site, run)
    with site.db():
        gm = User.get(User.name == "gm").id
        rounds.open_round(rid, actor_id=gm, clock=site.clock)
    entries_arrive(site, rid)
    page = page_factory(lang, width)
    log_in(page, site.url, "gm")

    page.goto(site.url + f"/gm/demo/rounds/{rid}/review")
    judging = page.locator("section#judging")
    assert says["judging"] in judging.locator("h2").inner_text()
    page.select_option("select[name=character]", index=1)  # the first is the prompt
    page.fill("input[name=dice]", "1")
    page.fill("section#judging form:has(select[name=character]) textarea[name=reason]", REASON[lang])
    page.click("section#judging form:has(select[name=character]) button.primary")
    page.wait_for_url("**done=bonus**")
    assert REASON[lang] in page.locator("ul.bonuses").inner_text()

    page.select_option("select[name=roll]", index=1)
    page.fill("input[name=need]", "0")  # needs nothing: the story's words are the success's
    page.fill("input[name=success_text]", TOLD[lang])
    page.fill("section#judging form:has(select[name=roll]) textarea[name=reason]", ADHOC[lang])
    page.click("section#judging form:has(select[name=roll]) button.primary")
    page.wait_for_url("**done=adhoc**")
    assert ADHOC[lang] in page.locator("ol.adhoc-checks").inner_text()
    page.locator("section#judging").scroll_into_view_if_needed()
    _shot(page, "review", lang, width)

    with site.db():
        rounds.resolve_by_hand(rid, anyway=True, actor_id=gm, clock=site.clock)
        publishing.publish_round(rid, actor_id=gm, clock=site.clock)
        assert publishing.verify_round(rid) is None
        res = Resolution.get(Resolution.round == rid)
        number = Round.get_by_id(rid).number
    assert any(a["kind"] == "bonus" for a in res.gm_actions) and len(res.adhoc_checks) == 1

    page.goto(site.url + f"/blog/demo/{run}/round-{number}/")
    actions = page.locator("ol.gm-actions").inner_text()
    assert says["bonus"] in actions and REASON[lang] in actions
    adhoc = page.locator("ol.dicelog li:has(.adhoc-mark)")
    assert says["adhoc"] in adhoc.inner_text() and ADHOC[lang] in adhoc.inner_text()
    assert TOLD[lang] in page.locator("div.story").inner_text()
    _shot(page, "report", lang, width)
