"""Hostile text already stored (as if an older version, an import or a direct edit had let it in) is shown as text on
every page that shows it: each payload is written straight into every stored text a page renders (a user's display
name, a character's names and description, an entry's prose, a growth request's note, a scenario's description)
and each of those pages, as the role that sees it, holds no active content."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pbp import db as pbp_db
from pbp.models import Character, Entry, GrowthRequest, Scenario, User
from pbp.text import text_problem
from pbp.web import database
from tests.security.conftest import security_app
from tests.security.forms import ENTRY, GROWTH_REQUEST
from tests.security.markup import active_content
from tests.security.payloads import CHARACTERS, MARKDOWN, URLS, XSS
from tests.security.test_hostile_input import client_as

#: Role -> the pages that show the stored texts to that role.
PAGES = {
    "player": ["/me", ENTRY, "/campaigns/demo/scenarios/tama_river/"],
    "anonymous": ["/blog/demo/characters/1/", "/blog/demo/tama_river/", "/blog/demo/tama_river/round-1/"],
    "GM": ["/gm/demo/", "/gm/demo/growth"],
}


@pytest.fixture
def stored(world) -> Iterator[object]:
    """A function that stores a payload everywhere; afterwards every row is as it was."""
    app = security_app(world)
    with pbp_db.using(database.of(app)):
        user, character = User.get(User.name == "player1"), Character.get_by_id(1)
        entry = Entry.get(Entry.round == world.open_round, Entry.character == 1)
        request, scenario = GrowthRequest.get_by_id(GROWTH_REQUEST), Scenario.get(Scenario.slug == "tama_river")
        rows = [user, character, entry, request, scenario]

    def store(payload: str) -> None:
        with pbp_db.using(database.of(app)):
            User.update(display_name=payload).where(User.id == user.id).execute()
            sheet = {**character.sheet, "ja": payload, "en": payload, "description": payload}
            Character.update(name=payload, sheet=sheet).where(Character.id == 1).execute()
            Entry.update(prose=payload).where(Entry.id == entry.id).execute()
            GrowthRequest.update(note=payload).where(GrowthRequest.id == request.id).execute()
            Scenario.update(public_text=payload).where(Scenario.id == scenario.id).execute()

    yield app, store
    with pbp_db.using(database.of(app)):
        for row in rows:
            row.save()


def test_stored_hostile_text_is_shown_as_text_on_every_page(stored):
    app, store = stored
    clients = {role: client_as(app, role) for role in PAGES}
    found = []
    for payload in [*XSS, *URLS, *MARKDOWN, *CHARACTERS]:  # what could turn into markup (sizes: the form test)
        if text_problem(payload):
            continue  # no database would take it (the services refuse it first: tests/web/test_text.py)
        store(payload)
        for role, urls in PAGES.items():
            for url in urls:
                response = clients[role].get(url)
                assert response.status_code == 200, (url, payload[:40], response.status_code)
                found += [f"{payload[:40]!r} on {url}: {item}" for item in active_content(response.text)]
    assert not found, "\n".join(found[:20])
