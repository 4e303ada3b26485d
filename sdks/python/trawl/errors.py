"""Typed errors of the Trawl SDK: each carries the HTTP status and the body's `error` message."""
from __future__ import annotations

import email.utils
import time
from typing import Any, Mapping, Optional


class TrawlError(Exception):
    def __init__(self, status: int, message: str, body: Any = None, headers: Optional[Mapping[str, str]] = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.body = body
        self.headers = dict(headers or {})


class BadRequestError(TrawlError): pass
class AuthenticationError(TrawlError): pass
class InsufficientCreditsError(TrawlError): pass
class PermissionDeniedError(TrawlError): pass
class NotFoundError(TrawlError): pass
class ConflictError(TrawlError): pass
class UnprocessableError(TrawlError): pass
class ServerError(TrawlError): pass


class RateLimitError(TrawlError):
    @property
    def retry_after(self) -> Optional[float]:
        return retry_after_seconds(self.headers.get("retry-after"))


class WaitTimeoutError(Exception):
    """A waiter ran out of time before the work ended."""


_BY_STATUS = {400: BadRequestError, 401: AuthenticationError, 402: InsufficientCreditsError, 403: PermissionDeniedError,
              404: NotFoundError, 409: ConflictError, 422: UnprocessableError, 429: RateLimitError}


def error_for(status: int, body: Any, headers: Mapping[str, str]) -> TrawlError:
    message = body["error"] if isinstance(body, dict) and isinstance(body.get("error"), str) else f"HTTP {status}"
    cls = _BY_STATUS.get(status, ServerError if status >= 500 else TrawlError)
    return cls(status, message, body, {k.lower(): v for k, v in headers.items()})


def retry_after_seconds(value: Optional[str]) -> Optional[float]:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, email.utils.parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None
