"""`/me/notifications`: a user sets where notifications go and switches kinds off, in the page's language; a bad
address is refused beside its field and changes nothing."""

from __future__ import annotations

from pbp import db as pbp_db
from pbp.models import User
from pbp.services import notifications
from pbp.web import database
from tests.web.conftest import csrf_token, log_in


def _settings(app, name: str) -> tuple[str | None, dict[str, bool]]:
    with pbp_db.using(database.of(app)):
        user = User.get(User.name == name)
        return user.email, notifications.preferences(user.id)


#: The kinds a player is sent: the GM's (`GM_PAGES`) are on a GM's page only.
PLAYERS_KINDS = [k for k in notifications.KINDS if k not in notifications.GM_PAGES]


def test_a_player_sets_an_address_and_switches_reminders_off(app, client) -> None:
    assert log_in(client, "player2").status_code == 303
    page = client.get("/me/notifications").get_data(as_text=True)
    assert (
        "通知設定" in page
        and "未提出のときの締切前リマインダー" in page
        and page.count("checked") == len(PLAYERS_KINDS)
    )
    kept = {f"kind_{k.replace('.', '_')}": "y" for k in PLAYERS_KINDS if k != "round.reminder"}
    form = {"csrf_token": csrf_token(client, "/me/notifications"), "email": " p2@example.org ", **kept}
    saved = client.post("/me/notifications", data=form)
    assert saved.status_code == 303 and "保存しました。" in client.get(saved.headers["Location"]).get_data(as_text=True)
    email, kinds = _settings(app, "player2")
    assert email == "p2@example.org" and kinds["round.reminder"] is False and kinds["round.published"] is True
    assert all(kinds[k] for k in notifications.GM_PAGES)  # not on the player's page: kept as they were
    refused = client.post("/me/notifications", data={**form, "email": "nobody@"})
    assert refused.status_code == 422 and "nobody@&#39;はメールアドレスではありません" in refused.get_data(as_text=True)
    assert _settings(app, "player2")[0] == "p2@example.org"


def test_only_a_gm_is_offered_the_gms_notices(client) -> None:
    assert log_in(client, "player2").status_code == 303
    assert "GM：" not in client.get("/me/notifications").get_data(as_text=True)
    client.post("/logout", data={"csrf_token": csrf_token(client, "/me")})
    assert log_in(client, "gm").status_code == 303
    page = client.get("/me/notifications").get_data(as_text=True)
    assert page.count("GM：") == len(notifications.GM_PAGES) and page.count("checked") == len(notifications.KINDS)
