"""User text that shares a line with the site's own text is isolated from it (issue 33: a correction note holding
U+202E RIGHT-TO-LEFT OVERRIDE reversed the site's link text after it): in a `<bdi>` element where the text stands
in the page, between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE in the `<title>` (an element
there is text)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from pbp import db as pbp_db
from pbp.models import Campaign, Report, Scenario, User
from pbp.services import publishing, shaping
from pbp.services.clock import FixedClock
from pbp.web import database
from tests.web.conftest import make_app, signed_in
from tests.web.world import START, World, build_world

RLO = "\u202e"
NOTE = f"誤字を直しました{RLO}txet desrever"
REPORT = "/blog/demo/tama_river/round-1/"


@pytest.fixture
def world(tmp_path) -> World:
    """A world of its own: a correction and a GM action with an RLO in their texts, and in the campaign's, the
    scenario's names."""
    built = build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}")
    clock = FixedClock(START)
    with pbp_db.using(database.of(make_app(built.url))):
        story = Report.get(Report.round == built.published[0]).draft_md
        publishing.correct_report(built.published[0], NOTE, story + "\n\n追記。", clock=clock)
        gm = User.get(User.name == "gm").id
        shaping.record_action(built.open_round, "retreat", {"unit": "kagachi2"}, reason=f"川{RLO}abc", actor_id=gm)
        title = f"多摩川{RLO}abc"
        Scenario.update(title=title).execute()
        campaign = Campaign.get(Campaign.slug == "demo")
        pack = {**campaign.pack, "campaign": {**campaign.pack.get("campaign", {}), "ja": f"演習{RLO}abc"}}
        pack["scenarios"] = {k: {**v, "ja": title} for k, v in pack["scenarios"].items()}
        Campaign.update(pack=pack, name=f"演習{RLO}abc").where(Campaign.id == campaign.id).execute()

    return built


class Isolation(HTMLParser):
    """For each text of the page: whether it stands inside a `<bdi>` (or an element with `dir`)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []
        self.texts: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "meta", "link", "img", "input", "hr"):
            return
        self.stack.append(tag == "bdi" or any(k == "dir" for k, _v in attrs))

    def handle_endtag(self, tag: str) -> None:
        if tag not in ("br", "meta", "link", "img", "input", "hr") and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.texts.append((data, any(self.stack)))


def _texts(html: str) -> list[tuple[str, bool]]:
    reader = Isolation()
    reader.feed(html[html.index("<body") :])
    return reader.texts


def _in_isolates(text: str) -> bool:
    """Whether every RLO of a text stands between FSI and its PDI."""
    depth = 0
    for char in text:
        depth += {"\u2068": 1, "\u2069": -1}.get(char, 0)
        if char == RLO and depth <= 0:
            return False
    return True


def _every_override_isolated(html: str) -> None:
    """Each RLO of the page (one at least: the page shows the hostile text) in a `<bdi>`, an element with `dir`
    or an FSI..PDI isolate; in the `<title>` (text only) in an isolate."""
    assert RLO in html
    for text, isolated in _texts(html):
        assert RLO not in text or isolated or _in_isolates(text), f"not isolated: {text!r}"
    title = re.search(r"<title>(.*?)</title>", html, re.S)
    assert title is not None and _in_isolates(title[1]), title[1]


def test_a_correction_note_is_isolated_and_the_link_after_it_is_not(world):
    page = make_app(world.url).test_client().get(REPORT).get_data(as_text=True)
    texts = _texts(page)
    note = next(i for i, (text, _iso) in enumerate(texts) if NOTE in text)
    assert texts[note] == (NOTE, True)  # the note alone, in its element
    link = next(t for t in texts[note + 1 :] if "この訂正の前の本文" in t[0])
    assert link[1] is False  # the site's own link text stands outside the isolation
    _every_override_isolated(page)


@pytest.mark.parametrize(
    "url",
    [
        REPORT,
        REPORT + "corrections/1/",
        "/blog/",
        "/blog/demo/tama_river/",
    ],
)
def test_user_text_on_the_public_pages_is_isolated(world, url):
    response = make_app(world.url).test_client().get(url)
    assert response.status_code == 200
    _every_override_isolated(response.get_data(as_text=True))


@pytest.mark.parametrize(
    "url", ["/gm/demo/", "/gm/demo/rounds/1/report", "/gm/demo/rounds/3/actions", "/gm/demo/rounds/3/"]
)
def test_user_text_on_the_gm_pages_is_isolated(world, url):
    response = signed_in(world.url, "gm").get(url)
    assert response.status_code == 200
    _every_override_isolated(response.get_data(as_text=True))
