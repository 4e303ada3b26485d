/**
 * POST /v1/brand behind the route: the page is scraped with the `brand` format — rendered in the
 * browser with the palette script (rendered.ts) when the browser is available, else fetched
 * plainly — its stylesheets and manifest are fetched (assets.ts), and the profile is decided from
 * all of it: name, logo with alternatives, favicon, colours (palette.ts), fonts (fonts.ts), images
 * and social profiles. With a language model configured, `tone` and `personality` are added from
 * the page's text; without one they are absent.
 */
import type { BrandFacts, BrandLogo } from '../../model/brand.ts';
import type { ScrapeOutcome, Scraper } from '../../scrape.ts';
import type { FieldNamer, LlmUsage } from '../../plugin.ts';
import { internalNames } from '../../scrape.ts';
import { TrawlError } from '../../errors.ts';
import type { HttpClient } from '../../services.ts';
import { scrapeFor } from '../../scrape-for.ts';
import { checkedSchema } from '../../llm/schema.ts';
import { describeWithModel } from '../../llm/describe.ts';
import type { LlmService } from '../../llm/service.ts';
import { nameFromTitle } from '../lead/merge.ts';
import type { BrandRequest } from './request.ts';
import { fetchAssets, type Manifest } from './assets.ts';
import type { BrandSettings } from './config.ts';
import type { BrandFont } from './fonts.ts';
import type { ColorRole } from './palette.ts';
import { PALETTE_SCRIPT, readRendered, type Rendered } from './rendered.ts';

export interface Brand {
  url: string;
  name: string | null;
  logo: (BrandLogo & { alternatives: BrandLogo[] }) | null;
  favicon: string | null;
  colors: Record<ColorRole, string | null>;
  /** Where each colour came from: `css-variable`, `computed`, `theme-color`, `manifest`, `stylesheet`. */
  colorSources: Partial<Record<ColorRole, string>>;
  colorScheme: 'light' | 'dark';
  fonts: BrandFont[];
  images: { ogImage: string | null; logo: string | null; favicon: string | null };
  socials: Record<string, string>;
  /** Whether colours and fonts were measured on the rendered page. */
  rendered: boolean;
  tone?: string;
  personality?: string[];
  notFound: string[];
  model?: string;
  provider?: string;
  usage?: LlmUsage;
  warnings: string[];
}

const VOICE_SCHEMA = {
  type: 'object',
  properties: { tone: { type: 'string' }, personality: { type: 'array', items: { type: 'string' } } },
  required: ['tone', 'personality'],
  additionalProperties: false,
};
const SYSTEM_PROMPT = 'You describe how brands speak, from their own web pages, in plain words.';
const INSTRUCTION =
  'From this page of a brand\'s web site, give `tone`: its tone of voice in a few words (e.g. "friendly and plain-spoken"), and `personality`: three to five adjectives for the brand\'s personality.';
const LOGO_SOURCES = ['json-ld', 'header', 'apple-touch-icon', 'manifest'];

/** The structured or marked logo first; among icons, the largest. */
function chooseLogo(candidates: BrandLogo[]): Brand['logo'] {
  const unique = [...new Map(candidates.map((c) => [c.url, c])).values()];
  const ranked = unique.sort((a, b) => {
    const marked = (c: BrandLogo) => (c.source === 'json-ld' || c.source === 'header' ? 0 : 1);
    return marked(a) - marked(b) || (b.width ?? 0) - (a.width ?? 0) || LOGO_SOURCES.indexOf(a.source) - LOGO_SOURCES.indexOf(b.source);
  });
  const [best, ...alternatives] = ranked;
  return best ? { ...best, alternatives } : null;
}

function chooseName(facts: BrandFacts, manifest: Manifest | null): string | null {
  const by = (source: string) => facts.names.find((n) => n.source === source)?.value;
  const title = by('title');
  return by('json-ld') ?? by('og:site_name') ?? by('application-name') ?? manifest?.name ?? (title ? nameFromTitle(title) : null);
}

export class BrandService {
  private schema?: ReturnType<typeof checkedSchema>;
  private style?: Promise<typeof import('./style.ts')>;

  constructor(private readonly deps: { scraper: Scraper; http: HttpClient; llm: LlmService; settings: Readonly<BrandSettings> }) {}

  /** Rendered with the palette script when the browser can be used; else the page as fetched, with a warning saying why. */
  private async read(request: BrandRequest, workspace: string, signal: AbortSignal | undefined, name: FieldNamer, withText: boolean) {
    const formats = withText ? ['brand', 'text'] : ['brand'];
    const base = {
      url: request.url,
      formats,
      onlyMainContent: withText || undefined,
      noCache: request.noCache,
      timeoutMs: request.timeoutMs,
    };
    const warnings: string[] = [];
    if (this.deps.settings.browser) {
      try {
        const outcome = await scrapeFor(
          this.deps.scraper,
          { ...base, actions: [{ type: 'executeJavascript', code: PALETTE_SCRIPT }] },
          workspace,
          signal,
          name,
        );
        const rendered = readRendered(outcome.result.actions?.jsResults?.[0]);
        if (!rendered) warnings.push('The rendered page did not report its colours; they come from its stylesheets');
        return { outcome, rendered, warnings };
      } catch (err) {
        if (!(err instanceof TrawlError) || signal?.aborted) throw err;
        warnings.push(`The page was not rendered in the browser (${err.message}); colours and fonts come from its stylesheets`);
      }
    }
    const outcome: ScrapeOutcome = await scrapeFor(this.deps.scraper, base, workspace, signal, name);
    return { outcome, rendered: null as Rendered | null, warnings };
  }

  async brand(request: BrandRequest, workspace: string, signal?: AbortSignal, name: FieldNamer = internalNames): Promise<Brand> {
    const provider = this.deps.llm.provider();
    const { outcome, rendered, warnings } = await this.read(request, workspace, signal, name, !!provider);
    const { result } = outcome;
    const facts = result.formats.brand as BrandFacts;
    const assets = await fetchAssets(this.deps.http, this.deps.settings, facts, Buffer.byteLength(facts.css), signal);
    const manifest = assets.manifest;
    const { decideStyle } = await (this.style ??= import('./style.ts'));
    const { palette, fonts } = decideStyle(
      [facts.css, ...assets.stylesheets],
      { themes: facts.themes, manifest },
      rendered,
      facts.scheme,
      facts.fonts,
    );
    const logo = chooseLogo([...facts.logos, ...(manifest?.icons ?? [])]);
    // a declared `icon` first: the page metadata's favicon is the largest icon, often the touch icon
    const favicon = facts.icons[0] ?? result.metadata.favicon ?? null;
    const brand: Brand = {
      url: request.url,
      name: chooseName(facts, manifest),
      logo,
      favicon,
      colors: palette.colors,
      colorSources: palette.sources,
      colorScheme: palette.colorScheme,
      fonts,
      images: { ogImage: facts.image, logo: logo?.url ?? null, favicon },
      socials: facts.socials,
      rendered: rendered !== null,
      notFound: [],
      warnings: [...warnings, ...assets.warnings],
    };
    if (provider) {
      this.schema ??= checkedSchema(VOICE_SCHEMA, Infinity, 'brand voice schema');
      const described = await describeWithModel(this.deps.llm, provider, {
        system: SYSTEM_PROMPT,
        instruction: INSTRUCTION,
        texts: [String(result.formats.text ?? '')],
        schema: this.schema,
        schemaName: 'brand_voice',
        signal,
      });
      if ('warning' in described) brand.warnings.push(described.warning);
      else {
        const tone = String(described.data.tone ?? '').trim();
        const personality = (Array.isArray(described.data.personality) ? described.data.personality : [])
          .map((p) => String(p).trim())
          .filter(Boolean)
          .slice(0, 8);
        if (tone) brand.tone = tone;
        if (personality.length) brand.personality = personality;
        Object.assign(brand, {
          model: described.generated.model,
          provider: described.generated.provider,
          usage: described.generated.usage,
        });
      }
    }
    brand.notFound = [
      ...(brand.name ? [] : ['name']),
      ...(brand.logo ? [] : ['logo']),
      ...(brand.favicon ? [] : ['favicon']),
      ...(Object.keys(brand.colors) as ColorRole[]).filter((role) => !brand.colors[role]).map((role) => `colors.${role}`),
      ...(['heading', 'body', 'code'] as const).filter((role) => !brand.fonts.some((f) => f.role === role)).map((role) => `fonts.${role}`),
    ];
    return brand;
  }
}
