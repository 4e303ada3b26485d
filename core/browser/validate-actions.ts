/**
 * Request validation of `actions` and `render`, run before anything is fetched: every action must
 * name an installed, enabled action plugin and pass that plugin's schema, and `render: false`
 * must not be combined with fields that need the browser. Messages name the action's index.
 */
import { z } from 'zod';
import { badRequest, TrawlError } from '../errors.ts';
import { browserNeeds, type ScrapeRequest } from '../model/request.ts';
import type { ActionHandler, FieldNamer } from '../plugin.ts';
import type { PluginRegistry } from '../registry.ts';
import { describeZodError } from '../validation.ts';

export function validateBrowserFields(request: ScrapeRequest, registry: PluginRegistry, name: FieldNamer): void {
  if (request.render === false) {
    const needs = browserNeeds({ ...request, render: undefined }).map((need) => (need.field ? name(need.field) : need.what));
    if (needs.length) throw badRequest(`Invalid field ${name('render')}: false conflicts with ${needs.join(', ')}, which need the browser`);
  }
  for (const [index, action] of (request.actions ?? []).entries()) validateAction(action, index, request.actions!, registry, name);
}

function validateAction(
  action: { type: string },
  index: number,
  actions: readonly unknown[],
  registry: PluginRegistry,
  name: FieldNamer,
): void {
  const at = name(`actions[${index}]`);
  const providers = registry.providers(`action:${action.type}`);
  const plugin = providers.find((p) => p.enabled && p.handler);
  if (!plugin) {
    if (providers.length) {
      throw new TrawlError(
        'capability_missing',
        `${at}: action "${action.type}" needs plugin ${providers.map((p) => p.id).join(' or ')}, which is disabled in the configuration`,
      );
    }
    const known = registry.capabilityNames('action');
    throw badRequest(`Invalid field ${at}.type: unknown action "${action.type}". Valid actions: ${known.join(', ')}`);
  }
  const result = (plugin.handler as ActionHandler).schema.safeParse(action);
  if (result.success) return;
  const issue = result.error.issues[0]!;
  const located = new z.ZodError([{ ...issue, path: ['actions', index, ...issue.path] }]);
  throw badRequest(describeZodError(located, { actions }, name));
}
