/**
 * Request validation of `actions` and `render`, run before anything is fetched: every action must
 * name an installed, enabled action plugin and pass that plugin's schema, and `render: false`
 * must not be combined with fields that need the browser. Messages name the action's index.
 */
import { z } from 'zod';
import { badRequest, TrawlError } from '../errors.ts';
import { browserNeeds, type ScrapeRequest } from '../job.ts';
import type { ActionHandler } from '../plugin.ts';
import type { PluginRegistry } from '../registry.ts';
import { describeZodError } from '../validation.ts';

export function validateBrowserFields(options: ScrapeRequest, registry: PluginRegistry): void {
  if (options.render === false) {
    const needs = browserNeeds({ ...options, render: undefined });
    if (needs.length) throw badRequest(`Invalid field render: false conflicts with ${needs.join(', ')}, which need the browser`);
  }
  options.actions?.forEach((action, index) => validateAction(action, index, options.actions!, registry));
}

function validateAction(action: { type: string }, index: number, actions: readonly unknown[], registry: PluginRegistry): void {
  const providers = registry.providers(`action:${action.type}`);
  const plugin = providers.find((p) => p.enabled && p.handler);
  if (!plugin) {
    if (providers.length) {
      throw new TrawlError('capability_missing', `actions[${index}]: action "${action.type}" needs plugin ${providers.map((p) => p.id).join(' or ')}, which is disabled in the configuration`);
    }
    const known = registry.capabilityNames('action');
    throw badRequest(`Invalid field actions[${index}].type: unknown action "${action.type}". Valid actions: ${known.join(', ')}`);
  }
  const result = (plugin.handler as ActionHandler).schema.safeParse(action);
  if (result.success) return;
  const issue = result.error.issues[0]!;
  const located = new z.ZodError([{ ...issue, path: ['actions', index, ...issue.path] }]);
  throw badRequest(describeZodError(located, { actions }));
}
