"""The private note thread between a scenario's GMs and each of its players (issue 31, item 7): per scenario and
player, messages either way, read by that player and the campaign's GMs only. Nothing public reads this table (the
blog's queries, the feeds, the export and the bundle never select it), and a new message tells the other side on
their notice list (`note.new`, never the campaign's webhook). A writer may send `BURST` messages a `WINDOW`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from pbp.db import retried, write_transaction
from pbp.errors import N_, Forbidden, UserError
from pbp.models import Campaign, Character, Participation, Scenario, ScenarioNote, User
from pbp.services import audit, gms, notifications
from pbp.services._common import checked_text, get_or_fail, lf_lines
from pbp.services.clock import SYSTEM, Clock, to_db

#: The characters a message may have.
NOTE_LIMIT = 2000
#: Messages a writer may send in one scenario within `WINDOW` (a flood is refused, nothing lost: the text stays).
BURST = 10
WINDOW = timedelta(minutes=10)
#: Messages a thread's page shows at most (the newest).
SHOWN = 200


def is_player(scenario_id: int, user_id: int) -> bool:
    """Whether the user has a character signed up for the scenario (joined, applied or waiting)."""
    query = Participation.select(Participation.id).join(Character)
    return query.where(Participation.scenario == scenario_id, Character.owner == user_id).exists()


def _campaign_of(scenario_id: int) -> int:
    return get_or_fail(Scenario, scenario_id, N_("scenario")).campaign_id


def require_reader(scenario_id: int, player_id: int, viewer_id: int) -> None:
    """Refuse anyone but the thread's player (while signed up for the scenario) and the campaign's GMs."""
    if gms.is_gm(_campaign_of(scenario_id), viewer_id):
        if not is_player(scenario_id, player_id):
            raise Forbidden(N_("user %(id)s plays no character in this scenario", id=player_id))
        return
    if viewer_id != player_id or not is_player(scenario_id, player_id):
        raise Forbidden(N_("only the scenario's GMs and this player read these notes"))


def thread(scenario_id: int, player_id: int, *, viewer_id: int) -> list[ScenarioNote]:
    """The thread's messages, oldest first (the newest `SHOWN`), with their authors."""
    require_reader(scenario_id, player_id, viewer_id)
    query = (
        ScenarioNote.select(ScenarioNote, User)
        .join(User, on=ScenarioNote.author == User.id)
        .where(ScenarioNote.scenario == scenario_id, ScenarioNote.player == player_id)
        .order_by(ScenarioNote.id.desc())
        .limit(SHOWN)
    )
    return list(reversed(list(query)))


@dataclass(frozen=True)
class Thread:
    """A player of the scenario as the GM's list shows them: how many messages, the last one's author and time."""

    player: User
    count: int
    last: ScenarioNote | None


def threads(scenario_id: int, *, viewer_id: int) -> list[Thread]:
    """Every player of the scenario with their thread (the campaign's GMs only), by name."""
    gms.require_gm(_campaign_of(scenario_id), viewer_id)
    owners = User.select().join(Character, on=Character.owner == User.id).join(Participation)
    players = list(owners.where(Participation.scenario == scenario_id).distinct().order_by(User.name))
    notes: dict[int, list[ScenarioNote]] = {}
    for note in ScenarioNote.select().where(ScenarioNote.scenario == scenario_id).order_by(ScenarioNote.id):
        notes.setdefault(note.player_id, []).append(note)
    return [Thread(p, len(notes.get(p.id, [])), (notes.get(p.id) or [None])[-1]) for p in players]


@retried
def write(scenario_id: int, player_id: int, body: str, *, author_id: int, clock: Clock = SYSTEM) -> ScenarioNote:
    """Add a message to the thread (its player or the campaign's GMs); the other side is told on their notice list
    and by e-mail if they take it. Refused over `NOTE_LIMIT` characters or past `BURST` messages a `WINDOW`."""
    try:
        text = checked_text(lf_lines(body), N_("the message"), NOTE_LIMIT)
    except UserError as refusal:
        refusal.field = "body"
        raise
    require_reader(scenario_id, player_id, author_id)
    now = to_db(clock.now())
    with write_transaction():
        recent = ScenarioNote.select().where(
            ScenarioNote.scenario == scenario_id,
            ScenarioNote.author == author_id,
            ScenarioNote.created_at > now - WINDOW,
        )
        if recent.count() >= BURST:
            raise UserError(
                N_(
                    "%(count)s messages in %(minutes)s minutes is the most: send this one a little later",
                    count=BURST,
                    minutes=int(WINDOW.total_seconds() // 60),
                ),
                "body",
            )
        note = ScenarioNote.create(scenario=scenario_id, player=player_id, author=author_id, body=text, created_at=now)
        _tell(scenario_id, player_id, author_id, now)
        audit.log("note.write", f"scenario:{scenario_id}", now, actor_id=author_id, player=player_id, chars=len(text))
    return note


def _tell(scenario_id: int, player_id: int, author_id: int, now: datetime) -> None:
    """The other side of the thread hears of a new message (its text stays on the site: the notice only links it)."""
    query = Scenario.select(Scenario, Campaign.id, Campaign.slug, Campaign.pack).join(Campaign)
    scenario = query.where(Scenario.id == scenario_id).get()
    slug = scenario.campaign.slug
    author = User.get_by_id(author_id)
    who = author.display_name or author.name
    payload = {**notifications.scenario_names(scenario, scenario.campaign.pack), "campaign": slug, "who": who}
    if author_id == player_id:
        page = f"/gm/{slug}/scenarios/{scenario.slug}/notes/{player_id}"
        users = gms.gm_ids(scenario.campaign.id) - {author_id}
    else:
        page = f"/campaigns/{slug}/scenarios/{scenario.slug}/notes"
        users = {player_id}
    notifications.queue("note.new", now, users=users, page=page, **payload)
