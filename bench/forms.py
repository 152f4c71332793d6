"""A form body as a browser sends a Japanese プレイング (every character three `%XX` escapes), parsed by
`pbp.web.urlencoded.parse_qsl` and, as the baseline in the same run, by the standard library's `parse_qsl` that
werkzeug calls (the same pairs out: tests/web/test_urlencoded.py). The entry form at the length of the load run's
prose (81 characters) and at the campaign limit's length (2,000).
"""

from __future__ import annotations

import urllib.parse

from bench._timing import interleaved_runs, spread

LINE = "川霧の向こう、先頭の敵に照準を合わせる。「……外さない」"  # 27 characters
CALLS = 200


def _body(chars: int) -> str:
    prose = (LINE * (chars // len(LINE) + 1))[:chars]
    fields = {"csrf_token": "I" * 91, "minor-type": "none", "major-type": "attack", "major-weapon": "rifle",
              "major-targets": "e1", "prose": prose}  # fmt: skip
    return urllib.parse.urlencode(fields)


def main() -> None:
    import werkzeug.urls  # noqa: F401 - registers the error handler both parsers are given

    from pbp.web.urlencoded import ERRORS, parse_qsl

    for chars in (81, 2000):
        body = _body(chars)

        def stock(body: str = body) -> None:
            for _ in range(CALLS):
                urllib.parse.parse_qsl(body, keep_blank_values=True, errors=ERRORS)

        def ours(body: str = body) -> None:
            for _ in range(CALLS):
                parse_qsl(body)

        base, subject = interleaved_runs([stock, ours])
        per = min(subject) / CALLS * 1e6
        print(f"entry form, {chars:5} characters of prose ({len(body):,} bytes): {per:7.1f} us a body, "
              f"{min(subject) / min(base):.2f}x the standard library's ({spread(subject, base)})")  # fmt: skip
