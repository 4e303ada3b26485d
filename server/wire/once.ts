/**
 * Wire-format schemas are built from a service the container makes once at boot (the scraper's
 * composed request, the crawl service): `oncePer` builds one per such object, not one per request.
 */
export function oncePer<K extends object, V>(build: (key: K) => V): (key: K) => V {
  const built = new WeakMap<K, V>();
  return (key) => {
    if (!built.has(key)) built.set(key, build(key));
    return built.get(key)!;
  };
}
