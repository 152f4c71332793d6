"""The game-data pages and the rules page: every kind of the demo pack's public data on its page in both languages,
what the GM keeps secret nowhere, the pages follow a reloaded pack, the search, and the links to rules and entries."""

from __future__ import annotations

import re
import shutil
from html import unescape
from pathlib import Path

import pytest
from flask import render_template_string

from pbp import db as pbp_db
from pbp.engine.pool.events import EVENT_TYPES
from pbp.packs import demo_pack
from pbp.paths import DEMO_PACK_DIR
from pbp.services import campaigns
from pbp.web.data import rulebook
from pbp.web.data.catalog import SECTIONS, catalog
from pbp.web.data.rulebook import REASON_RULES, RULES_DIR
from tests.web.conftest import make_app
from tests.web.test_i18n import _japanese_words
from tests.web.world import build_world

DATA = "/campaigns/demo/data/"
PACK = demo_pack().data
#: What the demo keeps off the pages: enemy types not marked public, and what only they (or their bodies) have.
HIDDEN = {
    "enemies": ["kagachi_elder", "hayachi", "orochi"],
    "vehicles": ["yamatsukami_wing", "yamatsukami_great"],
    "weapons": ["dive_talon", "shriek", "tail_sweep", "heat_breath"],
    "abilities": ["regenerate", "war_cry"],
}


def text_of(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return unescape(response.get_data(as_text=True))


def names(section: str, locale: str = "ja") -> list[str]:
    return [entry[locale] for key, entry in PACK[section].items() if key not in HIDDEN.get(section, ())]


@pytest.fixture
def en(world):
    return make_app(world.url, LOCALE="en").test_client()


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_every_kind_of_public_data_is_on_its_page(world, locale):
    client = make_app(world.url, LOCALE=locale).test_client()
    page = {section: text_of(client, f"{DATA}{section}/") for section in SECTIONS}
    for section, shown_on in [("stats", "stats"), ("skills", "stats"), ("statuses", "statuses"),
                              ("vehicles", "vehicles"), ("weapons", "weapons"), ("items", "items"),
                              ("abilities", "abilities"), ("enemies", "enemies")]:  # fmt: skip
        for name in names(section, locale):
            assert name in page[shown_on], f"{name} missing from {shown_on}"
    river_fog = PACK["scenarios"]["tama_river"]["gimmicks"][0]
    assert river_fog[locale] in page["gimmicks"] and PACK["scenarios"]["tama_river"][locale] in page["gimmicks"]
    rifle = PACK["weapons"]["beam_rifle"]
    assert rifle["description_en" if locale == "en" else "description"] in page["weapons"]  # the pack's, as written


SHOWN_ON = {"stats": "stats", "skills": "stats", "statuses": "statuses", "vehicles": "vehicles", "weapons": "weapons",
            "items": "items", "abilities": "abilities", "enemies": "enemies"}  # fmt: skip


@pytest.mark.parametrize("locale", ["ja", "en"])
def test_each_description_is_shown_in_the_pages_language(world, locale):
    """`description` is the pack's Japanese, `description_en` its English: each page shows its language's, and marks
    only Japanese prose `lang="ja"` on an English page."""
    client = make_app(world.url, LOCALE=locale).test_client()
    pages = {section: client.get(f"{DATA}{section}/").get_data(as_text=True) for section in set(SHOWN_ON.values())}
    shown, other = ("description_en", "description") if locale == "en" else ("description", "description_en")
    checked = 0
    for section, page_of in SHOWN_ON.items():
        for key, entry in PACK[section].items():
            if key in HIDDEN.get(section, ()) or "description" not in entry:
                continue
            page = unescape(pages[page_of])
            assert entry[shown] in page and entry[other] not in page, (section, key)
            checked += 1
    assert checked > 20
    if locale == "en":
        stats = pages["stats"]
        assert f'class="description">{PACK["stats"]["肉体"]["description_en"]}' in unescape(stats)
        assert 'lang="ja" class="description"' not in stats and 'class="description" lang="ja"' not in stats


def test_the_numbers_are_the_packs(client):
    weapons = text_of(client, f"{DATA}weapons/")
    rifle = weapons.split('id="weapon-beam_rifle"', 1)[1].split("</section>", 1)[0]
    assert "射撃" in rifle and "<dd>8</dd>" in rifle and "0〜1000m" in rifle and "<dd>6</dd>" in rifle
    assert "腕部スロット" in rifle and "兵器に搭載" in rifle and "<dd>3</dd>" in rifle  # slot, mount, cost
    rocket = weapons.split('id="weapon-anti_armor_rocket"', 1)[1].split("</section>", 1)[0]
    assert "損傷ゲージに固定" in rocket  # the gauge it names (R-DMG-3)
    emp = weapons.split('id="weapon-emp_shell"', 1)[1].split("</section>", 1)[0]
    assert "最大3体" in emp and "システムダウン" in emp  # area weapon, what it inflicts
    vehicles = text_of(client, f"{DATA}vehicles/")
    fighter = vehicles.split('id="vehicle-fighter"', 1)[1].split("</section>", 1)[0]
    assert "戦闘移動で300m、全力移動で900m" in fighter and "飛行" in fighter and "大型" in fighter
    assert (
        "感覚</a> +1" in fighter and "装甲 6" in fighter and "機関砲" in fighter and "マイクロミサイルポッド" in fighter
    )
    abilities = text_of(client, f"{DATA}abilities/")
    focus = abilities.split('id="ability-focus"', 1)[1].split("</section>", 1)[0]
    assert "セットアッププロセス" in focus and "1戦闘に1回まで" in focus
    assert re.search(r"射撃.*砲撃.*の判定にダイス\+2（1ラウンド）", focus, re.S)
    jamming = abilities.split('id="ability-jamming"', 1)[1].split("</section>", 1)[0]
    assert "システムダウンを与える（対象：対象）" in unescape(re.sub(r"<[^>]+>", "", jamming))
    statuses = text_of(client, f"{DATA}statuses/")
    assert "自然には解除されない。" in statuses and "3回のクリンナップの後に解除。" in statuses
    growth = text_of(client, f"{DATA}growth/")
    assert "".join(f"<td>{c}</td>" for c in PACK["growth"]["raise_costs"]) in growth
    assert "陳情</a>レベル×2以下" in growth and "調達</a>レベル以下" in growth and "R-GEAR-2" in growth
    enemies = text_of(client, f"{DATA}enemies/")
    assert "カガチ" in enemies and "ヤマツカミ（地這い）" in enemies and "白兵</a> 3" in enemies


def test_what_the_gm_keeps_is_on_no_page(client):
    """R-PLAY-3 gimmicks and enemy types are the GM's unless marked public; what only they have stays hidden too."""
    pages = "".join(text_of(client, f"{DATA}{s}/") for s in SECTIONS) + text_of(client, DATA)
    for section, keys in HIDDEN.items():
        for key in keys:
            assert f"-{key}" not in pages and PACK[section][key]["ja"] not in pages, key
    for scenario in PACK["scenarios"].values():
        assert scenario.get("gm_notes", "").strip()[:20] not in pages


def test_a_hidden_entry_shows_once_the_gm_marks_it_public():
    pack = {**PACK, "enemies": {**PACK["enemies"], "orochi": {**PACK["enemies"]["orochi"], "public": True}}}
    data = catalog(pack)
    assert data.get("enemy", "orochi") and data.get("vehicle", "yamatsukami_great")
    assert data.get("weapon", "tail_sweep") and data.get("ability", "regenerate")
    assert catalog(PACK).get("enemy", "orochi") is None and catalog(PACK).get("weapon", "tail_sweep") is None


def test_a_reloaded_pack_changes_the_pages(tmp_path):
    """No copy is kept: the pages read the campaign's pack as loaded now."""
    pack = tmp_path / "demo"
    shutil.copytree(DEMO_PACK_DIR, pack)
    world = build_world(f"sqlite:///{tmp_path / 'pbp.sqlite3'}", published=0, open_after=False, pack_dir=pack)
    client = make_app(world.url).test_client()
    assert "照準レーザー" in text_of(client, f"{DATA}weapons/")
    weapons = (pack / "weapons.toml").read_text(encoding="utf-8")
    (pack / "weapons.toml").write_text(weapons.replace('ja = "照準レーザー"', 'ja = "指示レーザー"'), encoding="utf-8")
    with (pack / "items.toml").open("a", encoding="utf-8") as f:
        f.write('\n[items.flare]\nja = "信号弾"\nen = "Flare"\ndice = 1\ncost = 1\n')
    with pbp_db.bind(world.url).connection_context():
        campaigns.load_campaign(pack)
    assert "指示レーザー" in text_of(client, f"{DATA}weapons/") and "照準レーザー" not in text_of(
        client, f"{DATA}weapons/"
    )
    assert "信号弾" in text_of(client, f"{DATA}items/") and "信号弾" in text_of(client, f"{DATA}search?q=flare")


@pytest.mark.parametrize(
    ("query", "found", "absent"),
    [
        ("ビーム", ["ビームライフル"], ["拳銃"]),
        ("beam", ["ビームライフル"], []),
        ("ＲＩＦＬＥ", ["ビームライフル"], []),  # full width, upper case
        ("射撃", ["射撃"], []),
        ("カガチ", ["カガチ"], ["古カガチ"]),  # the public type only
        ("オロチ", [], ["オロチ"]),
        ("river fog", ["川霧"], []),
    ],
)
def test_the_search_finds_names_in_both_languages(client, query, found, absent):
    page = text_of(client, f"{DATA}search?q={query}")
    results = page.split('<ul class="results">', 1)[1].split("</ul>", 1)[0]
    for name in found:
        assert name in results
    for name in absent:
        assert name not in results


def test_the_search_works_without_javascript(client):
    page = text_of(client, DATA)
    assert '<form class="search" method="get" action="/campaigns/demo/data/search"' in page and "<script" not in page
    assert "名前を日本語か英語で入力してください。" in text_of(client, f"{DATA}search?q=")
    assert text_of(client, f"{DATA}search?q=" + "x" * 10_000)  # long queries are cut, not refused


def test_unknown_campaigns_sections_and_rulesets_are_404(client):
    for url in ["/campaigns/nope/data/", "/campaigns/demo/data/secrets/", "/campaigns/nope/data/search?q=a",
                "/rules/dnd/", "/campaigns/demo/data/gm_notes/"]:  # fmt: skip
        assert client.get(url).status_code == 404, url


@pytest.fixture(params=["ja", "en"])
def rules_page(world, request) -> str:
    """The rules page in each language (the Japanese is `pool.ja.md`, the translation)."""
    return make_app(world.url, LOCALE=request.param).test_client().get("/rules/pool/").get_data(as_text=True)


def test_every_rule_has_its_anchor_and_every_mention_links_to_it(rules_page):
    page = rules_page
    ids = re.findall(r"^- \*\*(R-[A-Z]+-\d+)\*\*", (RULES_DIR / "pool.md").read_text(encoding="utf-8"), re.M)
    assert len(ids) > 60
    for rule in ids:
        assert f'<li id="{rule}">' in page, rule
    assert '<a href="#R-FIX-14">R-FIX-14</a>' in page  # a mention inside R-CHECK-6
    assert '<tr id="status-system_down">' in page


@pytest.mark.parametrize(
    ("locale", "heading", "other"),
    [("ja", "1. 判定基準", "1. Checks (判定基準)"), ("en", "1. Checks (判定基準)", "1. 判定基準")],
)
def test_the_rules_page_is_in_the_pages_language(world, locale, heading, other):
    """The Japanese site shows the Japanese reference (not marked: it is the page's language), the English one the
    English (R-CHECK-1's own words)."""
    page = make_app(world.url, LOCALE=locale).test_client().get("/rules/pool/").get_data(as_text=True)
    assert f">{heading}</h2>" in page and f">{other}</h2>" not in page
    assert '<div class="rules">' in page


def test_every_refusal_reason_links_to_an_existing_rule(rules_page):
    page = rules_page
    reasons = re.search(r"`reason` \(([a-z_|]+)\)", EVENT_TYPES["refused"])[1].split("|")
    assert set(reasons) <= set(REASON_RULES), "map the new refusal reason to its rule"
    for reason, anchor in REASON_RULES.items():
        assert f'id="{anchor}"' in page, reason


def test_the_link_helpers(app):
    with app.test_request_context("/campaigns/demo/data/"):
        app.preprocess_request()
        html = render_template_string(
            "{{ data_link('weapon', 'beam_rifle') }}|{{ data_link('skill', '射撃', campaign='demo') }}|"
            "{{ data_link('enemy', 'orochi', 'オロチ') }}|{{ data_link('item', 'nope', '<x>') }}|"
            "{{ rule_link('R-HIT-2') }}|{{ rule_link('out_of_range', 'range') }}"
        )
    parts = html.split("|")
    assert parts[0] == '<a class="data" href="/campaigns/demo/data/weapons/#weapon-beam_rifle">ビームライフル</a>'
    assert parts[1].startswith('<a class="data" href="/campaigns/demo/data/stats/#skill-') and "射撃</a>" in parts[1]
    assert parts[2:4] == ["オロチ", "&lt;x&gt;"]  # not public, not known: plain (escaped) text
    assert parts[4] == '<a class="rule" href="/rules/pool/#R-HIT-2">R-HIT-2</a>'
    assert parts[5] == '<a class="rule" href="/rules/pool/#R-ENG-5">range</a>'  # R-ENG-5: out of range


@pytest.mark.parametrize(("locale", "items"), [("ja", "アイテム一覧"), ("en", "Items")])
def test_every_section_page_is_titled_by_its_name(world, locale, items):
    """Each page's title and heading is its section's name, as the menu says it: the items page once printed
    Python's `dict.items` (a section named like a dict method, looked up as an attribute)."""
    client = make_app(world.url, LOCALE=locale).test_client()
    for section in SECTIONS:
        page = client.get(f"{DATA}{section}/").get_data(as_text=True)
        menu = re.search(rf'href="{DATA}{section}/" aria-current="page">([^<]+)</a>', page)
        assert menu is not None, section
        assert f"<h1>{menu.group(1)}</h1>" in page and f"<title>{menu.group(1)}" in page, section
        assert "built-in method" not in page and "object at 0x" not in page, section
    assert f"<h1>{items}</h1>" in client.get(f"{DATA}items/").get_data(as_text=True)


def test_campaign_pages_link_to_the_data(client):
    for url in ["/blog/demo/", "/blog/demo/tama_river/", DATA]:
        assert f'href="{DATA}"' in client.get(url).get_data(as_text=True), url
    assert f'href="{DATA}"' not in client.get("/blog/").get_data(as_text=True)


@pytest.mark.parametrize("section", [*SECTIONS, ""])
def test_english_data_pages_show_no_japanese_chrome(en, section):
    """Labels in English; only the pack's Japanese (its prose and the other-language names, marked lang=ja) stays."""
    page = en.get(f"{DATA}{section}/" if section else DATA).get_data(as_text=True)
    assert '<html lang="en">' in page
    chrome = re.sub(r'<(p|span|div)[^>]* lang="ja"[^>]*>.*?</\1>', "", page, flags=re.S)
    chrome = re.sub(r"<[^>]+>", " ", chrome)  # attributes (anchors named by Japanese ids) are not shown
    shown = sorted(w for w in _japanese_words() if w in chrome)
    assert shown == [], f"{section} still shows {shown}"
    assert "Game data of The Yamatsukami Interception Line" in page


def test_export_writes_the_data_and_rules_pages(world, tmp_path: Path):
    from pbp.web.export import export_site

    written = export_site(make_app(world.url), tmp_path)
    for name in ["campaigns/demo/data/index.html", "rules/pool/index.html"] + [
        f"campaigns/demo/data/{s}/index.html" for s in SECTIONS
    ]:
        assert name in written, name
    assert 'class="search"' not in (tmp_path / "campaigns/demo/data/index.html").read_text(encoding="utf-8")


def test_the_dice_log_links_weapons_to_the_data_and_outcomes_to_their_rules(client):
    log = client.get("/blog/demo/tama_river/round-1/").get_data(as_text=True).split('<ol class="dicelog">', 1)[1]
    assert '<a class="data" href="/campaigns/demo/data/weapons/#weapon-beam_rifle">ビームライフル</a>' in log
    assert '<a class="rule" href="/rules/pool/#R-HIT-2">' in log  # hit or evaded: R-HIT-2 decides


def test_rule_ids_in_code_are_examples_not_links():
    html = '<p><code>@pytest.mark.rule("R-HIT-2")</code> follows R-HIT-2.</p>'
    assert rulebook._link_mentions(html, {"R-HIT-2"}) == (
        '<p><code>@pytest.mark.rule("R-HIT-2")</code> follows <a href="#R-HIT-2">R-HIT-2</a>.</p>'
    )


def test_the_index_counts_what_each_section_shows(client):
    page = client.get(DATA).get_data(as_text=True)
    for section, shown in [("weapons", 14), ("vehicles", 3), ("enemies", 1), ("gimmicks", 1), ("stats", 4)]:
        assert re.search(rf'data/{section}/">[^<]+</a> <span class="count">\({shown}\)</span>', page), section


def test_entries_come_in_id_order_whatever_order_the_database_keeps():
    """PostgreSQL's jsonb gives keys back shortest first: the pages must not change with the database."""
    shuffled = {**PACK, "weapons": dict(sorted(PACK["weapons"].items(), key=lambda kv: (len(kv[0]), kv[0])))}
    assert [e.id for e in catalog(shuffled).of("weapon")] == sorted(catalog(PACK).entries["weapon"])


def test_a_search_result_is_named_by_its_sections_word(client):
    """A weapon found is labelled as the section it links to is titled (兵装), not as the entry form's 武器."""
    results = text_of(client, f"{DATA}search?q=ビーム").split('<ul class="results">', 1)[1].split("</ul>", 1)[0]
    assert "兵装" in results and "武器" not in results
