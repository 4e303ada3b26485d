/**
 * `social.monitor.matched` for a chat platform: the matched posts as a notification (a post per
 * item: author, text, likes/reposts/replies, a link to the post), rendered by the notify feature's
 * chat platforms (core/features/notify/chat.ts), which also recognise the URL.
 */
import type { SocialPost } from '../../plugin.ts';
import { chatMessages as render, chatPlatformOf } from '../notify/chat.ts';
import type { Notification } from '../notify/notification.ts';

export { chatPlatformOf };

interface MonitorLabel {
  name: string;
  kind: string;
  target: string;
}

export function postsNotification(m: MonitorLabel, posts: SocialPost[]): Notification {
  return {
    source: m.name,
    headline: (count) => `${count} new post${count === 1 ? '' : 's'}`,
    items: posts.map((p) => ({
      heading: `@${p.screenName}`,
      headingUrl: `https://x.com/${p.screenName}`,
      text: p.text,
      facts: [
        { name: 'Likes', value: String(p.favoriteCount), symbol: '♥' },
        { name: 'Reposts', value: String(p.retweetCount), symbol: '⟲' },
        { name: 'Replies', value: String(p.replyCount), symbol: '↩' },
      ],
      link: { url: p.url, label: 'Open post' },
      time: p.createdAt,
    })),
  };
}

/** The message bodies for a chat platform URL, or null for any other URL. */
export function chatMessages(url: string, m: MonitorLabel, posts: SocialPost[], perMessage: number): object[] | null {
  return render(url, postsNotification(m, posts), perMessage);
}
