/**
 * An address policy for guard tests: 127.0.0.1 plays the public web, while every other address keeps
 * the SSRF guard's refusal (127.0.0.2 standing in for an internal host, metadata addresses, …).
 */
import { forbiddenAddressReason } from '../../core/net/ssrf.ts';

export const loopbackAsPublic = (ip: string): string | null =>
  ip === '127.0.0.1' || ip === '::ffff:127.0.0.1' ? null : forbiddenAddressReason(ip);
