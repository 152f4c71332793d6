"""The GM's whole journey in a real browser (issue 10, "Done when"), in Japanese and in English: the GM writes a
battle with the scenario form (enemies of the demo pack, GM notes holding a secret), the demo players' characters
join it, the GM creates the first round and opens it, the entries arrive, the GM orders an enemy, resolves, overrides
one check with a reason (R-GM-1), edits the story of the page's language with the secret in it, is stopped by the
leak check, which shows where, takes the secret out and publishes. The published report shows the ruling and its
reason, the GM's story and the ordered attack, and nowhere the secret. At 360 px no key page scrolls sideways."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest

from pbp.models import Character, Override, Round, User
from pbp.services import characters
from tests.e2e.conftest import log_in, no_horizontal_scroll
from tests.e2e.runs import cast, entries_arrive

#: The GM's secret, one phrase per language: the leak check finds each in the story of its language.
SECRET = {"ja": "北の堤防の下には地雷原が隠されている", "en": "A minefield lies hidden beneath the northern levee"}
GM_NOTES = f"{SECRET['ja']}。\n{SECRET['en']}."
REASON = {"ja": "川霧で照準がずれた", "en": "The river fog spoiled the aim"}
STORY = {"ja": "河原に砲声が響く。GMが書き足した一文。", "en": "Gunfire echoes over the riverbank, as the GM wrote it."}
#: What each language's pages say (the rest is asserted on ids, names and numbers).
SAYS = {
    "ja": {
        "draft": "下書き",
        "leak": "秘密情報チェック",
        "published": "公開しました",
        "ordered": "GMの指示",
        "ruling": "GM裁定",
    },
    "en": {
        "draft": "draft",
        "leak": "Leak check",
        "published": "Published",
        "ordered": "the GM's order",
        "ruling": "GM ruling",
    },
}
#: The Kagachi, the PC it is ordered to spit its acid at, and its acid. Left to the default tactics (R-FIX-9,
#: R-AIR-1) it would spit at Aoi: on the ground, Aoi is nearer to it than the flying Makoto.
NAMES = {"ja": ("カガチ壱", "真琴", "溶解液"), "en": ("Kagachi One", "Makoto", "Acid spit")}


def create_scenario(page, url: str, slug: str) -> None:
    """The scenario form: a battle, two start positions, a Kagachi and a Hayachi of the pack, the GM's secret
    notes."""
    page.goto(url + "/gm/demo/scenarios/new")
    page.fill("input[name=slug]", slug)
    page.fill("input[name=ja]", "河原の迎撃")
    page.fill("input[name=en]", "The Riverbank Interception")
    page.select_option("select[name=kind]", "battle")
    page.fill("input[name=slots]", "2")
    page.fill("textarea[name=description]", "川沿いを下るカガチを河原で迎え撃つ。")
    page.fill("textarea[name=gm_notes]", GM_NOTES)
    page.fill("textarea[name=pc_starts]", "0, 0\n40, 0")
    page.fill("input[name='enemies-0-id']", "kagachi1")
    page.select_option("select[name='enemies-0-type']", "kagachi")
    page.fill("input[name='enemies-0-x']", "100")
    page.fill("input[name='enemies-0-y']", "0")
    page.fill("input[name='enemies-0-name']", NAMES["ja"][0])
    page.fill("input[name='enemies-0-en']", NAMES["en"][0])
    page.fill("input[name='enemies-1-id']", "hayachi1")  # the demo players' prose names it: on the field, public
    page.select_option("select[name='enemies-1-type']", "hayachi")
    page.fill("input[name='enemies-1-x']", "300")
    page.fill("input[name='enemies-1-y']", "200")
    page.click("form.scenario-form button[type=submit]")
    page.wait_for_url(f"**/gm/demo/?done=created#scenario-{slug}")


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_create_open_order_resolve_override_edit_leak_publish(site, page_factory, lang) -> None:
    says, (kagachi, makoto, acid) = SAYS[lang], NAMES[lang]
    slug = f"kawara-ambush-{lang}"  # the session's site is shared: a run of its own
    page = page_factory(lang, 1280)
    log_in(page, site.url, "gm")

    create_scenario(page, site.url, slug)
    cast(site, slug)  # the demo players' characters join it, as the scenario page would

    page.goto(site.url + f"/gm/demo/scenarios/{slug}/rounds/new")
    deadline = (site.clock.now() + timedelta(hours=12)).astimezone(ZoneInfo("Asia/Tokyo"))
    page.fill("input[name=deadline]", deadline.strftime("%Y-%m-%dT%H:%M"))
    page.click("form.form button.primary")
    page.wait_for_url("**/gm/demo/rounds/*/**")
    round_id = int(page.url.split("/rounds/")[1].split("/")[0])
    assert says["draft"] in page.locator("h1 .state").inner_text()
    page.click("form.action-open button")
    page.wait_for_url(f"**/gm/demo/rounds/{round_id}/?done=open")
    assert page.locator(".entry-card.missing").count() == 2

    entries_arrive(site, round_id)
    page.reload()
    assert page.locator(".entry-card").count() == 2 and page.locator(".entry-card.missing").count() == 0

    # The enemy's order, from the campaign's overview: its acid at Makoto, whom the default tactics would spare.
    page.goto(site.url + "/gm/demo/")
    page.click(f'a[href="/gm/demo/rounds/{round_id}/actions"]')
    page.click(f'a[href="/gm/demo/rounds/{round_id}/orders/kagachi1"]')
    with site.db():
        player2 = User.get(User.name == "player2").id
        makoto_unit = characters.unit_id(Character.get(Character.owner == player2).id)
    page.check("input[name=major][value=attack]")
    page.select_option("select[name=weapon]", "acid_spit")
    page.check(f"input[name=targets][value={makoto_unit}]")
    assert makoto in page.locator("fieldset.targets").inner_text()  # named in the page's language
    page.click("form.entry-form button.primary")
    page.wait_for_url(f"**/gm/demo/rounds/{round_id}/actions?done=ordered")
    assert says["ordered"] in page.locator("ul.characters").inner_text()

    page.goto(site.url + f"/gm/demo/rounds/{round_id}/")
    page.click("form.action-resolve button")
    page.click("form.confirm-move button.primary")  # the deadline lies ahead: the console asks first (issue 31)
    page.wait_for_url(f"**/gm/demo/rounds/{round_id}/?done=resolve")
    page.click(f'a[href="/gm/demo/rounds/{round_id}/review"]')
    log = page.locator("ol.dicelog").inner_text()
    assert "[r1-c1]" in log and acid in log

    page.select_option("select[name=check]", "r1-c1")
    page.fill("input[name=successes]", "0")
    page.fill("textarea[name=reason]", REASON[lang])
    page.click(".override-form button[type=submit]")
    page.wait_for_url("**/review?done=overridden")
    ruling = page.locator("ol.dicelog .override").first.inner_text()
    assert "r1-c1" in ruling and REASON[lang] in ruling
    with site.db():
        assert Override.get(Override.round == round_id).reason == REASON[lang]

    # The story in the page's language, with the secret in it: refused, the find shown, the text kept.
    page.click(f'a[href="/gm/demo/rounds/{round_id}/report"]')
    story = "textarea[name=story]" if lang == "ja" else "textarea[name=story_en]"
    leaky = f"{STORY[lang]}\n\n{SECRET[lang]}。\n\n{page.input_value(story)}"
    page.fill(story, leaky)
    page.click("button[value=publish]")
    page.click("form.confirm-move button.primary")  # confirmed, then the leak check refuses it
    leaks = page.locator("section.leak-check.found")
    assert says["leak"] in leaks.locator("h2").inner_text()
    assert SECRET[lang] in leaks.locator("ol.leaks").inner_text()
    assert page.input_value(story) == leaky
    with site.db():
        assert Round.get_by_id(round_id).state == "resolved"

    page.fill(story, leaky.replace(f"{SECRET[lang]}。\n\n", ""))
    page.click("button[value=publish]")
    page.click("form.confirm-move button.primary")
    page.wait_for_url("**/report?done=published")
    assert says["published"] in page.locator("p.notice[role=status]").inner_text()

    # The published report (its dice log in the page's language) and, in English, the English story's page.
    blog = site.url + f"/blog/demo/{slug}/round-1/"
    page.goto(blog)
    ruling = page.locator("ol.dicelog .override").inner_text()
    assert says["ruling"] in ruling and "r1-c1" in ruling and REASON[lang] in ruling
    spat = page.locator("ol.dicelog li.attack", has_text=acid)
    assert spat.count() == 1 and kagachi in spat.inner_text() and makoto in spat.inner_text()  # as ordered
    pages = [page.content()]
    if lang == "en":
        page.goto(blog + "en/")
        pages.append(page.content())
    assert STORY[lang] in page.locator(".story").inner_text()
    assert not [secret for secret in SECRET.values() for html in pages if secret in html]

    # The key pages on a 360-px phone, as they stand at the end: none scrolls sideways.
    phone = page_factory(lang, 360)
    log_in(phone, site.url, "gm")
    for path in (
        "/gm/demo/scenarios/new",
        f"/gm/demo/rounds/{round_id}/",
        f"/gm/demo/rounds/{round_id}/orders/kagachi1",
        f"/gm/demo/rounds/{round_id}/review",
        f"/gm/demo/rounds/{round_id}/report",
        f"/blog/demo/{slug}/round-1/",
    ):
        assert phone.goto(site.url + path).ok, path
        assert no_horizontal_scroll(phone), path
