/**
 * Schemas built from an object that lives long (the scraper's composed request, the crawl service,
 * a test's plugin list): `oncePer` builds one per such object, not one per request, as building a
 * zod schema costs far more than parsing with it.
 */
export function oncePer<K extends object, V>(build: (key: K) => V): (key: K) => V {
  const built = new WeakMap<K, V>();
  return (key) => {
    if (!built.has(key)) built.set(key, build(key));
    return built.get(key)!;
  };
}
