"""What every rendered page's fields must be, crawled as every role over every page of the access matrix and the
stateful pages, so a field added tomorrow fails here: every free-text field says its limit (issue 30, item 5:
"limits shown as counters and maxlength"; a browser then stops the typing at the limit instead of a refusal after
the send), and no two elements of a page share an id (a label's `for` and an error's `aria-describedby` would
point at the wrong field: the review's three forms each had a `reason`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from html.parser import HTMLParser

import pytest

from tests.security.conftest import pristine_copy, security_app
from tests.security.test_hostile_input import STATEFUL_PAGES, client_as
from tests.web.test_access import MATRIX, ROLES

#: Input types a person types free text into (an input without a type is text).
FREE_TEXT = frozenset({"text", "email", "password", "search", "url", "tel", ""})


class _Fields(HTMLParser):
    """The names of the page's free-text controls (input of a text type, textarea) that carry no maxlength, and
    every id of the page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.unlimited: list[str] = []
        self.ids: Counter[str] = Counter()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if values.get("id") and values.get("type") != "hidden":  # a hidden field has no label (each form's token)
            self.ids[values["id"]] += 1
        text = tag == "textarea" or (tag == "input" and values.get("type", "").lower() in FREE_TEXT)
        if text and values.get("name") and "maxlength" not in values and "readonly" not in values:
            self.unlimited.append(values["name"])


@pytest.fixture(scope="module")
def pages(world, tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, _Fields]]:
    """The crawl, once for the module's tests (they read the pages and change nothing)."""
    return list(_crawl(pristine_copy(world, tmp_path_factory.mktemp("rendered"))))


def _crawl(world) -> Iterator[tuple[str, _Fields]]:
    """Every HTML page answered 200, as every role: its path and what its fields are."""
    app = security_app(world)
    urls = [url for (rule, method), (url, _form, _status) in MATRIX.items() if method == "GET"] + STATEFUL_PAGES
    for role in ROLES:
        client = client_as(app, role)
        for page in urls:
            url = page if isinstance(page, str) else page(client)
            response = client.get(url)
            if response.status_code != 200 or response.mimetype != "text/html":
                continue
            fields = _Fields()
            fields.feed(response.get_data(as_text=True))
            yield url.split("?")[0], fields


def test_every_free_text_field_carries_its_limit(pages):
    unlimited = {f"{url}: {name}" for url, fields in pages for name in fields.unlimited}
    assert not unlimited, "\n".join(sorted(unlimited))


def test_no_two_elements_of_a_page_share_an_id(pages):
    shared = {f"{url}: {i} x{n}" for url, fields in pages for i, n in fields.ids.items() if n > 1}
    assert not shared, "\n".join(sorted(shared))
