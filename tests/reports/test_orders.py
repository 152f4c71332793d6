"""An entry's orders in words (`pbp.reports.orders`): what the GM's dashboard says in the page's language and
`pbp round show` in English."""

from __future__ import annotations

from pbp.reports.narrative import Names
from pbp.reports.orders import english, order_words

PACK = {
    "weapons": {"rifle": {"ja": "小銃", "en": "Rifle"}, "knife": {"ja": "短刀", "en": "Knife"}},
    "items": {"flare": {"ja": "照明弾", "en": "Flare"}},
    "statuses": {"stun": {"ja": "スタン", "en": "Stun"}},
}


def test_every_slot_is_said_in_english_with_pack_names_and_unit_ids() -> None:
    order = {
        "unit": "pc1",
        "minor": {"type": "move", "toward": [120, -40]},
        "major": {"type": "attack", "targets": ["k1", "k2"], "weapon": "rifle", "item": "flare"},
    }
    said = order_words(order, Names("en", PACK, {}), english)
    assert said == ["Minor: move toward the point (120, -40)", "Major: attack k1, k2 with Rifle (using Flare)"]


def test_an_entry_without_actions_says_nothing_and_names_fall_back_to_their_keys() -> None:
    names = Names("en", PACK, {})
    assert order_words({"unit": "pc1", "minor": None, "major": None}, names, english) == ["nothing"]
    recover = {"unit": "pc1", "major": {"type": "recover", "status": "venom"}}
    assert order_words(recover, names, english) == ["Major: try to recover from venom"]


def test_the_callers_gettext_says_the_words() -> None:
    """The words pass through the caller's `gettext` (the web's translates them); params are its to format."""
    asked: list[str] = []

    def shouting(message: str, **params: object) -> str:
        asked.append(message)
        return english(message, **params).upper()

    order = {"unit": "pc1", "major": {"type": "reload", "weapon": "knife"}}
    assert order_words(order, Names("en", PACK, {}), shouting) == ["MAJOR: RELOAD KNIFE"]
    assert asked == ["reload %(weapon)s", "Major: %(text)s"]
