/**
 * Renders what the enabled plugins contribute to the public interface (their `api` metadata, see
 * core/plugin.ts) for the /v1 OpenAPI document: result and metadata properties, the schemas they
 * refer to, the scrape description's paragraphs, and the `Action` union generated from the enabled
 * action plugins' own schemas. Reads the registry only; no plugin file is imported.
 */
import { z } from 'zod';
import type { PluginRegistry } from '../core/registry.ts';

export interface PluginContributions {
  resultProperties: Record<string, unknown>;
  metadataProperties: Record<string, unknown>;
  schemas: Record<string, unknown>;
  /** The plugins' paragraphs, in plugin order; a text several plugins share appears once. */
  description: string;
}

/** One schema per enabled action plugin, discriminated by `type`. */
function actionSchema(registry: PluginRegistry) {
  const variants = registry.active('action').map((plugin) => {
    const schema = z.toJSONSchema(plugin.handler.schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    delete schema.$schema;
    return { ...schema, title: plugin.handler.type, description: plugin.definition.description };
  });
  return { oneOf: variants, discriminator: { propertyName: 'type' } };
}

export function pluginContributions(registry: PluginRegistry): PluginContributions {
  const out: PluginContributions = { resultProperties: {}, metadataProperties: {}, schemas: { Action: actionSchema(registry) }, description: '' };
  const paragraphs = new Set<string>();
  for (const plugin of registry.all()) {
    const api = plugin.definition.api;
    if (!plugin.enabled || !api) continue;
    Object.assign(out.resultProperties, api.resultProperties);
    Object.assign(out.metadataProperties, api.metadataProperties);
    Object.assign(out.schemas, api.schemas);
    if (api.description) paragraphs.add(api.description);
  }
  out.description = [...paragraphs].join('');
  return out;
}
