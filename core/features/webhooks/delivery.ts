/**
 * The `webhook.delivery` job handler: one signed POST per run, through the core HttpClient (so the
 * SSRF guard, timeout and body cap apply), one row in the delivery log per attempt. Retries are
 * scheduled here, not by the queue's generic retry: receivers go down for minutes or hours, so
 * webhooks get their own schedule (`[webhooks]` in the config), and each attempt is a new job
 * whose `runAt` carries the backoff. HTTP 410 Gone disables the registration and stops; a receiver
 * the SSRF guard refuses fails at once (the address will not become allowed by waiting).
 */
import type { Logger } from 'pino';
import type { WebhookSettings } from './config.ts';
import { TrawlError } from '../../errors.ts';
import { backoffMs } from '../../jobs/queue.ts';
import { isGuardRefusal } from '../../net/http-support.ts';
import type { ClaimedJob, HttpClient, JobHandler, JobQueue } from '../../services.ts';
import { DELIVERY_KIND, deliveryPayloadSchema, type DeliveryPayload } from './events.ts';
import { firecrawlSignature, webhookHeaders } from './signing.ts';
import type { DeliveryOutcome, WebhookStore } from './store.ts';
import type { Metrics } from '../../metrics.ts';

/** A receiver's answer is not read for anything; a huge one is a failed attempt, not a memory risk. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface DeliveryDeps {
  http: HttpClient;
  store: WebhookStore;
  jobs: () => JobQueue;
  config: WebhookSettings;
  logger: Logger;
  /** Tests pin jitter; production uses Math.random. */
  random?: () => number;
  metrics?: Metrics;
}

interface Target {
  url: string;
  secret: string | null;
  webhookId: string | null;
}

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).replace(/^Failed to fetch URL: /, '');

export function createDeliveryHandler(deps: DeliveryDeps): JobHandler {
  const { config } = deps;

  async function targetOf(payload: DeliveryPayload): Promise<Target | null> {
    if (payload.url !== undefined) return { url: payload.url, secret: config.signingSecret ?? null, webhookId: null };
    const found = await deps.store.forDelivery(payload.webhookId!);
    // Deleted or disabled since the event: it must stop receiving notifications.
    if (!found || !found.webhook.active) return null;
    return { url: found.webhook.url, secret: found.secret, webhookId: found.webhook.id };
  }

  return async function deliver(job: ClaimedJob, signal: AbortSignal): Promise<void> {
    const parsed = deliveryPayloadSchema.safeParse(job.payload);
    if (!parsed.success) throw Object.assign(new TrawlError('internal', `invalid ${DELIVERY_KIND} payload: ${parsed.error.message}`), { permanent: true });
    const payload = parsed.data;
    const target = await targetOf(payload);
    if (!target) return;

    const started = performance.now();
    let status: number | null = null;
    let error: string | null = null;
    let refused = false;
    try {
      const response = await deps.http.request(target.url, {
        method: 'POST',
        headers: {
          ...(payload.scheme === 'standard'
            ? webhookHeaders(target.secret, payload.messageId, new Date(), payload.body)
            : { ...payload.headers, 'content-type': 'application/json', ...(payload.scheme === 'firecrawl' && config.hmacSecret ? { 'x-firecrawl-signature': firecrawlSignature(config.hmacSecret, payload.body) } : {}) }),
          // The request that caused the event, so the receiver's logs and ours can be matched.
          ...(job.requestId ? { 'x-request-id': job.requestId } : {}),
        },
        body: payload.body,
        timeoutMs: config.timeoutMs,
        // A redirect could move a signed payload somewhere the owner never registered.
        maxRedirects: 0,
        maxBodyBytes: MAX_RESPONSE_BYTES,
        signal,
      });
      status = response.status;
      if (status < 200 || status > 299) error = `receiver answered HTTP ${status}`;
    } catch (err) {
      // Shutting down: let the queue release the job so another run makes this attempt.
      if (signal.aborted) throw err;
      error = reasonOf(err);
      refused = isGuardRefusal(err);
    }
    const durationMs = performance.now() - started;

    let outcome: DeliveryOutcome;
    let nextAttemptAt: Date | null = null;
    if (error === null) outcome = 'delivered';
    else if (status === 410) outcome = target.webhookId ? 'disabled' : 'failed';
    else if (refused || payload.attempt >= config.maxAttempts) outcome = 'failed';
    else {
      outcome = 'retrying';
      // The queue's exponential backoff with jitter, on the webhook schedule.
      nextAttemptAt = new Date(Date.now() + backoffMs(payload.attempt, config, deps.random));
    }

    deps.metrics?.webhookDeliveries.inc({ outcome });
    if (outcome === 'disabled') await deps.store.disable(target.webhookId!, 'receiver answered HTTP 410 Gone');
    await deps.store.logDelivery({
      webhookId: target.webhookId,
      workspace: job.workspace,
      messageId: payload.messageId,
      event: payload.event,
      url: target.url,
      attempt: payload.attempt,
      outcome,
      statusCode: status,
      error,
      durationMs,
      nextAttemptAt: nextAttemptAt?.toISOString() ?? null,
    });
    if (outcome !== 'delivered') deps.logger.warn({ url: target.url, attempt: payload.attempt, outcome, error }, 'webhook delivery failed');
    if (nextAttemptAt) {
      await deps.jobs().enqueue({ kind: DELIVERY_KIND, workspace: job.workspace, payload: { ...payload, attempt: payload.attempt + 1 }, runAt: nextAttemptAt });
    }
  };
}
