/**
 * What a feature announces, in no platform's shape: a source (the monitor or watch), a headline for
 * a number of items, and items with a heading, text, facts and a link. chat.ts renders it for each
 * chat platform, email.ts as an e-mail; the features never build a platform's message themselves.
 */

export interface NotificationFact {
  name: string;
  value: string;
  /** Shown instead of `name:` where space is short (Slack's context line, Telegram): `♥`. */
  symbol?: string;
}

export interface NotificationItem {
  /** The item's heading: `@harbour`, a page's title. */
  heading: string;
  /** Where the heading itself points (Discord's author link): a profile, the watched page. */
  headingUrl?: string;
  /** A title above the text, linked to `link` (Discord shows it; elsewhere the heading carries the link). */
  title?: string;
  /** The body: a post's text, a word diff. */
  text: string;
  facts: NotificationFact[];
  /** Where to read more: the post, the dashboard's diff. */
  link: { url: string; label: string };
  /** ISO 8601; Discord's timestamp, Slack's context line. */
  time?: string;
}

export interface Notification {
  /** What the items come from: a monitor's or a watch's name. */
  source: string;
  /** What happened, for a message carrying `count` items: `2 new posts`, `Page changed`. */
  headline: (count: number) => string;
  items: NotificationItem[];
}

/** At most `max` characters, an ellipsis marking a cut. */
export const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
