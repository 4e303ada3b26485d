"""The Trawl Python SDK: a standard-library client for Trawl's /v1 API."""
from ._http import VERSION as __version__
from .client import ENDPOINTS, Trawl, parse_events
from .errors import (AuthenticationError, BadRequestError, ConflictError, InsufficientCreditsError, NotFoundError,
                     PermissionDeniedError, RateLimitError, ServerError, TrawlError, UnprocessableError, WaitTimeoutError)
from .webhooks import WebhookVerificationError, sign_webhook, verify_webhook

__all__ = ["Trawl", "ENDPOINTS", "parse_events", "TrawlError", "BadRequestError", "AuthenticationError", "InsufficientCreditsError",
           "PermissionDeniedError", "NotFoundError", "ConflictError", "UnprocessableError", "RateLimitError", "ServerError",
           "WaitTimeoutError", "WebhookVerificationError", "sign_webhook", "verify_webhook", "__version__"]
