/**
 * The JSON Schema shapes the watch and diff routes answer with, for their OpenAPI parts
 * (watch.docs.ts, diff.docs.ts): the Watch and Snapshot records, a diff body and its counts.
 */
import { dateTime } from '../../openapi-shapes.ts';

export const diffBodySchema = {
  type: 'object',
  required: ['unified', 'added', 'removed'],
  properties: {
    unified: {
      type: 'string',
      description: 'Unified diff (`--- previous`, `+++ current`, 3 lines of context) of ' + "the page's own text; empty when unchanged.",
    },
    added: { type: 'array', items: { type: 'string' }, description: 'Lines only in the current version (at most 500).' },
    removed: { type: 'array', items: { type: 'string' }, description: 'Lines only in the previous version (at most 500).' },
  },
};

export const normalisedDescription =
  'Whether a page changed is decided on a normalised form: main content as markdown; whitespace collapsed; ' +
  'tracking, cache-busting and session/CSRF parameters removed from links and the rest sorted; and the ' +
  "volatile-text presets (a watch's `ignore_patterns`, all on for /v1/diff): long random tokens, relative ages " +
  '("5 minutes ago"), view/like/comment counters, and clocks — a time of day or timestamp counts as unchanged only ' +
  'when both versions show the time they were fetched (within 5 minutes, in one time zone); every other time and ' +
  "date counts. What is shown (added, removed, unified) is the page's own text.";

export const diffCounts = {
  summary: { type: 'string', description: 'A short plain sentence, e.g. `1 line added and 1 removed. Now reads: “…”`' },
  word_count_delta: { type: 'integer', description: 'Words now minus words before.' },
  links_added: { type: 'integer' },
  links_removed: { type: 'integer' },
};

export const watchSchema = {
  type: 'object',
  required: ['id', 'url', 'name', 'interval_minutes', 'webhook_url', 'active', 'last_checked_at', 'last_changed_at', 'created_at'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    url: { type: 'string' },
    name: { type: 'string' },
    interval_minutes: { type: 'integer' },
    webhook_url: { type: ['string', 'null'] },
    active: { type: 'boolean', description: 'Whether scheduled checks run. A failing page never pauses a watch.' },
    state: {
      type: 'string',
      enum: ['new', 'changed', 'unchanged', 'error', 'paused'],
      description:
        '`paused` (not active), `error` (the last check failed), else the last snapshot: `new` (none ' +
        'yet, or the first), `changed` (it notified), `unchanged`.',
    },
    last_checked_at: dateTime(
      'Last check that ran, successful or not (a check skipped for lack of credits did not ' + 'run: it sets only `last_error`).',
      true,
    ),
    last_changed_at: dateTime('Last check whose text changed (whether or not it notified).', true),
    next_check_at: dateTime('The next scheduled check; null while paused.', true),
    last_error: { type: ['string', 'null'], description: 'Why the last check failed (after its retries); ' + 'null once a check works.' },
    include_selectors: { type: 'array', items: { type: 'string' } },
    ignore_selectors: { type: 'array', items: { type: 'string' } },
    ignore_text: { type: 'array', items: { type: 'string' } },
    ignore_patterns: { type: 'array', items: { type: 'string', enum: ['clock', 'relative_time', 'counters', 'tokens'] } },
    trigger_text: { type: 'array', items: { type: 'string' } },
    block_text: { type: 'array', items: { type: 'string' } },
    only_new_lines: { type: 'boolean' },
    changes: { type: 'string', enum: ['any', 'added', 'removed'] },
    conditions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['selector'],
        properties: {
          selector: { type: 'string' },
          below: { type: 'number' },
          above: { type: 'number' },
          change_percent: { type: 'number' },
        },
      },
    },
    restock: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
    notify: {
      type: 'array',
      items: { type: 'string' },
      description:
        'Targets told of each notifying check beside `webhook_url`: a Slack, Discord, Teams or Telegram ' +
        "webhook URL gets that platform's message, `mailto:address` an e-mail, any other https URL the signed " +
        '`WatchNotifyEvent`.',
    },
    notify_status: {
      type: 'array',
      description:
        'The last delivery attempt per target (`notify` entries and `webhook_url`) that has been ' +
        'notified; a target not yet notified is absent. Failed attempts are retried with backoff on the ' +
        '`[webhooks]` schedule, so `retrying` turns into `delivered` or, after the last attempt, `failed`.',
      items: {
        type: 'object',
        required: ['target', 'ok', 'outcome', 'error', 'attempt', 'at'],
        properties: {
          target: { type: 'string' },
          ok: { type: 'boolean', description: 'The last attempt delivered.' },
          outcome: { type: 'string', enum: ['delivered', 'retrying', 'failed'] },
          error: {
            type: ['string', 'null'],
            description: 'Why the last attempt failed: `receiver answered HTTP ' + '503`, `mail server: … 550 …`, a refused address, …',
          },
          attempt: { type: 'integer', description: '1 for the first try.' },
          at: dateTime('When the attempt ended.'),
        },
      },
    },
    created_at: dateTime('Creation time.'),
  },
};

export const snapshotSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    content_hash: { type: 'string', description: 'sha256 of the normalised content.' },
    word_count: { type: 'integer' },
    status: {
      type: 'string',
      enum: ['initial', 'same', 'changed'],
      description: 'Whether the text changed (under ' + "the watch's masking and ignore rules).",
    },
    notified: {
      type: 'boolean',
      description: "Whether this check notified (`watch.changed`): the filters' " + "and conditions' decision.",
    },
    reason: {
      type: ['string', 'null'],
      description:
        'Why it notified or stayed quiet: `changed`, `trigger_text "…" appeared`, `price 18.5 below ' +
        '20`, `back in stock`, `block_text "…" present`, `only removed lines`, …; null when nothing changed and no ' +
        'condition was met.',
    },
    excerpt: {
      type: ['string', 'null'],
      description: "A short word-level diff of the page's own text (`09:12 → " + '09:47`); null when nothing changed.',
    },
    title: { type: 'string', description: 'Page title at check time.' },
    diff_summary: { type: ['string', 'null'], description: 'What changed (status `changed`), else null.' },
    word_count_delta: { type: 'integer', description: 'Versus the previous snapshot; 0 for `initial`.' },
    links_added: { type: 'integer' },
    links_removed: { type: 'integer' },
    checked_at: dateTime('When the check ran.'),
  },
};
