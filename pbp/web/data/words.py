"""The words the data pages show for the pack's fixed values (movement, slots, timings ...) and for the rules the
seed fixes in code (how each bad status of the R-BS table ends), in the page's language."""

from __future__ import annotations

from flask_babel import lazy_gettext as _
from flask_babel import lazy_pgettext as pgettext  # named so `make messages` extracts it

from pbp.web.data import bp
from pbp.web.data.catalog import SECTIONS

WORDS = {
    "section": {
        "stats": pgettext("data section", "Stats and skills"),
        "statuses": pgettext("data section", "Bad statuses"),
        "vehicles": pgettext("data section", "Vehicles"),
        "weapons": pgettext("data section", "Weapons"),
        "items": pgettext("data section", "Items"),
        "abilities": pgettext("data section", "Abilities"),
        "growth": pgettext("data section", "Growth and gear limits"),
        "enemies": pgettext("data section", "Enemies"),
        "gimmicks": pgettext("data section", "Scenario gimmicks"),
    },
    "kind": {
        "stat": _("Parent stat"),
        "skill": _("Skill"),
        "status": _("Bad status"),
        "vehicle": _("Vehicle"),
        "weapon": pgettext("data kind", "Weapon"),  # as its section is called (兵装), not the form's 武器
        "item": _("Item"),
        "ability": _("Ability"),
        "enemy": _("Enemy"),
        "gimmick": _("Gimmick"),
    },
    "vehicle_kind": {"savior": _("Savior"), "fighter": _("fighter"), "yamatsukami": _("Yamatsukami")},
    "movement": {"ground": _("ground"), "air": _("air (never engages)")},
    "size": {"large": _("large"), "human": _("human-size (ignores rough ground)")},
    "slot": {"arm": _("arm slot"), "torso": _("torso slot"), "spare": _("spare slot (swap in first)")},
    "mount": {"vehicle": _("on a vehicle"), "personal": _("personal (on foot)")},
    "timing": {
        "setup": _("setup process"),
        "minor": _("minor action"),
        "major": _("major action"),
        "cleanup": _("cleanup process"),
        "round_start": _("start of each round"),
    },
    "on": {"self": _("the user"), "target": _("the target"), "area": _("everyone in the area")},
    #: How each status of the R-BS table ends (the seed's rules, in code); system_down's sentence names a skill, so
    #: its page writes it; others end at the next cleanup (R-BS-4).
    "ends": {
        "lock_on": _("With the beam at the cleanup of the next round."),
        "heat": _("After its 10 damage, at the next attack."),
        "stun": _("After 3 cleanups."),
        "leg_damage": _("Never by itself."),
        "arm_damage": _("Never by itself."),
    },
}


@bp.app_context_processor
def _words() -> dict:
    return {"data_words": WORDS, "data_sections": SECTIONS}
