"""Hostile rich text in the real browser: the payloads of tests.security.payloads that would run script (each sets
`window.__pwned`) stored in every rich-text path (a player's entry prose, the character's names, the scenario's
description, the GM's narrative typed into the report page and published as a correction) and shown on every page
that renders them, to the player, the reader and the GM. On each page the flag stays unset, the browser reports no
Content-Security-Policy violation (no injected script or style even tried to run) and no element carries an
event-handler attribute."""

from __future__ import annotations

from pbp.models import Campaign, Character, Entry, Round, Scenario, User
from pbp.services import characters, demo, entries, rounds, scenarios
from tests.e2e.conftest import log_in, register
from tests.security.payloads import MARKDOWN, URLS, XSS

RICH = "\n\n".join([*XSS, *URLS, *MARKDOWN])
#: A character's names and description within the engine's limits (80 and 4000 characters), else no encounter.
NAMES = {"ja": "<img src=x onerror=window.__pwned=1>", "en": '"><script>window.__pwned=1</script>'}
DESCRIPTION = "\n\n".join(XSS)[:4000]
#: Runs before any script of the page: counts CSP violations (an injected inline script or handler tried to run).
WATCH = """
window.__csp = 0;
document.addEventListener('securitypolicyviolation', () => { window.__csp += 1; });
"""
INERT = """() => ({
  pwned: window.__pwned === undefined && window.parent.__pwned === undefined ? null : 'set',
  csp: window.__csp,
  handlers: [...document.querySelectorAll('*')].flatMap(e => [...e.attributes].filter(a => a.name.startsWith('on'))
    .map(a => e.tagName + ' ' + a.name)),
  scripts: [...document.scripts].filter(s => !s.src.includes('/static/')).length,
})"""


def assert_inert(page, what: str) -> None:
    page.wait_for_load_state("load")
    state = page.evaluate(INERT)
    assert state == {"pwned": None, "csp": 0, "handlers": [], "scripts": 0}, (what, page.url, state)
    assert "__pwned" in page.content(), (what, page.url)  # the payloads are on the page, as text


def _stage(site, name: str, run: str) -> tuple[int, int]:
    """The player's character in `run` with an entry in its first round; then the hostile text stored in the
    prose, the character's names and the scenario's description. Returns (round id, character id)."""
    with site.db():
        user = User.get(User.name == name)
        campaign = Campaign.get(Campaign.slug == "demo")
        sheet = {**campaign.pack["characters"]["aoi"], "ja": "仮", "en": "Temp"}
        character = characters.create_character(campaign.id, user.id, sheet, clock=site.clock)
        scenarios.join_scenario(Scenario.get(Scenario.slug == run).id, character.id, user_id=user.id, clock=site.clock)
    round_id = site.open_round(run)
    with site.db():
        rnd = Round.get_by_id(round_id)
        encounter = rounds.round_encounter(rnd, rounds.round_context(rnd))
        order = demo.round_order(encounter, characters.unit_id(character.id), demo.PLAYERS["player1"][1])
        entries.save_entry(round_id, character.id, user_id=user.id, order=order, prose="x", clock=site.clock)
        # straight into the rows: past every limit the forms keep, as an import or an older version might have
        Entry.update(prose=RICH).where(Entry.round == round_id, Entry.character == character.id).execute()
        named = {**Character.get_by_id(character.id).sheet, **NAMES, "description": DESCRIPTION}
        Character.update(name=NAMES["ja"], sheet=named).where(Character.id == character.id).execute()
        Scenario.update(public_text=RICH).where(Scenario.slug == run).execute()
    return round_id, character.id


def test_hostile_rich_text_never_runs_in_the_browser(site, page_factory) -> None:
    run = site.new_run()
    player = page_factory("ja")
    player.context.add_init_script(WATCH)
    register(player, site.url, "xss-player", "XSS player")
    round_id, character = _stage(site, "xss-player", run)

    for path in (f"/campaigns/demo/scenarios/{run}/", "/me", f"/characters/{character}/edit"):
        player.goto(site.url + path)
        assert_inert(player, "player")
    player.goto(f"{site.url}/rounds/{round_id}/entry/{character}")
    assert_inert(player, "the entry form")
    player.click("button[name=preview]")  # the prose rendered as Markdown, as the report would
    assert_inert(player, "the entry's preview")

    site.clock.advance(13 * 3600)
    site.tick()  # resolved with the hostile prose and names, published (the demo's policy)
    with site.db():
        rnd = Round.get_by_id(round_id)
        assert rnd.state == "published"
        number = rnd.number
    report = f"/blog/demo/{run}/round-{number}/"
    reader = page_factory("en")
    reader.context.add_init_script(WATCH)
    for path in (report, report + "en/", f"/blog/demo/{run}/", f"/blog/demo/characters/{character}/", "/blog/"):
        reader.goto(site.url + path)
        assert_inert(reader, "the reader")

    gm = page_factory("ja")
    gm.context.add_init_script(WATCH)
    log_in(gm, site.url, "gm")
    gm.goto(f"{site.url}/gm/demo/rounds/{round_id}/report")
    assert_inert(gm, "the GM's report page")
    gm.fill("textarea[name=story]", RICH)
    gm.click("button[name=action][value=preview]")
    assert_inert(gm, "the GM's preview")
    gm.fill("textarea[name=story]", RICH)
    gm.fill("textarea[name=note]", "<img src=x onerror=window.__pwned=1> corrected")
    gm.click("button[name=action][value=correct]")
    gm.wait_for_load_state("load")
    assert_inert(gm, "after the correction")
    reader.goto(site.url + report)
    assert_inert(reader, "the corrected report")
    assert "corrected" in reader.inner_text("body")  # the GM's correction is what the reader sees
