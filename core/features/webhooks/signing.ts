/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): secrets are `whsec_<base64>`, and a
 * delivery carries `webhook-id`, `webhook-timestamp` (Unix seconds) and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the secret's
 * decoded bytes. Also seals stored secrets: unlike API keys they cannot be kept as a hash, because
 * every delivery needs the secret itself, so they are encrypted at rest when a key is configured.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A fresh secret with 32 random bytes (the standard asks for 24 to 64). */
export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** Firecrawl's signature of a body: hex HMAC-SHA256 keyed with the secret as text. */
export function firecrawlSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** The headers of one delivery attempt; without a secret the message is sent unsigned. */
export function webhookHeaders(secret: string | null, id: string, now: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
  };
  if (secret) headers['webhook-signature'] = sign(secret, id, timestamp, body);
  return headers;
}

export interface SecretBox {
  seal(secret: string): string;
  open(stored: string): string;
}

const PLAIN = 'plain:';
const SEALED = 'aes256gcm:';

/**
 * With `key`, secrets are stored AES-256-GCM encrypted (key = SHA-256 of the configured text), so
 * a database dump alone does not let anyone forge deliveries. Without it they are stored as they
 * are, marked so, and sealing starts as soon as a key is configured (old rows still open).
 */
export function createSecretBox(key: string | undefined): SecretBox {
  const aesKey = key ? createHash('sha256').update(key).digest() : null;
  return {
    seal(secret) {
      if (!aesKey) return PLAIN + secret;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
      const encrypted = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return SEALED + Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64');
    },
    open(stored) {
      if (stored.startsWith(PLAIN)) return stored.slice(PLAIN.length);
      if (!stored.startsWith(SEALED)) throw new Error('unrecognised stored webhook secret');
      if (!aesKey) throw new Error('webhook secret is encrypted but webhooks.secretKey is not set');
      const raw = Buffer.from(stored.slice(SEALED.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', aesKey, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
