"""An entry's orders in words, for the GM who reviews a round: the dashboard (in the page's language) and `pbp round
show` (in English). The words are marked for the web's catalog; the caller passes the function that translates them,
so the reports need nothing of Flask."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbp.reports.narrative import Names

#: `gettext(message, **params)`: the message translated, then formatted with its params.
Gettext = Callable[..., str]


def english(message: str, **params: Any) -> str:
    """The marked English words themselves, formatted (the CLI's `gettext`)."""
    return message % params if params else message


def _where(toward: Any, names: Names, gettext: Gettext) -> str:
    if isinstance(toward, list | tuple) and len(toward) == 2:
        return gettext("the point (%(x)s, %(y)s)", x=toward[0], y=toward[1])
    return names.unit(str(toward)) if toward else gettext("nowhere in particular")


def order_words(order: dict[str, Any], names: Names, gettext: Gettext) -> list[str]:
    """An entry's orders as sentences, one per action slot (minor, major), in the language of `gettext`: the web's
    (the page's) or `english` (the CLI's)."""
    said = []
    for slot in ("minor", "major"):
        action = order.get(slot)
        if not action:
            continue
        kind = action.get("type")
        weapon = names.of("weapons", action.get("weapon"))
        item = names.of("items", action.get("item")) if action.get("item") else None
        if kind == "attack":
            targets = ", ".join(names.unit(t) for t in action.get("targets") or [])
            text = gettext("attack %(targets)s with %(weapon)s", targets=targets, weapon=weapon)
        elif kind in ("move", "full_move"):
            text = gettext("move toward %(where)s", where=_where(action.get("toward"), names, gettext))
        elif kind == "leave":
            text = gettext("leave the engagement toward %(where)s", where=_where(action.get("toward"), names, gettext))
        elif kind == "reload":
            text = gettext("reload %(weapon)s", weapon=weapon)
        elif kind == "swap":
            text = gettext(
                "swap %(weapon)s for %(other)s", weapon=weapon, other=names.of("weapons", action.get("with"))
            )
        elif kind == "ability":
            text = gettext("use the ability %(ability)s", ability=names.of("abilities", action.get("id")))
            if action.get("target"):
                text += gettext(" on %(target)s", target=names.unit(action["target"]))
        elif kind == "recover":
            text = gettext("try to recover from %(status)s", status=names.of("statuses", action.get("status")))
        elif kind == "check":
            text = gettext("attempt the check %(label)s", label=action.get("label", ""))
        else:
            text = str(kind)
        if item:
            text += gettext(" (using %(item)s)", item=item)
        said.append(gettext("Major: %(text)s", text=text) if slot == "major" else gettext("Minor: %(text)s", text=text))
    return said or [gettext("nothing")]
