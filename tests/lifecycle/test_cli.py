"""The command line over the services: `pbp demo`, `pbp verify`, `pbp export-round`, `pbp rounds ...`, run as a
user would, from another directory, with the database under PBP_INSTANCE."""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

from pbp import migrations
from tests.lifecycle.conftest import pbp


def _listing() -> list[dict]:
    return json.loads(pbp("rounds", "list", "--json", check=True).stdout)


def test_the_demo_has_a_published_round_and_an_open_one(instance: Path) -> None:
    assert (instance / "pbp.sqlite3").exists()
    rows = _listing()
    assert [(r["id"], r["scenario"], r["state"], r["resolutions"]) for r in rows] == [
        (1, "tama_river", "published", 1),
        (2, "tama_river", "open", 0),
    ]
    assert rows[1]["deadline"].endswith("Z")
    assert pbp("rounds", "due", check=True).stdout == ""
    again = pbp("demo")
    assert again.returncode == 2 and "already loaded" in again.stderr


def test_verify_passes_and_names_the_first_difference_after_a_die_is_changed(instance: Path) -> None:
    ok = pbp("verify", "1")
    assert (ok.returncode, ok.stdout) == (0, "OK\n")
    with sqlite3.connect(instance / "pbp.sqlite3") as conn:
        (events,) = conn.execute("SELECT events FROM resolution WHERE round_id = 1").fetchone()
        events = json.loads(events)
        i = next(i for i, e in enumerate(events) if e["type"] == "attack")
        events[i]["attack_dice"][0] = events[i]["attack_dice"][0] % 6 + 1
        conn.execute("UPDATE resolution SET events = ? WHERE round_id = 1", (json.dumps(events),))
    bad = pbp("verify", "1")
    assert bad.returncode == 1
    assert bad.stdout.startswith(f"DIFFERENT: events[{i}].attack_dice[0]: stored ")


def test_a_bundle_verifies_without_any_database(instance: Path, tmp_path: Path, monkeypatch) -> None:
    exported = pbp("export-round", "1", check=True).stdout
    bundle = json.loads(exported)
    assert {
        "format",
        "round",
        "ruleset",
        "seed",
        "seed_hash",
        "encounter",
        "orders",
        "overrides",
        "events",
        "state",
    } <= set(bundle)
    path = tmp_path / "bundle.json"
    path.write_text(exported, encoding="utf-8")
    monkeypatch.setenv("PBP_INSTANCE", str(tmp_path / "nowhere"))
    assert pbp("verify", "--bundle", str(path)).stdout == "OK\n"
    assert not (tmp_path / "nowhere").exists()
    bundle["seed"] = "0" * 64
    path.write_text(json.dumps(bundle), encoding="utf-8")
    bad = pbp("verify", "--bundle", str(path))
    assert bad.returncode == 1 and bad.stdout.startswith("DIFFERENT: seed_hash:")


def test_export_refuses_an_unpublished_round(instance: Path) -> None:
    refused = pbp("export-round", "2")
    assert refused.returncode == 2
    assert refused.stderr == "pbp: round 2 is open: its seed stays secret until it is published\n"


def test_round_commands_drive_the_open_round_to_published(instance: Path) -> None:
    assert pbp("round", "resolve", "2", check=True).stdout.startswith("round 2 resolved")
    again = pbp("round", "resolve", "2")
    assert (again.returncode, again.stdout) == (0, "round 2 is already resolved\n")
    listing = pbp("rounds", "list", check=True).stdout
    assert "resolutions=1" in listing.splitlines()[1]
    no_reason = pbp("round", "override", "2", "r2-c1", "0")
    assert no_reason.returncode == 2 and "--reason" in no_reason.stderr
    assert pbp("round", "override", "2", "r2-c1", "0", "--reason", "smoke").returncode == 0
    published = pbp("round", "publish", "2", check=True).stdout
    assert published.startswith("round 2: published, seed ")
    assert pbp("verify", "2").stdout == "OK\n"


def test_the_gm_reads_and_replaces_the_english_story(instance: Path, tmp_path: Path):
    assert pbp("round", "resolve", "2", check=True).returncode == 0
    generated = pbp("round", "report", "2", "--en", check=True).stdout
    assert generated.startswith("<!-- story (English, generated) -->\n") and " the " in generated
    story, empty = tmp_path / "en.md", tmp_path / "empty.md"
    story.write_text("The fog lifted.", encoding="utf-8")
    empty.write_text("", encoding="utf-8")
    shown = pbp("round", "report", "2", "--story-en", str(story), "--en", check=True).stdout
    assert shown == "<!-- story (English, the GM's) -->\nThe fog lifted.\n"
    assert pbp("round", "report", "2", "--story-en", str(empty), "--en", check=True).stdout == generated


def test_the_gm_writes_an_intro_and_outro_around_the_story_before_publishing(instance: Path, tmp_path: Path):
    from html.parser import HTMLParser

    assert pbp("round", "resolve", "2", check=True).returncode == 0
    draft = pbp("round", "report", "2", check=True).stdout
    assert draft.startswith("<!-- story -->\n")
    intro, outro = tmp_path / "intro.md", tmp_path / "outro.md"
    intro.write_text("# 前口上\n\n川霧が晴れ始めた。<script>alert(1)</script>", encoding="utf-8")
    outro.write_text("*次回、決戦。*", encoding="utf-8")
    shown = pbp("round", "report", "2", "--intro", str(intro), "--outro", str(outro), check=True).stdout
    assert shown.index("<!-- intro -->") < shown.index("<!-- story -->") < shown.index("<!-- outro -->")
    assert pbp("round", "publish", "2", check=True).returncode == 0
    late = pbp("round", "report", "2", "--outro", str(outro))
    assert late.returncode == 2 and "only a resolved round" in late.stderr

    from pbp import db as pbp_db
    from pbp.models import Report

    with pbp_db.connected():
        html = Report.get(Report.round == 2).html
    sections: list[str] = []

    class Sections(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list) -> None:
            if tag == "section":
                sections.append(dict(attrs)["class"])
            assert tag != "script"

    Sections().feed(html)
    assert sections == ["intro", "narrative", "outro"]
    assert "前口上" in html and "<em>次回、決戦。</em>" in html


def test_errors_are_one_line_and_exit_2(instance: Path) -> None:
    missing = pbp("round", "open", "99")
    assert (missing.returncode, missing.stderr) == (2, "pbp: no round 99\n")
    wrong = pbp("round", "close", "1")
    assert (wrong.returncode, wrong.stderr) == (2, "pbp: round 1 is published: it cannot become closed\n")


def test_a_refusal_the_web_translates_is_english_on_the_command_line(instance: Path) -> None:
    """The refusal a Japanese page shows in Japanese (tests/web/test_refusals.py): here its English template with
    every parameter put in, the state words and the hint too, on one line."""
    assert pbp("round", "close", "2", check=True).returncode == 0
    refused = pbp("round", "open", "2")
    assert (refused.returncode, refused.stderr) == (
        2,
        "pbp: round 2 is closed: only a draft round opens (its seed is drawn once); extend its deadline to take entries"
        " again\n",
    )


def test_commands_refuse_an_uninitialised_database(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("PBP_INSTANCE", str(tmp_path / "empty"))
    refused = pbp("rounds", "list")
    assert refused.returncode == 2 and "run `pbp db upgrade`" in refused.stderr
    applied = ", ".join(m.stem for m in sorted(migrations.MIGRATIONS_DIR.glob("[0-9]*.py")))
    assert pbp("db", "init", check=True).stdout == f"applied {applied}\n"
    assert pbp("rounds", "list", "--json", check=True).stdout == "[]\n"
    assert os.path.exists(tmp_path / "empty" / "pbp.sqlite3")


def test_campaign_load_loads_and_reloads_a_pack_by_name(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("PBP_INSTANCE", str(tmp_path / "inst"))
    pbp("db", "init", check=True)
    first = pbp("campaign", "load", "demo", check=True).stdout
    assert first.startswith("campaign demo (id 1): ヤマツカミ迎撃戦線, ") and first.endswith(" scenarios\n")
    assert pbp("campaign", "load", "demo", check=True).stdout == first
    missing = pbp("campaign", "load", str(tmp_path / "nope"))
    assert missing.returncode == 2 and "not a folder" in missing.stderr


def test_a_database_that_cannot_be_opened_is_one_line(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "mysql://x")
    wrong = pbp("rounds", "list")
    assert (wrong.returncode, wrong.stderr) == (
        2,
        "pbp: DATABASE_URL must start with sqlite:/// or postgresql:// (got mysql:...)\n",
    )
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    monkeypatch.delenv("DATABASE_URL")
    monkeypatch.setenv("PBP_INSTANCE", str(tmp_path / "a-file" / "instance"))
    for args in (("rounds", "list"), ("db", "init"), ("demo",)):
        blocked = pbp(*args)
        assert blocked.returncode == 2, args
        assert blocked.stderr.startswith("pbp: cannot create the database folder ") and blocked.stderr.count("\n") == 1
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}")  # a folder, not a database file
    unopened = pbp("rounds", "list")
    assert unopened.returncode == 2
    assert unopened.stderr == "pbp: cannot open the database: unable to open database file\n"


def test_export_site_names_a_broken_link_in_the_published_text_on_one_line(instance: Path, tmp_path: Path) -> None:
    assert pbp("round", "resolve", "2", check=True).returncode == 0
    intro = tmp_path / "intro.md"
    intro.write_text("See [the old page](/blog/nope/).", encoding="utf-8")
    assert pbp("round", "report", "2", "--intro", str(intro), check=True).returncode == 0
    assert pbp("round", "publish", "2", check=True).returncode == 0
    failed = pbp("export-site", str(tmp_path / "site"))
    assert (failed.returncode, failed.stderr) == (
        2,
        "pbp: cannot export the site: /blog/demo/tama_river/round-2/ links to /blog/nope/, which answers HTTP 404\n",
    )
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    unwritable = pbp("export-site", str(tmp_path / "a-file" / "site"))
    assert unwritable.returncode == 2 and unwritable.stderr.startswith("pbp: cannot write ")
    assert unwritable.stderr.count("\n") == 1


def test_a_file_that_is_not_utf8_is_one_line_naming_it(instance: Path, tmp_path: Path) -> None:
    assert pbp("round", "resolve", "2", check=True).returncode == 0
    sjis = tmp_path / "intro-sjis.md"
    sjis.write_bytes("川霧が晴れ始めた。".encode("shift_jis"))
    for option, what in (("--intro", "the intro"), ("--story-en", "the English story")):
        refused = pbp("round", "report", "2", option, str(sjis))
        assert (refused.returncode, refused.stderr) == (2, f"pbp: {sjis}: {what} must be UTF-8 text\n")
    assert "<!-- intro -->" not in pbp("round", "report", "2", check=True).stdout  # nothing was changed
    missing = pbp("round", "report", "2", "--outro", str(tmp_path / "nope.md"))
    assert (missing.returncode, missing.stderr) == (
        2,
        f"pbp: {tmp_path / 'nope.md'}: cannot read the outro: No such file or directory\n",
    )
    shown = pbp("round", "report", "2", "--intro", "-", stdin="川霧。\r\n", check=True).stdout
    assert shown.startswith("<!-- intro -->\n川霧。\n")
    bundle = pbp("verify", "--bundle", str(sjis))
    assert (bundle.returncode, bundle.stderr) == (2, f"pbp: {sjis}: the bundle must be UTF-8 text\n")
    encounter = pbp("engine", "resolve", str(sjis), "--seed", "x")
    assert (encounter.returncode, encounter.stderr) == (2, f"pbp: {sjis}: the encounter must be UTF-8 text\n")


def test_an_unknown_ruleset_in_a_bundle_or_an_encounter_is_one_line(instance: Path, tmp_path: Path) -> None:
    bundle = json.loads(pbp("export-round", "1", check=True).stdout)
    path, encounter = tmp_path / "bundle.json", tmp_path / "encounter.json"
    for ruleset, shown in (("chess", "'chess'"), (["pool"], "['pool']")):
        path.write_text(json.dumps({**bundle, "ruleset": ruleset}), encoding="utf-8")
        refused = pbp("verify", "--bundle", str(path))
        assert (refused.returncode, refused.stderr) == (
            2,
            f"pbp: {path}: ruleset: unknown ruleset {shown} (known: kancolle, pool)\n",
        )
        encounter.write_text(json.dumps({**bundle["encounter"], "ruleset": ruleset}), encoding="utf-8")
        resolved = pbp("engine", "resolve", str(encounter), "--seed", "x")
        assert (resolved.returncode, resolved.stderr) == (
            2,
            f"pbp: {encounter}: ruleset: unknown ruleset {shown} (known: kancolle, pool)\n",
        )
    checked = pbp("engine", "check", "--ruleset", "chess", "--stat", "2", "--skill-level", "3", "--seed", "x")
    assert (checked.returncode, checked.stderr) == (
        2,
        "pbp: --ruleset: unknown ruleset 'chess' (known: kancolle, pool)\n",
    )


def test_numbers_out_of_range_are_refused_by_the_command_line(instance: Path) -> None:
    ten_years = str(10 * 365 * 24 * 3600)
    assert pbp("round", "create", "1", "--in", ten_years, check=True).stdout.startswith("round 3: draft, deadline ")
    assert pbp("round", "resolve", "2", check=True).returncode == 0
    for args, where in (
        (("round", "create", "1", "--in", "99999999999999"), "'--in'"),
        (("round", "create", "1", "--in", str(int(ten_years) + 1)), "'--in'"),
        (("round", "extend", "3", "--in", "99999999999999"), "'--in'"),
        (("round", "override", "2", "r2-c1", "99999999999999999999", "--reason", "x"), "'SUCCESSES'"),
        (("round", "override", "2", "r2-c1", "1001", "--reason", "x"), "'SUCCESSES'"),
        (("demo", "--deadline-in", "99999999999999"), "'--deadline-in'"),
    ):
        refused = pbp(*args)
        assert refused.returncode == 2, args
        assert refused.stderr.count("\n") == 1 and f"Invalid value for {where}: " in refused.stderr, args


def test_a_deadline_beyond_the_calendar_is_one_line_not_a_traceback(instance: Path) -> None:
    """Year 1 with a positive offset (or read in Asia/Tokyo) and 9999 with a negative one overflow in UTC; a time
    decades away would overflow when shown in a zone: every --deadline stays within ten years of now."""
    for when in ("0001-01-01T00:00+05:00", "9999-12-31T23:00-05:00", "0001-01-01T00:00", "9999-12-31T23:59Z"):
        for args in (("round", "create", "1", "--deadline", when), ("round", "extend", "2", "--deadline", when)):
            refused = pbp(*args)
            assert (refused.returncode, refused.stderr) == (
                2,
                f"pbp: --deadline {when!r} is more than 10 years from now\n",
            ), args
    next_year = datetime.now(UTC).replace(microsecond=0) + timedelta(days=365)
    tokyo = next_year.astimezone(timezone(timedelta(hours=9))).isoformat()
    assert f"deadline {next_year:%Y-%m-%dT%H:%M:%S}Z" in pbp("round", "extend", "2", "--deadline", tokyo).stdout


def test_an_id_too_large_for_the_database_is_refused_by_the_command_line(instance: Path) -> None:
    huge = "99999999999999999999"
    for args in (("round", "open", huge), ("round", "create", huge, "--in", "60"), ("verify", huge)):
        refused = pbp(*args)
        assert refused.returncode == 2, args
        assert refused.stderr.count("\n") == 1 and "Invalid value for " in refused.stderr, args


def test_growth_requests_are_listed_and_decided_as_the_campaigns_gm(instance: Path) -> None:
    from pbp import db as pbp_db
    from pbp.models import Character, GrowthRequest
    from pbp.services import characters

    database = pbp_db.bind(f"sqlite:///{instance / 'pbp.sqlite3'}")
    with database.connection_context():
        aoi = Character.get(Character.name == "葵")
        characters.grant_growth_points(aoi.id, 5, reason="survived")
        request = characters.request_growth(aoi.id, aoi.owner_id, {"射撃": 4}, note="training")
    listed = pbp("growth", "list", "demo", check=True).stdout
    assert listed == f"{request.id}\t葵\t射撃 3->4\t4\ttraining\n"
    denied = pbp("growth", "decide", str(request.id), "--deny")
    assert denied.returncode == 2 and denied.stderr.count("\n") == 1 and "reason" in denied.stderr
    approved = pbp("growth", "decide", str(request.id), "--approve", "--reason", "well trained", check=True)
    assert approved.stdout == f"growth request {request.id}: approved\n"
    assert pbp("growth", "list", "demo", check=True).stdout == ""
    with database.connection_context():
        assert Character.get_by_id(aoi.id).sheet["skills"]["射撃"] == 4
        assert GrowthRequest.get_by_id(request.id).decided_by.name == "gm"
    missing = pbp("growth", "list", "nowhere")
    assert missing.returncode == 2 and "no campaign 'nowhere'" in missing.stderr


def test_publishing_text_with_a_gm_secret_is_refused_on_one_line_naming_where(instance: Path, tmp_path: Path):
    """The leak check on the command line: `pbp round publish` exits 2 with the part and the text found; the round
    stays resolved until the text is fixed."""
    assert pbp("round", "resolve", "2", check=True).returncode == 0
    intro = tmp_path / "intro.md"
    intro.write_text("前口上。\n上流から古カガチが増援として現れる、とは誰も知らない。", encoding="utf-8")
    assert pbp("round", "report", "2", "--intro", str(intro), check=True).returncode == 0
    refused = pbp("round", "publish", "2")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "publication refused" in refused.stderr and "intro: '上流から古カガチが増援として現れる'" in refused.stderr
    intro.write_text("前口上。", encoding="utf-8")
    assert pbp("round", "report", "2", "--intro", str(intro), check=True).returncode == 0
    assert pbp("round", "publish", "2", check=True).stdout.startswith("round 2: published")


def test_the_operator_sets_a_forgotten_password_and_ends_the_users_sessions(instance: Path) -> None:
    """`pbp user password NAME`: for a player with no e-mail address for the mailed link; one line on bad input."""
    from pbp import db as pbp_db
    from pbp.models import User
    from pbp.services import accounts

    database = pbp_db.bind(f"sqlite:///{instance / 'pbp.sqlite3'}")
    with database.connection_context():
        before = User.get(User.name == "player2")
    done = pbp("user", "password", "player2", "--stdin", stdin="a-new-password\n", check=True)
    assert done.stdout == "player2: the password is set; every session of theirs has ended\n"
    with database.connection_context():
        after = User.get(User.name == "player2")
        assert accounts.authenticate("player2", "a-new-password") is not None
    assert after.session_version == before.session_version + 1
    short = pbp("user", "password", "player2", "--stdin", stdin="short\n")
    assert (short.returncode, short.stdout, short.stderr) == (2, "", "pbp: a password has 8-200 characters of text\n")
    nobody = pbp("user", "password", "nobody", "--stdin", stdin="long-enough\n")
    assert (nobody.returncode, nobody.stdout, nobody.stderr) == (2, "", "pbp: no user named 'nobody'\n")
