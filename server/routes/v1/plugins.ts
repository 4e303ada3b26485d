/** GET /v1/plugins: every built-in plugin, whether it is enabled, and its options as JSON Schema. */
import type { Trawl } from '../../../core/container.ts';

export function pluginsRoute(trawl: Trawl) {
  return { plugins: trawl.registry.describe() };
}
