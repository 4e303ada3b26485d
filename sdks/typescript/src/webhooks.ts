/**
 * Standard Webhooks verification for receivers of Trawl's deliveries: `webhook-signature` holds
 * one or more `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the secret's decoded
 * bytes (`whsec_<base64>`); the timestamp must be within the tolerance, against replays.
 */
import { Buffer } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';

export class WebhookVerificationError extends Error {}

export interface WebhookHeaders {
  'webhook-id'?: string | null;
  'webhook-timestamp'?: string | null;
  'webhook-signature'?: string | null;
}

const header = (headers: Headers | WebhookHeaders, name: keyof WebhookHeaders) =>
  headers instanceof Headers ? headers.get(name) : (headers[name] ?? null);

export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** Checks a delivery and returns its parsed body; throws WebhookVerificationError otherwise. */
export function verifyWebhook(
  secret: string,
  body: string,
  headers: Headers | WebhookHeaders,
  { toleranceSeconds = 300, now = Date.now() } = {},
): unknown {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature');
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || Math.abs(now / 1000 - seconds) > toleranceSeconds)
    throw new WebhookVerificationError('Timestamp outside the tolerance');
  const expected = Buffer.from(signWebhook(secret, id, seconds, body));
  const match = signatures.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!match) throw new WebhookVerificationError('No matching signature');
  return JSON.parse(body);
}
