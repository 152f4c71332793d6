"""`pbp round ...` (one round, the GM's hand) and `pbp rounds ...` (listing, what is due, the scheduler's tick)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

import click
import peewee

from pbp.cli.db import ROW_ID, open_db
from pbp.cli.files import read_text
from pbp.errors import UserError

if TYPE_CHECKING:
    from pbp.models import Round


#: How far a deadline may lie from now, either way: ten years (further overflows dates shown in a time zone).
DEADLINE_REACH = timedelta(days=10 * 365)
#: `--in SECONDS`: a deadline at most DEADLINE_REACH ahead.
DEADLINE_IN = click.IntRange(1, int(DEADLINE_REACH.total_seconds()))
#: A GM override's successes: what a check can plausibly count, well inside an SQLite integer.
SUCCESSES = click.IntRange(-1000, 1000)


class OverrideValue(click.ParamType):
    """What an override sets: a check's successes (pool, within SUCCESSES) or its result (kancolle)."""

    name = "successes"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> int | str:
        if value in ("success", "failure"):
            return str(value)
        return int(SUCCESSES.convert(value, param, ctx))


def register(cli: click.Group) -> None:
    cli.add_command(round_group)
    cli.add_command(rounds_group)


def parse_deadline(text: str, timezone: str, now: datetime) -> datetime:
    """ISO 8601; without an offset it is read in the campaign's time zone (how the GM thinks of deadlines). The
    result is in UTC and within DEADLINE_REACH of `now` (year 1 or 9999 would overflow when shown in a zone)."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise UserError(f"not an ISO 8601 time: {text!r} (e.g. 2026-12-02T21:00 or 2026-12-02T12:00Z)") from None
    try:
        moment = (moment if moment.tzinfo else moment.replace(tzinfo=ZoneInfo(timezone))).astimezone(UTC)
    except OverflowError:  # year 1 with a positive offset, 9999 with a negative one
        moment = None
    if moment is None or abs(moment - now) > DEADLINE_REACH:
        raise UserError(f"--deadline {text!r} is more than {DEADLINE_REACH.days // 365} years from now")
    return moment


def _timezone_of_round(round_id: int) -> str:
    from pbp.models import Campaign, Round, Scenario

    row = Campaign.select(Campaign.timezone).join(Scenario).join(Round).where(Round.id == round_id).first()
    if row is None:
        raise UserError(f"no round {round_id}")
    return row.timezone


def _deadline(option_at: str | None, option_in: int | None, timezone: str) -> datetime:
    from pbp.services.clock import SYSTEM

    if (option_at is None) == (option_in is None):
        raise UserError("give exactly one of --deadline TIME or --in SECONDS")
    now = SYSTEM.now()
    return parse_deadline(option_at, timezone, now) if option_at else now + timedelta(seconds=option_in or 0)


def _show(rnd: Round) -> None:
    from pbp.services.clock import iso_utc

    click.echo(
        f"round {rnd.id}: {rnd.state}, deadline {iso_utc(rnd.deadline)}"
        + (f", seed hash {rnd.seed_hash}" if rnd.seed_hash else "")
    )


@click.group("round")
def round_group() -> None:
    """One round: create, open, close, resolve, override, publish, hold, release, extend, cancel."""


@round_group.command("create")
@click.argument("scenario_id", type=ROW_ID)
@click.option("--deadline", "deadline_at", help="ISO 8601 (no offset: the campaign's time zone)")
@click.option("--in", "deadline_in", type=DEADLINE_IN, help="deadline this many seconds from now")
def create(scenario_id: int, deadline_at: str | None, deadline_in: int | None) -> None:
    """A draft round for SCENARIO_ID."""
    from pbp.models import Campaign, Scenario
    from pbp.services import rounds

    with open_db():
        scenario = Scenario.get_or_none(Scenario.id == scenario_id)
        if scenario is None:
            raise UserError(f"no scenario {scenario_id}")
        tz = Campaign.get_by_id(scenario.campaign_id).timezone
        _show(rounds.create_round(scenario_id, _deadline(deadline_at, deadline_in, tz)))


@round_group.command("show")
@click.argument("round_id", type=ROW_ID)
def show(round_id: int) -> None:
    """What the GM reviews: state, deadline, every entry (unit, orders, prose) and, once resolved, the dice log with
    the check ids an override names."""
    from pbp.models import Campaign, Resolution, Round, Scenario
    from pbp.reports.dicelog import dice_log
    from pbp.reports.narrative import Names
    from pbp.reports.orders import english, order_words
    from pbp.services import rounds

    with open_db():
        rnd = Round.get_or_none(Round.id == round_id)
        if rnd is None:
            raise UserError(f"no round {round_id}")
        scenario = Scenario.get_by_id(rnd.scenario_id)
        orders, prose = rounds.round_entries(round_id)
        missing, joined = rounds.missing_entries(round_id, rnd.scenario_id)
        res = Resolution.get_or_none(Resolution.round == round_id)
        pack = Campaign.select(Campaign.pack).where(Campaign.id == scenario.campaign_id).scalar() or {}
    _show(rnd)
    click.echo(f"scenario {scenario.slug}, round number {rnd.number}")
    click.echo(f"entries: {joined - missing} of {joined} joined characters")
    by_id = Names("en", pack, {}, scenario.pack_scenario)  # units by their ids, what the CLI's commands name
    for order in orders:
        unit = order["unit"]
        click.echo(f"  {unit}: {'; '.join(order_words(order, by_id, english))}")
        for line in (prose.get(unit) or "").splitlines():
            click.echo(f"    | {line}")
    if res is None:
        return
    names = Names("en", pack, {u["id"]: u for u in res.encounter.get("units", [])}, scenario.pack_scenario)
    click.echo(f"dice log (resolution version {res.version}):")
    for line in dice_log(res.events, names):
        event = line.event
        if line.type == "attack":
            head = f"{event.get('attacker')} -> {event.get('target')} ({event.get('weapon')})"
            hit = f"hit, margin {event.get('margin')}, damage {event.get('damage')}" if event.get("hit") else "evaded"
            outcome = "no roll (heat)" if event.get("skipped") else hit
            click.echo(f"  attack {head}: {outcome}")
        elif line.type == "damage":
            click.echo(f"  damage {event.get('unit')}: {event.get('amount')} to {event.get('gauge')}")
        for roll in line.rolls:
            pool = f" {roll.pool}d6<={roll.level}" if roll.pool is not None else ""
            mods = "".join(f" {m.value} ({m.source})" for m in roll.modifiers)
            need = f" / {roll.need} needed" if roll.need is not None else ""
            click.echo(
                f"    [{roll.check or '-'}] {roll.unit} {roll.skill}{pool}{mods}: {roll.dice} -> "
                f"{roll.successes} successes{need}"
            )
        for o in line.overrides:
            was, now = o.get("was"), o.get("now")
            click.echo(f"    override [{o.get('check')}]: {was} -> {now} successes, reason: {o.get('reason')}")


@round_group.command("open")
@click.argument("round_id", type=ROW_ID)
def open_(round_id: int) -> None:
    """Open for entries (draws the secret seed, shows its sha256)."""
    from pbp.services import rounds

    with open_db():
        _show(rounds.open_round(round_id))


@round_group.command("close")
@click.argument("round_id", type=ROW_ID)
def close(round_id: int) -> None:
    """Stop taking entries."""
    from pbp.services import rounds

    with open_db():
        _show(rounds.close_round(round_id))


@round_group.command("resolve")
@click.argument("round_id", type=ROW_ID)
def resolve(round_id: int) -> None:
    """Resolve now (exactly once; an open round is closed first; a resolved one is left alone, exit 0)."""
    from pbp.services import rounds

    with open_db():
        outcome = rounds.resolve_round(round_id, by_hand=True)
    if outcome.status == "busy":
        raise UserError(outcome.message)
    click.echo(outcome.message)


@round_group.command("override")
@click.argument("round_id", type=ROW_ID)
@click.argument("check")
@click.argument("successes", type=OverrideValue())
@click.option("--reason", required=True, help="published with the dice log (R-GM-1, K-GM-1)")
def override(round_id: int, check: str, successes: int | str, reason: str) -> None:
    """Set CHECK's result (e.g. r1-c2) and re-resolve with the same dice: SUCCESSES under pool, `success` or
    `failure` under kancolle."""
    from pbp.services import rounds

    with open_db():
        res = rounds.override_check(round_id, check, successes, reason=reason)
    said = f"{successes} successes" if isinstance(successes, int) else successes
    click.echo(f"round {round_id}: {check} now {said}; resolution version {res.version}")


_MARKDOWN = click.Path(dir_okay=False, allow_dash=True)


@round_group.command("report")
@click.argument("round_id", type=ROW_ID)
@click.option("--story", type=_MARKDOWN, help="replace the draft story with this Markdown file")
@click.option("--intro", type=_MARKDOWN, help="the GM's intro (Markdown file), shown above")
@click.option("--outro", type=_MARKDOWN, help="the GM's outro (Markdown file), shown below")
@click.option("--story-en", type=_MARKDOWN, help="the GM's English story (an empty file: generated again)")
@click.option("--en", "english", is_flag=True, help="print the English story instead (the GM's, or generated)")
def report(
    round_id: int,
    story: str | None,
    intro: str | None,
    outro: str | None,
    story_en: str | None,
    english: bool,
) -> None:
    """Print a round's report (intro, story, outro), or replace parts of it before publishing (`-` reads stdin).

    The files are UTF-8 text."""
    from pbp.models import Report
    from pbp.services import publishing

    files = {"story": (story, "the story"), "intro": (intro, "the intro"), "outro": (outro, "the outro")}
    files["story_en"] = (story_en, "the English story")
    texts = {name: read_text(path, what) if path else None for name, (path, what) in files.items()}
    with open_db():
        if any(text is not None for text in texts.values()):
            publishing.edit_report(
                round_id, texts["story"], intro=texts["intro"], outro=texts["outro"], story_en=texts["story_en"]
            )
        if english:
            text, by_gm = publishing.english_story(round_id)
            source = "the GM's" if by_gm else "generated"
            click.echo(f"<!-- story (English, {source}) -->\n{text}")
            return
        found = Report.get_or_none(Report.round == round_id)
        if found is None:
            raise UserError(f"round {round_id} has no report (it is not resolved yet)")
    for title, text in (("intro", found.intro_md), ("story", found.draft_md), ("outro", found.outro_md)):
        if text:
            click.echo(f"<!-- {title} -->\n{text}\n")


@round_group.command("publish")
@click.argument("round_id", type=ROW_ID)
def publish(round_id: int) -> None:
    """Publish the story, reveal the seed and the round's inputs."""
    from pbp.services import publishing

    with open_db():
        rnd = publishing.publish_round(round_id)
    click.echo(f"round {round_id}: published, seed {rnd.seed}")


@round_group.command("hold")
@click.argument("round_id", type=ROW_ID)
@click.option("--reason", required=True)
def hold(round_id: int, reason: str) -> None:
    """Stop a round where it stands (no entries, no resolution) until released."""
    from pbp.services import rounds

    with open_db():
        _show(rounds.hold_round(round_id, reason=reason))


@round_group.command("release")
@click.argument("round_id", type=ROW_ID)
def release(round_id: int) -> None:
    """Undo a hold, or send a quarantined round back to closed for another attempt."""
    from pbp.services import rounds

    with open_db():
        _show(rounds.release_round(round_id))


@round_group.command("extend")
@click.argument("round_id", type=ROW_ID)
@click.option("--deadline", "deadline_at", help="ISO 8601 (no offset: the campaign's time zone)")
@click.option("--in", "deadline_in", type=DEADLINE_IN, help="new deadline this many seconds from now")
def extend(round_id: int, deadline_at: str | None, deadline_in: int | None) -> None:
    """Move the deadline (a closed round opens again)."""
    from pbp.services import rounds

    with open_db():
        _show(rounds.extend_round(round_id, _deadline(deadline_at, deadline_in, _timezone_of_round(round_id))))


@round_group.command("cancel")
@click.argument("round_id", type=ROW_ID)
@click.option("--reason", required=True)
def cancel(round_id: int, reason: str) -> None:
    """Drop a round that will not be played."""
    from pbp.services import rounds

    with open_db():
        _show(rounds.cancel_round(round_id, reason=reason))


@click.group("rounds")
def rounds_group() -> None:
    """All rounds: list them, see what is due, resolve what is due."""


@rounds_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="a JSON list of {id, scenario, state, deadline, resolutions}")
def list_(as_json: bool) -> None:
    """Every round, oldest first."""
    from pbp.models import Resolution, Round, Scenario
    from pbp.services.clock import iso_utc

    with open_db():
        count = Resolution.select(peewee.fn.COUNT(Resolution.id)).where(Resolution.round == Round.id)
        rows = [
            {
                "id": r.id,
                "scenario": r.scenario.slug,
                "number": r.number,
                "state": r.state,
                "deadline": iso_utc(r.deadline),
                "resolutions": r.resolutions,
            }
            for r in Round.select(Round, Scenario.slug, count.alias("resolutions")).join(Scenario).order_by(Round.id)
        ]
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False))
        return
    for r in rows:
        click.echo(
            f"{r['id']:>6}  {r['scenario']:<20} #{r['number']:<3} {r['state']:<12} {r['deadline']}  "
            f"resolutions={r['resolutions']}"
        )


@rounds_group.command("due")
def due() -> None:
    """Ids of the rounds due for resolution, one a line."""
    from pbp.services import rounds

    with open_db():
        for round_id in rounds.due_round_ids():
            click.echo(round_id)


@rounds_group.command("resolve-due")
def resolve_due() -> None:
    """Resolve every due round now (the scheduler's tick, by hand or from cron). Exit 1 if any failed."""
    from pbp.services import rounds

    with open_db():
        outcomes = rounds.resolve_due()
    for o in outcomes:
        click.echo(f"{o.round_id} {o.status}: {o.message}")
    if any(o.status == "failed" for o in outcomes):
        raise SystemExit(1)
