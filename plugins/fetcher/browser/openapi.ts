/**
 * The OpenAPI pieces of browser rendering, for server/openapi.ts: each action's request shape
 * (generated from the enabled action plugins' own schemas, so the document cannot drift from the
 * validator), the result fields the browser adds, and the decisions the interface leaves open.
 */
import { z } from 'zod';
import type { PluginRegistry } from '../../../core/registry.ts';

const screenshotEntry = {
  type: 'object',
  required: ['index', 'data'],
  properties: {
    index: { type: 'integer', description: 'Position of the screenshot action in `actions`.' },
    data: { type: 'string', contentEncoding: 'base64', contentMediaType: 'image/png', description: 'PNG, base64.' },
  },
};

const actionError = {
  type: 'object',
  required: ['index', 'type', 'error'],
  properties: {
    index: { type: 'integer', description: 'Position of the failed action in `actions`.' },
    type: { type: 'string' },
    error: { type: 'string', description: 'Why it failed, e.g. `"#more" did not match a visible element within 5000 ms`.' },
  },
};

export const browserResultProperties = {
  screenshot: {
    type: 'string',
    contentEncoding: 'base64',
    contentMediaType: 'image/png',
    description: 'Full-page PNG (base64) of the rendered page after the actions, for `screenshot: true` or the `screenshot` format. Pages taller than `maxScreenshotHeight` (16384 px) are cut there, with a warning.',
  },
  screenshots: { type: 'array', items: { $ref: '#/components/schemas/ActionScreenshot' }, description: 'One entry per `screenshot` action that succeeded; present when the request has screenshot actions.' },
  js_results: {
    type: 'array',
    items: {},
    description: 'The return value of each `executeJavascript` action, in order, as a JSON value (undefined and values JSON cannot hold become null; results over 1,000,000 characters of JSON fail the action). With `ignore_action_errors`, a failed script holds its place as null. Present when the request has executeJavascript actions.',
  },
  action_errors: { type: 'array', items: { $ref: '#/components/schemas/ActionError' }, description: 'With `ignore_action_errors: true`: the actions that failed and were skipped. Absent when none failed.' },
};

export const browserDescription =
  ' Browser rendering (Chromium): a job uses the browser when it has `actions`, `screenshot: true`, the `screenshot` format, `mobile: true` or `render: true`, ' +
  'and automatically when the plain fetch yields an HTML page with nearly no text and an app shell (an empty framework mount point or a "enable JavaScript" notice; ' +
  '`render: false` opts out). `metadata.rendered` is true then, and every format works on the rendered DOM (`rawHtml` is the rendered HTML). ' +
  'Actions run in order, each followed by a short wait for the network to settle; they are validated before anything is fetched ' +
  '(unknown type, missing field, unknown key: 400 naming `actions[i]`). A failing action (selector not visible within the action timeout, a script that throws) ' +
  'is a 422 `Action actions[i] (<type>) failed: <reason>` unless `ignore_action_errors` is true. Every connection the page opens, redirect hops included, passes the SSRF guard; ' +
  'blocked sub-requests are listed in `warnings`. Without Chromium installed, browser requests are a 400 saying how to install it.';

/** One schema per enabled action plugin, discriminated by `type`. */
export function actionSchemas(registry: PluginRegistry): Record<string, unknown> {
  const variants = registry.active('action').map((plugin) => {
    const schema = z.toJSONSchema(plugin.handler.schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    delete schema.$schema;
    return { ...schema, title: plugin.handler.type, description: plugin.definition.description };
  });
  return {
    Action: { oneOf: variants, discriminator: { propertyName: 'type' } },
    ActionScreenshot: screenshotEntry,
    ActionError: actionError,
  };
}
