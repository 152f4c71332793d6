"""A forgotten password in a real browser, in Japanese (on a 360-px phone) and English, against gunicorn: an
account registered with an e-mail address asks for the link from the login page, opens the mailed link (read from
the outbox, as the scheduler would send it), sets a new password and logs in with it; the link then no longer works."""

from __future__ import annotations

import pytest

from pbp.models import Outbox
from pbp.services import notifications
from pbp.services.accounts import RESET_KIND
from tests.e2e.conftest import PASSWORD, no_horizontal_scroll, register

SAYS = {
    "ja": {"forgot": "パスワードをお忘れですか？", "sent": "リンクを送りました",
           "set": "新しいパスワードを設定しました", "gone": "このリンクはもう使えません"},
    "en": {"forgot": "Forgot your password?", "sent": "is on its way",
           "set": "Your new password is set", "gone": "This link does not work any more"},
}  # fmt: skip


@pytest.mark.parametrize(("lang", "width"), [("ja", 360), ("en", 1280)])
def test_a_forgotten_password_is_set_again_by_the_mailed_link(site, page_factory, lang, width) -> None:
    page = page_factory(lang, width)
    says, name = SAYS[lang], f"forgetful-{lang}"
    register(page, site.url, name, "忘れっぽい", email=f"{name}@example.org")
    page.click("header form[action='/logout'] button")
    page.goto(site.url + "/login")
    page.click(f"text={says['forgot']}")
    page.fill("input[name=who]", f"{name}@example.org")
    page.click("form.form button[type=submit]")
    assert says["sent"] in page.inner_text("main") and no_horizontal_scroll(page)

    with site.db():
        mail = Outbox.select().where(Outbox.kind == RESET_KIND).order_by(Outbox.id.desc()).get()
        _subject, body = notifications.message(mail.kind, mail.payload, lang)
    link = body.splitlines()[-1]
    assert link.startswith(site.url + "/password/reset/")
    page.goto(link)
    assert no_horizontal_scroll(page)
    page.fill("input[name=new_password]", "a-brand-new-password")
    page.click("form.form button[type=submit]")
    page.wait_for_url(site.url + "/login?reset=1")
    assert says["set"] in page.inner_text("main")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", PASSWORD)  # the old one
    page.click("form.form button[type=submit]")
    assert page.url.startswith(site.url + "/login")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", "a-brand-new-password")
    page.click("form.form button[type=submit]")
    page.wait_for_url(site.url + "/")
    page.goto(link)
    assert says["gone"] in page.inner_text("main")
