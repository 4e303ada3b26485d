/** The `[webhooks]` section: delivery timeouts, retries, concurrency, limits and the signing keys. */
import { z } from 'zod';

export const webhooksConfigSchema = z.strictObject({
  timeoutMs: z.number().int().positive().default(10_000),
  /** Delivery attempts per message, the first included. */
  maxAttempts: z.number().int().min(1).max(20).default(8),
  /** After failed attempt n the next waits retryBaseMs·2^(n-1), capped at retryMaxMs, scaled by a random 50–150 %. */
  retryBaseMs: z.number().int().positive().default(30_000),
  retryMaxMs: z
    .number()
    .int()
    .positive()
    .default(6 * 3600_000),
  concurrency: z.number().int().min(1).max(64).default(4),
  maxPerWorkspace: z.number().int().min(1).default(50),
  /** `whsec_<base64>`: signs deliveries to a crawl's `webhook_url`, which has no registration of its own. */
  signingSecret: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, 'must look like whsec_<base64>')
    .optional(),
  /** Signs /v2 runs' webhooks as Firecrawl does: `X-Firecrawl-Signature: sha256=<hex HMAC-SHA256 of the body>`; unsigned without it. */
  hmacSecret: z.string().min(16).optional(),
  /** Encrypts stored registration secrets (AES-256-GCM); must be the same on every process. */
  secretKey: z.string().min(16).optional(),
});

export type WebhookSettings = z.output<typeof webhooksConfigSchema>;
