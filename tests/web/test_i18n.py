"""The pages' language: Japanese by default (the goldens hold it byte for byte), English with LOCALE="en"; the
catalog covers every string the templates and views ask for, its placeholders match, and the committed .mo is the
compiled .po."""

from __future__ import annotations

import re

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from pbp.paths import PROJECT_ROOT
from pbp.web.i18n import TRANSLATIONS_DIR
from tests.web.conftest import make_app

JA_PO = TRANSLATIONS_DIR / "ja" / "LC_MESSAGES" / "messages.po"
JA_MO = JA_PO.with_suffix(".mo")
REPORT = "/blog/demo/tama_river/round-1/"
CHROME_PAGES = ["/blog/", "/blog/demo/", REPORT, "/blog/demo/characters/1/", "/feed.atom"]
#: Reader-written or story text the pages carry whatever their language (the GM's report, its excerpt, the feed's
#: copy of it): taken out before looking for the page's own words.
_CONTENT = re.compile(
    r'<div class="story">.*?</div>|<p class="excerpt">.*?</p>|<meta [^>]*description[^>]*>|<summary>.*?</summary>'
    r"|<content[^>]*>.*?</content>",
    re.S,
)
_PLACEHOLDER = re.compile(r"(%\(\w+\)[sdr])")


def _catalog():
    with JA_PO.open("rb") as f:
        return read_po(f, locale="ja")


def _japanese_words() -> set[str]:
    """The Japanese of every translated string, cut at its placeholders: what an English page must not show. A
    lone character between two placeholders (the particle in `%(name)sは%(scenario)sに…`) is no word of the chrome:
    the campaign's Japanese names and story hold it too."""
    words = set()
    for message in _catalog():
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for string in strings:
            for piece in _PLACEHOLDER.split(string or ""):
                if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", piece) and len(piece.strip()) > 1:
                    words.add(piece.strip())
    return words


def _tupled(value: str | tuple | list) -> str | tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else value


def _key(message) -> tuple:
    return message.context, _tupled(message.id)


def _page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return _CONTENT.sub("", response.get_data(as_text=True))


def test_catalog_translates_every_string_the_pages_use():
    method_map, options_map = parse_mapping_cfg((PROJECT_ROOT / "babel.cfg").open())
    wanted = {
        (context, msgid if isinstance(msgid, str) else msgid[0])
        for _file, _line, msgid, _comments, context in extract_from_dir(str(PROJECT_ROOT), method_map, options_map)
    }
    catalog = _catalog()
    have = {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m for m in catalog if m.id}
    assert wanted, "nothing extracted: babel.cfg no longer finds the templates"
    assert wanted - have.keys() == set(), "strings without a Japanese translation: run `make messages` and translate"
    assert have.keys() - wanted == set(), "catalog entries nothing uses any more: run `make messages`"
    untranslated = [k for k, m in have.items() if not m.string or "fuzzy" in m.flags or not all(m.string)]
    assert untranslated == []


def test_translations_keep_every_placeholder():
    """A msgstr that drops or renames a %(name)s would lose a number or raise at render time."""
    for message in _catalog():
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set(_PLACEHOLDER.findall(ids[-1]))
        for string in strings:
            assert set(_PLACEHOLDER.findall(string)) == wanted, (message.id, string)


def test_committed_mo_is_the_compiled_po():
    with JA_MO.open("rb") as f:
        compiled = {_key(m): _tupled(m.string) for m in read_mo(f) if m.id}
    source = {_key(m): _tupled(m.string) for m in _catalog() if m.id}
    assert compiled == source, "messages.mo is stale: run `make messages`"


def test_japanese_is_the_default(client):
    html = client.get(REPORT).get_data(as_text=True)
    assert '<html lang="ja">' in html and 'content="ja_JP"' in html
    assert "<h2>ダイスログ</h2>" in html and "\u2068多摩川防衛戦\u2069 第1ラウンド" in html


@pytest.mark.parametrize("url", CHROME_PAGES)
def test_an_english_site_shows_no_japanese_chrome(world, url):
    """LOCALE="en": every label, title pattern and dice-log term in English; only names and story stay as
    written (the campaign's data, the GM's report)."""
    client = make_app(world.url, LOCALE="en").test_client()
    page = _page(client, url)
    assert re.search(r'<html lang="en">|xml:lang="en"', page)
    shown = sorted(w for w in _japanese_words() if w in page)
    assert shown == [], f"{url} still shows {shown}"


def test_an_english_site_titles_campaigns_and_scenarios_in_english(world):
    client = make_app(world.url, LOCALE="en").test_client()
    assert "<h1><bdi>The Battle of the Tama River</bdi></h1>" in _page(client, "/blog/demo/tama_river/")
    assert "<h1><bdi>The Yamatsukami Interception Line</bdi></h1>" in _page(client, "/blog/demo/")
    assert "<title>\u2068The Battle of the Tama River\u2069, round 2</title>" in _page(client, "/feed.atom")


def test_an_english_report_names_rolls_in_english(world):
    client = make_app(world.url, LOCALE="en").test_client()
    log = _page(client, REPORT).split('<ol class="dicelog">', 1)[1].split("</ol>", 1)[0]
    # Skills, stats, weapons and rule terms come from the pack and the English lexicon.
    assert "Gunnery" in log and "Sense 5" in log and "Micro-missile pod" in log
    assert "to the damage gauge" in log and "(River fog)" in log and "2 successes" in log and "1 success<" in log


def test_the_english_story_page_is_english_on_a_japanese_site(client):
    html = client.get(REPORT + "en/").get_data(as_text=True)
    assert '<html lang="en">' in html and 'content="en_US"' in html
    assert "The GM's report and the dice log" in html and f'hreflang="ja" href="{REPORT}"' in html
    assert "<h1>\u2068The Battle of the Tama River\u2069, round 1</h1>" in html  # the pack's English title


def test_an_unknown_locale_is_refused(world):
    with pytest.raises(ValueError, match="LOCALE must be one of ja, en"):
        make_app(world.url, LOCALE="fr")
