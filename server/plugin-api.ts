/**
 * Renders what the enabled plugins contribute to the public interface (their `api` metadata, see
 * core/plugin.ts) for the /v1 OpenAPI document: result and metadata properties, the schemas they
 * refer to, the scrape description's paragraphs, and the `Action` union generated from the enabled
 * action plugins' own schemas. Plugins name properties the internal (camelCase) way; they are
 * renamed to /v1 names here. Reads the registry only; no plugin file is imported.
 */
import { z } from 'zod';
import type { PluginRegistry } from '../core/registry.ts';
import { renameKeys, toV1Name } from './wire/v1/names.ts';
import { v1JsonSchema } from './wire/v1/openapi.ts';

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
  return v1JsonSchema({ oneOf: variants, discriminator: { propertyName: 'type' } });
}

export function pluginContributions(registry: PluginRegistry): PluginContributions {
  const out: PluginContributions = {
    resultProperties: {},
    metadataProperties: {},
    schemas: { Action: actionSchema(registry) },
    description: '',
  };
  const paragraphs = new Set<string>();
  for (const plugin of registry.all()) {
    const api = plugin.definition.api;
    if (!plugin.enabled || !api) continue;
    Object.assign(out.resultProperties, renameKeys(api.resultProperties ?? {}, toV1Name));
    Object.assign(out.metadataProperties, renameKeys(api.metadataProperties ?? {}, toV1Name));
    Object.assign(out.schemas, api.schemas);
    if (api.description) paragraphs.add(api.description);
  }
  out.description = [...paragraphs].join('');
  return out;
}
