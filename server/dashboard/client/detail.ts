/**
 * A watch's detail: its snapshot timeline (changed or not, notified or quiet and why), the diff
 * between two chosen snapshots (side by side or inline), a snapshot's own text, and how its last
 * notifications were delivered.
 */
import { api, type DiffLine, type Snapshot, type Watch } from './api.ts';
import { renderInline, renderPreview, renderSideBySide } from './diffview.ts';
import { $, button, cell, el, when } from './dom.ts';

interface DiffAnswer {
  summary: string;
  diff: { lines: DiffLine[] };
}

let current: string | null = null;
let lastLines: DiffLine[] = [];

export const openedWatch = () => current;

const mode = () => (document.querySelector('input[name=diff-mode]:checked') as HTMLInputElement | null)?.value ?? 'side';

export function drawDiff(): void {
  (mode() === 'inline' ? renderInline : renderSideBySide)($('diff'), lastLines);
}

function outcome(s: Snapshot): HTMLElement {
  const box = el('div');
  box.append(el('span', s.status, `badge ${s.status}`), ' ');
  if (s.notified !== undefined) box.append(el('span', s.notified ? 'notified' : 'quiet', `badge ${s.notified ? 'notified' : 'quiet'}`));
  return box;
}

/** Each notify target's last outcome, failures first. */
function deliveries(w: Watch): HTMLElement[] {
  const statuses = [...(w.notify_status ?? [])].sort((a, b) => Number(a.ok) - Number(b.ok));
  return statuses.map((d) =>
    el(
      'div',
      `${d.target}: ${d.outcome} (try ${d.attempt}, ${when(d.at)})${d.error ? ` — ${d.error}` : ''}`,
      d.ok ? 'muted wrap' : 'err wrap',
    ),
  );
}

export async function openWatch(id: string, snapshot?: string): Promise<void> {
  current = id;
  const w = await api<Watch & { snapshots: Snapshot[] }>('GET', `/v1/watch/${encodeURIComponent(id)}`);
  $('detail').hidden = false;
  $('detail-name').textContent = w.name;
  $('detail-url').textContent = w.url;
  $('detail-delivery').replaceChildren(...deliveries(w));
  for (const tr of $('watch-rows').children) (tr as HTMLElement).classList.toggle('selected', (tr as HTMLElement).dataset.id === id);
  const rows = $('timeline-rows');
  rows.replaceChildren();
  const toIndex = Math.max(
    0,
    w.snapshots.findIndex((s) => s.id === snapshot),
  );
  w.snapshots.forEach((s, i) => {
    const pick = (name: string, checked: boolean) => {
      const r = el('input');
      r.type = 'radio';
      r.name = name;
      r.value = s.id;
      r.checked = checked;
      r.onchange = () => void showDiff();
      r.setAttribute('aria-label', `${name} ${when(s.checked_at)}`);
      return r;
    };
    const tr = el('tr');
    tr.append(
      Object.assign(cell('From', pick('from', i === toIndex + 1)), { className: 'pick' }),
      Object.assign(cell('To', pick('to', i === toIndex)), { className: 'pick' }),
      cell('Checked', when(s.checked_at)),
      cell('Result', outcome(s)),
      Object.assign(cell('Why', el('span', s.reason ?? '', 'wrap')), { className: 'why' }),
      cell(
        'What changed',
        el('span', s.excerpt || s.diff_summary || (s.status === 'initial' ? `First snapshot: ${s.title}` : 'No change'), 'wrap'),
      ),
      cell(
        '',
        button('View', () => void preview(s)),
      ),
    );
    rows.append(tr);
  });
  $('timeline-empty').hidden = w.snapshots.length > 0;
  $('preview-box').hidden = true;
  await showDiff();
}

export async function showDiff(): Promise<void> {
  const from = document.querySelector<HTMLInputElement>('input[name=from]:checked');
  const to = document.querySelector<HTMLInputElement>('input[name=to]:checked');
  lastLines = [];
  if (!current || !from || !to) {
    $('diff-summary').textContent = 'Pick two snapshots to compare.';
    drawDiff();
    return;
  }
  const d = await api<DiffAnswer>('GET', `/v1/watch/${encodeURIComponent(current)}/diff?from=${from.value}&to=${to.value}`);
  $('diff-summary').textContent = d.summary;
  lastLines = d.diff.lines;
  drawDiff();
}

async function preview(s: Snapshot): Promise<void> {
  const d = await api<DiffAnswer>('GET', `/v1/watch/${encodeURIComponent(current!)}/diff?from=${s.id}&to=${s.id}`);
  $('preview-when').textContent = when(s.checked_at);
  renderPreview($('preview'), d.diff.lines);
  $('preview-box').hidden = false;
  $('preview-box').scrollIntoView({ block: 'nearest' });
}

export function closeWatch(): void {
  current = null;
  $('detail').hidden = true;
  for (const tr of $('watch-rows').children) (tr as HTMLElement).classList.remove('selected');
}
