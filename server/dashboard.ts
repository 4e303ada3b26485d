/**
 * GET /dashboard: watches as a page instead of JSON. The server renders the page (layout, forms,
 * styles) with no outside resources (Trawl runs offline); a small inline script asks the key once,
 * keeps it in localStorage and drives the /v1/watch API with it: the list with status and last
 * change, create, pause/resume and check buttons, a watch's snapshot timeline, and an inline diff
 * between any two of its snapshots. All page data is inserted as text, never as markup, and a
 * per-response nonce is the only script the Content-Security-Policy allows.
 */

const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d232a;background:#f6f7f9}
header{background:#17324d;color:#fff;padding:.7rem 1.5rem;display:flex;gap:1rem;align-items:center}
header h1{font-size:1.15rem;margin:0;flex:1}main{max-width:1100px;margin:1rem auto;padding:0 1rem}
section{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:1rem 1.2rem;margin-bottom:1rem}
h2{font-size:1.05rem;margin:.1rem 0 .8rem}section h2+p{margin-top:-.5rem}#diff-title{margin-top:1.2rem}table{width:100%;border-collapse:collapse}
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #eef0f2;vertical-align:top;font-size:14px}
input{font:inherit;padding:.3rem .45rem;border:1px solid #bbc2ca;border-radius:5px}
button{font:inherit;padding:.25rem .7rem;border-radius:5px;border:1px solid #17324d;background:#fff;color:#17324d;cursor:pointer}
button.primary{background:#17324d;color:#fff}.muted{color:#68727d;font-size:13px}.err{color:#b42318}
.badge{display:inline-block;padding:0 .45rem;border-radius:9px;font-size:12px;background:#e8ecf0}
.changed{background:#fff1d6;color:#8a5300}.initial{background:#e2efff;color:#1f4f96}.same{background:#e9f6ec;color:#22663a}
.paused{background:#eee;color:#555}.diff{font:13px/1.4 ui-monospace,monospace;white-space:pre-wrap;border:1px solid #eef0f2;border-radius:6px;padding:.5rem}
.diff div{padding:0 .4rem}.add{background:#e6f7ea}.add::before{content:"+ "}.del{background:#fdecec;text-decoration:line-through}.del::before{content:"− "}
.ctx{color:#68727d}.ctx::before{content:"  "}.gap{color:#8c96a0;font-style:italic}form.row{display:flex;gap:.5rem;flex-wrap:wrap;align-items:center}
tr.selected{background:#f1f6fb}a{color:#17518a;cursor:pointer}
`;

/** The page script: plain DOM, no framework; every value goes in through textContent. */
const SCRIPT = `
const KEY = 'trawl.apiKey';
const $ = (id) => document.getElementById(id);
let selected = null;
function el(tag, text, cls) { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }
function when(iso) { return iso ? new Date(iso).toLocaleString() : '—'; }
async function api(method, path, body) {
  const headers = { 'content-type': 'application/json' };
  const key = localStorage.getItem(KEY);
  if (key) headers.authorization = 'Bearer ' + key;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (res.status === 401) { showKeyForm(true); throw new Error(data.error || 'Invalid or missing API key'); }
  if (!res.ok) throw new Error(data.error || ('HTTP ' + res.status));
  return data;
}
function say(message, isError) { const m = $('message'); m.textContent = message; m.className = isError ? 'err' : 'muted'; }
function showKeyForm(show) { $('key-section').hidden = !show; $('app').hidden = show; }
async function loadWatches() {
  const data = await api('GET', '/v1/watch?per_page=100');
  const body = $('watch-rows'); body.replaceChildren();
  $('watch-count').textContent = data.total + ' watch' + (data.total === 1 ? '' : 'es');
  for (const w of data.watches) {
    const tr = el('tr'); tr.dataset.id = w.id; if (w.id === selected) tr.className = 'selected';
    const name = el('td'); const link = el('a', w.name); link.onclick = () => openWatch(w.id); name.append(link, el('div', w.url, 'muted'));
    const state = el('td'); state.append(el('span', w.active ? 'active' : 'paused', 'badge ' + (w.active ? 'same' : 'paused')));
    if (w.last_error) state.append(el('div', w.last_error, 'err'));
    const buttons = el('td');
    const check = el('button', 'Check now'); check.onclick = () => checkWatch(w.id);
    const pause = el('button', w.active ? 'Pause' : 'Resume'); pause.onclick = () => act(() => api('PATCH', '/v1/watch/' + w.id, { active: !w.active }), w.active ? 'Paused' : 'Resumed');
    buttons.append(check, ' ', pause);
    tr.append(name, state, el('td', 'every ' + w.interval_minutes + ' min'), el('td', when(w.last_checked_at)), el('td', when(w.last_changed_at)), buttons);
    body.append(tr);
  }
  $('empty').hidden = data.watches.length > 0;
}
async function act(work, done) { try { await work(); say(done); await loadWatches(); if (selected) await openWatch(selected); } catch (e) { say(e.message, true); } }
async function checkWatch(id) {
  // A check, working or failed, moves last_checked_at (the timeline may be at its retention).
  const before = (await api('GET', '/v1/watch/' + id)).last_checked_at;
  await act(() => api('POST', '/v1/watch/' + id + '/check'), 'Checking…');
  for (let i = 0; i < 40; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const w = await api('GET', '/v1/watch/' + id);
    if (w.last_checked_at !== before) { say(w.last_error ? 'Check failed: ' + w.last_error : 'Checked'); await loadWatches(); if (selected === id) await openWatch(id); return; }
  }
}
async function openWatch(id) {
  selected = id;
  const w = await api('GET', '/v1/watch/' + id);
  $('detail').hidden = false; $('detail-name').textContent = w.name; $('detail-url').textContent = w.url;
  for (const tr of $('watch-rows').children) tr.className = tr.dataset.id === id ? 'selected' : '';
  const rows = $('timeline-rows'); rows.replaceChildren();
  w.snapshots.forEach((s, i) => {
    const tr = el('tr');
    const pick = (name, checked) => { const r = el('input'); r.type = 'radio'; r.name = name; r.value = s.id; r.checked = checked; r.onchange = showDiff; return r; };
    const from = el('td'); from.append(pick('from', i === 1));
    const to = el('td'); to.append(pick('to', i === 0));
    const status = el('td'); status.append(el('span', s.status, 'badge ' + s.status));
    const delta = s.word_count_delta > 0 ? '+' + s.word_count_delta : String(s.word_count_delta);
    tr.append(from, to, el('td', when(s.checked_at)), status, el('td', s.diff_summary || s.title), el('td', s.word_count + ' words (' + delta + ')'));
    rows.append(tr);
  });
  $('timeline-empty').hidden = w.snapshots.length > 0;
  await showDiff();
}
async function showDiff() {
  const box = $('diff'); box.replaceChildren();
  const from = document.querySelector('input[name=from]:checked'), to = document.querySelector('input[name=to]:checked');
  if (!from || !to) { $('diff-summary').textContent = 'Pick two snapshots to compare.'; return; }
  const d = await api('GET', '/v1/watch/' + selected + '/diff?from=' + from.value + '&to=' + to.value);
  $('diff-summary').textContent = d.summary + ' (' + d.links_added + ' links added, ' + d.links_removed + ' removed)';
  for (const part of d.diff.parts) {
    const lines = part.text.split('\\n');
    const cls = part.type === 'added' ? 'add' : part.type === 'removed' ? 'del' : 'ctx';
    const shown = part.type === 'same' && lines.length > 6 ? [...lines.slice(0, 3), null, ...lines.slice(-3)] : lines;
    for (const line of shown) box.append(line === null ? el('div', '… ' + (lines.length - 6) + ' unchanged lines …', 'gap') : el('div', line, cls));
  }
}
$('key-form').onsubmit = async (e) => { e.preventDefault(); localStorage.setItem(KEY, $('key').value.trim()); $('key').value = ''; await start(); };
$('forget').onclick = () => { localStorage.removeItem(KEY); showKeyForm(true); };
$('create-form').onsubmit = (e) => {
  e.preventDefault();
  const body = { url: $('new-url').value.trim() };
  if ($('new-name').value.trim()) body.name = $('new-name').value.trim();
  if ($('new-interval').value) body.interval_minutes = Number($('new-interval').value);
  act(async () => { const w = await api('POST', '/v1/watch', body); $('create-form').reset(); selected = w.id; }, 'Watch created; first check queued');
};
async function start() { try { showKeyForm(false); await loadWatches(); say(''); } catch (e) { say(e.message, true); } }
start();
`;

export function dashboardPage(nonce: string): { html: string; headers: Record<string, string> } {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Trawl watches</title>
<style>${STYLE}</style></head><body>
<header><h1>Trawl · Watches</h1><span id="message" class="muted"></span><button id="forget" type="button">Forget key</button></header>
<main>
<section id="key-section" hidden><h2>API key</h2>
<form id="key-form" class="row"><input id="key" type="password" placeholder="trawl_… (leave empty when the server has none)" size="48" autocomplete="off">
<button class="primary">Use this key</button></form><p class="muted">Kept in this browser only (localStorage).</p></section>
<div id="app">
<section><h2>New watch</h2><form id="create-form" class="row">
<input id="new-url" type="url" placeholder="https://example.com/page" required size="40">
<input id="new-name" placeholder="Name (optional)">
<input id="new-interval" type="number" min="60" max="10080" placeholder="Every N minutes (1440)" style="width:12rem">
<button class="primary">Create</button></form></section>
<section><h2>Watches <span id="watch-count" class="muted"></span></h2>
<table><thead><tr><th>Watch</th><th>Status</th><th>Interval</th><th>Last checked</th><th>Last change</th><th></th></tr></thead>
<tbody id="watch-rows"></tbody></table><p id="empty" class="muted" hidden>No watches yet.</p></section>
<section id="detail" hidden><h2>Timeline of <span id="detail-name"></span></h2><p id="detail-url" class="muted"></p>
<table><thead><tr><th>From</th><th>To</th><th>Checked</th><th>Status</th><th>What changed</th><th>Words</th></tr></thead>
<tbody id="timeline-rows"></tbody></table><p id="timeline-empty" class="muted" hidden>No snapshots yet: the first check is on its way.</p>
<h2 id="diff-title">Diff</h2><p id="diff-summary" class="muted"></p><div id="diff" class="diff"></div></section>
</div></main>
<script nonce="${nonce}">${SCRIPT}</script></body></html>`;
  return {
    html,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      'cache-control': 'no-store',
    },
  };
}
