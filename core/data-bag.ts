/**
 * The typed data bag on PageDocument: values plugins hand to each other (or to a later call of
 * themselves) during one pipeline run. A key is made once with `dataKey<T>(name)` and carries its
 * value type, so `doc.data.get(KEY)` is `T | undefined` with no cast at the call site. Keys are
 * compared by identity, not by name: a value is readable only through the key that stored it, so a
 * key two plugins share is declared in core (below), and a key one plugin uses stays in its folder.
 */

declare const valueType: unique symbol;

export interface DataKey<T> {
  /** For logs and debugging; two keys with one name are still two keys. */
  readonly name: string;
  /** Type only (never set): ties the key to its value type, invariantly. */
  readonly [valueType]?: (value: T) => T;
}

export function dataKey<T>(name: string): DataKey<T> {
  return Object.freeze({ name }) as DataKey<T>;
}

export class DataBag {
  private readonly values = new Map<object, unknown>();

  get<T>(key: DataKey<T>): T | undefined {
    // (the one cast: set() below only ever stores a T under a DataKey<T>)
    return this.values.get(key) as T | undefined;
  }

  set<T>(key: DataKey<T>, value: T): void {
    this.values.set(key, value);
  }

  has<T>(key: DataKey<T>): boolean {
    return this.values.has(key);
  }

  /** The values of `keys` by key name, to send to another thread (values must be structured-cloneable). */
  entries(keys: readonly DataKey<unknown>[]): Array<[string, unknown]> {
    return keys.filter((key) => this.values.has(key)).map((key) => [key.name, this.values.get(key)]);
  }

  /** Takes back what `entries` sent, matching names to `keys`; unknown names are dropped. */
  restore(keys: readonly DataKey<unknown>[], entries: ReadonlyArray<[string, unknown]>): void {
    for (const [name, value] of entries) {
      const key = keys.find((k) => k.name === name);
      if (key) this.values.set(key, value);
    }
  }
}

/** Id of the fetcher (or source) plugin that produced the response; set by the pipeline. */
export const FETCHER_ID = dataKey<string>('pipeline.fetcher');

/**
 * The proxy choice of this fetch attempt when the pipeline overrides the request's (`proxy: "auto"`
 * escalating to a pool); fetchers use `fetchProxy(doc)` (core/fetch-attempts.ts).
 */
export const FETCH_PROXY = dataKey<string>('pipeline.proxy');

/** The browser fetcher's full-page screenshot of the rendered page (base64 PNG), read by the screenshot format. */
export const SCREENSHOT = dataKey<string>('browser.screenshot');

/**
 * The page's markup as the HTML document plugin read it: the response text, cut at the plugin's
 * element limit when the page is over it. Formats that parse the page as served again (attributes)
 * parse this, so the limit holds for them too.
 */
export const SERVED_HTML = dataKey<string>('document.html.served');

/**
 * The schema.org types the page declares, without their vocabulary prefix: one entry per JSON-LD
 * node (top level, `@graph`, `mainEntity`) and per microdata item (so twenty product cards are twenty
 * `Product`s). The HTML document plugin reads them before any transform drops the scripts; main
 * content tells the page's type from them.
 */
export const SCHEMA_TYPES = dataKey<readonly string[]>('document.schema-types');

/** Id of the stored result (the results sink's row), so the scrape can name it (usage log, results endpoints). */
export const RESULT_ID = dataKey<string>('sink.results.id');

/**
 * The keys whose values cross between the server thread and a content worker (plain data only);
 * a key one plugin keeps for itself stays on the thread that set it.
 */
export const SHARED_KEYS: readonly DataKey<unknown>[] = [FETCHER_ID, SCREENSHOT] as DataKey<unknown>[];
