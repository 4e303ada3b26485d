/** The `[notify]` section: how many targets a watch may notify, and the SMTP server for `mailto:` targets. */
import { z } from 'zod';

export const smtpConfigSchema = z.strictObject({
  /** Unset: no e-mail; a `mailto:` target is refused with a 400 that names this setting. */
  host: z.string().trim().min(1).optional(),
  port: z.number().int().min(1).max(65535).default(587),
  /** The sender, `trawl@example.com` or `Trawl <trawl@example.com>`; required with `host`. */
  from: z.string().trim().min(3).max(320).optional(),
  username: z.string().min(1).optional(),
  password: z.string().min(1).optional(),
  /**
   * `starttls`: plain connect, then STARTTLS, which must succeed (submission, port 587);
   * `implicit`: TLS from the first byte (port 465); `none`: no TLS (a relay on this machine or network).
   */
  tls: z.enum(['starttls', 'implicit', 'none']).default('starttls'),
  /** Connect, greeting and each command's answer. */
  timeoutMs: z.number().int().positive().default(30_000),
});

export const notifyConfigSchema = z.strictObject({
  /** Entries of a watch's `notify` list. */
  maxTargets: z.number().int().min(1).max(50).default(10),
  smtp: smtpConfigSchema.prefault({}),
});

export type NotifySettings = z.output<typeof notifyConfigSchema>;
export type SmtpSettings = NotifySettings['smtp'];
