/**
 * The video as a page: a head with the metadata tags the HTML document plugin reads (title,
 * description, channel as author, publish date, thumbnail, language), and a body with the title,
 * a facts list (channel, views, published, duration), the description with its links, and the
 * transcript, one timed line per caption cue, or a note when there is none.
 */
import { element, escapeHtml, heading, note } from '../../../core/kit.ts';
import type { VideoInfo } from './player.ts';
import { clock, type Cue } from './transcript.ts';

export interface Transcript {
  cues: Cue[];
  /** Track name as the player shows it, e.g. "English (auto-generated)". */
  trackName: string | null;
  /** Why there is no transcript, when there is none. */
  missing: string | null;
}

const DESCRIPTION_META_CHARS = 300;

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max - 40))}…`;
}

/** Escaped text with its http(s) URLs made links and its line breaks kept. */
function linkify(text: string): string {
  return escapeHtml(text)
    .replace(/https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]]/g, (url) => `<a href="${url}">${url}</a>`)
    .replace(/\n/g, '<br>');
}

function fact(label: string, valueHtml: string | null): string {
  return valueHtml ? `<li><strong>${label}:</strong> ${valueHtml}</li>` : '';
}

function meta(attribute: 'name' | 'property', key: string, content: string | null | undefined): string {
  return content ? `<meta ${attribute}="${key}" content="${escapeHtml(content)}">` : '';
}

export function renderVideoPage(
  video: VideoInfo,
  transcript: Transcript,
  options: { origin: string; language: string | null; timestamps: boolean },
): string {
  const channelUrl = video.channelUrl ?? (video.channelId ? new URL(`/channel/${video.channelId}`, options.origin).href : null);
  const channel = video.channel
    ? channelUrl
      ? element('a', escapeHtml(video.channel), { href: channelUrl })
      : escapeHtml(video.channel)
    : null;
  const head = [
    `<meta charset="utf-8"><title>${escapeHtml(video.title)}</title>`,
    meta('property', 'og:title', video.title),
    meta('name', 'description', video.description ? shorten(video.description, DESCRIPTION_META_CHARS) : null),
    meta('name', 'author', video.channel),
    meta('property', 'article:published_time', video.publishDate),
    meta('property', 'og:site_name', 'YouTube'),
    meta('property', 'og:image', video.thumbnail),
  ].join('');
  const facts = [
    fact('Channel', channel),
    fact('Views', video.viewCount === null ? null : new Intl.NumberFormat('en-US').format(video.viewCount)),
    fact('Published', video.publishDate ? escapeHtml(video.publishDate.slice(0, 10)) : null),
    fact('Duration', video.lengthSeconds === null ? null : clock(video.lengthSeconds)),
  ].join('');
  const body = [heading(1, video.title), facts ? `<ul>${facts}</ul>` : ''];
  if (video.unplayableReason) body.push(note(`The video cannot be played: ${video.unplayableReason}`));
  body.push(heading(2, 'Description'));
  body.push(
    video.description.trim()
      ? video.description
          .trim()
          .split(/\n{2,}/)
          .map((p) => element('p', linkify(p)))
          .join('')
      : note('No description.'),
  );
  body.push(heading(2, 'Transcript'));
  if (transcript.missing) body.push(note(transcript.missing));
  else {
    if (transcript.trackName) body.push(note(`Captions: ${transcript.trackName}`));
    for (const cue of transcript.cues) {
      body.push(
        options.timestamps ? `<p><strong>${clock(cue.start)}</strong> ${escapeHtml(cue.text)}</p>` : element('p', escapeHtml(cue.text)),
      );
    }
  }
  const lang = options.language ? ` lang="${escapeHtml(options.language)}"` : '';
  return `<!doctype html><html${lang}><head>${head}</head><body>${body.join('\n')}</body></html>`;
}
