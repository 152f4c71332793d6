"""Publishing's services for the GM (issue 10, items 6 and 7): only a campaign's GMs edit, publish and correct;
the leak check refuses publication and corrections whose public text holds GM-secret text (and says where), and
changes nothing; corrections keep the text as it was; the growth award goes to every character with an entry."""

from __future__ import annotations

import re

import pytest

from pbp import reports
from pbp.errors import Forbidden, InvalidState, UserError
from pbp.models import (
    AuditLog,
    Campaign,
    Character,
    Outbox,
    Report,
    ReportCorrection,
    Resolution,
    Round,
    Scenario,
    ScenarioSecret,
)
from pbp.services import accounts, campaigns, characters, entries, gms, leaks, publishing, rounds, schedule
from pbp.services.publishing import LeakFound

SECRET = "上流から古カガチが増援として現れる"  # a phrase of tama_river's GM notes (campaigns/demo/scenarios.toml)


def _resolved(world, *, entered: int = 2) -> int:
    rid = world.new_round()
    for uid, cid in list(zip(world.players, world.characters, strict=True))[:entered]:
        entries.save_entry(rid, cid, user_id=uid, order=world.order(), prose="撃つ。", clock=world.clock)
    world.clock.advance(3600)
    assert rounds.resolve_round(rid, clock=world.clock).status == "resolved"
    return rid


def _rival_gm(world) -> int:
    """The GM of another campaign (a copy of the demo under another id)."""
    user = accounts.create_user("rival-gm", "rival-password", clock=world.clock)
    rival = Campaign.get_by_id(world.campaign)
    campaign = Campaign.create(
        slug="rival", name="rival", ruleset=rival.ruleset, pack_name="rival", pack=rival.pack, gm=user.id,
        created_at=rival.created_at,
    )  # fmt: skip
    gms.ensure_owner(campaign.id, user.id, rival.created_at)
    return user.id


def test_only_the_campaigns_gms_edit_publish_correct_review_award_and_grant(world) -> None:
    """A player and the GM of another campaign are refused by every service itself; a co-GM and the operator
    (actor None) are not."""
    rid = _resolved(world)
    rival = _rival_gm(world)
    player = world.players[0]
    cid = world.characters[0]
    calls = {
        "edit_report": lambda who: publishing.edit_report(rid, "物語。", actor_id=who, clock=world.clock),
        "review": lambda who: publishing.review(rid, actor_id=who),
        "publish_round": lambda who: publishing.publish_round(rid, actor_id=who, clock=world.clock),
        "set_growth_award": lambda who: publishing.set_growth_award(world.campaign, 1, actor_id=who, clock=world.clock),
        "grant_growth_points": lambda who: characters.grant_growth_points(
            cid, 1, reason="fine", actor_id=who, clock=world.clock
        ),
    }
    before = Report.get(Report.round == rid).draft_md
    for name, call in calls.items():
        for who in (player, rival):
            with pytest.raises(Forbidden, match="only the campaign's GMs"):
                call(who)
        assert Report.get(Report.round == rid).draft_md == before, name
    assert Round.get_by_id(rid).state == rounds.RESOLVED
    assert Character.get_by_id(cid).sheet["growth_points"] == 0
    for who in (player, rival):
        with pytest.raises(Forbidden):
            publishing.correct_report(rid, "note", "物語。", actor_id=who, clock=world.clock)
    cogm = accounts.create_user("cogm", "cogm-password", clock=world.clock)
    gms.add_co_gm(world.campaign, "cogm", actor_id=world.gm, clock=world.clock)
    publishing.edit_report(rid, "物語。", actor_id=cogm.id, clock=world.clock)
    characters.grant_growth_points(cid, 1, reason="fine", actor_id=None, clock=world.clock)
    publishing.publish_round(rid, actor_id=cogm.id, clock=world.clock)
    publishing.correct_report(rid, "直した", "物語を直した。", actor_id=world.gm, clock=world.clock)
    assert Character.get_by_id(cid).sheet["growth_points"] == 1


def test_publishing_an_unresolved_round_is_a_clear_refusal(world) -> None:
    rid = world.new_round()
    with pytest.raises(InvalidState, match=rf"round {rid} is open: only a resolved round can be published"):
        publishing.publish_round(rid, "物語", actor_id=world.gm, clock=world.clock)
    rnd = Round.get_by_id(rid)
    assert rnd.state == rounds.OPEN and rnd.published_at is None
    assert not AuditLog.select().where(AuditLog.action == "round.publish").exists()


@pytest.mark.parametrize(
    ("part", "text"),
    [
        ("intro", f"第3ラウンド。{SECRET}とは、まだ誰も知らない。"),
        ("story", f"物語。\n\n**{SECRET[:4]}**{SECRET[4:]}のだ。"),
        ("outro", "上空でオロチが目を覚ます。"),  # an enemy type never fielded, not public
        ("story_en", "The Elder Kagachi watched."),  # the elder's English name
    ],
)
def test_the_leak_check_refuses_publication_says_where_and_changes_nothing(world, part, text) -> None:
    rid = _resolved(world)
    before = Report.get(Report.round == rid)
    args = {"intro": None, "outro": None, "story_en": None, "markdown": None}
    args["markdown" if part == "story" else part] = text
    with pytest.raises(LeakFound) as refused:
        publishing.publish_round(rid, **args, actor_id=world.gm, clock=world.clock)
    leak = refused.value.leaks[0]
    assert leak.part == part and leak.found in text
    assert f"{part}: {leak.found!r}" in str(refused.value) and "publication refused" in str(refused.value)
    after = Report.get(Report.round == rid)
    assert Round.get_by_id(rid).state == rounds.RESOLVED and Round.get_by_id(rid).published_at is None
    assert (after.draft_md, after.intro_md, after.outro_md, after.story_en_md, after.html) == (
        before.draft_md, before.intro_md, before.outro_md, before.story_en_md, None,
    )  # fmt: skip
    # fixed, it goes through
    args["markdown" if part == "story" else part] = "霧が晴れた。" if part != "story_en" else "The fog lifted."
    publishing.publish_round(rid, **args, actor_id=world.gm, clock=world.clock)
    assert Round.get_by_id(rid).state == rounds.PUBLISHED


def test_the_generated_draft_passes_and_a_gimmick_or_the_scenario_text_can_leak(world) -> None:
    """The narrator's own draft passes; the public gimmick (川霧) is no secret; a GM note pasted into the
    scenario's public text is found there."""
    rid = _resolved(world)
    assert publishing.review(rid, intro="川霧が立ちこめる。", actor_id=world.gm).leaks == []
    Scenario.update(public_text=f"河原にて。{SECRET}。").where(Scenario.id == world.scenario).execute()
    with pytest.raises(LeakFound) as refused:
        publishing.publish_round(rid, actor_id=world.gm, clock=world.clock)
    assert [(x.part, x.secret.kind, x.secret.source) for x in refused.value.leaks] == [
        ("scenario", "gm_notes", "tama_river"),
        ("scenario", "enemy", "kagachi_elder"),  # the phrase names the elder too
    ]


def test_what_a_published_round_put_on_the_field_is_no_secret_any_more(world) -> None:
    """The elder (a hidden type) and a placed enemy are secrets until a published round had them on the field;
    a hidden gimmick until it fired."""
    secret = ScenarioSecret.get(ScenarioSecret.scenario == world.scenario)
    setup = dict(secret.setup)
    setup["enemies"] = [*setup["enemies"], {"id": "orochi1", "type": "orochi", "name": "八岐", "position": [0, 0]}]
    setup["gimmicks"] = [*setup["gimmicks"], {"id": "ambush", "ja": "伏兵の罠", "timing": "round_start", "effects": []}]
    ScenarioSecret.update(setup=setup).where(ScenarioSecret.id == secret.id).execute()
    first = _resolved(world)

    def secret_texts(rid: int) -> set[str]:
        return {s.text for s in leaks.secrets_of(rid)[0]}

    assert {"古カガチ", "Elder Kagachi", "八岐", "伏兵の罠", "オロチ"} <= secret_texts(first)
    assert not {"カガチ壱", "Kagachi One", "ハヤチ", "川霧"} & secret_texts(first)  # on the field, or public
    resolution = Resolution.get(Resolution.round == first)
    elder = {**resolution.encounter["units"][-1], "id": "elder1", "name": "古カガチ"}
    events = [
        *resolution.events,
        {"type": "gimmick", "id": "ambush", "timing": "round_start", "effects": [], "units": []},
    ]
    Resolution.update(encounter={**resolution.encounter, "units": [*resolution.encounter["units"], elder]},
                      events=events).where(Resolution.id == resolution.id).execute()  # fmt: skip
    publishing.publish_round(first, actor_id=world.gm, clock=world.clock)
    second = _resolved(world)
    assert not {"古カガチ", "Elder Kagachi", "伏兵の罠"} & secret_texts(second)
    assert {"八岐", "オロチ", SECRET} <= secret_texts(second)


def test_an_english_story_that_is_the_generated_one_is_not_the_gms(world) -> None:
    rid = _resolved(world)
    generated = publishing.review(rid, actor_id=world.gm).english
    assert generated
    assert publishing.edit_report(rid, story_en=generated, actor_id=world.gm, clock=world.clock).story_en_md is None
    assert publishing.edit_report(rid, story_en="Mine.", actor_id=world.gm, clock=world.clock).story_en_md == "Mine."


def test_the_review_compares_with_the_draft_as_generated_and_says_which_language_was_edited(world) -> None:
    rid = _resolved(world)
    review = publishing.review(rid, actor_id=world.gm)
    assert review.generated == Report.get(Report.round == rid).generated_md == review.story
    assert review.one_language_edited is None
    characters.grant_growth_points(world.characters[0], 5, reason="later", clock=world.clock)  # the state list moves
    assert publishing.review(rid, actor_id=world.gm).one_language_edited is None
    assert publishing.review(rid, review.story + "\n\n追記。", actor_id=world.gm).one_language_edited == "ja"
    assert publishing.review(rid, story_en="Mine.", actor_id=world.gm).one_language_edited == "en"
    both = publishing.review(rid, review.story + "\n\n追記。", story_en="Mine.", actor_id=world.gm)
    assert both.one_language_edited is None and "追記" in both.html and "Mine." in (both.html_en or "")
    assert Report.get(Report.round == rid).draft_md == review.story  # a review saves nothing


def test_a_correction_keeps_the_old_text_with_a_dated_note(world) -> None:
    rid = _resolved(world)
    publishing.edit_report(rid, "最初の物語。", intro="前口上。", actor_id=world.gm, clock=world.clock)
    publishing.publish_round(rid, actor_id=world.gm, clock=world.clock)
    old = Report.get(Report.round == rid)
    world.clock.advance(86400)
    correction = publishing.correct_report(
        rid, " 誤字を直しました。 ", "直した物語。", actor_id=world.gm, clock=world.clock
    )
    assert (correction.number, correction.note) == (1, "誤字を直しました。")
    assert (correction.old_md, correction.old_html, correction.old_html_en) == (old.published_md, old.html, old.html_en)
    new = Report.get(Report.round == rid)
    assert "直した物語" in new.html and "前口上" in new.html and new.html_en == old.html_en  # English as published
    assert new.corrected_at == correction.corrected_at == world.clock.now().replace(tzinfo=None)
    detail = AuditLog.get(AuditLog.action == "report.correct").detail
    assert detail == {"number": 1, "note": "誤字を直しました。", "parts": ["draft_md"]}
    publishing.correct_report(rid, "英語版も", story_en="The story, mended.", actor_id=world.gm, clock=world.clock)
    assert [c.number for c in publishing.corrections(rid)] == [1, 2]
    assert "mended" in Report.get(Report.round == rid).html_en


def test_a_correction_is_refused_when_it_changes_nothing_leaks_lacks_a_note_or_the_round_is_unpublished(world):
    rid = _resolved(world)
    with pytest.raises(InvalidState, match="only a published report is corrected"):
        publishing.correct_report(rid, "note", "物語。", actor_id=world.gm, clock=world.clock)
    publishing.publish_round(rid, actor_id=world.gm, clock=world.clock)
    story = Report.get(Report.round == rid).draft_md
    with pytest.raises(UserError, match="note must not be empty"):
        publishing.correct_report(rid, "  ", "新しい物語。", actor_id=world.gm, clock=world.clock)
    with pytest.raises(UserError, match="nothing to correct"):
        publishing.correct_report(rid, "同じ", story, actor_id=world.gm, clock=world.clock)
    with pytest.raises(LeakFound, match="the correction refused") as refused:
        publishing.correct_report(rid, "秘密", f"{story}\n\n{SECRET}", actor_id=world.gm, clock=world.clock)
    assert refused.value.leaks[0].part == "story"
    assert not ReportCorrection.select().exists()
    assert Report.get(Report.round == rid).draft_md == story


def test_the_growth_award_goes_to_every_character_with_an_entry_when_published(world) -> None:
    """R-CHECK-3's growth points: the campaign's award, logged per character; no entry, no points."""
    with pytest.raises(UserError, match="from 0 to 100"):
        publishing.set_growth_award(world.campaign, 101, actor_id=world.gm, clock=world.clock)
    with pytest.raises(UserError, match="from 0 to 100"):
        publishing.set_growth_award(world.campaign, -1, actor_id=world.gm, clock=world.clock)
    publishing.set_growth_award(world.campaign, 3, actor_id=world.gm, clock=world.clock)
    assert Campaign.get_by_id(world.campaign).growth_on_publish == 3
    rid = _resolved(world, entered=1)
    entered, absent = world.characters
    publishing.publish_round(rid, actor_id=world.gm, clock=world.clock)
    assert Character.get_by_id(entered).sheet["growth_points"] == 3
    assert Character.get_by_id(absent).sheet["growth_points"] == 0
    grant = AuditLog.get(AuditLog.action == "character.grant")
    assert (grant.target, grant.detail["points"], grant.actor_id) == (f"character:{entered}", 3, world.gm)
    assert f"round:{rid}" in grant.detail["reason"]
    assert AuditLog.get(AuditLog.action == "round.publish").detail["awarded"] == {str(entered): 3}
    publishing.set_growth_award(world.campaign, 0, actor_id=world.gm, clock=world.clock)
    publishing.publish_round(_resolved(world), actor_id=world.gm, clock=world.clock)
    assert Character.get_by_id(entered).sheet["growth_points"] == 3  # 0: none


def _growth_said(text: str) -> list[int]:
    """The growth points a story's state list gives its PCs (成長点 N / growth points N), smallest first."""
    return sorted(int(n) for n in re.findall(r"(?:成長点|growth points) (\d+)", text))


def test_a_report_gives_the_growth_points_its_round_awards_and_stays_as_generated(world) -> None:
    """The state list's growth points are each PC's once the round is published, the award to every PC with an
    entry included (the draft is written before it is given); and the English story the GM's form sends back as
    generated is not taken for the GM's edit once the award has moved the facts it was written from."""
    publishing.set_growth_award(world.campaign, 2, actor_id=world.gm, clock=world.clock)
    campaign = Campaign.get_by_id(world.campaign)
    entered, absent = (characters.unspent_growth(campaign, Character.get_by_id(c).sheet) for c in world.characters)
    rid = _resolved(world, entered=1)
    draft = publishing.review(rid, actor_id=world.gm)
    assert _growth_said(draft.story) == _growth_said(draft.english or "") == sorted([entered + 2, absent])
    publishing.publish_round(rid, story_en=draft.english, actor_id=world.gm, clock=world.clock)
    after = [characters.unspent_growth(campaign, Character.get_by_id(c).sheet) for c in world.characters]
    assert after == [entered + 2, absent]
    report = Report.get(Report.round == rid)
    assert report.story_en_md is None  # the generated English, as the form sent it back: not the GM's
    assert _growth_said(report.published_md) == _growth_said(reports.plain_text(report.html_en or "")) == sorted(after)
    published = publishing.review(rid, actor_id=world.gm)
    assert published.one_language_edited is None and not published.english_reworded


def test_the_scheduler_publishing_automatically_is_refused_by_a_leak_too(world) -> None:
    """The operator (the scheduler, actor None) passes the GM check, never the leak check."""
    campaigns.set_policy(world.campaign, "publish_automatically", True, clock=world.clock)
    rid = _resolved(world)
    publishing.edit_report(rid, intro=SECRET, clock=world.clock)
    with pytest.raises(LeakFound):
        publishing.publish_round(rid, clock=world.clock)
    assert Round.get_by_id(rid).state == rounds.RESOLVED


def test_an_automatic_publication_the_leak_check_stops_tells_the_gms_once_and_waits_for_their_edit(world) -> None:
    """The scheduler's publication refused (GM-secret text in the story): the GMs are told once, the round waits
    for them (no refusal every tick), and once the GM changed the report the next tick publishes it."""
    campaign = Campaign.get_by_id(world.campaign)
    policies = {**campaign.policies, "publish_automatically": True}
    Campaign.update(policies=policies).where(Campaign.id == world.campaign).execute()
    rid = _resolved(world)
    publishing.edit_report(rid, f"物語。\n\n{SECRET}。", actor_id=world.gm, clock=world.clock)
    told = Outbox.select().where(Outbox.kind == "round.publish_refused")

    world.clock.advance(60)
    first = schedule.tick(clock=world.clock)
    assert rid not in first.published and [p.item for p in first.problems if p.step == "publish"] == [rid]
    assert {row.recipient_id for row in told} == set(gms.gm_ids(world.campaign))
    assert AuditLog.select().where(AuditLog.action == "round.publish_refused").count() == 1

    world.clock.advance(60)
    second = schedule.tick(clock=world.clock)
    assert not [p for p in second.problems if p.step == "publish"] and told.count() == 1
    assert Round.get_by_id(rid).state == rounds.RESOLVED

    world.clock.advance(60)
    publishing.edit_report(rid, "物語。", actor_id=world.gm, clock=world.clock)
    world.clock.advance(60)
    assert rid in schedule.tick(clock=world.clock).published
