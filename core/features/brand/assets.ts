/**
 * What a brand's page links to and the profile needs: its stylesheets (in page order, cut at the
 * `brand.maxCssBytes` the page's inline CSS left) and its web app manifest (name, colours, icons),
 * fetched through the HTTP client — SSRF guard, timeouts, size caps — in parallel. A stylesheet or
 * manifest that cannot be fetched is a warning: the profile is made from what could be.
 */
import { z } from 'zod';
import { TrawlError } from '../../errors.ts';
import { responseText } from '../../response-text.ts';
import type { BrandLogo } from '../../model/brand.ts';
import type { HttpClient } from '../../services.ts';
import type { BrandSettings } from './config.ts';

const MAX_MANIFEST_BYTES = 256 * 1024;

const manifestSchema = z
  .object({
    name: z.string().max(500).optional(),
    short_name: z.string().max(500).optional(),
    theme_color: z.string().max(100).optional(),
    background_color: z.string().max(100).optional(),
    icons: z
      .array(
        z.object({ src: z.string().max(2048), sizes: z.string().max(200).optional(), purpose: z.string().max(100).optional() }).loose(),
      )
      .max(100)
      .optional(),
  })
  .loose();

export interface Manifest {
  name?: string;
  themeColor?: string;
  backgroundColor?: string;
  icons: BrandLogo[];
}

export interface Assets {
  stylesheets: string[];
  manifest: Manifest | null;
  warnings: string[];
}

function readManifest(text: string, base: string): Manifest | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) return null;
  const m = parsed.data;
  const icons: BrandLogo[] = [];
  for (const icon of m.icons ?? []) {
    let url: string;
    try {
      url = new URL(icon.src, base).href;
    } catch {
      continue;
    }
    // the largest size an icon declares ("48x48 96x96")
    const width = Math.max(0, ...(icon.sizes ?? '').split(/\s+/).map((s) => Number(/^(\d+)x\d+$/i.exec(s)?.[1] ?? 0)));
    if (/^https?:/.test(url)) icons.push({ url, source: 'manifest', ...(width ? { width } : {}) });
  }
  return {
    ...(m.name || m.short_name ? { name: (m.name || m.short_name)!.trim() } : {}),
    ...(m.theme_color ? { themeColor: m.theme_color } : {}),
    ...(m.background_color ? { backgroundColor: m.background_color } : {}),
    icons,
  };
}

export async function fetchAssets(
  http: HttpClient,
  settings: Readonly<BrandSettings>,
  links: { stylesheets: string[]; manifest: string | null },
  inlineBytes: number,
  signal?: AbortSignal,
): Promise<Assets> {
  const warnings: string[] = [];
  const get = async (url: string, maxBodyBytes: number) => {
    try {
      const response = await http.request(url, { maxBodyBytes, truncateBody: true, timeoutMs: settings.assetTimeoutMs, signal });
      if (response.status >= 400) throw new TrawlError('fetch_failed', `HTTP ${response.status}`);
      return responseText(response);
    } catch (err) {
      if (!(err instanceof TrawlError) || signal?.aborted) throw err;
      warnings.push(`${url} could not be read: ${err.message}`);
      return null;
    }
  };
  const budget = Math.max(0, settings.maxCssBytes - inlineBytes);
  const wanted = links.stylesheets.slice(0, settings.maxStylesheets);
  // Each stylesheet may use what is left of the budget; the total is cut in page order below.
  const [sheets, manifestText] = await Promise.all([
    budget > 0 ? Promise.all(wanted.map((url) => get(url, budget))) : Promise.resolve([]),
    links.manifest ? get(links.manifest, MAX_MANIFEST_BYTES) : Promise.resolve(null),
  ]);
  const stylesheets: string[] = [];
  let left = budget;
  for (const sheet of sheets) {
    if (sheet === null || left <= 0) continue;
    stylesheets.push(sheet.slice(0, left));
    left -= Math.min(sheet.length, left);
  }
  if (links.stylesheets.length > wanted.length)
    warnings.push(`The page links ${links.stylesheets.length} stylesheets; the first ${wanted.length} were read (brand.maxStylesheets)`);
  const manifest = manifestText === null || !links.manifest ? null : readManifest(manifestText, links.manifest);
  if (manifestText !== null && !manifest) warnings.push(`${links.manifest} is not a web app manifest`);
  return { stylesheets, manifest, warnings };
}
