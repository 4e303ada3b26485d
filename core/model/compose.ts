/**
 * The scrape request schema of one set of plugins: the core fields plus every field a plugin
 * declares in `api.requestFields`, as one strict camelCase zod object. Wire formats rename it
 * (server/wire/*) and the OpenAPI document is generated from it, so a plugin's field appears in
 * every wire format and in the docs by being declared once. Also answers which plugins provide a
 * field, for the "needs plugin X" check (core/scrape.ts).
 */
import { z } from 'zod';
import { pluginId, type AnyPlugin, type RequestField } from '../plugin.ts';
import { coreRequestFields, type ScrapeRequest } from './request.ts';

export interface FieldProviders {
  /** Ids of the plugins that declare the field, in list order. */
  ids: string[];
  needsPlugin: boolean;
}

export interface ComposedRequest {
  /** Strict object: an unknown field is refused. Output is a `ScrapeRequest`. */
  schema: z.ZodObject;
  /** Plugin-declared fields and who provides them. */
  providers: ReadonlyMap<string, FieldProviders>;
  parse(input: unknown): z.ZodSafeParseResult<ScrapeRequest>;
}

/** A field counts as set when it asks for something: not unset, false or an empty list. */
export function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false && !(Array.isArray(value) && value.length === 0);
}

export function composeRequestSchema(plugins: readonly AnyPlugin[]): ComposedRequest {
  const shape: Record<string, z.ZodType> = { ...coreRequestFields };
  const providers = new Map<string, FieldProviders>();
  for (const plugin of plugins) {
    for (const [name, field] of Object.entries(plugin.api?.requestFields ?? {}) as Array<[string, RequestField]>) {
      if (name in coreRequestFields) throw new Error(`Plugin ${pluginId(plugin)} declares request field "${name}", which is a core field`);
      const known = providers.get(name);
      if (known) known.ids.push(pluginId(plugin));
      else {
        shape[name] = field.schema;
        providers.set(name, { ids: [pluginId(plugin)], needsPlugin: field.needsPlugin ?? true });
      }
    }
  }
  const schema = z.strictObject(shape);
  return {
    schema,
    providers,
    parse: (input) => schema.safeParse(input) as unknown as z.ZodSafeParseResult<ScrapeRequest>,
  };
}
