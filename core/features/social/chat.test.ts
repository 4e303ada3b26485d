// Chat-platform URLs recognised, and each platform's message shape checked the way its receiver
// would take it: Discord embeds within the per-embed and per-message limits, Slack blocks and their
// text limits with escaping, a Teams Adaptive Card attachment, Telegram HTML within 4096 characters.
import { describe, expect, test } from 'bun:test';
import type { SocialPost } from '../../plugin.ts';
import { chatMessages, chatPlatformOf } from './chat.ts';

const monitor = { name: 'Harbour <watch>', kind: 'profile', target: 'harbour' };
const post = (n: number, text = `Tide at ${n} & <b>rising</b> @everyone`): SocialPost => ({
  id: String(1_900_000_000_000_000_000n + BigInt(n)),
  screenName: 'harbour',
  text,
  url: `https://x.com/harbour/status/${n}`,
  createdAt: '2026-11-25T02:00:00.000Z',
  favoriteCount: n,
  retweetCount: 1,
  replyCount: 2,
  lang: 'en',
  isRetweet: false,
  isReply: false,
  isQuote: false,
});
const long = Array.from({ length: 12 }, (_, i) => post(i, 'x'.repeat(3000 + i)));

const DISCORD = 'https://discord.com/api/webhooks/123456789/abc-DEF_ghi';
const SLACK = 'https://hooks.slack.com/services/T000/B000/XXXXXXXX';
const TEAMS = 'https://prod-12.westus.logic.azure.com:443/workflows/abc123/triggers/manual/paths/invoke?api-version=2016-06-01&sig=x';
const TELEGRAM = 'https://api.telegram.org/bot123456:ABC-def/sendMessage?chat_id=-100123';

describe('chat platforms', () => {
  test('recognised by URL; anything else (a Slack workflow, a retired Teams connector) is generic', () => {
    expect([DISCORD, 'https://canary.discordapp.com/api/v10/webhooks/1/t', SLACK, TEAMS, TELEGRAM].map(chatPlatformOf)).toEqual([
      'discord',
      'discord',
      'slack',
      'teams',
      'telegram',
    ]);
    for (const url of [
      'https://hooks.slack.com/workflows/T1/A1/1/x',
      'https://acme.webhook.office.com/webhookb2/x',
      'https://example.com/discord.com/api/webhooks/1/2',
      'http://discord.com/api/webhooks/1/2',
      'https://api.telegram.org/bot1:x/sendMessage',
    ]) {
      expect(chatPlatformOf(url)).toBeNull();
      expect(chatMessages(url, monitor, [post(1)], 5)).toBeNull();
    }
  });

  test('Discord: embeds of at most 10 and 6000 characters per message, mentions off', () => {
    const messages = chatMessages(DISCORD, monitor, long, 10) as any[];
    expect(messages.flatMap((m) => m.embeds).length).toBe(12);
    for (const message of messages) {
      expect(message.allowed_mentions).toEqual({ parse: [] });
      expect(message.embeds.length).toBeLessThanOrEqual(10);
      const chars = message.embeds.reduce(
        (n: number, e: any) =>
          n +
          e.author.name.length +
          e.description.length +
          e.footer.text.length +
          e.fields.reduce((k: number, f: any) => k + f.name.length + f.value.length, 0),
        0,
      );
      expect(chars).toBeLessThanOrEqual(6000);
      for (const e of message.embeds) expect(e.description.length).toBeLessThanOrEqual(4096);
    }
    const [one] = chatMessages(DISCORD, monitor, [post(3)], 5) as any[];
    expect(one.embeds[0]).toMatchObject({
      author: { name: '@harbour' },
      url: 'https://x.com/harbour/status/3',
      timestamp: '2026-11-25T02:00:00.000Z',
      footer: { text: 'Harbour <watch>' },
    });
  });

  test('Slack: blocks with escaped mrkdwn, section text at most 3000, a text fallback', () => {
    const messages = chatMessages(SLACK, monitor, long, 5) as any[];
    expect(messages.length).toBe(3);
    for (const m of messages) {
      expect(m.blocks.length).toBeLessThanOrEqual(50);
      for (const b of m.blocks) if (b.type === 'section') expect(b.text.text.length).toBeLessThanOrEqual(3000);
    }
    const [one] = chatMessages(SLACK, monitor, [post(3)], 5) as any[];
    expect(one.text).toBe('1 new post for Harbour <watch>');
    expect(one.blocks[0].text.text).toBe(
      '*<https://x.com/harbour/status/3|@harbour>*\nTide at 3 &amp; &lt;b&gt;rising&lt;/b&gt; @everyone',
    );
  });

  test('Teams: one Adaptive Card 1.4 attachment per message', () => {
    const [message] = chatMessages(TEAMS, monitor, [post(1), post(2)], 5) as any[];
    expect(message.type).toBe('message');
    expect(message.attachments[0]).toMatchObject({
      contentType: 'application/vnd.microsoft.card.adaptive',
      contentUrl: null,
      content: { type: 'AdaptiveCard', version: '1.4' },
    });
    expect(message.attachments[0].content.body.filter((b: any) => b.type === 'ActionSet').map((b: any) => b.actions[0].url)).toEqual([
      'https://x.com/harbour/status/1',
      'https://x.com/harbour/status/2',
    ]);
    expect(JSON.stringify(chatMessages(TEAMS, monitor, long, 5)).length).toBeLessThan(3 * 28_000);
  });

  test('Telegram: HTML text at most 4096 characters to the chat of the URL, escaped', () => {
    const messages = chatMessages(TELEGRAM, monitor, long, 5) as any[];
    for (const m of messages) {
      expect(m).toMatchObject({ chat_id: '-100123', parse_mode: 'HTML', link_preview_options: { is_disabled: true } });
      expect(m.text.length).toBeLessThanOrEqual(4096);
    }
    const [one] = chatMessages(TELEGRAM, monitor, [post(3)], 5) as any[];
    expect(one.text).toContain(
      '<a href="https://x.com/harbour/status/3">@harbour</a>\nTide at 3 &amp; &lt;b&gt;rising&lt;/b&gt; @everyone',
    );
    expect(one.text.startsWith('<b>Harbour &lt;watch&gt;</b>')).toBe(true);
  });
  test('one post on every platform, byte for byte as the monitors have always sent it', () => {
    const one = { ...post(3), favoriteCount: 3 };
    const sent = [DISCORD, SLACK, TEAMS, TELEGRAM].map((url) => JSON.stringify(chatMessages(url, monitor, [one], 5)));
    expect(sent).toEqual([
      '[{"embeds":[{"author":{"name":"@harbour","url":"https://x.com/harbour"},"description":"Tide at 3 & <b>rising</b> @everyone","url":"https://x.com/harbour/status/3","timestamp":"2026-11-25T02:00:00.000Z","fields":[{"name":"Likes","value":"3","inline":true},{"name":"Reposts","value":"1","inline":true},{"name":"Replies","value":"2","inline":true}],"footer":{"text":"Harbour <watch>"}}],"allowed_mentions":{"parse":[]}}]',
      '[{"text":"1 new post for Harbour <watch>","blocks":[{"type":"section","text":{"type":"mrkdwn","text":"*<https://x.com/harbour/status/3|@harbour>*\\nTide at 3 &amp; &lt;b&gt;rising&lt;/b&gt; @everyone"}},{"type":"context","elements":[{"type":"mrkdwn","text":"♥ 3 · ⟲ 1 · ↩ 2 · 2026-11-25T02:00:00.000Z · Harbour &lt;watch&gt;"}]}],"unfurl_links":false}]',
      '[{"type":"message","attachments":[{"contentType":"application/vnd.microsoft.card.adaptive","contentUrl":null,"content":{"$schema":"http://adaptivecards.io/schemas/adaptive-card.json","type":"AdaptiveCard","version":"1.4","body":[{"type":"TextBlock","text":"1 new post: Harbour <watch>","weight":"Bolder","size":"Medium","wrap":true},{"type":"TextBlock","text":"@harbour","weight":"Bolder","wrap":true,"separator":true},{"type":"TextBlock","text":"Tide at 3 & <b>rising</b> @everyone","wrap":true},{"type":"FactSet","facts":[{"title":"Likes","value":"3"},{"title":"Reposts","value":"1"},{"title":"Replies","value":"2"}]},{"type":"ActionSet","actions":[{"type":"Action.OpenUrl","title":"Open post","url":"https://x.com/harbour/status/3"}]}],"msteams":{"width":"full"}}}]}]',
      '[{"chat_id":"-100123","text":"<b>Harbour &lt;watch&gt;</b>\\n\\n<a href=\\"https://x.com/harbour/status/3\\">@harbour</a>\\nTide at 3 &amp; &lt;b&gt;rising&lt;/b&gt; @everyone\\n<i>♥ 3 · ⟲ 1 · ↩ 2</i>","parse_mode":"HTML","link_preview_options":{"is_disabled":true}}]',
    ]);
  });
});
