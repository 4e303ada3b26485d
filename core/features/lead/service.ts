/**
 * POST /v1/lead behind the route (and each URL of a lead batch): the given page is scraped with
 * the `lead` format, then the likely pages it links to (contact, imprint, about, team; at most
 * `lead.maxPages`) the same way, in parallel; merge.ts makes one lead of them. Without a model
 * the description is the page's own (structured data, meta description, else its most central
 * sentences by TextRank); with one, a one-line `summary` and, when no page states it, the industry.
 */
import { mapBounded } from '../../bounded.ts';
import { TrawlError } from '../../errors.ts';
import type { LeadFacts } from '../../model/organization.ts';
import type { FieldNamer } from '../../plugin.ts';
import { internalNames, type Scraper } from '../../scrape.ts';
import { describeWithModel } from '../../llm/describe.ts';
import { scrapeFor } from '../../scrape-for.ts';
import { checkedSchema } from '../../llm/schema.ts';
import type { LlmService, Provider } from '../../llm/service.ts';
import { extractiveSummary } from '../../llm/summarize/service.ts';
import type { LeadSettings } from './config.ts';
import { mergeLead, missingFields, type Lead, type LeadPage, type ReadPage } from './merge.ts';
import type { LeadRequest } from './request.ts';

const DESCRIPTION_SENTENCES = 2;
const PROFILE_SCHEMA = {
  type: 'object',
  properties: { summary: { type: 'string' }, industry: { type: 'string' } },
  required: ['summary', 'industry'],
  additionalProperties: false,
};
const SYSTEM_PROMPT = 'You describe companies from their own web pages, faithfully and without marketing language.';
const INSTRUCTION =
  "From these pages of a company's web site, write `summary`: one sentence (at most 25 words) saying what the company does, and `industry`: the industry it is in, in one to three words.";

export class LeadService {
  private schema?: ReturnType<typeof checkedSchema>;

  constructor(private readonly deps: { scraper: Scraper; llm: LlmService; settings: Readonly<LeadSettings> }) {}

  async lead(request: LeadRequest, workspace: string, signal?: AbortSignal, name: FieldNamer = internalNames): Promise<Lead> {
    const { settings } = this.deps;
    const read = (url: string, kind: LeadPage['kind']) =>
      scrapeFor(
        this.deps.scraper,
        { url, formats: ['lead', 'text'], onlyMainContent: true, noCache: request.noCache, timeoutMs: request.timeoutMs },
        workspace,
        signal,
        name,
      ).then(({ result }): ReadPage & { text: string } => {
        // A linked page that answers with an error page says nothing about the company.
        const status = result.metadata.statusCode ?? 200;
        if (kind !== 'home' && status >= 400) throw new TrawlError('fetch_failed', `Failed to fetch URL: HTTP ${status}`);
        return {
          page: { url: result.metadata.finalUrl ?? result.url, kind },
          facts: result.formats.lead as LeadFacts,
          metadata: result.metadata,
          text: String(result.formats.text ?? ''),
        };
      });
    const home = await read(request.url, 'home');
    const seen = new Set([home.page.url, request.url]);
    const links = home.facts.pages.filter((p) => !seen.has(p.url)).slice(0, settings.maxPages);
    // Pages that cannot be read are listed with their error, in link order like the others.
    const outcomes = await mapBounded(links, settings.pageConcurrency, async (link) => {
      try {
        return await read(link.url, link.kind);
      } catch (err) {
        if (!(err instanceof TrawlError) || signal?.aborted) throw err;
        const failed: LeadPage = { url: link.url, kind: link.kind, error: err.message };
        return failed;
      }
    });
    const others = outcomes.filter((o) => 'facts' in o);
    const failed = outcomes.filter((o): o is LeadPage => !('facts' in o));

    const lead = mergeLead(
      request.url,
      home,
      others,
      failed,
      () => extractiveSummary(home.text, home.metadata.language, DESCRIPTION_SENTENCES) || null,
    );
    const provider = this.deps.llm.provider();
    if (provider)
      await this.describe(
        provider,
        lead,
        [home, ...others].map((p) => p.text),
        signal,
      );
    return lead;
  }

  /** The model's one-line summary and industry; a failing model leaves the lead as it is, with a warning. */
  private async describe(provider: Provider, lead: Lead, texts: string[], signal?: AbortSignal): Promise<void> {
    this.schema ??= checkedSchema(PROFILE_SCHEMA, Infinity, 'lead profile schema');
    const described = await describeWithModel(this.deps.llm, provider, {
      system: SYSTEM_PROMPT,
      instruction: INSTRUCTION,
      texts,
      schema: this.schema,
      schemaName: 'company_profile',
      signal,
    });
    if ('warning' in described) {
      lead.warnings.push(described.warning);
      return;
    }
    const { generated, data } = described;
    const summary = String(data.summary ?? '')
      .trim()
      .replace(/\s+/g, ' ');
    const industry = String(data.industry ?? '').trim();
    if (summary) lead.summary = summary;
    if (!lead.company.industry && industry) lead.company.industry = industry;
    Object.assign(lead, { model: generated.model, provider: generated.provider, usage: generated.usage });
    lead.notFound = missingFields(lead);
  }
}
