"""The Trawl client: one method per /v1 endpoint (each names its row of ENDPOINTS, the list the drift
test compares with /openapi.json), waiters for crawls, batches and lead batches, iterators over
paginated lists that follow `next`, and the crawl and batch event streams, which resume with
`Last-Event-ID` when the connection drops."""
from __future__ import annotations

import json
import time
import urllib.parse
from typing import Any, Callable, Dict, Iterator, List, Optional

from ._http import Transport
from .errors import TrawlError, WaitTimeoutError
from .types import (Account, CrawlPage, FeedToken, FeedTokenStatus, LeadBatch, RunStarted, RunStatusPage, StoredResult, StreamEvent, Watch,
                    Webhook, WorkspaceKey)

ENDPOINTS = (
    "GET /health", "GET /v1/plugins", "POST /v1/scrape", "POST /v1/map", "POST /v1/search", "POST /v1/extract", "POST /v1/summarize",
    "POST /v1/crawl", "GET /v1/crawl/{id}", "DELETE /v1/crawl/{id}", "GET /v1/crawl/{id}/pages", "GET /v1/crawl/{id}/stream",
    "GET /v1/crawl/history", "POST /v1/crawl/{id}/retry",
    "POST /v1/batch", "GET /v1/batch/{id}", "DELETE /v1/batch/{id}", "GET /v1/batch/{id}/stream",
    "POST /v1/lead", "POST /v1/lead/batch", "GET /v1/lead/batch/{id}", "POST /v1/brand", "POST /v1/diff", "POST /v1/endpoints",
    "POST /v1/webhooks", "GET /v1/webhooks", "GET /v1/webhooks/{id}", "PATCH /v1/webhooks/{id}", "DELETE /v1/webhooks/{id}",
    "GET /v1/webhooks/{id}/deliveries",
    "POST /v1/watch", "GET /v1/watch", "GET /v1/watch/{id}", "PATCH /v1/watch/{id}", "DELETE /v1/watch/{id}",
    "POST /v1/watch/{id}/check", "GET /v1/watch/{id}/diff",
    "POST /v1/watch/feed-token", "GET /v1/watch/feed-token", "DELETE /v1/watch/feed-token", "GET /v1/watch/feed.atom",
    "GET /v1/account", "GET /v1/keys", "POST /v1/keys", "PATCH /v1/keys/{id}", "DELETE /v1/keys/{id}",
    "POST /v1/social/monitors", "GET /v1/social/monitors", "GET /v1/social/monitors/{id}", "PATCH /v1/social/monitors/{id}",
    "DELETE /v1/social/monitors/{id}", "POST /v1/social/monitors/{id}/check", "POST /v1/social/audience",
    "GET /v1/cache/lookup", "GET /v1/results", "GET /v1/results/{id}", "GET /v1/results/run/{usage_log_id}", "GET /v1/usage",
)

_ENDED = {"completed", "failed", "cancelled"}


def _clean(values: Dict[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


def _paging(limit: Optional[int], offset: Optional[int], page: Optional[int] = None, per_page: Optional[int] = None) -> Dict[str, Any]:
    """A list's slice: `limit`/`offset` (the server's rule) or the older alias `page`/`per_page`; the server refuses both at once."""
    return _clean({"limit": limit, "offset": offset, "page": page, "per_page": per_page})


class Trawl:
    def __init__(self, base_url: Optional[str] = None, api_key: Optional[str] = None, timeout: float = 60.0,
                 max_retries: int = 3, backoff: float = 0.5):
        self.http = Transport(base_url, api_key, timeout, max_retries, backoff)

    def call(self, endpoint: str, *params: str, query: Optional[Dict[str, Any]] = None, body: Any = None) -> Any:
        """Calls one endpoint of ENDPOINTS; `{name}` placeholders are filled from `params` in order."""
        method, path = self._path(endpoint, params)
        return self.http.request(method, path, query, body)

    def _path(self, endpoint: str, params) -> tuple:
        if endpoint not in ENDPOINTS:
            raise ValueError(f"unknown endpoint {endpoint}")
        method, template = endpoint.split(" ")
        parts = iter(params)
        path = "/".join(urllib.parse.quote(next(parts), safe="") if p.startswith("{") else p for p in template.split("/"))
        return method, path

    def health(self) -> Dict[str, Any]: return self.call("GET /health")
    def plugins(self) -> Dict[str, Any]: return self.call("GET /v1/plugins")
    def scrape(self, url: str, **options: Any) -> Dict[str, Any]: return self.call("POST /v1/scrape", body={"url": url, **options})
    def map(self, url: str, **options: Any) -> Dict[str, Any]: return self.call("POST /v1/map", body={"url": url, **options})
    def search(self, query: str, **options: Any) -> Dict[str, Any]: return self.call("POST /v1/search", body={"query": query, **options})
    def extract(self, url: str, **options: Any) -> Dict[str, Any]: return self.call("POST /v1/extract", body={"url": url, **options})
    def summarize(self, url: str, **options: Any) -> Dict[str, Any]: return self.call("POST /v1/summarize", body={"url": url, **options})
    def lead(self, url: str, **options: Any) -> Dict[str, Any]: return self.call("POST /v1/lead", body={"url": url, **options})
    def brand(self, url: str, **options: Any) -> Dict[str, Any]: return self.call("POST /v1/brand", body={"url": url, **options})
    def endpoints(self, url: str, **options: Any) -> Dict[str, Any]: return self.call("POST /v1/endpoints", body={"url": url, **options})
    def diff(self, url: str, **options: Any) -> Dict[str, Any]: return self.call("POST /v1/diff", body={"url": url, **options})

    # Crawls
    def start_crawl(self, url: str, **options: Any) -> RunStarted: return self.call("POST /v1/crawl", body={"url": url, **options})
    def get_crawl(self, crawl_id: str, page: Optional[int] = None, per_page: Optional[int] = None, *, limit: Optional[int] = None, offset: Optional[int] = None) -> RunStatusPage:
        return self.call("GET /v1/crawl/{id}", crawl_id, query=_paging(limit, offset, page, per_page))
    def cancel_crawl(self, crawl_id: str) -> RunStarted: return self.call("DELETE /v1/crawl/{id}", crawl_id)
    def crawl_pages(self, crawl_id: str, page: Optional[int] = None, per_page: Optional[int] = None, status: Optional[str] = None, *, limit: Optional[int] = None, offset: Optional[int] = None) -> Dict[str, Any]:
        return self.call("GET /v1/crawl/{id}/pages", crawl_id, query={**_paging(limit, offset, page, per_page), **_clean({"status": status})})
    def iter_crawl_pages(self, crawl_id: str, per_page: Optional[int] = None, status: Optional[str] = None, *, limit: Optional[int] = None) -> Iterator[CrawlPage]:
        return self.paginate("data", self.crawl_pages(crawl_id, per_page=per_page, status=status, limit=limit))
    def crawl_history(self, page: Optional[int] = None, per_page: Optional[int] = None, *, limit: Optional[int] = None, offset: Optional[int] = None) -> Dict[str, Any]:
        return self.call("GET /v1/crawl/history", query=_paging(limit, offset, page, per_page))
    def retry_crawl(self, crawl_id: str) -> RunStarted: return self.call("POST /v1/crawl/{id}/retry", crawl_id)
    def wait_for_crawl(self, crawl_id: str, poll_interval: float = 1.0, timeout: float = 600.0) -> RunStatusPage:
        return self._wait(lambda: self.get_crawl(crawl_id, limit=1), lambda r: r["status"] in _ENDED, poll_interval, timeout)
    def crawl(self, url: str, poll_interval: float = 1.0, timeout: float = 600.0, **options: Any) -> RunStatusPage:
        return self.wait_for_crawl(self.start_crawl(url, **options)["id"], poll_interval, timeout)
    def stream_crawl(self, crawl_id: str, last_event_id: Optional[int] = None, max_reconnects: int = 5) -> Iterator[StreamEvent]:
        return self._stream("GET /v1/crawl/{id}/stream", crawl_id, last_event_id, max_reconnects)

    # Batches
    def start_batch(self, urls: List[str], **options: Any) -> RunStarted: return self.call("POST /v1/batch", body={"urls": urls, **options})
    def get_batch(self, batch_id: str, page: Optional[int] = None, per_page: Optional[int] = None, *, limit: Optional[int] = None, offset: Optional[int] = None) -> RunStatusPage:
        return self.call("GET /v1/batch/{id}", batch_id, query=_paging(limit, offset, page, per_page))
    def cancel_batch(self, batch_id: str) -> RunStarted: return self.call("DELETE /v1/batch/{id}", batch_id)
    def wait_for_batch(self, batch_id: str, poll_interval: float = 1.0, timeout: float = 600.0) -> RunStatusPage:
        return self._wait(lambda: self.get_batch(batch_id, limit=1), lambda r: r["status"] in _ENDED, poll_interval, timeout)
    def batch(self, urls: List[str], poll_interval: float = 1.0, timeout: float = 600.0, **options: Any) -> RunStatusPage:
        return self.wait_for_batch(self.start_batch(urls, **options)["id"], poll_interval, timeout)
    def stream_batch(self, batch_id: str, last_event_id: Optional[int] = None, max_reconnects: int = 5) -> Iterator[StreamEvent]:
        return self._stream("GET /v1/batch/{id}/stream", batch_id, last_event_id, max_reconnects)

    # Lead batches
    def start_lead_batch(self, urls: List[str], **options: Any) -> RunStarted: return self.call("POST /v1/lead/batch", body={"urls": urls, **options})
    def get_lead_batch(self, batch_id: str) -> LeadBatch: return self.call("GET /v1/lead/batch/{id}", batch_id)
    def wait_for_lead_batch(self, batch_id: str, poll_interval: float = 1.0, timeout: float = 600.0) -> LeadBatch:
        return self._wait(lambda: self.get_lead_batch(batch_id), lambda r: r["status"] == "completed", poll_interval, timeout)

    # Webhooks
    def create_webhook(self, url: str, events: List[str]) -> Webhook: return self.call("POST /v1/webhooks", body={"url": url, "events": events})
    def list_webhooks(self, page: Optional[int] = None, per_page: Optional[int] = None, *, limit: Optional[int] = None, offset: Optional[int] = None) -> Dict[str, Any]:
        return self.call("GET /v1/webhooks", query=_paging(limit, offset, page, per_page))
    def get_webhook(self, webhook_id: str) -> Webhook: return self.call("GET /v1/webhooks/{id}", webhook_id)
    def update_webhook(self, webhook_id: str, **patch: Any) -> Webhook: return self.call("PATCH /v1/webhooks/{id}", webhook_id, body=patch)
    def delete_webhook(self, webhook_id: str) -> Dict[str, Any]: return self.call("DELETE /v1/webhooks/{id}", webhook_id)
    def webhook_deliveries(self, webhook_id: str, page: Optional[int] = None, per_page: Optional[int] = None, *, limit: Optional[int] = None, offset: Optional[int] = None) -> Dict[str, Any]:
        return self.call("GET /v1/webhooks/{id}/deliveries", webhook_id, query=_paging(limit, offset, page, per_page))

    # Watches
    def create_watch(self, url: str, **options: Any) -> Watch: return self.call("POST /v1/watch", body={"url": url, **options})
    def list_watches(self, page: Optional[int] = None, per_page: Optional[int] = None, *, limit: Optional[int] = None, offset: Optional[int] = None) -> Dict[str, Any]:
        return self.call("GET /v1/watch", query=_paging(limit, offset, page, per_page))
    def get_watch(self, watch_id: str) -> Watch: return self.call("GET /v1/watch/{id}", watch_id)
    def update_watch(self, watch_id: str, **patch: Any) -> Watch: return self.call("PATCH /v1/watch/{id}", watch_id, body=patch)
    def delete_watch(self, watch_id: str) -> Dict[str, Any]: return self.call("DELETE /v1/watch/{id}", watch_id)
    def check_watch(self, watch_id: str) -> Dict[str, Any]: return self.call("POST /v1/watch/{id}/check", watch_id)
    def watch_diff(self, watch_id: str, from_snapshot: Optional[str] = None, to_snapshot: Optional[str] = None) -> Dict[str, Any]:
        return self.call("GET /v1/watch/{id}/diff", watch_id, query=_clean({"from": from_snapshot, "to": to_snapshot}))
    def create_feed_token(self) -> FeedToken:
        """Creates or rotates the workspace's feed token: the old feed URL stops working at once."""
        return self.call("POST /v1/watch/feed-token")
    def get_feed_token(self) -> FeedTokenStatus: return self.call("GET /v1/watch/feed-token")
    def revoke_feed_token(self) -> Dict[str, Any]: return self.call("DELETE /v1/watch/feed-token")
    def watch_feed(self, token: str) -> str:
        """The Atom XML of the workspace's notified changes, opened by the feed token alone (as a feed reader does with `feed_url`)."""
        return self.call("GET /v1/watch/feed.atom", query={"token": token})

    # The workspace's account and API keys (key management needs an admin key)
    def account(self) -> Account: return self.call("GET /v1/account")
    def list_keys(self, page: Optional[int] = None, per_page: Optional[int] = None, *, limit: Optional[int] = None, offset: Optional[int] = None) -> Dict[str, Any]:
        return self.call("GET /v1/keys", query=_paging(limit, offset, page, per_page))
    def iter_keys(self, per_page: Optional[int] = None, *, limit: Optional[int] = None) -> Iterator[WorkspaceKey]:
        return self.paginate("keys", self.list_keys(per_page=per_page, limit=limit))
    def create_key(self, name: Optional[str] = None, role: Optional[str] = None) -> WorkspaceKey:
        """Role `admin` (the default) or `member`; the secret `key` is in this answer only."""
        return self.call("POST /v1/keys", body=_clean({"name": name, "role": role}))
    def rename_key(self, key_id: str, name: Optional[str]) -> WorkspaceKey: return self.call("PATCH /v1/keys/{id}", key_id, body={"name": name})
    def revoke_key(self, key_id: str) -> WorkspaceKey:
        """The next request with the key is a 401; the answer is `success: True` with the revoked key."""
        return self.call("DELETE /v1/keys/{id}", key_id)

    # Social monitors and audience
    def create_social_monitor(self, kind: str, target: str, **options: Any) -> Dict[str, Any]:
        return self.call("POST /v1/social/monitors", body={"kind": kind, "target": target, **options})
    def list_social_monitors(self, limit: Optional[int] = None, offset: Optional[int] = None) -> Dict[str, Any]:
        return self.call("GET /v1/social/monitors", query=_paging(limit, offset))
    def iter_social_monitors(self, limit: Optional[int] = None) -> Iterator[Dict[str, Any]]:
        return self.paginate("monitors", self.list_social_monitors(limit=limit))
    def get_social_monitor(self, monitor_id: str) -> Dict[str, Any]: return self.call("GET /v1/social/monitors/{id}", monitor_id)
    def update_social_monitor(self, monitor_id: str, **patch: Any) -> Dict[str, Any]:
        return self.call("PATCH /v1/social/monitors/{id}", monitor_id, body=patch)
    def delete_social_monitor(self, monitor_id: str) -> Dict[str, Any]: return self.call("DELETE /v1/social/monitors/{id}", monitor_id)
    def check_social_monitor(self, monitor_id: str) -> Dict[str, Any]: return self.call("POST /v1/social/monitors/{id}/check", monitor_id)
    def audience(self, handle: Optional[str] = None, user_id: Optional[str] = None, **options: Any) -> Dict[str, Any]:
        return self.call("POST /v1/social/audience", body=_clean({"handle": handle, "user_id": user_id, **options}))
    def iter_audience(self, handle: Optional[str] = None, user_id: Optional[str] = None, **options: Any) -> Iterator[Dict[str, Any]]:
        """Every follower (or followed account), following `next_cursor` from page to page."""
        page = self.audience(handle, user_id, **options)
        while True:
            yield from page["users"]
            if not page.get("next_cursor"):
                return
            page = self.audience(user_id=page["user_id"], cursor=page["next_cursor"], **options)

    # Stored results and usage (cloud mode)
    def cache_lookup(self, endpoint: str, url: str) -> StoredResult: return self.call("GET /v1/cache/lookup", query={"endpoint": endpoint, "url": url})
    def list_results(self, page: Optional[int] = None, per_page: Optional[int] = None, endpoint: Optional[str] = None, *, limit: Optional[int] = None, offset: Optional[int] = None) -> Dict[str, Any]:
        return self.call("GET /v1/results", query={**_paging(limit, offset, page, per_page), **_clean({"endpoint": endpoint})})
    def iter_results(self, per_page: Optional[int] = None, endpoint: Optional[str] = None, *, limit: Optional[int] = None) -> Iterator[StoredResult]:
        return self.paginate("results", self.list_results(per_page=per_page, endpoint=endpoint, limit=limit))
    def get_result(self, result_id: str) -> StoredResult: return self.call("GET /v1/results/{id}", result_id)
    def run_result(self, usage_log_id: str) -> StoredResult: return self.call("GET /v1/results/run/{usage_log_id}", usage_log_id)
    def usage(self, **query: Any) -> Dict[str, Any]: return self.call("GET /v1/usage", query=_clean(query))

    def paginate(self, key: str, first: Dict[str, Any]) -> Iterator[Any]:
        """Every item of a paginated list, following each answer's `next` path."""
        page = first
        while True:
            yield from page.get(key) or []
            nxt = page.get("next")
            if not isinstance(nxt, str):
                return
            parsed = urllib.parse.urlsplit(nxt)
            page = self.http.request("GET", parsed.path, dict(urllib.parse.parse_qsl(parsed.query)))

    def _wait(self, get: Callable[[], Any], done: Callable[[Any], bool], poll_interval: float, timeout: float) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            current = get()
            if done(current):
                return current
            if time.monotonic() + poll_interval > deadline:
                raise WaitTimeoutError(f"still {current.get('status')} after {timeout} s")
            time.sleep(poll_interval)

    def _stream(self, endpoint: str, run_id: str, last_event_id: Optional[int], max_reconnects: int) -> Iterator[StreamEvent]:
        """Events until `end`; a dropped connection resumes after the last event seen."""
        method, path = self._path(endpoint, [run_id])
        last, failures = last_event_id, 0
        while True:
            headers = {"accept": "text/event-stream"}
            if last is not None:
                headers["last-event-id"] = str(last)
            progressed = False
            try:
                with self.http.open(method, path, headers=headers) as response:
                    for event in parse_events(response):
                        if event["id"] is not None:
                            last = event["id"]
                        progressed = True
                        yield event
                        if event["event"] in ("end", "error"):
                            return
            except TrawlError:
                raise
            except OSError:
                pass  # the connection dropped: resume below
            failures = 0 if progressed else failures + 1
            if failures > max_reconnects:
                raise ConnectionError(f"stream of {run_id} dropped {failures} times without an event")
            if not progressed:
                time.sleep(min(5.0, 0.2 * 2 ** failures))


def parse_events(lines) -> Iterator[StreamEvent]:
    """Server-Sent Events from a byte-line iterable: `id:`, `event:` and `data:`, one event per blank line."""
    event_id, name, data = None, "message", []
    for raw in lines:
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        if line == "":
            if data:
                text = "\n".join(data)
                try:
                    value = json.loads(text)
                except ValueError:
                    value = text
                yield {"id": event_id, "event": name, "data": value}
            event_id, name, data = None, "message", []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "id" and value.isdigit():
            event_id = int(value)
        elif field == "event":
            name = value
        elif field == "data":
            data.append(value)
