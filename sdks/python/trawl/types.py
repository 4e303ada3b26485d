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


class Watch(TypedDict, total=False):
    id: str
    url: str
    name: Optional[str]
    active: bool
    snapshots: List[Dict[str, Any]]
    last_error: Optional[str]


class StoredResult(TypedDict, total=False):
    id: str
    endpoint: str
    url: str
    data: Any


class StreamEvent(TypedDict):
    id: Optional[int]
    event: str
    data: Any
