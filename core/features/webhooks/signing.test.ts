// Standard Webhooks signing checked against the reference library, and sealing of stored secrets.
import { describe, expect, test } from 'bun:test';
import { Webhook } from 'standardwebhooks';
import { createSecretBox, newSigningSecret, sign, webhookHeaders } from './signing.ts';

describe('signing', () => {
  test('secrets are whsec_ plus 32 random bytes in base64, never repeated', () => {
    const a = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64').length).toBe(32);
    expect(newSigningSecret()).not.toBe(a);
  });

  test('the signature is what the reference library computes, and it verifies', () => {
    const secret = newSigningSecret();
    const now = new Date();
    const body = JSON.stringify({ type: 'crawl.completed', data: { id: 'c1' } });
    expect(sign(secret, 'msg_1', Math.floor(now.getTime() / 1000), body)).toBe(new Webhook(secret).sign('msg_1', now, body));
    const headers = webhookHeaders(secret, 'msg_1', now, body);
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['content-type']).toBe('application/json');
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  test('a changed body, id or secret does not verify', () => {
    const secret = newSigningSecret();
    const headers = webhookHeaders(secret, 'msg_1', new Date(), '{"a":1}');
    expect(() => new Webhook(secret).verify('{"a":2}', headers)).toThrow();
    expect(() => new Webhook(secret).verify('{"a":1}', { ...headers, 'webhook-id': 'msg_2' })).toThrow();
    expect(() => new Webhook(newSigningSecret()).verify('{"a":1}', headers)).toThrow();
  });

  test('without a secret the headers carry id and timestamp but no signature', () => {
    const headers = webhookHeaders(null, 'msg_1', new Date(1_700_000_000_000), '{}');
    expect(headers['webhook-timestamp']).toBe('1700000000');
    expect(headers['webhook-signature']).toBeUndefined();
  });
});

describe('secret box', () => {
  const secret = newSigningSecret();

  test('with a key the stored value is encrypted, randomised and opens again', () => {
    const box = createSecretBox('a-long-operator-key');
    const sealed = box.seal(secret);
    expect(sealed).not.toContain(secret.slice(6));
    expect(box.seal(secret)).not.toBe(sealed);
    expect(box.open(sealed)).toBe(secret);
  });

  test('a wrong key or a tampered value fails instead of returning garbage', () => {
    const sealed = createSecretBox('a-long-operator-key').seal(secret);
    expect(() => createSecretBox('another-operator-key').open(sealed)).toThrow();
    const tampered = sealed.slice(0, -4) + (sealed.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect(() => createSecretBox('a-long-operator-key').open(tampered)).toThrow();
    expect(() => createSecretBox(undefined).open(sealed)).toThrow('webhooks.secretKey is not set');
  });

  test('without a key secrets are stored marked as plain, and still open once a key is set', () => {
    const stored = createSecretBox(undefined).seal(secret);
    expect(stored).toBe(`plain:${secret}`);
    expect(createSecretBox('a-long-operator-key').open(stored)).toBe(secret);
    expect(() => createSecretBox(undefined).open('garbage')).toThrow('unrecognised');
  });
});
