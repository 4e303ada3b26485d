/**
 * What a `notify` entry may be: `mailto:address` (one address, no headers such as `?cc=`) or an
 * absolute `https://` URL (a chat platform's webhook, or any receiver of the signed payload).
 * `http://` is accepted only where private networks are allowed (a self-hosted intranet, tests),
 * as a receiver there is on the operator's own network; on the internet a notification, which
 * carries the page's text and a link into the dashboard, travels encrypted. Checked when a watch is
 * saved: the SSRF guard's verdict (deliveries are checked again), and e-mail needs SMTP configured.
 */
import { z } from 'zod';
import type { TrawlConfig } from '../../config-schema.ts';
import { receiverRefusal, receiverUrlSchema } from '../../net/receiver.ts';
import type { SmtpSettings } from './config.ts';
import { smtpMissing } from './email.ts';

const MAX_ADDRESS = 254;
// One address: a local part without spaces, quotes or separators; a dotted domain name.
const ADDRESS = /^[^\s@<>()[\]\\,;:"]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,10}$/;

function mailAddress(target: string): string | null {
  let address: string;
  try {
    address = decodeURIComponent(target.slice('mailto:'.length));
  } catch {
    return null;
  }
  return address.length <= MAX_ADDRESS && ADDRESS.test(address) ? address : null;
}

/** One entry, normalised: `mailto:` with the decoded address, or the URL as the receiver schema writes it. */
export const notifyTargetSchema = z
  .string()
  .max(2048)
  .transform((value, ctx) => {
    const trimmed = value.trim();
    if (/^mailto:/i.test(trimmed)) {
      const address = mailAddress(trimmed);
      if (address) return `mailto:${address}`;
      ctx.addIssue({ code: 'custom', message: 'must be mailto: followed by one e-mail address' });
      return z.NEVER;
    }
    const url = receiverUrlSchema.safeParse(trimmed);
    if (url.success) return url.data;
    ctx.addIssue({ code: 'custom', message: 'must be an https:// URL or mailto:address' });
    return z.NEVER;
  });

export function notifyTargetsSchema(max: number) {
  return z
    .array(notifyTargetSchema)
    .max(max, `at most ${max} targets`)
    .transform((targets) => [...new Set(targets)])
    .describe(
      'Told of each notifying check: chat webhook URLs (Slack, Discord, Teams, Telegram), mailto:address, other https URLs (signed).',
    );
}

export interface TargetRules {
  fetch: Readonly<TrawlConfig['fetch']>;
  smtp: SmtpSettings;
}

/** Why a (parsed) target cannot be used, or null. */
export async function targetProblem(target: string, rules: TargetRules): Promise<string | null> {
  if (target.startsWith('mailto:')) {
    const missing = smtpMissing(rules.smtp);
    return missing ? `e-mail targets need an SMTP server: set ${missing}` : null;
  }
  if (target.startsWith('http:') && !rules.fetch.allowPrivateNetwork) {
    return 'must be an https:// URL (http:// only where fetch.allowPrivateNetwork is set)';
  }
  return receiverRefusal(target, rules.fetch);
}

/** The first unusable target as `notify[i]: why`, or null. */
export async function targetsProblem(targets: readonly string[], rules: TargetRules): Promise<string | null> {
  for (const [i, target] of targets.entries()) {
    const problem = await targetProblem(target, rules);
    if (problem) return `notify[${i}]: ${problem}`;
  }
  return null;
}
