/**
 * What /health shows of the language-model providers: every installed one, configured or not,
 * and for each configured one what it answered when asked (reachable, model there, an in-process
 * runtime's load state). Asking is bounded by `llm.healthTimeoutMs` and the answer reused for
 * `llm.healthCacheSeconds`, so /health stays fast and a provider is not asked on every probe.
 */
import type { LlmHandler, LlmStatus } from './provider.ts';
import type { PluginRegistry } from '../registry.ts';
import type { LlmSettings } from './config.ts';

export interface ProviderHealth extends Partial<Omit<LlmStatus, 'status'>> {
  id: string;
  configured: boolean;
  status: LlmStatus['status'] | 'not configured';
}

export interface LlmHealthReport {
  status: 'configured' | 'not configured';
  /** The provider that answers requests. */
  provider: string | null;
  providers: ProviderHealth[];
}

export class LlmHealth {
  private readonly cached = new Map<string, { at: number; value: Promise<LlmStatus> }>();

  constructor(
    private readonly registry: PluginRegistry,
    private readonly settings: Readonly<LlmSettings>,
  ) {}

  private ask(id: string, handler: LlmHandler): Promise<LlmStatus> {
    const hit = this.cached.get(id);
    if (hit && Date.now() - hit.at < this.settings.healthCacheSeconds * 1000) return hit.value;
    const { healthTimeoutMs } = this.settings;
    const signal = AbortSignal.timeout(healthTimeoutMs);
    // A provider that does not listen to the signal is still not waited for.
    const timedOut = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    const value = Promise.race([handler.status(signal), timedOut]).catch(
      (err): LlmStatus => ({
        status: 'unreachable',
        model: '',
        detail: signal.aborted ? `no answer within ${healthTimeoutMs} ms (llm.healthTimeoutMs)` : String((err as Error)?.message ?? err),
      }),
    );
    this.cached.set(id, { at: Date.now(), value });
    return value;
  }

  async report(provider: string | null): Promise<LlmHealthReport> {
    const installed = this.registry.all().filter((p) => p.definition.kind === 'llm');
    const providers = await Promise.all(
      installed.map(async (p): Promise<ProviderHealth> => {
        if (!p.enabled || !p.handler) return { id: p.id, configured: false, status: 'not configured' };
        const { status, model, ...rest } = await this.ask(p.id, p.handler as LlmHandler);
        return { id: p.id, configured: true, status, ...(model ? { model } : {}), ...rest };
      }),
    );
    return { status: provider ? 'configured' : 'not configured', provider, providers };
  }
}
