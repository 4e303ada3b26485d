/**
 * The watch list: state badge (changed, unchanged, new, error, paused), last change, next check and
 * tags per watch, with the row's actions; and the tag filter's choices, gathered from the watches.
 */
import type { Watch } from './api.ts';
import { $, button, cell, el, when } from './dom.ts';

export interface ListActions {
  open(w: Watch): void;
  edit(w: Watch): void;
  check(w: Watch): void;
  pause(w: Watch): void;
  remove(w: Watch): void;
  filterTag(tag: string): void;
}

/** The badge's word: the API's state when it gives one, else what the row implies. */
export function stateOf(w: Watch): string {
  if (w.state) return w.state;
  if (!w.active) return 'paused';
  if (w.last_error) return 'error';
  return w.last_checked_at ? 'unchanged' : 'new';
}

function tagChips(w: Watch, actions: ListActions): HTMLElement {
  const box = el('div');
  for (const tag of w.tags ?? []) {
    const chip = el('a', tag, 'tag');
    chip.onclick = () => actions.filterTag(tag);
    box.append(chip);
  }
  return box;
}

export function renderList(watches: Watch[], total: number, selected: string | null, actions: ListActions): void {
  const rows = $('watch-rows');
  rows.replaceChildren();
  $('watch-count').textContent = `${total} watch${total === 1 ? '' : 'es'}`;
  for (const w of watches) {
    const tr = el('tr');
    tr.dataset.id = w.id;
    if (w.id === selected) tr.className = 'selected';
    const name = el('a', w.name, 'watch-name');
    name.onclick = () => actions.open(w);
    const state = stateOf(w);
    const stateCell = cell('State', el('span', state, `badge ${state}`));
    if (w.last_error) stateCell.append(el('div', w.last_error, 'err wrap'));
    const undelivered = (w.notify_status ?? []).filter((d) => !d.ok).length;
    if (undelivered) stateCell.append(el('div', `${undelivered} notification target${undelivered === 1 ? '' : 's'} not reached`, 'err'));
    const next = w.active ? when(w.next_check_at) : 'paused';
    tr.append(
      cell('', name, el('div', w.url, 'muted wrap'), tagChips(w, actions)),
      stateCell,
      cell('Last change', when(w.last_changed_at)),
      cell('Next check', next, el('div', `every ${w.interval_minutes} min`, 'muted')),
      cell('', actionsOf(w, actions)),
    );
    rows.append(tr);
  }
  $('empty').hidden = watches.length > 0;
}

function actionsOf(w: Watch, actions: ListActions): HTMLElement {
  const box = el('div', null, 'actions');
  box.append(
    button('Edit', () => actions.edit(w)),
    button('Check now', () => actions.check(w)),
    button(w.active ? 'Pause' : 'Resume', () => actions.pause(w)),
    button('Delete', () => actions.remove(w), 'danger'),
  );
  return box;
}

/** Keeps the tag filter's choices: every tag seen, the chosen one kept selected. */
export function updateTagChoices(watches: Watch[], known: Set<string>): void {
  for (const w of watches) for (const tag of w.tags ?? []) known.add(tag);
  const select = $<HTMLSelectElement>('tag-filter');
  const chosen = select.value;
  const options = [...known]
    .sort((a, b) => a.localeCompare(b))
    .map((tag) => {
      const o = el('option', tag);
      o.value = tag;
      return o;
    });
  const all = el('option', 'All tags');
  all.value = '';
  select.replaceChildren(all, ...options);
  select.value = chosen;
}
