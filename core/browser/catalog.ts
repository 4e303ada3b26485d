/**
 * The action catalog (core/plugin.ts `ActionCatalog`): enabled `action` plugins by the `type`
 * value requests use. Read live from the registry, so it also sees plugins set up after the
 * fetcher that resolves it.
 */
import type { ActionHandler, ActionCatalog } from '../plugin.ts';
import type { PluginRegistry } from '../registry.ts';

export function createActionCatalog(registry: PluginRegistry): ActionCatalog {
  const handlers = (): ActionHandler[] => registry.active('action').map((p) => p.handler);
  return {
    find: (type) => handlers().find((h) => h.type === type),
    types: () => handlers().map((h) => h.type),
  };
}
