"""The persistent model: tables only, no business rules (those live in `pbp.services`)."""

from pbp.models.accounts import User
from pbp.models.base import BaseModel
from pbp.models.campaigns import Campaign, CampaignGM, Character, GrowthRequest
from pbp.models.ops import AuditLog, Heartbeat, NotificationOptOut, Outbox, RateCount
from pbp.models.player import EntryDraft, EntryWish, Notice, ParkedText
from pbp.models.rounds import (
    AdhocCheck,
    Entry,
    EntryRevision,
    GmAction,
    GmOrder,
    Override,
    Reminder,
    Report,
    ReportCorrection,
    Resolution,
    ResolutionVersion,
    Round,
)
from pbp.models.scenarios import Participation, Scenario, ScenarioSecret
from pbp.models.site import SiteVersion
from pbp.models.table_talk import CharacterIcon, MasterComment, ScenarioNote

#: Every table, in dependency order (the migrations must produce exactly these).
ALL_MODELS: tuple[type[BaseModel], ...] = (
    User,
    Campaign,
    Character,
    GrowthRequest,
    Scenario,
    ScenarioSecret,
    Participation,
    Round,
    Entry,
    EntryRevision,
    Resolution,
    ResolutionVersion,
    Override,
    Report,
    Outbox,
    AuditLog,
    Heartbeat,
    NotificationOptOut,
    Reminder,
    CampaignGM,
    ReportCorrection,
    GmAction,
    GmOrder,
    AdhocCheck,
    SiteVersion,
    RateCount,
    EntryDraft,
    ParkedText,
    Notice,
    MasterComment,
    ScenarioNote,
    CharacterIcon,
    EntryWish,
)

__all__ = [
    "ALL_MODELS",
    "AdhocCheck",
    "AuditLog",
    "BaseModel",
    "Campaign",
    "CampaignGM",
    "Character",
    "CharacterIcon",
    "Entry",
    "EntryDraft",
    "EntryWish",
    "EntryRevision",
    "GmAction",
    "GmOrder",
    "GrowthRequest",
    "Heartbeat",
    "MasterComment",
    "Notice",
    "NotificationOptOut",
    "Outbox",
    "Override",
    "ParkedText",
    "Reminder",
    "Participation",
    "RateCount",
    "Report",
    "ReportCorrection",
    "Resolution",
    "ResolutionVersion",
    "Round",
    "Scenario",
    "ScenarioNote",
    "ScenarioSecret",
    "SiteVersion",
    "User",
]
