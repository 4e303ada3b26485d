/**
 * Video watch pages (youtube.com/watch, youtu.be, /shorts/, /live/, /embed/, m.youtube.com):
 * fetches the watch page through the core HTTP client (so the SSRF guard and limits apply),
 * reads the player data and one caption track, and hands the pipeline a page built from them:
 * title, channel, views, publish date, duration, description and the full transcript. The hosts
 * it answers for and the origin it fetches from are options, so tests point it at a local server.
 * A youtubei.js client was not used: it talks to the InnerTube API rather than the watch page,
 * bootstraps a session from several endpoints and calls the global fetch, bypassing the guard.
 */
import { z } from 'zod';
import { definePlugin, fetchProxy, responseText, Tokens, TrawlError } from '../../../core/kit.ts';
import type { HttpClient, PageDocument } from '../../../core/kit.ts';
import { assignedObject, pageLanguage, videoInfo, type VideoInfo } from './player.ts';
import { chooseTrack, parseCaptions } from './transcript.ts';
import { renderVideoPage, type Transcript } from './render.ts';
import { videoApi } from './openapi.ts';

const PLUGIN_ID = 'source.video';
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
/** Skips the cookie-consent interstitial served to some regions instead of the watch page. */
const CONSENT_COOKIE = 'SOCS=CAI; CONSENT=YES+cb';

/** The video id of a watch-page URL on one of `hosts`, or null. */
export function videoIdOf(url: string, hosts: ReadonlySet<string>): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (!hosts.has(parsed.host.toLowerCase()) && !hosts.has(parsed.hostname.toLowerCase())) return null;
  const segments = parsed.pathname.split('/').filter(Boolean);
  const candidate =
    parsed.hostname.toLowerCase() === 'youtu.be'
      ? segments[0]
      : segments[0] === 'watch'
        ? parsed.searchParams.get('v')
        : ['shorts', 'live', 'embed', 'v'].includes(segments[0] ?? '')
          ? segments[1]
          : null;
  return candidate && VIDEO_ID.test(candidate) ? candidate : null;
}

/** Caption URLs in the player data are absolute youtube.com URLs; they are fetched from the configured origin. */
function onOrigin(url: string, origin: string): string {
  const parsed = new URL(url, origin);
  return new URL(`${parsed.pathname}${parsed.search}`, origin).href;
}

async function readTranscript(
  http: HttpClient,
  doc: PageDocument,
  video: VideoInfo,
  language: string | null,
  origin: string,
): Promise<Transcript & { language: string | null }> {
  const track = chooseTrack(video.tracks, language);
  if (!track) return { cues: [], trackName: null, missing: 'No captions are available for this video.', language: null };
  const unavailable = (why: string) => {
    doc.warn('fetch', PLUGIN_ID, `The caption track could not be read: ${why}`);
    return { cues: [], trackName: null, missing: 'The captions of this video could not be downloaded.', language: null };
  };
  try {
    const response = await http.request(onOrigin(track.baseUrl, origin), {
      signal: doc.job.signal,
      headers: { cookie: CONSENT_COOKIE },
      proxy: fetchProxy(doc),
    });
    if (response.status >= 400) return unavailable(`HTTP ${response.status}`);
    const cues = parseCaptions(responseText(response));
    if (cues.length === 0) return unavailable('the caption track is empty');
    return { cues, trackName: track.name, missing: null, language: track.languageCode };
  } catch (err) {
    if (doc.job.signal.aborted) throw err;
    return unavailable(err instanceof Error ? err.message : String(err));
  }
}

export const videoSource = definePlugin({
  kind: 'source',
  name: 'video',
  description:
    'Video watch pages (youtube.com, youtu.be, /shorts/, m.youtube.com): title, channel, views, publish date, duration, description and full transcript.',
  dependsOn: ['document.html'],
  api: videoApi,
  options: z.strictObject({
    hosts: z
      .array(z.string().min(1))
      .min(1)
      .default([
        'youtube.com',
        'www.youtube.com',
        'm.youtube.com',
        'music.youtube.com',
        'youtu.be',
        'youtube-nocookie.com',
        'www.youtube-nocookie.com',
      ])
      .describe('Host names (or host:port) whose watch URLs this plugin handles.'),
    origin: z
      .url({ protocol: /^https?$/ })
      .default('https://www.youtube.com')
      .describe('Where watch pages and caption tracks are fetched from.'),
    timestamps: z.boolean().default(true).describe('Start every transcript line with its time (m:ss).'),
  }),
  setup(options, ctx) {
    const http = ctx.resolve(Tokens.Http);
    const hosts = new Set(options.hosts.map((h) => h.toLowerCase()));
    const origin = new URL(options.origin).origin;
    return {
      matches: (job) => videoIdOf(job.url, hosts) !== null,
      async fetch(doc) {
        const id = videoIdOf(doc.job.url, hosts)!;
        const response = await http.request(`${origin}/watch?v=${id}`, {
          signal: doc.job.signal,
          timeoutMs: doc.job.request.timeoutMs,
          headers: { cookie: CONSENT_COOKIE },
          proxy: fetchProxy(doc),
        });
        const html = responseText(response);
        const player = assignedObject(html, 'ytInitialPlayerResponse');
        if (!player) {
          const why =
            response.status >= 400 ? `the server answered HTTP ${response.status}` : 'it has no player data (a consent or error page?)';
          throw new TrawlError('unprocessable', `Could not read the video page: ${why}`);
        }
        const video = videoInfo(player, id);
        if (!video.title)
          throw new TrawlError('unprocessable', `Video unavailable: ${video.unplayableReason ?? 'the page describes no video'}`);
        const transcript = await readTranscript(http, doc, video, pageLanguage(html), origin);
        if (transcript.missing && !video.tracks.length)
          doc.warn('fetch', PLUGIN_ID, 'The video has no captions; the transcript is missing');
        // The document plugin (html) parses this page instead of the body, which stays the page as received.
        const builtHtml = renderVideoPage(video, transcript, { origin, language: transcript.language, timestamps: options.timestamps });
        doc.response = { ...response, builtHtml };
        Object.assign(doc.metadata, {
          statusCode: response.status,
          finalUrl: response.finalUrl,
          contentType: response.headers['content-type'] ?? response.mediaType,
          videoId: video.id,
          channel: video.channel,
          viewCount: video.viewCount,
          durationSeconds: video.lengthSeconds,
          transcriptLanguage: transcript.language,
        });
      },
    };
  },
});
