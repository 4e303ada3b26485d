/**
 * Whether a site's `/favicon.ico` exists, asked once per origin. The HTML metadata names a page's
 * favicon: the icon the page declares (kept as the page states it), else `/favicon.ico` of its
 * origin, which is only a guess until asked. The pipeline asks here before answering with that
 * URL: a GET through the SSRF-guarded client (a few KiB of body, a short time-out), answered yes
 * when the site sends an image. Answers are cached per origin (bounded, for `CACHE_TTL_MS`), and a
 * scrape waits at most `budgetMs` for a first answer: past it the favicon is null this time, and
 * the check finishes in the background for the next page of that origin.
 */
import type { HttpClient } from '../services.ts';

/** Origins remembered (oldest forgotten first). */
const CACHE_SIZE = 2000;
const CACHE_TTL_MS = 6 * 3_600_000;
/** The check's own limit: an icon server slower than this is no icon worth naming. */
const CHECK_TIMEOUT_MS = 3000;
/** Enough of the body to recognise an image by its first bytes. */
const SNIFF_BYTES = 4096;

/** The path browsers ask for when a page declares no icon. */
export const GUESSED_FAVICON_PATH = '/favicon.ico';

/** Image signatures: ICO/CUR, PNG, GIF, JPEG, WebP (RIFF), BMP. */
const SIGNATURES: ReadonlyArray<readonly number[]> = [
  [0, 0, 1, 0],
  [0, 0, 2, 0],
  [0x89, 0x50, 0x4e, 0x47],
  [0x47, 0x49, 0x46, 0x38],
  [0xff, 0xd8, 0xff],
  [0x52, 0x49, 0x46, 0x46],
  [0x42, 0x4d],
];

/** An image by its media type or, for servers that label it wrongly, by its first bytes (an HTML "not found" page is neither). */
export function looksLikeImage(mediaType: string, body: Uint8Array): boolean {
  if (mediaType.startsWith('image/')) return true;
  if (body.length === 0 || mediaType === 'text/html') return false;
  if (SIGNATURES.some((signature) => signature.every((byte, i) => body[i] === byte))) return true;
  return /^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/i.test(new TextDecoder().decode(body.subarray(0, 256)));
}

export interface FaviconCheckOptions {
  /** How long a scrape waits for a first answer about an origin; 0: never wait (a guess is null unless already known). */
  budgetMs: number;
}

export class FaviconCheck {
  private readonly known = new Map<string, { answer: Promise<boolean>; expires: number }>();

  constructor(
    private readonly http: HttpClient,
    private readonly options: FaviconCheckOptions,
  ) {}

  /** `url` when it was checked to answer with an image (now, or earlier for its origin), else null. */
  async verified(url: string, proxy?: string): Promise<string | null> {
    const answer = this.answerFor(url, proxy);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.options.budgetMs);
    });
    try {
      return (await Promise.race([answer, late])) ? url : null;
    } finally {
      clearTimeout(timer);
    }
  }

  private answerFor(url: string, proxy: string | undefined): Promise<boolean> {
    const key = proxy === undefined ? new URL(url).origin : `${proxy} ${new URL(url).origin}`;
    const now = Date.now();
    const cached = this.known.get(key);
    if (cached && cached.expires > now) return cached.answer;
    const answer = this.ask(url, proxy);
    this.known.delete(key);
    this.known.set(key, { answer, expires: now + CACHE_TTL_MS });
    if (this.known.size > CACHE_SIZE) this.known.delete(this.known.keys().next().value!);
    return answer;
  }

  private async ask(url: string, proxy: string | undefined): Promise<boolean> {
    try {
      const response = await this.http.request(url, {
        timeoutMs: CHECK_TIMEOUT_MS,
        maxBodyBytes: SNIFF_BYTES,
        truncateBody: true,
        maxRedirects: 3,
        headers: { accept: 'image/*,*/*;q=0.5' },
        ...(proxy ? { proxy } : {}),
      });
      return response.status < 400 && looksLikeImage(response.mediaType, response.body);
    } catch {
      // No answer (refused, timed out, guarded address): no icon to name.
      return false;
    }
  }
}
