/**
 * Chat platforms recognised by their webhook URL, and a notification in each one's native shape
 * within its documented limits: Discord (embeds: ≤10 per message, description ≤4096, field value
 * ≤1024, footer ≤2048, ≤6000 characters across a message's embeds; mentions disabled), Slack
 * incoming webhooks (blocks: ≤50, section text ≤3000, with a `text` fallback; `&<>` escaped),
 * Microsoft Teams workflows (an Adaptive Card 1.4 attachment; legacy connector URLs are retired and
 * get the generic payload) and Telegram's `sendMessage` (HTML text ≤4096, `chat_id` from the URL).
 * Any other URL is not a chat platform (null): it gets the generic signed payload. Social monitors
 * and watches both describe what they announce as a `Notification` (notification.ts) and send it here.
 */
import { cut, type Notification, type NotificationItem } from './notification.ts';

export type ChatPlatform = 'discord' | 'slack' | 'teams' | 'telegram';

const PATTERNS: Array<[ChatPlatform, RegExp]> = [
  ['discord', /^https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api(?:\/v\d+)?\/webhooks\/\d+\/[\w-]+/],
  ['slack', /^https:\/\/hooks\.slack(?:-gov)?\.com\/services\/T\w+\/B\w+\/\w+/],
  ['teams', /^https:\/\/[^/]+\/(?:.*\/)?workflows\/[\w-]+\/triggers\/manual\/paths\/invoke/],
  ['teams', /^https:\/\/[^/]*\.environment\.api\.powerplatform\.com\/powerautomate\/automations\/direct\//],
  ['telegram', /^https:\/\/api\.telegram\.org\/bot\d+:[\w-]+\/sendMessage\?(?:.*&)?chat_id=/],
];

export function chatPlatformOf(url: string): ChatPlatform | null {
  return PATTERNS.find(([, pattern]) => pattern.test(url))?.[0] ?? null;
}

/** The facts on one line: `♥ 3 · ⟲ 1` with symbols, `Reason: …` without. */
const factLine = (item: NotificationItem) => item.facts.map((f) => `${f.symbol ?? `${f.name}:`} ${f.value}`).join(' · ');
const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const htmlEscape = (s: string) => slackEscape(s).replace(/"/g, '&quot;');

function discordEmbed(item: NotificationItem, n: Notification) {
  return {
    author: { name: cut(item.heading, 256), ...(item.headingUrl ? { url: item.headingUrl } : {}) },
    ...(item.title ? { title: cut(item.title, 256) } : {}),
    description: cut(item.text, 3500),
    url: item.link.url,
    ...(item.time ? { timestamp: item.time } : {}),
    fields: item.facts.map((f) => ({ name: cut(f.name, 256), value: cut(f.value, 1024), inline: true })),
    footer: { text: cut(n.source, 2048) },
  };
}

type Embed = ReturnType<typeof discordEmbed>;
const embedChars = (e: Embed) =>
  e.author.name.length +
  (e.title?.length ?? 0) +
  e.description.length +
  e.footer.text.length +
  e.fields.reduce((k, f) => k + f.name.length + f.value.length, 0);

/** Embeds in messages of at most `perMessage` (≤10) and 6000 characters. */
function discord(n: Notification, perMessage: number) {
  const messages: Array<{ embeds: Embed[]; allowed_mentions: { parse: [] } }> = [];
  let current: Embed[] = [];
  let chars = 0;
  for (const embed of n.items.map((item) => discordEmbed(item, n))) {
    if (current.length && (current.length >= Math.min(perMessage, 10) || chars + embedChars(embed) > 6000)) {
      messages.push({ embeds: current, allowed_mentions: { parse: [] } });
      current = [];
      chars = 0;
    }
    current.push(embed);
    chars += embedChars(embed);
  }
  if (current.length) messages.push({ embeds: current, allowed_mentions: { parse: [] } });
  return messages;
}

function slack(n: Notification, items: NotificationItem[]) {
  const blocks = items.flatMap((item, i) => [
    ...(i ? [{ type: 'divider' }] : []),
    {
      type: 'section',
      text: { type: 'mrkdwn', text: cut(`*<${item.link.url}|${slackEscape(item.heading)}>*\n${slackEscape(item.text)}`, 3000) },
    },
    {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: cut(`${slackEscape(factLine(item))} · ${item.time ?? ''} · ${slackEscape(n.source)}`, 3000) }],
    },
  ]);
  return { text: cut(`${n.headline(items.length)} for ${n.source}`, 3000), blocks, unfurl_links: false };
}

function teams(n: Notification, items: NotificationItem[]) {
  const body = [
    { type: 'TextBlock', text: cut(`${n.headline(items.length)}: ${n.source}`, 500), weight: 'Bolder', size: 'Medium', wrap: true },
    ...items.flatMap((item) => [
      { type: 'TextBlock', text: cut(item.heading, 500), weight: 'Bolder', wrap: true, separator: true },
      { type: 'TextBlock', text: cut(item.text, 2000), wrap: true },
      { type: 'FactSet', facts: item.facts.map((f) => ({ title: cut(f.name, 200), value: cut(f.value, 1000) })) },
      { type: 'ActionSet', actions: [{ type: 'Action.OpenUrl', title: item.link.label, url: item.link.url }] },
    ]),
  ];
  const content = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body,
    msteams: { width: 'full' },
  };
  return { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content }] };
}

function telegram(url: string, n: Notification, items: NotificationItem[]) {
  const chatId = new URL(url).searchParams.get('chat_id')!;
  // Each item gets an equal share of the 4096 characters, markup included.
  const share = Math.floor((4000 - n.source.length) / items.length) - 120;
  const parts = items.map(
    (item) =>
      `<a href="${htmlEscape(item.link.url)}">${htmlEscape(cut(item.heading, 200))}</a>\n${htmlEscape(cut(item.text, Math.max(20, share)))}\n<i>${htmlEscape(factLine(item))}</i>`,
  );
  const text = cut(`<b>${htmlEscape(cut(n.source, 200))}</b>\n\n${parts.join('\n\n')}`, 4096);
  return { chat_id: chatId, text, parse_mode: 'HTML', link_preview_options: { is_disabled: true } };
}

/** The message bodies for a chat platform URL (at most `perMessage` items each), or null for any other URL. */
export function chatMessages(url: string, n: Notification, perMessage: number): object[] | null {
  const platform = chatPlatformOf(url);
  if (!platform) return null;
  if (platform === 'discord') return discord(n, perMessage);
  const groups: NotificationItem[][] = [];
  for (let i = 0; i < n.items.length; i += perMessage) groups.push(n.items.slice(i, i + perMessage));
  if (platform === 'slack') return groups.map((g) => slack(n, g));
  if (platform === 'teams') return groups.map((g) => teams(n, g));
  return groups.map((g) => telegram(url, n, g));
}
