/**
 * The `webhook.delivery` job handler: one signed POST per run, through the core HttpClient (so the
 * SSRF guard, timeout and body cap apply), one row in the delivery log per attempt. Retries are
 * scheduled here, not by the queue's generic retry: receivers go down for minutes or hours, so
 * webhooks get their own schedule (`[webhooks]` in the config), and each attempt is a new job
 * whose `runAt` carries the backoff. HTTP 410 Gone disables the registration and stops; a receiver
 * the SSRF guard refuses fails at once (the address will not become allowed by waiting). A
 * `mailto:` receiver gets its e-mail through the Mailer on the same schedule (a refused address
 * fails at once), and a delivery with an origin reports every attempt's outcome to it.
 */
import type { Logger } from 'pino';
import type { WebhookSettings } from './config.ts';
import { TrawlError } from '../../errors.ts';
import { backoffMs } from '../../jobs/attempt.ts';
import { isGuardRefusal } from '../../net/http-support.ts';
import type { ClaimedJob, HttpClient, JobHandler, JobQueue, MailContent, Mailer } from '../../services.ts';
import { DELIVERY_KIND, deliveryPayloadSchema, type DeliveryPayload, type OutcomeListeners } from './events.ts';
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
  /** The SMTP sender for `mailto:` receivers; null when the notify feature is not loaded. */
  mailer?: () => Mailer | null;
  outcomes?: OutcomeListeners;
}

interface Attempt {
  status: number | null;
  error: string | null;
  /** Waiting cannot help: the SSRF guard refused the receiver, or the mail server refused the address. */
  final: boolean;
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
    if (!found?.webhook.active) return null;
    return { url: found.webhook.url, secret: found.secret, webhookId: found.webhook.id };
  }

  async function post(target: Target, payload: DeliveryPayload, job: ClaimedJob, signal: AbortSignal): Promise<Attempt> {
    try {
      const response = await deps.http.request(target.url, {
        method: 'POST',
        headers: {
          ...(payload.scheme === 'standard'
            ? webhookHeaders(target.secret, payload.messageId, new Date(), payload.body)
            : {
                ...payload.headers,
                'content-type': 'application/json',
                ...(payload.scheme === 'firecrawl' && config.hmacSecret
                  ? { 'x-firecrawl-signature': firecrawlSignature(config.hmacSecret, payload.body) }
                  : {}),
              }),
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
      const ok = response.status >= 200 && response.status <= 299;
      return { status: response.status, error: ok ? null : `receiver answered HTTP ${response.status}`, final: false };
    } catch (err) {
      // Shutting down: let the queue release the job so another run makes this attempt.
      if (signal.aborted) throw err;
      return { status: null, error: reasonOf(err), final: isGuardRefusal(err) };
    }
  }

  async function sendMail(to: string, payload: DeliveryPayload, signal: AbortSignal): Promise<Attempt> {
    const mailer = deps.mailer?.() ?? null;
    const unavailable = mailer ? mailer.unavailableReason() : 'e-mail is not available in this process';
    // Configured since the watch was saved, or not yet: the operator may fix it before the next try.
    if (!mailer || unavailable) return { status: null, error: unavailable, final: false };
    try {
      await mailer.send(decodeURIComponent(to), JSON.parse(payload.body) as MailContent, signal);
      return { status: null, error: null, final: false };
    } catch (err) {
      if (signal.aborted) throw err;
      return { status: null, error: reasonOf(err), final: (err as { permanent?: boolean }).permanent === true };
    }
  }

  return async function deliver(job: ClaimedJob, signal: AbortSignal): Promise<void> {
    const parsed = deliveryPayloadSchema.safeParse(job.payload);
    if (!parsed.success)
      throw Object.assign(new TrawlError('internal', `invalid ${DELIVERY_KIND} payload: ${parsed.error.message}`), { permanent: true });
    const payload = parsed.data;
    const target = await targetOf(payload);
    if (!target) return;

    const started = performance.now();
    const result = target.url.startsWith('mailto:')
      ? await sendMail(target.url.slice('mailto:'.length), payload, signal)
      : await post(target, payload, job, signal);
    const { status, error } = result;
    const durationMs = performance.now() - started;

    let outcome: DeliveryOutcome;
    let nextAttemptAt: Date | null = null;
    if (error === null) outcome = 'delivered';
    else if (status === 410) outcome = target.webhookId ? 'disabled' : 'failed';
    else if (result.final || payload.attempt >= config.maxAttempts) outcome = 'failed';
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
      await deps.jobs().enqueue({
        kind: DELIVERY_KIND,
        workspace: job.workspace,
        payload: { ...payload, attempt: payload.attempt + 1 },
        runAt: nextAttemptAt,
      });
    }
    if (payload.origin) {
      // The attempt is done and logged; a report that cannot be written must not repeat it.
      await deps.outcomes
        ?.report({ origin: payload.origin, url: target.url, outcome, error, attempt: payload.attempt, at: new Date().toISOString() })
        .catch((err) => deps.logger.warn({ err, origin: payload.origin }, 'delivery outcome not recorded'));
    }
  };
}
