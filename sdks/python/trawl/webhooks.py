"""Standard Webhooks verification for receivers of Trawl's deliveries: `webhook-signature` holds one
or more `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the decoded `whsec_` secret;
the timestamp must be within the tolerance, against replays."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any, Mapping, Optional, Union


class WebhookVerificationError(Exception):
    pass


def sign_webhook(secret: str, msg_id: str, timestamp: int, body: Union[str, bytes]) -> str:
    key = base64.b64decode(secret[len("whsec_"):] if secret.startswith("whsec_") else secret)
    payload = f"{msg_id}.{timestamp}.".encode() + (body.encode() if isinstance(body, str) else body)
    return "v1," + base64.b64encode(hmac.new(key, payload, hashlib.sha256).digest()).decode()


def verify_webhook(secret: str, body: Union[str, bytes], headers: Mapping[str, str], tolerance: int = 300,
                   now: Optional[float] = None) -> Any:
    """Checks a delivery and returns its parsed body; raises WebhookVerificationError otherwise."""
    lower = {k.lower(): v for k, v in headers.items()}
    msg_id, timestamp, signatures = lower.get("webhook-id"), lower.get("webhook-timestamp"), lower.get("webhook-signature")
    if not msg_id or not timestamp or not signatures:
        raise WebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature")
    if not timestamp.isdigit() or abs((now if now is not None else time.time()) - int(timestamp)) > tolerance:
        raise WebhookVerificationError("Timestamp outside the tolerance")
    expected = sign_webhook(secret, msg_id, int(timestamp), body)
    if not any(hmac.compare_digest(candidate, expected) for candidate in signatures.split(" ")):
        raise WebhookVerificationError("No matching signature")
    return json.loads(body)
