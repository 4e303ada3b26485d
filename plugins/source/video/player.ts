/**
 * Reads a video watch page the way the player does: the `ytInitialPlayerResponse` object
 * assigned in an inline script (video details, microformat, caption tracks), and the page
 * language. The object is cut out by brace matching that respects JSON strings, so a description
 * containing "};" cannot end it early.
 */

export interface CaptionTrack {
  baseUrl: string;
  languageCode: string;
  name: string;
  /** `asr` for automatic (speech-recognised) captions. */
  kind?: string;
}

export interface VideoInfo {
  id: string;
  title: string;
  channel: string | null;
  channelId: string | null;
  channelUrl: string | null;
  viewCount: number | null;
  lengthSeconds: number | null;
  publishDate: string | null;
  description: string;
  thumbnail: string | null;
  tracks: CaptionTrack[];
  /** Why the video cannot play (private, removed, region-locked …), when it cannot. */
  unplayableReason: string | null;
}

/** Longest inline object worth scanning for (real player responses are ~0.5 MB). */
const MAX_OBJECT_CHARS = 8 * 1024 * 1024;

/** The JSON object assigned to `name` in the page's scripts (`var name = {…};`), or null. */
export function assignedObject(html: string, name: string): Record<string, unknown> | null {
  const match = new RegExp(`\\b${name}\\s*=\\s*\\{`).exec(html);
  if (!match) return null;
  const start = match.index + match[0].length - 1;
  let depth = 0;
  let inString = false;
  const stop = Math.min(html.length, start + MAX_OBJECT_CHARS);
  for (let i = start; i < stop; i++) {
    const c = html[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      try {
        return JSON.parse(html.slice(start, i + 1)) as Record<string, unknown>;
      } catch {
        return null;
      }
    }
  }
  return null;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);
const num = (v: unknown): number | null => {
  const n = typeof v === 'string' || typeof v === 'number' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};
/** YouTube text objects are `{simpleText}` or `{runs: [{text}]}`. */
const textOf = (v: unknown): string | null =>
  str(obj(v).simpleText) ?? (Array.isArray(obj(v).runs) ? str((obj(v).runs as Json[]).map((r) => r.text ?? '').join('')) : null);

export function videoInfo(player: Json, fallbackId: string): VideoInfo {
  const details = obj(player.videoDetails);
  const micro = obj(obj(player.microformat).playerMicroformatRenderer);
  const playability = obj(player.playabilityStatus);
  const thumbnails = [obj(details.thumbnail).thumbnails, obj(micro.thumbnail).thumbnails].flatMap((t) =>
    Array.isArray(t) ? (t as Json[]) : [],
  );
  const widest = thumbnails.sort((a, b) => (num(b.width) ?? 0) - (num(a.width) ?? 0))[0];
  const captionTracks = obj(obj(player.captions).playerCaptionsTracklistRenderer).captionTracks;
  const tracks = (Array.isArray(captionTracks) ? (captionTracks as Json[]) : [])
    .filter((t) => str(t.baseUrl) && str(t.languageCode))
    .map((t) => ({
      baseUrl: t.baseUrl as string,
      languageCode: t.languageCode as string,
      name: textOf(t.name) ?? (t.languageCode as string),
      kind: str(t.kind) ?? undefined,
    }));
  const status = str(playability.status);
  return {
    id: str(details.videoId) ?? fallbackId,
    title: str(details.title) ?? textOf(micro.title) ?? '',
    channel: str(details.author) ?? str(micro.ownerChannelName),
    channelId: str(details.channelId) ?? str(micro.externalChannelId),
    channelUrl: str(micro.ownerProfileUrl),
    viewCount: num(details.viewCount) ?? num(micro.viewCount),
    lengthSeconds: num(details.lengthSeconds) ?? num(micro.lengthSeconds),
    publishDate: str(micro.publishDate) ?? str(micro.uploadDate),
    description: str(details.shortDescription) ?? textOf(micro.description) ?? '',
    thumbnail: str(widest?.url),
    tracks,
    unplayableReason: status && status !== 'OK' ? (str(playability.reason) ?? status) : null,
  };
}

/** The page's language: `<html lang>`, else the interface language in the player config. */
export function pageLanguage(html: string): string | null {
  const lang = /<html\b[^>]*\blang="([^"]+)"/i.exec(html.slice(0, 4096))?.[1] ?? /"HL"\s*:\s*"([^"]+)"/.exec(html)?.[1];
  return lang ? lang.toLowerCase() : null;
}
