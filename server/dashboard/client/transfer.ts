/**
 * Import and export of watches: the settings of every watch as JSON (`{"watches": [...]}`, the
 * fields POST /v1/watch takes), or a plain URL list; an import of either creates each watch
 * through the API and lists what happened to each line.
 */
import { allWatches, api, eachLimited, type Watch, type WatchSettings } from './api.ts';
import { $, download, el } from './dom.ts';

const SETTINGS: Array<keyof WatchSettings> = [
  'url',
  'name',
  'interval_minutes',
  'tags',
  'include_selectors',
  'ignore_selectors',
  'ignore_text',
  'ignore_patterns',
  'trigger_text',
  'block_text',
  'only_new_lines',
  'changes',
  'conditions',
  'restock',
  'notify',
  'webhook_url',
];

export function settingsOf(w: Partial<Watch>): WatchSettings {
  const out: Record<string, unknown> = {};
  for (const key of SETTINGS) if (w[key] !== undefined && w[key] !== null) out[key] = w[key];
  return out as unknown as WatchSettings;
}

const stamp = () => new Date().toISOString().slice(0, 10);

export async function exportJson(): Promise<number> {
  const { watches } = await allWatches();
  download(`trawl-watches-${stamp()}.json`, 'application/json', `${JSON.stringify({ watches: watches.map(settingsOf) }, null, 2)}\n`);
  return watches.length;
}

export async function exportUrls(): Promise<number> {
  const { watches } = await allWatches();
  download(`trawl-watches-${stamp()}.txt`, 'text/plain', `${watches.map((w) => w.url).join('\n')}\n`);
  return watches.length;
}

/** What an import text holds: a JSON export (or a bare array of settings), else one URL a line (# starts a comment). */
export function parseImport(text: string): WatchSettings[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    const data = JSON.parse(trimmed) as unknown;
    const list = Array.isArray(data) ? data : (data as { watches?: unknown }).watches;
    if (!Array.isArray(list)) throw new Error('The JSON has no "watches" list');
    return list.map((item, i) => {
      if (typeof item === 'string') return { url: item };
      if (!item || typeof item !== 'object' || typeof (item as { url?: unknown }).url !== 'string')
        throw new Error(`Entry ${i + 1} has no url`);
      return settingsOf(item as Partial<Watch>);
    });
  }
  return trimmed
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((url) => ({ url }));
}

/** Creates each watch (two requests at a time); resolves to how many were created. */
export async function runImport(text: string): Promise<number> {
  const results = $('import-results');
  results.replaceChildren();
  const items = parseImport(text);
  let created = 0;
  await eachLimited(items, 2, async (item) => {
    const li = el('li', `${item.url}: …`);
    results.append(li);
    try {
      await api('POST', '/v1/watch', item);
      created++;
      li.textContent = `${item.url}: created`;
    } catch (e) {
      li.textContent = `${item.url}: ${(e as Error).message}`;
      li.className = 'err';
      throw e;
    }
  });
  return created;
}
