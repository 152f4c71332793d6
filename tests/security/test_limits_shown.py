"""Every free-text field the site renders says its limit in the page (issue 30, item 5: "limits shown as counters
and maxlength"): a browser then stops the typing at the limit instead of a refusal after the send. Crawled as every
role over every page of the access matrix and the stateful pages, so a field added tomorrow fails here."""

from __future__ import annotations

from html.parser import HTMLParser

from tests.security.conftest import security_app
from tests.security.test_hostile_input import STATEFUL_PAGES, client_as
from tests.web.test_access import MATRIX, ROLES

#: Input types a person types free text into (an input without a type is text).
FREE_TEXT = frozenset({"text", "email", "password", "search", "url", "tel", ""})


class _Fields(HTMLParser):
    """The names of the page's free-text controls (input of a text type, textarea) that carry no maxlength."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.unlimited: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        text = tag == "textarea" or (tag == "input" and values.get("type", "").lower() in FREE_TEXT)
        if text and values.get("name") and "maxlength" not in values and "readonly" not in values:
            self.unlimited.append(values["name"])


def test_every_free_text_field_carries_its_limit(pristine):
    app = security_app(pristine)
    pages = [url for (rule, method), (url, _form, _status) in MATRIX.items() if method == "GET"] + STATEFUL_PAGES
    unlimited = set()
    for role in ROLES:
        client = client_as(app, role)
        for page in pages:
            url = page if isinstance(page, str) else page(client)
            response = client.get(url)
            if response.status_code != 200 or response.mimetype != "text/html":
                continue
            fields = _Fields()
            fields.feed(response.get_data(as_text=True))
            unlimited |= {f"{url.split('?')[0]}: {name}" for name in fields.unlimited}
    assert not unlimited, "\n".join(sorted(unlimited))
