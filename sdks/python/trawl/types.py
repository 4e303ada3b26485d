"""Response shapes of the /v1 API as TypedDicts, written against /openapi.json (the common fields;
answers may carry more)."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, TypedDict


class RunStarted(TypedDict, total=False):
    id: str
    status: str


class CrawlPage(TypedDict, total=False):
    url: str
    status: str
    markdown: str
    error: str


class RunStatusPage(TypedDict, total=False):
    id: str
    status: str
    total: int
    completed: int
    failed: int
    created_at: str
    completed_at: Optional[str]
    expires_at: Optional[str]  # when the run is deleted (404 from then on); None: kept forever
    data: List[CrawlPage]
    next: str


class LeadBatch(TypedDict, total=False):
    id: str
    status: str
    total: int
    completed: int
    failed: int
    data: List[Dict[str, Any]]


class Webhook(TypedDict, total=False):
    id: str
    url: str
    events: List[str]
    active: bool
    secret: str


class WatchCondition(TypedDict, total=False):
    selector: str
    below: float
    above: float
    change_percent: float


class NotifyStatus(TypedDict):
    target: str
    ok: bool
    outcome: str  # delivered | retrying | failed
    error: Optional[str]
    attempt: int
    at: str


class WatchSnapshot(TypedDict, total=False):
    id: str
    status: str  # initial | same | changed
    notified: bool
    reason: Optional[str]
    excerpt: Optional[str]
    title: str
    diff_summary: Optional[str]
    checked_at: str


class Watch(TypedDict, total=False):
    id: str
    url: str
    name: str
    interval_minutes: int
    webhook_url: Optional[str]
    active: bool
    state: str  # new | changed | unchanged | error | paused
    last_checked_at: Optional[str]
    last_changed_at: Optional[str]
    next_check_at: Optional[str]
    last_error: Optional[str]
    include_selectors: List[str]
    ignore_selectors: List[str]
    ignore_text: List[str]
    ignore_patterns: List[str]  # clock | relative_time | counters | tokens
    trigger_text: List[str]
    block_text: List[str]
    only_new_lines: bool
    changes: str  # any | added | removed
    conditions: List[WatchCondition]
    restock: bool
    tags: List[str]
    notify: List[str]
    notify_status: List[NotifyStatus]
    snapshots: List[WatchSnapshot]
    created_at: str


class FeedToken(TypedDict):
    """The create answer, the only one holding the token; `feed_url` is the Atom feed's address with it."""
    token: str
    feed_url: str
    created_at: str


class FeedTokenStatus(TypedDict):
    active: bool
    created_at: Optional[str]


class Account(TypedDict, total=False):
    workspace: Dict[str, str]  # id, name
    mode: str  # cloud | self-hosted
    plan: Optional[str]
    status: Optional[str]
    balance: Optional[int]  # admin keys only
    rate_limit_per_minute: Optional[int]
    key: Optional[Dict[str, str]]  # id, role
    role: str  # admin | member


class WorkspaceKey(TypedDict, total=False):
    """A workspace key as listed: never the secret (`key` is in the create answer only)."""
    id: str
    name: Optional[str]
    role: str  # admin | member
    suffix: Optional[str]
    created_at: str
    revoked_at: Optional[str]
    current: bool
    key: str
    success: bool


class StoredResult(TypedDict, total=False):
    id: str
    endpoint: str
    url: str
    data: Any


class StreamEvent(TypedDict):
    id: Optional[int]
    event: str
    data: Any
