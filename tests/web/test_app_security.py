"""The app factory's security defaults: a real signing key per instance, CSRF on every POST."""

from __future__ import annotations

import stat

from pbp.web import create_app


def test_the_signing_key_is_random_per_instance_kept_private_and_stable(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PBP_INSTANCE", str(tmp_path / "a"))
    first = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'a.db'}"}).config["SECRET_KEY"]
    again = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'a.db'}"}).config["SECRET_KEY"]
    monkeypatch.setenv("PBP_INSTANCE", str(tmp_path / "b"))
    other = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'b.db'}"}).config["SECRET_KEY"]
    assert first == again and first != other and len(first) == 64
    assert stat.S_IMODE((tmp_path / "a" / "secret_key").stat().st_mode) == 0o600


def test_a_post_without_a_csrf_token_is_refused(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PBP_INSTANCE", str(tmp_path))
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}"})

    @app.post("/probe")
    def probe() -> str:
        return "accepted"

    assert app.test_client().post("/probe", data={"x": "1"}).status_code == 400
