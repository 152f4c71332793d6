"""Text a service takes is stored as given or refused: one rule on SQLite and PostgreSQL. A NUL (U+0000), which
PostgreSQL cannot store (SQLite can), or half a character (a lone surrogate) anywhere in a text, a name, a reason,
the GM's Markdown, a string nested in an order, a sheet or a pack is refused with a UserError naming the field;
nothing a user submitted is silently dropped.

The hypothesis tests send arbitrary Unicode (every code point, NUL and lone surrogates included) through every
service that takes a user's text, on both databases: anything but a `pbp.errors.UserError` fails them, text that
is not text must be refused, and what is accepted reads back equal. They cover (see `COVERED`, filled by `covers`):

- accounts: `create_user` (login name, password, display name), `name_taken`, `authenticate`;
- campaigns: `create_scenario` (pack scenario, slug), `set_policy` (policy name);
- authoring: `create_scenario`, `edit_scenario` (slug, names, GM notes), `import_scenarios`, `parse_scenarios` and
  `problems_of` (a scenario TOML's text);
- characters: `create_character` and `edit_character` (every text of the sheet), `request_growth` (skill names,
  note), `decide_growth` (reason), `grant_growth_points` (reason), `character_id_of` (a unit id);
- entries: `save_entry` (prose, the strings in the order); entry_wishes: `check_wish` (partners, choices, the note
  to the GM, then stored with the entry by `save_entry`);
- rounds: `hold_round`, `cancel_round` (reasons), `override_check` (check id, reason);
- publishing: `edit_report` (story, intro, outro, English story);
- notifications: `set_email` (address), `set_preference` (kind), `save_settings` (both), `set_webhook` (URL);
- campaign_settings: `change` (time zone, webhook URL); scenario_texts: `edit_texts` (GM notes, a title).

`test_every_service_that_takes_text_is_covered` fails when a public service function with a `str` in its
signature is neither covered here nor listed in `INTERNAL` (strings only the code itself passes).
"""

from __future__ import annotations

import importlib
import inspect
import itertools
import json
import pkgutil
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import pbp.services
from pbp import db as pbp_db
from pbp import migrations
from pbp.engine import BadInput
from pbp.errors import InvalidState, UserError
from pbp.models import (
    AdhocCheck,
    AuditLog,
    Campaign,
    Character,
    Entry,
    GmOrder,
    GrowthRequest,
    MasterComment,
    Override,
    Report,
    Round,
    Scenario,
    ScenarioNote,
    ScenarioSecret,
    User,
)
from pbp.paths import DEMO_PACK_DIR
from pbp.reports.weave import LEFT_OUT, NOTE, QUOTED, TOLD
from pbp.services import (
    accounts,
    authoring,
    campaign_settings,
    campaigns,
    characters,
    drafts,
    entries,
    entry_wishes,
    gms,
    judging,
    line_fates,
    master_comments,
    notifications,
    publishing,
    roster,
    rounds,
    scenario_notes,
    scenario_texts,
    secret_terms,
    shaping,
)
from pbp.services.clock import FixedClock
from pbp.services.master_comments import Comment
from tests.lifecycle.conftest import BACKENDS, FAST_HASHER, START, World, empty_database, make_world
from tests.lifecycle.test_cli import pbp as run_pbp

NOT_TEXT = {"NUL": "\x00", "lone surrogate": "\ud800"}
#: Every code point, NUL and the surrogates included (hypothesis leaves out the surrogates by default).
ANY_CHARACTER = st.characters(codec=None, exclude_categories=())
#: What breaks text most often, mixed with ordinary (Japanese, blank, control, digit-like) characters.
TRAPS = st.sampled_from(
    ["\x00", "\ud800", "\udfff", "a", "葵", " ", "\n", "\u3000", "\x7f", "\ufeff", "\U0001f600", "1", "²", "٣"]
)
TEXT = st.one_of(st.text(ANY_CHARACTER, max_size=24), st.lists(TRAPS, max_size=8).map("".join))
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=6,
)
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---- the shared world -------------------------------------------------------------------------------------------


@dataclass
class Stage:
    """A world with an open round (entries, holds) and, in a scenario of its own, a resolved one (report edits,
    overrides) whose check ids are `checks`."""

    world: World
    open_round: int
    resolved_round: int
    checks: list[str]


@pytest.fixture(scope="module", params=BACKENDS)
def stage(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stage]:
    """One database per backend for the whole module: refusals change nothing and every test reads back only what
    it wrote itself."""
    with (
        empty_database(request.param, tmp_path_factory.mktemp("db")) as url,
        pytest.MonkeyPatch.context() as patch,
    ):
        patch.setenv("DATABASE_URL", url)
        patch.setattr(accounts, "_HASHER", FAST_HASHER)
        database = pbp_db.bind(url)
        with database.connection_context():
            migrations.upgrade(database)
            world = make_world(FixedClock(START))
            for cid in world.characters:
                characters.grant_growth_points(cid, 100, reason="to spend", clock=world.clock)
            open_round = world.new_round()
            resolved = world.new_round(scenario=world.new_scenario("texts"))
            for uid, cid in zip(world.players, world.characters, strict=True):
                entries.save_entry(resolved, cid, user_id=uid, order=world.order(), prose="行く", clock=world.clock)
            rounds.resolve_round(resolved, clock=world.clock)
            checks = [f"r1-c{i}" for i in range(1, 5)]
            yield Stage(world, open_round, resolved, checks)


def storable(value: Any) -> bool:
    """The oracle, written apart from the services' check: no string in `value` holds a NUL or a surrogate."""
    if isinstance(value, str):
        return "\x00" not in value and not any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, dict):
        return all(storable(k) and storable(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return all(storable(v) for v in value)
    return True


def accepted(call: Callable[[], object], *texts: Any) -> bool:
    """Whether the service accepted; a UserError is a refusal, any other exception fails the test, and so does
    accepting text that is not text."""
    try:
        call()
    except UserError:
        return False
    assert storable(texts), f"accepted text that is not text: {texts!r}"
    return True


def lines(text: str) -> str:
    """Report text as stored: every line break `\\n` (a browser sends `\\r\\n`)."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def last_audit(action: str) -> dict[str, Any]:
    return AuditLog.select().where(AuditLog.action == action).order_by(AuditLog.id.desc()).get().detail


# ---- refusals naming the field ----------------------------------------------------------------------------------


def _refusals(stage: Stage, bad: str) -> dict[str, tuple[str, Callable[[], object]]]:
    """Each text path with `bad` in it: the field its refusal names, and the call."""
    w, clock = stage.world, stage.world.clock
    player, character = w.players[0], w.characters[0]
    sheet = Character.get_by_id(character).sheet
    pack_sheet = Campaign.get_by_id(w.campaign).pack["characters"]["aoi"]
    order = w.order(target=f"kagachi{bad}1")
    return {
        "display name": (
            "display name",
            lambda: accounts.create_user("newbie", "password1", display_name=bad, clock=clock),
        ),
        "password": ("password", lambda: accounts.create_user("newbie", f"password{bad}1", clock=clock)),
        "character name": (
            "sheet",
            lambda: characters.create_character(w.campaign, player, {**pack_sheet, "ja": bad}, clock=clock),
        ),
        "sheet text": (
            "sheet",
            lambda: characters.edit_character(character, player, {**sheet, "description": f"x{bad}"}, clock=clock),
        ),
        "growth note": (
            "note",
            lambda: characters.request_growth(character, player, {"射撃": 4}, note=f"x{bad}", clock=clock),
        ),
        "growth skill": (
            "skills",
            lambda: characters.request_growth(character, player, {f"射{bad}撃": 4}, clock=clock),
        ),
        "grant reason": ("reason", lambda: characters.grant_growth_points(character, 1, reason=bad, clock=clock)),
        "prose": (
            "prose",
            lambda: entries.save_entry(
                stage.open_round, character, user_id=player, order=w.order(), prose=bad, clock=clock
            ),
        ),
        "order string": (
            "order",
            lambda: entries.save_entry(stage.open_round, character, user_id=player, order=order, prose="", clock=clock),
        ),
        "order key": (
            "order",
            lambda: entries.save_entry(
                stage.open_round, character, user_id=player, order={**w.order(), bad: 1}, prose="", clock=clock
            ),
        ),
        "hold reason": ("reason", lambda: rounds.hold_round(stage.open_round, reason=f"x{bad}", clock=clock)),
        "cancel reason": ("reason", lambda: rounds.cancel_round(stage.open_round, reason=bad, clock=clock)),
        "override reason": (
            "reason",
            lambda: rounds.override_check(stage.resolved_round, "r1-c1", 0, reason=bad, clock=clock),
        ),
        "override check": (
            "check",
            lambda: rounds.override_check(stage.resolved_round, f"r1-c1{bad}", 0, reason="why", clock=clock),
        ),
        "story": ("report", lambda: publishing.edit_report(stage.resolved_round, f"# x{bad}", clock=clock)),
        "intro": ("intro", lambda: publishing.edit_report(stage.resolved_round, intro=bad, clock=clock)),
        "outro": ("outro", lambda: publishing.edit_report(stage.resolved_round, outro=bad, clock=clock)),
        "English story": (
            "English story",
            lambda: publishing.edit_report(stage.resolved_round, story_en=f"x{bad}y", clock=clock),
        ),
    }


@pytest.mark.parametrize("bad", NOT_TEXT.values(), ids=NOT_TEXT.keys())
def test_text_that_is_not_text_is_refused_naming_its_field(stage: Stage, bad: str) -> None:
    """On both databases each path says which field holds what (SQLite used to store a NUL, PostgreSQL raised
    psycopg.DataError), and changes nothing."""
    problem = "NUL character" if bad == "\x00" else "half a character"
    for path, (field, call) in _refusals(stage, bad).items():
        rows = {m: m.select().count() for m in (User, Character, Entry, GrowthRequest, Override, AuditLog)}
        with pytest.raises(UserError) as refused:
            call()
        assert refused.value.field == field, path
        if field != "password":  # the password's refusal says its rule, not what it holds
            assert problem in str(refused.value), path
        assert {m: m.select().count() for m in rows} == rows, path
    assert Round.get_by_id(stage.open_round).state == rounds.OPEN


def test_a_nul_in_an_order_names_its_key_path(stage: Stage) -> None:
    w = stage.world
    order = {"minor": None, "major": {"type": "attack", "weapon": "beam_rifle", "targets": ["kagachi1", "\x00"]}}
    with pytest.raises(UserError, match=r"order\.major\.targets\[1\] holds a NUL character"):
        entries.save_entry(
            stage.open_round, w.characters[0], user_id=w.players[0], order=order, prose="", clock=w.clock
        )


def test_an_order_nested_too_deep_is_refused_not_a_recursion_error(stage: Stage) -> None:
    """Within the order's size limit a list can nest deeper than Python's JSON writer goes."""
    w, deep = stage.world, []
    for _ in range(1500):
        deep = [deep]
    with pytest.raises(UserError, match="order is nested too deep"):
        entries.save_entry(
            stage.open_round, w.characters[0], user_id=w.players[0], order={"x": deep}, prose="", clock=w.clock
        )


def test_a_name_that_is_not_text_has_no_account(stage: Stage) -> None:
    """Asked before any query: PostgreSQL refuses to even compare a NUL."""
    assert not accounts.name_taken("gm\x00")
    assert accounts.authenticate("gm\x00", "gm-password") is None
    assert accounts.authenticate("gm", "gm-password\x00") is None


def test_a_pack_with_a_nul_is_refused_naming_its_file(stage: Stage, tmp_path) -> None:
    """TOML's `\\u0000` escape is a NUL: the pack's file and key path are named, nothing is loaded."""
    pack = tmp_path / "demo"
    shutil.copytree(DEMO_PACK_DIR, pack)
    scenarios_toml = pack / "scenarios.toml"
    text = scenarios_toml.read_text(encoding="utf-8")
    scenarios_toml.write_text(text.replace('ja = "多摩川防衛戦"', 'ja = "多摩川\\u0000防衛戦"', 1), encoding="utf-8")
    before = Campaign.get_by_id(stage.world.campaign).pack
    with pytest.raises(BadInput, match=r"scenarios\.toml: scenarios\.tama_river\.ja: holds a NUL character"):
        campaigns.load_campaign(pack, clock=stage.world.clock)
    assert Campaign.get_by_id(stage.world.campaign).pack == before


def test_a_gm_intro_file_with_a_nul_is_one_line_on_the_command_line(stage: Stage, tmp_path) -> None:
    """`pbp round report ID --intro FILE` (DATABASE_URL is the stage's): exit 2, one line naming the intro."""
    intro = tmp_path / "intro.md"
    intro.write_text("前口上\x00", encoding="utf-8")
    done = run_pbp("round", "report", str(stage.resolved_round), "--intro", str(intro))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "intro holds a NUL character" in done.stderr
    assert Report.get(Report.round == stage.resolved_round).intro_md == ""


# ---- arbitrary Unicode through every service that takes text ----------------------------------------------------

COVERED: dict[str, str] = {}  # "module.function" -> the test that sends it arbitrary text


def covers(*names: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    def mark(test: Callable[..., None]) -> Callable[..., None]:
        COVERED.update(dict.fromkeys(names, test.__name__))
        return test

    return mark


#: Public service functions that take a str only from the code itself, never from a user; each says from where.
INTERNAL = {
    "audit.log": "the action and target are the calling service's constants and row ids",
    "audit.campaign_of": "the target is audit.log's, the calling service's constant and row id",
    "notifications.queue": "the kind is the calling service's constant, the payload the rows' values",
    "notifications.notify_round": "the kind is the calling service's constant",
    "notifications.unanswered": "the kind is the calling service's constant; nothing typed reaches it",
    "notifications.forget_unanswered": "the kind is the calling service's constant",
    "notifications.message": "the kind and locale are the outbox row's, written by the code",
    "notifications.send_email": "the address was checked by set_email, subject and body come from message",
    "notifications.post_webhook": "the URL was checked by set_webhook, the kind is an outbox row's",
    "notifications.finish": "the error is an exception's text",
    "rounds.count_failure": "the error is an exception's text",
    "corrections.keep_correction": "the note was checked by correct_report/save_comments (both covered) before",
    "rounds.outcome_word": "the outcome is a ruleset's battle_over value, a constant of the engine; it stores nothing",
    "leaks.refuse_leaking_reason": "the reason was checked by record_action/override_check (both covered) before",
    "campaigns.add_scenario": "called by load_campaign and create_scenario with a pack's key and a checked slug",
    "characters.unspent_growth": "reads a sheet stored after create_character/edit_character checked it",
    "characters.sheet_version": "hashes a sheet (any text in it) and stores nothing; edit_character compares it",
    "clock.local_text": "the campaign's time zone, which the pack validation checked",
    "accounts.password_fingerprint": "hashes a stored password hash, never a user's text",
    "entries.receipt_for": "save_entry passes the prose and order it checked",
    "demo.round_order": "the unit id is characters.unit_id's, the order the demo's own",
    "rounds.policy": "the policy names are the code's (set_policy checks a user's, covered)",
    "rounds.move_state": "the states are the lifecycle's constants",
    "rounds.generated_story": "the locale is 'ja' or 'en' from the code",
    "rounds.round_prose": "the locale is 'ja' or 'en' from the code (generated_story's)",
    "scenarios.lottery_order": "the seed is secrets.token_hex, drawn by close_signup",
    "characters.add_growth_points": "the reason is grant_growth_points' (checked) or publish_round's own",
    "leaks.check": "publishing passes the parts it checked (review, publish_round, correct_report: covered)",
    "leaks.public_pack": "reads a pack stored after load_campaign checked it",
    "publishing.render_parts": "publishing passes the parts it checked or stored",
    "rounds.shaped_encounter": "the actions are gm_actions_of's, recorded by shaping.record_action (covered)",
    "rounds.state_word": "the state is a round's, one of the lifecycle's constants",
    "campaigns.scenario_taken": "words a refusal: the slug is the one a checked service was asked for",
    "notices.record": "the kind and payload are notifications.queue's, from its callers' checked values",
    "notifications.page_path": "the kind and payload are a stored notice's, written by the code",
    "notifications.queue_webhook": "the kind is the caller's constant, the URL the campaign's (checked when saved)",
    "notifications.deadline_in": "the payload is a stored notice's, the zone the user's (set_timezone checked it)",
    "demo.demo_user": "the demo's own account names",
    "kancolle_demo.entry_for": "the legal actions are the engine's (legal_actions), never a user's text",
    "campaign_settings.bonus_cap": "the policies are a campaign's, stored by change (its values checked)",
    "judging.judges": "the ruleset is a campaign's, checked when it was loaded",
    "judging.judging_of": "the state is a round's, one of the lifecycle's constants",
    "master_comments.shown": "the locale is the page's, 'ja' or 'en' from the code",
    "master_comments.cast": "the locale is the page's, 'ja' or 'en' from the code",
    "notifications.scenario_names": "the scenario is a stored row, the pack a campaign's (load_campaign checked it)",
    "master_comments.section_html": "the names and comments are stored ones, checked by save_comments (covered)",
}


def text_taking_functions() -> set[str]:
    """Every public function of a `pbp.services` module with `str` anywhere in a parameter's annotation."""
    found = set()
    for info in pkgutil.iter_modules(pbp.services.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"pbp.services.{info.name}")
        for name, function in vars(module).items():
            if name.startswith("_") or not inspect.isfunction(function) or function.__module__ != module.__name__:
                continue
            hints = [str(p.annotation) for p in inspect.signature(function).parameters.values()]
            if any(re.search(r"\bstr\b", hint) for hint in hints):
                found.add(f"{info.name}.{name}")
    return found


def test_every_service_that_takes_text_is_covered() -> None:
    """A new text path cannot be forgotten: cover it below (or, if only the code passes it, list it in INTERNAL)."""
    taking = text_taking_functions()
    missing = taking - COVERED.keys() - INTERNAL.keys()
    assert not missing, f"services taking text that no hypothesis test sends arbitrary Unicode: {sorted(missing)}"
    stale = (COVERED.keys() | INTERNAL.keys()) - taking
    assert not stale, f"listed but no longer public services taking a str: {sorted(stale)}"


@covers("accounts.create_user", "accounts.authenticate", "accounts.name_taken", "accounts.login_name")
@FAST
@given(
    name=TEXT | st.from_regex(r"[a-z][a-z0-9_.-]{1,11}", fullmatch=True),
    password=TEXT | st.text(ANY_CHARACTER, min_size=8, max_size=24),
    display_name=st.none() | TEXT,
    email=st.none() | TEXT | st.just("aki@example.org"),
)
@example(name="ab", password="password\x00", display_name="葵\x00", email=None)
@example(name="ab\x00", password="password", display_name=None, email=None)
@example(name="ab", password="password", display_name=None, email="aki@example.org\x00")
def test_accounts_take_any_text(
    stage: Stage, name: str, password: str, display_name: str | None, email: str | None
) -> None:
    accounts.name_taken(name)
    assert accounts.login_name(name) is None or storable(name)  # what the login limit keys on is text to store
    assert accounts.authenticate(name, password) is None or storable(name)
    create = lambda: accounts.create_user(name, password, display_name=display_name, email=email)  # noqa: E731
    if accepted(create, name, password, display_name, email):
        user = User.get(User.name == name)
        assert user.display_name == (display_name or name).strip() and user.email == ((email or "").strip() or None)
        assert accounts.name_taken(name)
        assert accounts.authenticate(name, password).id == user.id


@covers("accounts.change_password", "accounts.set_locale")
@FAST
@given(
    current=TEXT | st.just("player-password"),
    new=TEXT | st.text(ANY_CHARACTER, min_size=8, max_size=24),
    locale=st.none() | TEXT | st.sampled_from(["ja", "en"]),
)
@example(current="player-password", new="password\x00", locale="ja\x00")
@example(current="player-password\ud800", new="password", locale=None)
def test_account_settings_take_any_text(stage: Stage, current: str, new: str, locale: str | None) -> None:
    uid = stage.world.players[0]
    if accepted(lambda: accounts.change_password(uid, current, new), current, new):
        user = User.get_by_id(uid)
        assert accounts.authenticate(user.name, new).id == uid
        accounts.change_password(uid, new, current)  # back, so later examples start from the same password
    if accepted(lambda: accounts.set_locale(uid, locale), locale):
        assert User.get_by_id(uid).locale == locale


@covers("accounts.set_password", "accounts.request_password_reset", "accounts.reset_password", "accounts.reset_usable")
@FAST
@given(
    who=TEXT | st.sampled_from(["player1", "P1@Example.org", "nobody"]),
    fingerprint=TEXT,
    new=TEXT | st.text(ANY_CHARACTER, min_size=8, max_size=24),
)
@example(who="player1\x00", fingerprint="\ud800", new="password\x00")
def test_password_resets_take_any_text(stage: Stage, who: str, fingerprint: str, new: str) -> None:
    """Asking for a link by any name or address, a link's fingerprint and the new password as any text: refused,
    or the password is the one given (then set back, so later examples start from the same password)."""
    uid = stage.world.players[0]
    name = User.get_by_id(uid).name
    notifications.set_email(uid, "p1@example.org")
    made: list[tuple[int, str]] = []
    accounts.request_password_reset(
        who, lambda user, fp: made.append((user, fp)) or "https://pbp.example/r", clock=stage.world.clock
    )
    asked = who.strip() if isinstance(who, str) else ""
    for user, _ in made:  # only an account the ask named, by its name or its address (another test may have made one)
        mailed = User.get_by_id(user)
        assert mailed.name == asked or (mailed.email or "").lower() == asked.lower(), (who, mailed.name)
    current = accounts.password_fingerprint(User.get_by_id(uid).password_hash)
    assert accounts.reset_usable(uid, fingerprint) == (fingerprint == current)
    for fp in (fingerprint, current):
        if accepted(lambda fp=fp: accounts.reset_password(uid, fp, new), fp, new):
            assert fp == current and accounts.authenticate(name, new).id == uid
            accounts.set_password(name, "player-password")
    if accepted(lambda: accounts.set_password(who, new), who, new):
        assert accounts.authenticate(who, new) is not None
        accounts.set_password(who, "player-password")


@covers("campaigns.create_scenario", "campaigns.set_policy")
@FAST
@given(
    pack_scenario=TEXT | st.just("tama_river"),
    slug=TEXT | st.from_regex(r"[a-z0-9_-]{1,12}", fullmatch=True),
    policy=TEXT | st.sampled_from(sorted(rounds.POLICIES)),
    value=st.booleans(),
)
@example(pack_scenario="tama_river", slug="run\x00", policy="resolve_when_complete\x00", value=True)
def test_campaign_services_take_any_text(stage: Stage, pack_scenario: str, slug: str, policy: str, value: bool):
    w = stage.world
    if accepted(lambda: campaigns.create_scenario(w.campaign, pack_scenario, slug=slug, clock=w.clock), slug):
        assert Scenario.get(Scenario.campaign == w.campaign, Scenario.slug == slug).pack_scenario == pack_scenario
    if accepted(lambda: campaigns.set_policy(w.campaign, policy, value, clock=w.clock), policy):
        assert Campaign.get_by_id(w.campaign).policies[policy] is value


#: A scene the authoring test writes with arbitrary names and notes.
SCENE = {
    "kind": "scene",
    "checks": [{"id": "c", "ja": "c", "en": "c", "skill": "知覚", "need": 1,
                "success": {"ja": "s", "en": "s"}, "failure": {"ja": "f", "en": "f"}}],
}  # fmt: skip
_SERIAL = itertools.count()


@covers(
    "authoring.create_scenario",
    "authoring.edit_scenario",
    "authoring.import_scenarios",
    "authoring.parse_scenarios",
    "authoring.problems_of",
)
@FAST
@given(name=TEXT, notes=TEXT, slug=TEXT | st.from_regex(r"[a-z0-9_-]{1,12}", fullmatch=True), toml=TEXT)
@example(name="夜\x00", notes="\ud800", slug="s\x00", toml='[scenarios.x]\nja = "\\u0000"')
def test_scenario_authoring_takes_any_text(stage: Stage, name: str, notes: str, slug: str, toml: str) -> None:
    w = stage.world
    spec = {**SCENE, "ja": name, "en": "en", "gm_notes": notes}
    slug = f"{slug}{next(_SERIAL)}" if slug.isascii() and slug.isalnum() else slug  # a fresh one, unless a trap
    if accepted(lambda: authoring.create_scenario(w.campaign, slug, spec, actor_id=None, clock=w.clock), name, notes):
        made = Scenario.get(Scenario.campaign == w.campaign, Scenario.slug == slug)
        assert made.title == (name or "en") and made.source == "console"
        assert Campaign.get_by_id(w.campaign).pack["scenarios"][slug]["gm_notes"] == notes
        edited = {**spec, "en": name, "ja": "ja"}
        if accepted(lambda: authoring.edit_scenario(made.id, edited, actor_id=None, clock=w.clock), name):
            assert Campaign.get_by_id(w.campaign).pack["scenarios"][slug]["en"] == name
    quoted = json.dumps(name, ensure_ascii=False)
    file = f'[scenarios.t{next(_SERIAL)}]\nja = {quoted}\nen = {quoted}\nkind = "scene"\n'
    for text in (toml, file):
        accepted(lambda text=text: authoring.import_scenarios(w.campaign, text, actor_id=None, clock=w.clock), text)


@covers(
    "notifications.set_email",
    "notifications.checked_email",
    "notifications.set_preference",
    "notifications.save_settings",
    "notifications.set_webhook",
)
@FAST
@given(
    email=TEXT | TEXT.map(lambda t: f"{t}@example.org"),
    kind=TEXT | st.sampled_from(notifications.KINDS),
    url=TEXT | TEXT.map("https://hooks.example/".__add__),
)
@example(email="a\x00@example.org", kind="round.held\x00", url="https://hooks.example/\ud800")
def test_notification_settings_take_any_text(stage: Stage, email: str, kind: str, url: str) -> None:
    w = stage.world
    uid = w.players[0]
    if accepted(lambda: notifications.set_email(uid, email), email):
        assert User.get_by_id(uid).email == (email.strip() or None)
    if accepted(lambda: notifications.set_preference(uid, kind, False), kind):
        assert notifications.preferences(uid)[kind] is False
        notifications.set_preference(uid, kind, True)
    before = User.get_by_id(uid).email, notifications.preferences(uid)
    if accepted(lambda: notifications.save_settings(uid, email, {kind: False}), email, kind):
        assert (User.get_by_id(uid).email, notifications.preferences(uid)[kind]) == (email.strip() or None, False)
        notifications.set_preference(uid, kind, True)
    else:  # one transaction: a refused address or kind stores neither
        assert (User.get_by_id(uid).email, notifications.preferences(uid)) == before
    if accepted(lambda: notifications.set_webhook(w.campaign, url, clock=w.clock), url):
        assert Campaign.get_by_id(w.campaign).webhook_url == (url.strip() or None)
        notifications.set_webhook(w.campaign, None, clock=w.clock)


@covers("campaign_settings.checked_timezone", "campaign_settings.checked_webhook")
@FAST
@given(
    zone=TEXT | st.sampled_from(["UTC", " Asia/Tokyo ", "../etc/localtime"]),
    url=TEXT | TEXT.map("https://hooks.example/".__add__),
)
@example(zone="UTC\x00", url="https://hooks.example/\ud800")
def test_campaign_settings_take_any_text(stage: Stage, zone: str, url: str) -> None:
    w = stage.world
    before = Campaign.get_by_id(w.campaign)
    change = lambda: campaign_settings.change(w.campaign, actor_id=None, clock=w.clock, timezone=zone, webhook=url)  # noqa: E731
    if accepted(change, zone, url):
        after = Campaign.get_by_id(w.campaign)
        assert (after.timezone, after.webhook_url) == (zone.strip(), url.strip() or None)
        campaign_settings.change(w.campaign, actor_id=None, timezone=before.timezone, webhook=None)
    else:  # checked before anything is stored: neither changed
        after = Campaign.get_by_id(w.campaign)
        assert (after.timezone, after.webhook_url) == (before.timezone, before.webhook_url)


@covers("scenario_texts.edit_texts")
@FAST
@given(notes=TEXT, title=TEXT)
@example(notes="秘密\x00", title="幕間")
def test_scenario_texts_take_any_text(stage: Stage, notes: str, title: str) -> None:
    w = stage.world
    secret = ScenarioSecret.get(ScenarioSecret.scenario == w.scenario)
    if accepted(lambda: scenario_texts.edit_texts(w.scenario, {"gm_notes": notes}, actor_id=None), notes):
        stored = ScenarioSecret.get(ScenarioSecret.scenario == w.scenario).gm_notes
        assert stored == notes.strip().replace("\r\n", "\n").replace("\r", "\n")
        scenario_texts.edit_texts(w.scenario, {"gm_notes": secret.gm_notes}, actor_id=None)
    with pytest.raises(UserError):  # a pack scenario's title is the pack's, whatever the text
        scenario_texts.edit_texts(w.scenario, {"ja": title}, actor_id=None)


SHEET_TEXTS = st.fixed_dictionaries(
    {}, optional={"ja": TEXT, "en": TEXT, "description": TEXT, "items": st.lists(TEXT, max_size=2), "extra": JSON}
)


@covers("characters.create_character", "characters.edit_character")
@FAST
@given(texts=SHEET_TEXTS)
@example(texts={"ja": "葵\x00"})
@example(texts={"description": "\ud800", "extra": {"\x00": 1}})
def test_sheets_take_any_text(stage: Stage, texts: dict[str, Any]) -> None:
    w = stage.world
    pack_sheet = Campaign.get_by_id(w.campaign).pack["characters"]["aoi"]
    made: list[Character] = []
    if accepted(
        lambda: made.append(characters.create_character(w.campaign, w.players[1], {**pack_sheet, **texts})), texts
    ):
        stored = Character.get_by_id(made[0].id)
        assert stored.sheet == {**pack_sheet, **texts, "growth_points": stored.sheet["growth_points"]}
        assert stored.name == stored.sheet["ja"].strip()
    character = w.characters[1]
    sheet = {**Character.get_by_id(character).sheet, **texts}
    if accepted(lambda: characters.edit_character(character, w.players[1], sheet, clock=w.clock), texts):
        stored = Character.get_by_id(character)
        assert stored.sheet == sheet
        assert stored.name == sheet["ja"].strip()


@covers(
    "characters.request_growth",
    "characters.decide_growth",
    "characters.grant_growth_points",
    "characters.character_id_of",
)
@FAST
@given(
    skill=TEXT | st.sampled_from(["射撃", "回避", "白兵", "操縦"]),
    level=st.integers(1, 5),
    note=TEXT,
    reason=TEXT,
    unit=TEXT | TEXT.map("pc".__add__),
)
@example(skill="射撃", level=5, note="\x00", reason="\x00", unit="pc²")
def test_growth_takes_any_text(stage: Stage, skill: str, level: int, note: str, reason: str, unit: str) -> None:
    w = stage.world
    character = w.characters[0]
    request = lambda: characters.request_growth(character, w.players[0], {skill: level}, note=note, clock=w.clock)  # noqa: E731
    if accepted(request, skill, note):
        latest = GrowthRequest.select().order_by(GrowthRequest.id.desc()).get()
        assert (latest.note, latest.status, latest.after["skills"][skill]) == (note.strip(), "pending", level)
        decide = lambda: characters.decide_growth(latest.id, True, reason, actor_id=w.gm, clock=w.clock)  # noqa: E731
        if accepted(decide, reason):
            assert last_audit("growth.approve")["reason"] == reason.strip()
            assert Character.get_by_id(character).sheet["skills"][skill] == level
        else:  # the next example may ask again
            characters.decide_growth(latest.id, False, "no", actor_id=w.gm, clock=w.clock)
    if accepted(lambda: characters.grant_growth_points(character, 1, reason=reason, clock=w.clock), reason):
        assert last_audit("character.grant")["reason"] == reason.strip()
    found = characters.character_id_of(unit)
    assert found is None or (isinstance(found, int) and unit.startswith("pc") and unit[2:].isascii())


@covers("gms.add_co_gm")
@FAST
@given(name=TEXT | st.sampled_from(["player1", "player2"]))
@example(name="player1\x00")
def test_co_gms_are_named_in_any_text(stage: Stage, name: str) -> None:
    w = stage.world
    if accepted(lambda: gms.add_co_gm(w.campaign, name, actor_id=w.gm, clock=w.clock), name):
        added = User.get(User.name == name.strip())
        assert gms.is_gm(w.campaign, added.id) and last_audit("gm.add")["user"] == name.strip()
        gms.remove_co_gm(w.campaign, added.id, actor_id=w.gm, clock=w.clock)  # the next example may add it again


ORDERS = st.one_of(
    st.just({}),
    TEXT.map(lambda target: {"minor": None, "major": {"type": "attack", "weapon": "beam_rifle", "targets": [target]}}),
    TEXT.map(lambda weapon: {"minor": None, "major": {"type": "attack", "weapon": weapon, "targets": ["kagachi1"]}}),
    TEXT.map(lambda label: {"minor": None, "major": {"type": "check", "label": label}}),
    st.dictionaries(TEXT, JSON, max_size=2).map(
        lambda extra: (
            {"minor": None, "major": {"type": "attack", "weapon": "beam_rifle", "targets": ["kagachi1"]}} | extra
        )
    ),
)


@covers("entries.save_entry")
@FAST
@given(order=ORDERS, prose=TEXT, prose_en=st.none() | TEXT)
@example(order={}, prose="\x00", prose_en=None)
@example(order={"minor": None, "major": {"type": "check", "label": "\x00"}}, prose="", prose_en=None)
@example(order={}, prose="\r", prose_en=None)  # stored as "\n": a line break is one character, as the form counts it
@example(order={}, prose="", prose_en=" \x00 ")  # not text in the English version: refused, not dropped
def test_entries_take_any_text(stage: Stage, order: dict[str, Any], prose: str, prose_en: str | None) -> None:
    w = stage.world
    character = w.characters[0]
    save = lambda: entries.save_entry(  # noqa: E731
        stage.open_round, character, user_id=w.players[0], order=order, prose=prose, prose_en=prose_en, clock=w.clock
    )
    if accepted(save, order, prose, prose_en or ""):
        entry = Entry.get(Entry.round == stage.open_round, Entry.character == character)
        assert entry.prose == lines(prose)
        assert entry.prose_en == (lines(prose_en) if prose_en and prose_en.strip() else None)
        assert all(entry.order[k] == v for k, v in order.items() if k != "unit")


@covers("entry_wishes.check_wish")
@FAST
@given(
    partners=st.lists(TEXT | st.sampled_from(["1", "2", "3", "０"]), max_size=4),
    adlib=TEXT | st.sampled_from(entry_wishes.ADLIB),
    contact=TEXT | st.sampled_from(entry_wishes.CONTACT),
    note=TEXT,
)
@example(partners=[], adlib="", contact="", note="GMへ\x00")
@example(partners=["\x00"], adlib="", contact="", note="")
@example(partners=[], adlib="welcome\x00", contact="", note="")
def test_entry_wishes_take_any_text(stage: Stage, partners: list[str], adlib: str, contact: str, note: str) -> None:
    w = stage.world
    character = w.characters[0]

    def save() -> None:
        wish = entry_wishes.check_wish(
            stage.open_round, character, partners=partners, adlib=adlib, contact=contact, gm_note=note
        )
        entries.save_entry(stage.open_round, character, user_id=w.players[0], order=w.order(), prose="行く",
                           wish=wish, clock=w.clock)  # fmt: skip

    if accepted(save, partners, adlib, contact, note):  # nothing asked stores nothing: the same as no wish
        row = entry_wishes.wish_of(stage.open_round, character) or entry_wishes.Wish()
        assert (row.adlib, row.contact, row.gm_note) == (adlib, contact, note.strip())
        assert list(row.partners) == list(dict.fromkeys(int(p) for p in partners))


@covers("rounds.hold_round", "rounds.cancel_round", "rounds.override_check")
@FAST
@given(
    hold=TEXT,
    cancel=TEXT,
    check=TEXT | st.sampled_from(["r1-c1", "r1-c2", "r1-c3", "r1-c4"]),
    why=TEXT,
    successes=st.integers(0, 3),
)
@example(hold="\x00", cancel="\x00", check="r1-c1", why="\x00", successes=0)
@example(hold="", cancel="", check="r1-c1\x00", why="why", successes=0)
def test_round_reasons_take_any_text(stage: Stage, hold: str, cancel: str, check: str, why: str, successes: int):
    w = stage.world
    if accepted(lambda: rounds.hold_round(stage.open_round, reason=hold, clock=w.clock), hold):
        assert last_audit("round.hold")["reason"] == hold.strip()
        rounds.release_round(stage.open_round, clock=w.clock)
    draft = w.new_round(open_it=False)
    if accepted(lambda: rounds.cancel_round(draft, reason=cancel, clock=w.clock), cancel):
        assert Round.get_by_id(draft).state == rounds.CANCELLED
        assert last_audit("round.cancel")["reason"] == cancel.strip()
    override = lambda: rounds.override_check(stage.resolved_round, check, successes, reason=why, clock=w.clock)  # noqa: E731
    if accepted(override, check, why):
        stored = Override.get(Override.round == stage.resolved_round, Override.check == check.strip())
        assert (stored.successes, stored.reason) == (successes, why.strip())


@covers("publishing.edit_report")
@FAST
@given(story=st.none() | TEXT, intro=st.none() | TEXT, outro=st.none() | TEXT, english=st.none() | TEXT)
@example(story="物語\x00", intro=None, outro=None, english=None)
@example(story=None, intro="\x00", outro="\x00", english="\x00")
def test_report_edits_take_any_text(
    stage: Stage, story: str | None, intro: str | None, outro: str | None, english: str | None
) -> None:
    before = Report.get(Report.round == stage.resolved_round)
    edit = lambda: publishing.edit_report(  # noqa: E731
        stage.resolved_round, story, intro=intro, outro=outro, story_en=english, clock=stage.world.clock
    )
    if accepted(edit, story, intro, outro, english):
        after = Report.get(Report.round == stage.resolved_round)
        for given_text, column in ((story, "draft_md"), (intro, "intro_md"), (outro, "outro_md")):
            want = getattr(before, column) if given_text is None else lines(given_text).strip()
            assert getattr(after, column) == want, column
        want_en = before.story_en_md if english is None else (lines(english).strip() or None)
        assert after.story_en_md == want_en


@covers("master_comments.save_comments")
@FAST
@given(text=TEXT, english=TEXT, note=TEXT)
@example(text="一撃\x00", english="", note="")
@example(text="見事", english="\ud800", note="\x00")
def test_master_comments_take_any_text(stage: Stage, text: str, english: str, note: str) -> None:
    cid = stage.world.characters[0]
    save = lambda: master_comments.save_comments(  # noqa: E731
        stage.resolved_round, [Comment(cid, text, english)], note=note, clock=stage.world.clock
    )
    if accepted(save, text, english, note):
        row = MasterComment.get_or_none(MasterComment.round == stage.resolved_round, MasterComment.character == cid)
        if lines(text).strip():
            assert row is not None and row.text == lines(text).strip()
            assert row.text_en == (lines(english).strip() or None)
        else:
            assert row is None


@covers("scenario_notes.write")
@FAST
@given(body=TEXT)
@example(body="相談\x00")
@example(body="\ud800")
def test_private_notes_take_any_text(stage: Stage, body: str) -> None:
    scenario_id = Round.get_by_id(stage.resolved_round).scenario_id
    player = stage.world.players[0]
    ScenarioNote.delete().where(ScenarioNote.author == player).execute()  # the flood limit is not under test here
    write = lambda: scenario_notes.write(scenario_id, player, body, author_id=player, clock=stage.world.clock)  # noqa: E731
    if accepted(write, body):
        assert ScenarioNote.select().order_by(ScenarioNote.id.desc()).get().body == lines(body).strip()


@covers("line_fates.entry_fates")
@FAST
@given(story=st.none() | TEXT)
@example(story="「\x00")
def test_where_each_line_went_reads_any_story_text(stage: Stage, story: str | None) -> None:
    """The GM's typed story (a preview) is only read: any text gives every entry's lines a known fate, never an
    error, and changes nothing."""
    before = Report.get(Report.round == stage.resolved_round).draft_md
    fates = line_fates.entry_fates(stage.resolved_round, story, actor_id=stage.world.gm)
    assert {fate for entry in fates for _, _, fate in entry.lines} <= {QUOTED, TOLD, NOTE, LEFT_OUT}
    assert Report.get(Report.round == stage.resolved_round).draft_md == before


@covers("publishing.review", "publishing.publish_round", "publishing.correct_report")
@FAST
@given(story=st.none() | TEXT, intro=st.none() | TEXT, outro=st.none() | TEXT, english=st.none() | TEXT, note=TEXT)
@example(story="物語\x00", intro=None, outro=None, english=None, note="x")
@example(story="物語", intro="\ud800", outro=None, english=None, note="\x00")
def test_reviews_publishing_and_corrections_take_any_text(
    stage: Stage, story: str | None, intro: str | None, outro: str | None, english: str | None, note: str
) -> None:
    """The review changes nothing; publishing an open round is refused (text that is not text first, naming its
    field); a correction of a published round stores its note and text, or refuses."""
    w = stage.world
    texts = {"intro": intro, "outro": outro, "story_en": english}
    review = lambda: publishing.review(stage.resolved_round, story, **texts, actor_id=w.gm)  # noqa: E731
    if accepted(review, story, intro, outro, english) and story is not None and story.strip():
        assert publishing.review(stage.resolved_round, story, **texts, actor_id=w.gm).story == lines(story).strip()
    with pytest.raises(UserError) as refused:
        publishing.publish_round(stage.open_round, story, **texts, actor_id=w.gm, clock=w.clock)
    text_ok = storable((story, intro, outro, english)) and (story is None or bool(story.strip()))
    assert text_ok == isinstance(refused.value, InvalidState), refused.value
    published = _published_round(stage)
    correct = lambda: publishing.correct_report(published, note, story, **texts, actor_id=w.gm, clock=w.clock)  # noqa: E731
    if accepted(correct, note, story, intro, outro, english):
        assert publishing.corrections(published)[-1].note == note.strip()


_PUBLISHED: dict[int, int] = {}


def _published_round(stage: Stage) -> int:
    """A published round of its own scenario (made once per stage)."""
    if id(stage) not in _PUBLISHED:
        w = stage.world
        rid = w.new_round(scenario=w.new_scenario("published-texts"))
        rounds.resolve_round(rid, clock=w.clock)
        publishing.publish_round(rid, clock=w.clock)
        _PUBLISHED[id(stage)] = rid
    return _PUBLISHED[id(stage)]


_SHAPED: dict[int, int] = {}  # id(stage) -> a round of a scenario of its own, for the GM's actions


@covers("shaping.record_action", "shaping.save_enemy_order", "shaping.clear_enemy_order")
@FAST
@given(
    kind=TEXT | st.sampled_from(["retreat", "set_position", "add_status", "add_unit"]),
    unit=TEXT | st.sampled_from(["kagachi1", "kagachi2", "hayachi1"]),
    text=TEXT,
    reason=TEXT | st.just("the GM decides"),
    order=JSON,
)
@example(kind="add_status", unit="kagachi1", text="stun\x00", reason="why", order={"major": "\ud800"})
@example(kind="add_unit", unit="kagachi1", text="kagachi", reason="why\x00", order={})
def test_shaping_takes_any_text(stage: Stage, kind: str, unit: str, text: str, reason: str, order: Any) -> None:
    w = stage.world
    rid = _SHAPED.get(id(stage)) or _SHAPED.setdefault(id(stage), w.new_round(scenario=w.new_scenario("shaped")))
    fields = {"unit": unit, "status": text, "position": [len(text) * 7 + 100, 300], "enemy": text, "id": unit}
    record = lambda: shaping.record_action(rid, kind, fields, reason=reason, actor_id=w.gm, clock=w.clock)  # noqa: E731
    if accepted(record, kind, unit, text, reason):
        assert last_audit("round.gm_action")["reason"] == reason.strip()
    order = order if isinstance(order, dict) else {"major": order}
    if accepted(lambda: shaping.save_enemy_order(rid, unit, order, actor_id=w.gm, clock=w.clock), unit, order):
        assert GmOrder.get(GmOrder.round == rid, GmOrder.unit == unit).order == order
    if accepted(lambda: shaping.clear_enemy_order(rid, unit, actor_id=w.gm, clock=w.clock), unit):
        assert not GmOrder.select().where(GmOrder.round == rid, GmOrder.unit == unit).exists()


_JUDGED: dict[int, int] = {}  # the stage's round for judging (an open round of its own scenario, one entry)


@covers("judging.set_bonus", "judging.add_adhoc_check")
@FAST
@given(
    reason=TEXT | st.just("a fine plan"),
    skill=TEXT | st.sampled_from(["情報処理", "射撃"]),
    success=TEXT,
    failure=TEXT,
)
@example(reason="why\x00", skill="情報処理", success="", failure="")
@example(reason="why", skill="情報処理\x00", success="ok", failure="\ud800")
def test_judging_takes_any_text(stage: Stage, reason: str, skill: str, success: str, failure: str) -> None:
    w = stage.world
    rid = _JUDGED.get(id(stage))
    if rid is None:
        rid = _JUDGED[id(stage)] = w.new_round(scenario=w.new_scenario("judged"))
        entries.save_entry(rid, w.characters[0], user_id=w.players[0], order=w.order(), prose="行く", clock=w.clock)
    bonus = lambda: judging.set_bonus(rid, w.characters[0], dice=1, successes=0, reason=reason, actor_id=w.gm,  # noqa: E731
                                      clock=w.clock)  # fmt: skip
    if accepted(bonus, reason):
        assert last_audit("round.bonus")["reason"] == reason.strip()
    texts = {"success_text": success, "failure_text": failure}
    adhoc = lambda: judging.add_adhoc_check(rid, w.characters[0], skill=skill, need=1, reason=reason,  # noqa: E731
                                            actor_id=w.gm, clock=w.clock, **texts)  # fmt: skip
    if accepted(adhoc, reason, skill, success, failure):
        row = AdhocCheck.select().where(AdhocCheck.round == rid).order_by(AdhocCheck.seq.desc()).get()
        assert (row.skill, row.reason, row.success_text or "") == (skill.strip(), reason.strip(), success.strip())
        judging.remove_adhoc_check(rid, row.id, actor_id=w.gm, clock=w.clock)


_DRAFT_TICKS = itertools.count(1)  # each example's drafts a moment after the last: none is refused as too soon


@covers("drafts.save_draft", "drafts.refused_late", "drafts.park", "drafts.claim_parked")
@FAST
@given(prose=TEXT, prose_en=TEXT, token=TEXT)
@example(prose="書きかけ\x00", prose_en="", token="\x00")
@example(prose="書きかけ", prose_en="\ud800", token="\ud800")
def test_drafts_take_any_text(stage: Stage, prose: str, prose_en: str, token: str) -> None:
    """A draft, a late save's text and a save's text parked after its session ended, as any text: refused (parked
    text: nothing kept), or kept as given; a parked text's token, as any text, claims nothing of another's."""
    w, rid = stage.world, stage.open_round
    uid, cid = w.players[0], w.characters[0]
    clock = FixedClock(w.clock.now() + timedelta(seconds=3 * next(_DRAFT_TICKS)))
    save = lambda: drafts.save_draft(rid, cid, user_id=uid, prose=prose, prose_en=prose_en, clock=clock)  # noqa: E731
    if accepted(save, prose, prose_en):
        draft = drafts.draft_of(rid, cid, user_id=uid)
        assert (draft.prose, draft.prose_en) == (lines(prose), lines(prose_en))
    late = lambda: drafts.refused_late(rid, cid, user_id=uid, prose=prose, prose_en=prose_en, clock=clock)  # noqa: E731
    accepted(late, prose, prose_en)
    parked = drafts.park(rid, cid, user_id=uid, prose=prose, prose_en=prose_en, clock=clock)
    assert parked is None or storable((prose, prose_en))
    assert drafts.claim_parked(token, user_id=w.players[1], clock=clock) is None
    if parked is not None:
        assert drafts.claim_parked(parked, user_id=uid, clock=clock) == (rid, cid)
        assert drafts.draft_of(rid, cid, user_id=uid).prose == lines(prose)


@covers("accounts.registration_problems", "accounts.set_timezone")
@FAST
@given(
    name=TEXT | st.from_regex(r"[a-z][a-z0-9_.-]{1,11}", fullmatch=True),
    password=TEXT,
    display_name=st.none() | TEXT,
    email=st.none() | TEXT,
    timezone=st.none() | TEXT | st.sampled_from(["Asia/Tokyo", "UTC", "Europe/London"]),
)
@example(name="ab\x00", password="password\ud800", display_name="葵\x00", email="a@example.org\x00", timezone="UTC\x00")
def test_registration_and_time_zone_take_any_text(
    stage: Stage, name: str, password: str, display_name: str | None, email: str | None, timezone: str | None
) -> None:
    """The sign-up's every-problem-at-once check says a problem for text that is not text (never raises); a user's
    time zone as any text: refused beside its field, or stored as a known zone."""
    problems = accounts.registration_problems(name, password, display_name=display_name, email=email)
    assert all(isinstance(p, UserError) for p in problems)
    if not storable((name, password, display_name, email)):
        assert problems
    uid = stage.world.players[0]
    if accepted(lambda: accounts.set_timezone(uid, timezone), timezone):
        stored = User.get_by_id(uid).timezone
        assert stored == ((timezone or "").strip() or None)
        accounts.set_timezone(uid, None)


@covers(
    "roster.change",
    "secret_terms.checked_terms",
    "secret_terms.set_terms",
    "secret_terms.marked_terms",
    "secret_terms.folded",
    "secret_terms.find_terms",
)
@FAST
@given(move=TEXT | st.sampled_from(["accept", "waitlist", "reject", "remove"]), terms=TEXT, notes=TEXT, part=TEXT)
@example(move="accept\x00", terms="黒幕\x00", notes="【秘】紅い月\ud800【/秘】", part="\ud800")
def test_roster_moves_and_secret_terms_take_any_text(stage: Stage, move: str, terms: str, notes: str, part: str):
    """A roster move named by any text: refused, nothing changed (the world's running round refuses every move);
    a secret-term list and GM notes as any text: refused beside their field or kept term by term; the leak check's
    fold and find take any text and find a kept term wherever it stands."""
    w = stage.world
    accepted(lambda: roster.change(w.scenario, w.characters[0], move, actor_id=w.gm, clock=w.clock), move)
    if accepted(lambda: secret_terms.set_terms(w.scenario, terms, actor_id=w.gm, clock=w.clock), terms):
        kept = secret_terms.watched(w.campaign)
        assert [t.term for t in kept if not t.in_notes] == [t.strip() for t in lines(terms).splitlines() if t.strip()]
        secret_terms.set_terms(w.scenario, "", actor_id=w.gm, clock=w.clock)
    try:  # reads GM notes (stored by the scenario services, covered above): a refusal or the terms it marks
        found = secret_terms.marked_terms(notes, strict=True)
    except UserError:
        found = []
    assert all("【秘】" in notes and term in notes for term in found)
    secret_terms.folded(part)
    term = "黒幕は榊司令"
    leaks = secret_terms.find_terms({"story": f"{part}{term}"}, secret_terms.as_secrets([_watched(term)]))
    assert any(leak.part == "story" for leak in leaks)


def _watched(term: str) -> secret_terms.Watched:
    return secret_terms.Watched(term, 0, "run", False)
