"""Who runs a campaign: its owner and co-GMs. Every GM service asks `require_gm` before it changes anything, so the
web's menus are a convenience, never the check. An `actor_id` of None is the operator (the command line, the
scheduler): trusted, as the person with the server's shell already is."""

from __future__ import annotations

from datetime import datetime

from pbp.db import retried, write_transaction
from pbp.errors import N_, Conflict, Forbidden, NotFound
from pbp.models import Campaign, CampaignGM, User
from pbp.services import audit
from pbp.services._common import checked_text, get_or_fail
from pbp.services.clock import SYSTEM, Clock, to_db

OWNER = "owner"
CO_GM = "co_gm"


def is_gm(campaign_id: int, user_id: int | None) -> bool:
    """Whether the user is the campaign's owner or one of its co-GMs."""
    if user_id is None:
        return False
    query = CampaignGM.select(CampaignGM.id).where(CampaignGM.campaign == campaign_id, CampaignGM.user == user_id)
    return query.exists()


def require_gm(campaign_id: int, actor_id: int | None) -> None:
    """Refuse anyone but the campaign's GMs (and the operator, `actor_id` None)."""
    if actor_id is not None and not is_gm(campaign_id, actor_id):
        raise Forbidden(N_("only the campaign's GMs may do this"))


def require_owner(campaign_id: int, actor_id: int | None) -> None:
    """Refuse anyone but the campaign's owner (and the operator)."""
    if actor_id is None:
        return
    query = CampaignGM.select(CampaignGM.id).where(
        CampaignGM.campaign == campaign_id, CampaignGM.user == actor_id, CampaignGM.role == OWNER
    )
    if not query.exists():
        raise Forbidden(N_("only the campaign's owner may do this"))


def gm_ids(campaign_id: int) -> set[int]:
    """Every GM of the campaign (whom its GM notifications go to)."""
    return {row.user_id for row in CampaignGM.select(CampaignGM.user).where(CampaignGM.campaign == campaign_id)}


def campaigns_run_by(user_id: int) -> list[Campaign]:
    """The campaigns the user is a GM of, by name, without their packs."""
    query = (
        Campaign.select(Campaign.id, Campaign.slug, Campaign.name, Campaign.ruleset, Campaign.timezone)
        .join(CampaignGM)
        .where(CampaignGM.user == user_id)
        .order_by(Campaign.name, Campaign.id)
    )
    return list(query)


def gms_of(campaign_id: int) -> list[CampaignGM]:
    """The campaign's GMs, the owner first, each with its user."""
    query = (
        CampaignGM.select(CampaignGM, User)
        .join(User)
        .where(CampaignGM.campaign == campaign_id)
        .order_by(CampaignGM.role.desc(), CampaignGM.id)  # "owner" sorts after "co_gm": descending puts it first
    )
    return list(query)


def ensure_owner(campaign_id: int, user_id: int, now: datetime) -> None:
    """Inside the caller's transaction: make `user_id` the campaign's owner (a reload by the operator naming a new
    owner hands the campaign over; the old owner stays as a co-GM)."""
    CampaignGM.update(role=CO_GM).where(
        CampaignGM.campaign == campaign_id, CampaignGM.role == OWNER, CampaignGM.user != user_id
    ).execute()
    row = CampaignGM.get_or_none(CampaignGM.campaign == campaign_id, CampaignGM.user == user_id)
    if row is None:
        CampaignGM.create(campaign=campaign_id, user=user_id, role=OWNER, added_at=now)
    elif row.role != OWNER:
        CampaignGM.update(role=OWNER).where(CampaignGM.id == row.id).execute()
    Campaign.update(gm=user_id).where(Campaign.id == campaign_id).execute()


@retried
def add_co_gm(campaign_id: int, user_name: str, *, actor_id: int | None, clock: Clock = SYSTEM) -> CampaignGM:
    """The owner makes another user (by user name) a co-GM of the campaign."""
    name = checked_text(user_name, N_("user name"), 40)
    get_or_fail(Campaign, campaign_id, N_("campaign"))
    require_owner(campaign_id, actor_id)
    user = User.get_or_none(User.name == name)
    if user is None:
        raise NotFound(N_("no user '%(name)s'", name=name), "user name")
    now = to_db(clock.now())
    with write_transaction():
        if CampaignGM.get_or_none(CampaignGM.campaign == campaign_id, CampaignGM.user == user.id):
            raise Conflict(N_("%(name)s is a GM of this campaign already", name=name), "user name")
        row = CampaignGM.create(campaign=campaign_id, user=user.id, role=CO_GM, added_at=now)
        audit.log("gm.add", f"campaign:{campaign_id}", now, actor_id=actor_id, user=name)
    return row


@retried
def remove_co_gm(campaign_id: int, user_id: int, *, actor_id: int | None, clock: Clock = SYSTEM) -> None:
    """The owner removes a co-GM (the owner cannot be removed: hand the campaign over by reloading it instead)."""
    get_or_fail(Campaign, campaign_id, N_("campaign"))
    require_owner(campaign_id, actor_id)
    now = to_db(clock.now())
    with write_transaction():
        row = CampaignGM.get_or_none(CampaignGM.campaign == campaign_id, CampaignGM.user == user_id)
        if row is None or row.role != CO_GM:
            raise NotFound(N_("user %(id)s is not a co-GM of this campaign", id=user_id))
        row.delete_instance()
        audit.log("gm.remove", f"campaign:{campaign_id}", now, actor_id=actor_id, user=user_id)
