/**
 * The dashboard's entry: asks for the key only when the API wants one (a first visit shows the key
 * form quietly), then wires the list, filters, editor, picker, detail, import/export and feed
 * panels. `?watch=<id>&to=<snapshot id>` (the feed's and notifications' links) opens that change.
 */
import { allWatches, api, eachLimited, forgetKey, KeyError, storedKey, storeKey, type Watch } from './api.ts';
import { closeWatch, drawDiff, openedWatch, openWatch } from './detail.ts';
import { $, confirmDialog, input, say } from './dom.ts';
import { addConditionRow, addIncludeSelector, fillForm, readForm } from './editor.ts';
import { createFeed, revokeFeed, showFeed } from './feed.ts';
import { renderList, updateTagChoices, type ListActions } from './list.ts';
import { closePicker, openPicker } from './picker.ts';
import { exportJson, exportUrls, runImport } from './transfer.ts';

let shown: Watch[] = [];
let editing: Watch | null = null;
const knownTags = new Set<string>();

function showKeyForm(refused: string | null): void {
  $('key-section').hidden = false;
  $('app').hidden = true;
  $('forget').hidden = true;
  $('key-error').textContent = refused ?? '';
  $('key-error').hidden = !refused;
  say('');
}

/** Runs a user action; a refused key brings the key form back, any other failure is said in red. */
async function guard(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (e) {
    if (e instanceof KeyError) showKeyForm(storedKey() ? `${e.message}: enter a valid key.` : null);
    else say((e as Error).message, true);
  }
}

async function loadList(): Promise<void> {
  const filters = { search: input('search').value.trim(), tag: $<HTMLSelectElement>('tag-filter').value };
  const { watches, total } = await allWatches(filters);
  shown = watches;
  updateTagChoices(watches, knownTags);
  renderList(watches, total, openedWatch(), actions);
}

async function checkAndWait(w: Watch): Promise<void> {
  // A check, working or failed, moves last_checked_at (the timeline may be at its retention).
  const before = (await api<Watch>('GET', `/v1/watch/${w.id}`)).last_checked_at;
  await api('POST', `/v1/watch/${w.id}/check`);
  say('Checking…');
  for (let i = 0; i < 60; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const now = await api<Watch>('GET', `/v1/watch/${w.id}`);
    if (now.last_checked_at !== before) {
      say(now.last_error ? `Check failed: ${now.last_error}` : 'Checked');
      await loadList();
      if (openedWatch() === w.id) await openWatch(w.id);
      return;
    }
  }
}

const actions: ListActions = {
  open: (w) => void guard(() => openWatch(w.id)),
  edit: (w) => void guard(async () => startEditing(await api<Watch>('GET', `/v1/watch/${w.id}`))),
  check: (w) => void guard(() => checkAndWait(w)),
  pause: (w) =>
    void guard(async () => {
      await api('PATCH', `/v1/watch/${w.id}`, { active: !w.active });
      say(w.active ? 'Paused' : 'Resumed');
      await loadList();
    }),
  remove: (w) =>
    void guard(async () => {
      if (!(await confirmDialog(`Delete “${w.name}” and all its snapshots?`))) return;
      await api('DELETE', `/v1/watch/${w.id}`);
      if (openedWatch() === w.id) closeWatch();
      say(`Deleted ${w.name}`);
      await loadList();
    }),
  filterTag: (tag) => {
    $<HTMLSelectElement>('tag-filter').value = tag;
    void guard(loadList);
  },
};

function startEditing(w: Watch | null): void {
  editing = w;
  closePicker();
  fillForm(w);
  $('editor').hidden = false;
  $('editor').scrollIntoView({ block: 'start' });
  input(w ? 'f-name' : 'f-url').focus();
}

async function save(): Promise<void> {
  const { url, ...patch } = readForm(editing);
  try {
    const w = editing
      ? await api<Watch>('PATCH', `/v1/watch/${editing.id}`, patch)
      : await api<Watch>('POST', '/v1/watch', { url, ...patch });
    say(editing ? 'Saved' : 'Watch created; first check queued');
    $('editor').hidden = true;
    closePicker();
    editing = null;
    await loadList();
    await openWatch(w.id);
  } catch (e) {
    if (e instanceof KeyError) throw e;
    $('form-error').textContent = (e as Error).message;
  }
}

async function recheckAll(): Promise<void> {
  const failed = await eachLimited(shown, 4, (w) => api('POST', `/v1/watch/${w.id}/check`));
  say(`Queued ${shown.length - failed} check${shown.length - failed === 1 ? '' : 's'}${failed ? `; ${failed} refused` : ''}`, failed > 0);
}

async function openFromLink(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const id = params.get('watch');
  if (!id) return;
  await openWatch(id, params.get('to') ?? undefined);
  $('detail').scrollIntoView({ block: 'start' });
}

async function start(): Promise<void> {
  await guard(async () => {
    await loadList();
    $('key-section').hidden = true;
    $('app').hidden = false;
    $('forget').hidden = storedKey() === null;
    await openFromLink();
  });
}

function wire(): void {
  const on = (id: string, work: () => Promise<unknown>) => {
    $(id).onclick = () => void guard(work);
  };
  $('key-form').onsubmit = (e) => {
    e.preventDefault();
    storeKey(input('key').value.trim());
    input('key').value = '';
    void start();
  };
  $('forget').onclick = () => {
    forgetKey();
    showKeyForm(null);
  };
  let typing: ReturnType<typeof setTimeout> | undefined;
  $('search').oninput = () => {
    clearTimeout(typing);
    typing = setTimeout(() => void guard(loadList), 250);
  };
  $('tag-filter').onchange = () => void guard(loadList);
  $('new-watch').onclick = () => startEditing(null);
  $('cancel-edit').onclick = () => {
    $('editor').hidden = true;
    closePicker();
    editing = null;
  };
  $('watch-form').onsubmit = (e) => {
    e.preventDefault();
    void guard(save);
  };
  $('add-condition').onclick = () => addConditionRow();
  on('pick-open', () => openPicker(input('f-url').value.trim(), addIncludeSelector));
  $('pick-close').onclick = () => closePicker();
  on('recheck-all', recheckAll);
  $('detail-close').onclick = () => closeWatch();
  for (const radio of document.querySelectorAll<HTMLInputElement>('input[name=diff-mode]')) radio.onchange = () => drawDiff();
  $('transfer-open').onclick = () => {
    $('transfer').hidden = false;
    $('transfer').scrollIntoView({ block: 'start' });
  };
  $('transfer-close').onclick = () => {
    $('transfer').hidden = true;
  };
  on('export-json', async () => say(`Exported ${await exportJson()} watches`));
  on('export-urls', async () => say(`Exported ${await exportUrls()} URLs`));
  $<HTMLInputElement>('import-file').onchange = async () => {
    const file = $<HTMLInputElement>('import-file').files?.[0];
    if (file) $<HTMLTextAreaElement>('import-text').value = await file.text();
  };
  on('import-run', async () => {
    const created = await runImport($<HTMLTextAreaElement>('import-text').value);
    say(`Imported ${created} watch${created === 1 ? '' : 'es'}`);
    await loadList();
  });
  on('feed-open', showFeed);
  $('feed-close').onclick = () => {
    $('feed').hidden = true;
  };
  on('feed-create', createFeed);
  on('feed-revoke', revokeFeed);
}

wire();
void start();
