"""The transport under every call: base URL and key (or TRAWL_API_URL / TRAWL_API_KEY), a timeout,
retries with exponential backoff on 429 (honouring Retry-After) for every call, since a refused
request did no work, and on 5xx and network failures for idempotent ones only."""
from __future__ import annotations

import json
import os
import random
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Mapping, Optional

from .errors import error_for, retry_after_seconds

VERSION = "0.1.0"
IDEMPOTENT = {"GET", "HEAD", "PUT", "DELETE", "OPTIONS"}


class Transport:
    def __init__(self, base_url: Optional[str] = None, api_key: Optional[str] = None, timeout: float = 60.0,
                 max_retries: int = 3, backoff: float = 0.5):
        self.base_url = (base_url or os.environ.get("TRAWL_API_URL") or "http://127.0.0.1:3000").rstrip("/")
        self.api_key = api_key if api_key is not None else os.environ.get("TRAWL_API_KEY")
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff

    def url(self, path: str, query: Optional[Mapping[str, Any]] = None) -> str:
        params = {k: (str(v).lower() if isinstance(v, bool) else v) for k, v in (query or {}).items() if v is not None}
        return self.base_url + path + ("?" + urllib.parse.urlencode(params) if params else "")

    def open(self, method: str, path: str, query=None, body: Any = None, headers: Optional[Mapping[str, str]] = None):
        """The raw response of a successful call (the caller closes it); errors raise TrawlError."""
        all_headers = {"user-agent": f"trawl-sdk-python/{VERSION}", "accept": "application/json", **(headers or {})}
        if self.api_key:
            all_headers["authorization"] = f"Bearer {self.api_key}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            all_headers["content-type"] = "application/json"
        attempt = 0
        while True:
            request = urllib.request.Request(self.url(path, query), data=data, method=method, headers=all_headers)
            try:
                return urllib.request.urlopen(request, timeout=self.timeout)
            except urllib.error.HTTPError as err:
                status, text, response_headers = err.code, err.read().decode("utf-8", "replace"), dict(err.headers.items())
                err.close()
                retriable = status == 429 or (status >= 500 and method in IDEMPOTENT)
                if not retriable or attempt >= self.max_retries:
                    raise error_for(status, _parse(text), response_headers) from None
                time.sleep(self._backoff(attempt, retry_after_seconds(err.headers.get("retry-after"))))
            except (urllib.error.URLError, TimeoutError, ConnectionError):
                if method not in IDEMPOTENT or attempt >= self.max_retries:
                    raise
                time.sleep(self._backoff(attempt, None))
            attempt += 1

    def request(self, method: str, path: str, query=None, body: Any = None) -> Any:
        with self.open(method, path, query, body) as response:
            return _parse(response.read().decode("utf-8", "replace"))

    def _backoff(self, attempt: int, retry_after: Optional[float]) -> float:
        if retry_after is not None:
            return retry_after
        return self.backoff * 2 ** attempt * (0.75 + random.random() / 2)


def _parse(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text
