/**
 * Chat platforms recognised by their webhook URL, and `social.monitor.matched` in each one's native
 * shape within its documented limits: Discord (embeds: ≤10 per message, description ≤4096, field
 * value ≤1024, footer ≤2048, ≤6000 characters across a message's embeds; mentions disabled), Slack
 * incoming webhooks (blocks: ≤50, section text ≤3000, with a `text` fallback; `&<>` escaped),
 * Microsoft Teams workflows (an Adaptive Card 1.4 attachment; legacy connector URLs are retired and
 * get the generic payload) and Telegram's `sendMessage` (HTML text ≤4096, `chat_id` from the URL).
 * Any other URL is not a chat platform (null): it gets the generic signed payload.
 */
import type { SocialPost } from '../../plugin.ts';

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

interface MonitorLabel {
  name: string;
  kind: string;
  target: string;
}

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const metrics = (p: SocialPost) => `♥ ${p.favoriteCount} · ⟲ ${p.retweetCount} · ↩ ${p.replyCount}`;
const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const htmlEscape = (s: string) => slackEscape(s).replace(/"/g, '&quot;');

function discordEmbed(p: SocialPost, m: MonitorLabel) {
  return {
    author: { name: cut(`@${p.screenName}`, 256), url: `https://x.com/${p.screenName}` },
    description: cut(p.text, 3500),
    url: p.url,
    ...(p.createdAt ? { timestamp: p.createdAt } : {}),
    fields: [
      { name: 'Likes', value: String(p.favoriteCount), inline: true },
      { name: 'Reposts', value: String(p.retweetCount), inline: true },
      { name: 'Replies', value: String(p.replyCount), inline: true },
    ],
    footer: { text: cut(m.name, 2048) },
  };
}

const embedChars = (e: ReturnType<typeof discordEmbed>) => e.author.name.length + e.description.length + e.footer.text.length + e.fields.reduce((n, f) => n + f.name.length + f.value.length, 0);

/** Embeds in messages of at most `perMessage` (≤10) and 6000 characters. */
function discord(posts: SocialPost[], m: MonitorLabel, perMessage: number) {
  const messages: Array<{ embeds: ReturnType<typeof discordEmbed>[]; allowed_mentions: { parse: [] } }> = [];
  let current: ReturnType<typeof discordEmbed>[] = [];
  let chars = 0;
  for (const embed of posts.map((p) => discordEmbed(p, m))) {
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

function slack(posts: SocialPost[], m: MonitorLabel) {
  const blocks = posts.flatMap((p, i) => [
    ...(i ? [{ type: 'divider' }] : []),
    { type: 'section', text: { type: 'mrkdwn', text: cut(`*<${p.url}|@${slackEscape(p.screenName)}>*\n${slackEscape(p.text)}`, 3000) } },
    { type: 'context', elements: [{ type: 'mrkdwn', text: cut(`${metrics(p)} · ${p.createdAt} · ${slackEscape(m.name)}`, 3000) }] },
  ]);
  return { text: cut(`${posts.length} new post${posts.length === 1 ? '' : 's'} for ${m.name}`, 3000), blocks, unfurl_links: false };
}

function teams(posts: SocialPost[], m: MonitorLabel) {
  const body = [
    { type: 'TextBlock', text: cut(`${posts.length} new post${posts.length === 1 ? '' : 's'}: ${m.name}`, 500), weight: 'Bolder', size: 'Medium', wrap: true },
    ...posts.flatMap((p) => [
      { type: 'TextBlock', text: `@${p.screenName}`, weight: 'Bolder', wrap: true, separator: true },
      { type: 'TextBlock', text: cut(p.text, 2000), wrap: true },
      { type: 'FactSet', facts: [{ title: 'Likes', value: String(p.favoriteCount) }, { title: 'Reposts', value: String(p.retweetCount) }, { title: 'Replies', value: String(p.replyCount) }] },
      { type: 'ActionSet', actions: [{ type: 'Action.OpenUrl', title: 'Open post', url: p.url }] },
    ]),
  ];
  const content = { $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: '1.4', body, msteams: { width: 'full' } };
  return { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content }] };
}

function telegram(url: string, posts: SocialPost[], m: MonitorLabel) {
  const chatId = new URL(url).searchParams.get('chat_id')!;
  // Each post gets an equal share of the 4096 characters, markup included.
  const share = Math.floor((4000 - m.name.length) / posts.length) - 120;
  const items = posts.map((p) => `<a href="${htmlEscape(p.url)}">@${htmlEscape(p.screenName)}</a>\n${htmlEscape(cut(p.text, Math.max(20, share)))}\n<i>${metrics(p)}</i>`);
  const text = cut(`<b>${htmlEscape(cut(m.name, 200))}</b>\n\n${items.join('\n\n')}`, 4096);
  return { chat_id: chatId, text, parse_mode: 'HTML', link_preview_options: { is_disabled: true } };
}

/** The message bodies for a chat platform URL, or null for any other URL. */
export function chatMessages(url: string, m: MonitorLabel, posts: SocialPost[], perMessage: number): object[] | null {
  const platform = chatPlatformOf(url);
  if (!platform) return null;
  if (platform === 'discord') return discord(posts, m, perMessage);
  const groups: SocialPost[][] = [];
  for (let i = 0; i < posts.length; i += perMessage) groups.push(posts.slice(i, i + perMessage));
  if (platform === 'slack') return groups.map((g) => slack(g, m));
  if (platform === 'teams') return groups.map((g) => teams(g, m));
  return groups.map((g) => telegram(url, g, m));
}
