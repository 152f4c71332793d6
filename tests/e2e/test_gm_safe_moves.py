"""Issue 31, deliverable 2, in a real browser: "今すぐ処理" on an open round with its deadline ahead and no entry in
asks first, naming who has no entry, the time left and the publish policy; the guard is the default button and
holds the round, "resolve anyway" the second. At 1280 and 360 px in ja and en, no sideways scrolling; each
confirmation page is saved under tests/e2e/screenshots/ (ignored by git) to be looked at."""

from __future__ import annotations

import pytest

from pbp.models import Round, User
from pbp.services import rounds
from tests.e2e.conftest import SCREENSHOTS, log_in, no_horizontal_scroll
from tests.e2e.runs import cast, draft_round

SAYS = {
    "ja": {
        "ask": "このラウンドを今すぐ処理しますか？",
        "missing": "2人中2人が未提出です",
        "held": "ガードがラウンドを処理せずに保留しました",
    },
    "en": {
        "ask": "Resolve this round now?",
        "missing": "2 of 2 characters have no entry",
        "held": "The guard held the round",
    },
}


@pytest.mark.parametrize("width", [1280, 360])
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_resolve_now_asks_first_and_the_guard_holds(site, page_factory, lang, width) -> None:
    says = SAYS[lang]
    run = site.new_run()
    cast(site, run)
    round_id = draft_round(site, run)
    with site.db():
        rounds.open_round(round_id, actor_id=User.get(User.name == "gm").id, clock=site.clock)
    page = page_factory(lang, width)
    log_in(page, site.url, "gm")

    page.goto(site.url + f"/gm/demo/rounds/{round_id}/")
    page.click("form.action-resolve button")
    page.wait_for_selector("form.confirm-move")
    assert page.locator("h1").inner_text() == says["ask"]
    assert says["missing"] in page.locator(".missing-facts").inner_text()
    assert page.locator(".missing-names li").count() == 2
    assert no_horizontal_scroll(page)
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"safe-moves-confirm-{lang}-{width}.png"), full_page=True)
    with site.db():
        assert Round.get_by_id(round_id).state == "open"  # asking changed nothing

    page.click("form.confirm-move button.primary")  # the guard's button comes first
    page.wait_for_url(f"**/gm/demo/rounds/{round_id}/?done=held")
    assert says["held"] in page.locator("p.notice[role=status]").inner_text()
    with site.db():
        assert Round.get_by_id(round_id).state == "held"
