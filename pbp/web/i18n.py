"""The pages' language: Flask-Babel with the catalogs in `pbp/translations` (English message ids, Japanese beside
them). A page speaks the signed-in user's chosen language, else the one a visitor picked in the header (the
`LANG_COOKIE` cookie, `pbp.web.language`), else the browser's (Accept-Language, among ja and en), else the site's
`LOCALE` (ja by default); a view that must speak another language (the generated English story)
wraps its rendering in `flask_babel.force_locale`.

A service's refusal (`pbp.errors.UserError`) carries an English `Text` (or a `Joined` of them: a refused order's
problems); every page shows it through `localized` (`refusal_text`, the `localized` template filter), in the page's
language with its parameters put in.

Catalogs: `make messages` extracts the strings of templates and code into `pbp/translations/messages.pot`, merges
them into each locale's `.po` and compiles the `.mo` the app reads (committed, so a checkout runs as it is).
"""

from __future__ import annotations

from flask import Flask, current_app, has_request_context, request
from flask_babel import Babel, get_locale, gettext
from flask_login import current_user
from markupsafe import Markup
from werkzeug.wrappers import Response

from pbp.engine.errors import Problem
from pbp.errors import Joined, Text, UserError
from pbp.paths import PROJECT_ROOT
from pbp.text import is_japanese

TRANSLATIONS_DIR = PROJECT_ROOT / "pbp" / "translations"
LOCALES = ("ja", "en")
#: OpenGraph's names of the page languages.
OG_LOCALES = {"ja": "ja_JP", "en": "en_US"}
#: The cookie holding the language a visitor picked in the header.
LANG_COOKIE = "pbp_lang"


def _site_locale() -> str:
    return str(current_app.config["LOCALE"])


def _choose_locale() -> str:
    if not has_request_context():  # rendering outside a request (a command): the site's language
        return _site_locale()
    chosen = getattr(current_user, "locale", None)
    if chosen in LOCALES:
        return chosen
    picked = request.cookies.get(LANG_COOKIE)
    if picked in LOCALES:
        return picked
    return request.accept_languages.best_match(LOCALES) or _site_locale()


def page_locale() -> str:
    """The language this page is being rendered in (see the module's docstring), unless a view forced another."""
    return str(get_locale() or _site_locale())


def localized(text: str) -> str:
    """A service's `Text` in the page's language: its template's translation with the parameters put in (those that
    are `Text` or `Joined` themselves translated too: the engine's problems a refusal lists); a `Joined` part by
    part. Any other text is shown as it is: an engine problem worded without a template, a name."""
    if isinstance(text, Joined):
        return text.sep.join(localized(part) for part in text.parts)
    if not isinstance(text, Text):
        return text
    params = {
        key: localized(value) if isinstance(value, Text | Joined) else value for key, value in text.params.items()
    }
    return gettext(text.template, **params) if params else gettext(text.template)


def problem_text(problem: Problem) -> str:
    """A problem in the page's language: the engine's when it worded it by a marked template (a sheet over its
    budget, a value of the wrong type or out of range...), a service's by its `Text`; else as the engine said it
    (English)."""
    if problem.template is None:
        return localized(problem.message)
    return localized(Text(problem.template, **dict(problem.params)))


def refusal_text(refusal: UserError) -> str:
    """What a page says for a service's refusal, beside its field or above the form."""
    return localized(refusal.message)


def lang_of(text: str) -> Markup:
    """` lang="ja"` for Japanese text (the pack's prose, a player's) on a page in another language, so that the
    browser picks Japanese glyphs for it (a Chinese font's would be the fallback under lang="en"); else nothing."""
    return Markup(' lang="ja"') if page_locale() != "ja" and is_japanese(str(text)) else Markup("")


#: FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: the text between them takes its direction from itself, and
#: an override inside it (U+202E) ends at the second.
FSI, PDI = "\u2068", "\u2069"


def isolate(text: object) -> str:
    """User text set apart from the site's text around it where an element cannot be (a `<title>`, a feed, a
    sentence built by gettext): a name holding U+202E reverses nothing after it."""
    return f"{FSI}{text}{PDI}"


def bdi(text: object) -> Markup:
    """User text in a `<bdi>` (escaped): set apart from the site's text that shares its line (a correction note
    before the site's link, a reason after the site's words)."""
    return Markup("<bdi>{}</bdi>").format(text)


def init_app(app: Flask) -> None:
    """Install gettext for templates and code; refuse a LOCALE the catalogs do not cover."""
    if app.config["LOCALE"] not in LOCALES:
        raise ValueError(f"LOCALE must be one of {', '.join(LOCALES)} (got {app.config['LOCALE']!r})")
    Babel(app, locale_selector=_choose_locale, default_translation_directories=str(TRANSLATIONS_DIR))
    app.jinja_env.globals["page_locale"] = page_locale
    app.jinja_env.globals["og_locale"] = lambda: OG_LOCALES[page_locale()]
    app.jinja_env.filters["localized"] = localized
    app.jinja_env.filters["problem_text"] = problem_text
    app.jinja_env.filters["lang_of"] = lang_of
    app.jinja_env.filters["bdi"] = bdi
    app.jinja_env.filters["isolate"] = isolate

    @app.after_request
    def _vary(response: Response) -> Response:
        response.vary.add("Accept-Language")  # a cache must not give a Japanese page to an English browser
        if request.endpoint not in ("static", "favicon"):  # the files are the same in every language
            response.vary.add("Cookie")  # nor to a visitor who picked English (LANG_COOKIE)
        return response
