/**
 * The create/edit form: every setting of a watch, read into the API's field names (and filled back
 * from a watch). Number conditions are rows; ignore presets are checkboxes, all on for a new watch.
 */
import type { Condition, Watch, WatchSettings } from './api.ts';
import { $, button, el, input, linesOf } from './dom.ts';

const textareas: Array<[string, 'include_selectors' | 'ignore_selectors' | 'ignore_text' | 'trigger_text' | 'block_text' | 'notify']> = [
  ['f-include', 'include_selectors'],
  ['f-ignore-selectors', 'ignore_selectors'],
  ['f-ignore-text', 'ignore_text'],
  ['f-trigger', 'trigger_text'],
  ['f-block', 'block_text'],
  ['f-notify', 'notify'],
];

const presetBoxes = () => [...document.querySelectorAll<HTMLInputElement>('input[name=ignore_patterns]')];

export function addConditionRow(c: Partial<Condition> = {}): void {
  const row = el('div', null, 'condition');
  const field = (name: string, placeholder: string, value: number | string | undefined, type = 'number') => {
    const i = el('input');
    i.name = name;
    i.type = type;
    i.placeholder = placeholder;
    i.setAttribute('aria-label', placeholder);
    if (type === 'number') i.step = 'any';
    if (value !== undefined) i.value = String(value);
    return i;
  };
  row.append(
    field('selector', 'Selector of the number', c.selector, 'text'),
    field('below', 'Below', c.below),
    field('above', 'Above', c.above),
    field('change_percent', 'Change %', c.change_percent),
    button('Remove', () => row.remove()),
  );
  $('conditions').append(row);
}

function readConditions(): Condition[] {
  const out: Condition[] = [];
  for (const row of $('conditions').querySelectorAll('.condition')) {
    const value = (name: string) => (row.querySelector(`input[name=${name}]`) as HTMLInputElement).value.trim();
    const selector = value('selector');
    if (!selector) continue;
    const c: Condition = { selector };
    for (const key of ['below', 'above', 'change_percent'] as const) if (value(key) !== '') c[key] = Number(value(key));
    out.push(c);
  }
  return out;
}

/**
 * The form as API fields. A new watch gets what differs from the defaults; an edit (`base`) also
 * sends the emptied fields the watch has, so clearing a field clears it.
 */
export function readForm(base: Watch | null): WatchSettings {
  const body: WatchSettings = { url: input('f-url').value.trim() };
  const put = <K extends keyof WatchSettings>(field: K, value: WatchSettings[K], isDefault: boolean) => {
    if (!isDefault || (base && base[field] !== undefined)) body[field] = value;
  };
  const name = input('f-name').value.trim();
  if (name) body.name = name;
  const interval = input('f-interval').value;
  if (interval) body.interval_minutes = Number(interval);
  const tags = input('f-tags')
    .value.split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  put('tags', tags, tags.length === 0);
  const conditions = readConditions();
  put('conditions', conditions, conditions.length === 0);
  for (const [id, field] of textareas) {
    const lines = linesOf(id);
    put(field, lines, lines.length === 0);
  }
  const presets = presetBoxes()
    .filter((b) => b.checked)
    .map((b) => b.value);
  put('ignore_patterns', presets, presets.length === presetBoxes().length);
  const changes = $<HTMLSelectElement>('f-changes').value as WatchSettings['changes'];
  put('changes', changes, changes === 'any');
  put('only_new_lines', input('f-only-new').checked, !input('f-only-new').checked);
  put('restock', input('f-restock').checked, !input('f-restock').checked);
  const webhook = input('f-webhook').value.trim();
  put('webhook_url', webhook || null, !webhook);
  return body;
}

/** Fills the form from a watch, or empties it for a new one. */
export function fillForm(w: Watch | null): void {
  ($('watch-form') as HTMLFormElement).reset();
  $('conditions').replaceChildren();
  $('form-error').textContent = '';
  $('editor-title').textContent = w ? `Edit ${w.name}` : 'New watch';
  input('f-url').readOnly = w !== null;
  if (!w) return;
  input('f-url').value = w.url;
  input('f-name').value = w.name;
  input('f-interval').value = String(w.interval_minutes);
  input('f-tags').value = (w.tags ?? []).join(', ');
  for (const [id, field] of textareas) $<HTMLTextAreaElement>(id).value = (w[field] ?? []).join('\n');
  if (w.ignore_patterns) for (const box of presetBoxes()) box.checked = w.ignore_patterns.includes(box.value);
  $<HTMLSelectElement>('f-changes').value = w.changes ?? 'any';
  input('f-only-new').checked = w.only_new_lines ?? false;
  input('f-restock').checked = w.restock ?? false;
  input('f-webhook').value = w.webhook_url ?? '';
  for (const c of w.conditions ?? []) addConditionRow(c);
}

/** A selector picked on the preview joins the "only these parts" list. */
export function addIncludeSelector(selector: string): void {
  const area = $<HTMLTextAreaElement>('f-include');
  const lines = linesOf('f-include');
  if (!lines.includes(selector)) area.value = [...lines, selector].join('\n');
}
