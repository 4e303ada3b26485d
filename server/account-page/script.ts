/**
 * The account page's script (served inline under the page's nonce): plain DOM, no framework. It
 * signs in with a workspace key kept in localStorage and drives /v1/account, /v1/usage,
 * /v1/results and /v1/keys with it. Every value goes in through textContent; the chart is
 * Chart.js (loaded before this script from the server's own asset path).
 */
export const ACCOUNT_SCRIPT = `
'use strict';
const KEY = 'trawl.apiKey';
const LIMIT = 20;
const DAY = 86400000;
const $ = (id) => document.getElementById(id);
const state = { account: null, usageOffset: 0, resultsOffset: 0, chart: null };
function el(tag, text, cls) { const e = document.createElement(tag); if (text !== undefined && text !== null) e.textContent = String(text); if (cls) e.className = cls; return e; }
function button(text, onclick, cls) { const b = el('button', text, cls); b.type = 'button'; b.onclick = onclick; return b; }
function when(iso) { return iso ? new Date(iso).toLocaleString() : '—'; }
function day(date) { return date.toISOString().slice(0, 10); }
class ApiError extends Error { constructor(status, message) { super(message); this.status = status; } }
async function api(method, path, body) {
  const headers = { authorization: 'Bearer ' + localStorage.getItem(KEY) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (res.status === 401) { signOut(data.error || 'Invalid or missing API key'); throw new ApiError(401, data.error); }
  if (!res.ok) throw new ApiError(res.status, data.error || ('HTTP ' + res.status));
  return data;
}
function say(message, isError) { const m = $('message'); m.textContent = message; m.className = isError ? 'err' : 'muted'; }
function signOut(reason) { $('key-section').hidden = false; $('app').hidden = true; $('key-error').textContent = reason || ''; }
function pager(prefix, offset, total, go) {
  $(prefix + '-range').textContent = total === 0 ? '' : (offset + 1) + '–' + Math.min(offset + LIMIT, total) + ' of ' + total;
  $(prefix + '-newer').disabled = offset === 0; $(prefix + '-newer').onclick = () => go(Math.max(0, offset - LIMIT));
  $(prefix + '-older').disabled = offset + LIMIT >= total; $(prefix + '-older').onclick = () => go(offset + LIMIT);
}
/** A section a member key may not see: the API's refusal, in place of its content. */
function refuse(section, err) { $(section + '-refused').textContent = err.message; $(section + '-refused').hidden = false; $(section + '-body').hidden = true; }
function allow(section) { $(section + '-refused').hidden = true; $(section + '-body').hidden = false; }

async function loadAccount() {
  const a = await api('GET', '/v1/account');
  state.account = a;
  $('ws-name').textContent = a.workspace.name;
  $('ws-id').textContent = a.workspace.id;
  $('ws-role').textContent = a.role;
  $('ws-plan').textContent = a.plan === null ? 'self-hosted' : a.plan + (a.status === 'active' ? '' : ' (' + a.status + ')');
  $('ws-balance').textContent = a.balance === null ? (a.mode === 'cloud' ? 'admin keys only' : '—') : a.balance.toLocaleString() + ' credits';
  $('ws-limit').textContent = a.rate_limit_per_minute === null ? '—' : a.rate_limit_per_minute + ' / min';
  const cloud = a.mode === 'cloud';
  $('usage').hidden = !cloud; $('results').hidden = !cloud; $('cloud-only').hidden = cloud;
}

function usageQuery(offset) {
  const from = $('from').value, to = $('to').value;
  const q = new URLSearchParams({ limit: String(LIMIT), offset: String(offset) });
  if (from) q.set('from', from + 'T00:00:00Z');
  if (to) q.set('to', new Date(Date.parse(to + 'T00:00:00Z') + DAY).toISOString());
  if ($('endpoint').value) q.set('endpoint', $('endpoint').value);
  return q;
}
async function loadUsage(offset = 0) {
  let u;
  try { u = await api('GET', '/v1/usage?' + usageQuery(offset)); } catch (e) { if (e.status === 403) return refuse('usage', e); throw e; }
  allow('usage');
  state.usageOffset = offset;
  const chosen = $('endpoint').value;
  const endpoints = $('endpoint');
  if (!chosen) {
    endpoints.replaceChildren(el('option', 'All endpoints'));
    endpoints.firstChild.value = '';
    for (const e of u.totals.by_endpoint) { const o = el('option', e.endpoint); o.value = e.endpoint; endpoints.append(o); }
  }
  $('usage-total').textContent = u.totals.runs + ' runs, ' + u.totals.credits + ' credits from ' + day(new Date(u.from)) + ' to ' + day(new Date(Date.parse(u.to) - 1));
  drawChart(u);
  const rows = $('usage-rows'); rows.replaceChildren();
  for (const r of u.runs) {
    const tr = el('tr');
    const open = el('td'); open.append(button('Output', () => showOutput('Run ' + r.id, '/v1/results/run/' + encodeURIComponent(r.id))));
    const status = el('td'); status.append(el('span', r.status, 'badge ' + r.status)); if (r.error) status.append(el('div', r.error, 'err'));
    tr.append(el('td', when(r.created_at)), el('td', r.endpoint), el('td', r.url || '—', 'url'), el('td', r.credits), status, el('td', r.duration_ms + ' ms'), open);
    rows.append(tr);
  }
  $('usage-empty').hidden = u.runs.length > 0;
  pager('usage', offset, u.total, loadUsage);
}
function drawChart(u) {
  const days = [];
  for (let t = Date.parse(day(new Date(u.from)) + 'T00:00:00Z'); t < Date.parse(u.to); t += DAY) days.push(day(new Date(t)));
  const metric = $('metric').value;
  const series = new Map();
  for (const row of u.totals.by_day_endpoint) {
    if (!series.has(row.endpoint)) series.set(row.endpoint, new Array(days.length).fill(0));
    const i = days.indexOf(row.day); if (i >= 0) series.get(row.endpoint)[i] = row[metric];
  }
  const palette = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
  const datasets = [...series].map(([endpoint, data], i) => ({ label: endpoint, data, backgroundColor: palette[i % palette.length] }));
  if (state.chart) state.chart.destroy();
  state.chart = new Chart($('chart'), {
    type: 'bar',
    data: { labels: days, datasets },
    options: { animation: false, responsive: true, maintainAspectRatio: false, scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, title: { display: true, text: metric } } } },
  });
  $('chart-empty').hidden = datasets.length > 0;
}

async function loadResults(offset = 0) {
  const r = await api('GET', '/v1/results?limit=' + LIMIT + '&offset=' + offset);
  state.resultsOffset = offset;
  const rows = $('result-rows'); rows.replaceChildren();
  for (const item of r.results) {
    const tr = el('tr'); const open = el('td');
    open.append(button('Open', () => showOutput(item.endpoint + ' ' + (item.url || item.id), '/v1/results/' + encodeURIComponent(item.id))));
    tr.append(el('td', when(item.created_at)), el('td', item.endpoint), el('td', item.url || '—', 'url'), open);
    rows.append(tr);
  }
  $('results-empty').hidden = r.results.length > 0;
  pager('results', offset, r.total, loadResults);
}
/** Bounded: a page holds a few hundred kilobytes of output, not a crawl's megabytes. */
const MAX_SHOWN = 200000;
async function showOutput(title, path) {
  $('output').hidden = false; $('output-title').textContent = title; $('output-body').textContent = 'Loading…';
  try {
    const text = JSON.stringify(await api('GET', path), null, 2);
    $('output-body').textContent = text.length > MAX_SHOWN ? text.slice(0, MAX_SHOWN) + '\\n… (' + (text.length - MAX_SHOWN) + ' more characters: GET ' + path + ')' : text;
  } catch (e) { $('output-body').textContent = e.message; }
  $('output').scrollIntoView({ block: 'nearest' });
}

async function loadKeys() {
  let k;
  try { k = await api('GET', '/v1/keys?limit=100&offset=0'); } catch (e) { if (e.status === 403) return refuse('keys', e); throw e; }
  allow('keys');
  const rows = $('key-rows'); rows.replaceChildren();
  for (const key of k.keys) {
    const tr = el('tr'); tr.dataset.id = key.id;
    const name = el('td'); const input = el('input'); input.value = key.name || ''; input.placeholder = 'unnamed'; input.setAttribute('aria-label', 'Name');
    name.append(input, ' ', button('Rename', () => act(() => api('PATCH', '/v1/keys/' + key.id, { name: input.value.trim() || null }), 'Key renamed')));
    const secret = el('td', key.suffix ? 'trawl_…' + key.suffix : '(configured)', 'mono'); if (key.current) secret.append(' ', el('span', 'this key', 'badge'));
    const actions = el('td'); actions.append(button('Revoke', () => revoke(key), 'danger'));
    tr.append(name, secret, el('td', key.role), el('td', when(key.created_at)), actions);
    rows.append(tr);
  }
  $('key-count').textContent = k.total + ' working key' + (k.total === 1 ? '' : 's');
}
function revoke(key) {
  const label = (key.name || 'unnamed') + ' (trawl_…' + key.suffix + ')';
  if (!confirm('Revoke ' + label + '? Requests with it fail from now on.' + (key.current ? ' It is the key this page uses.' : ''))) return;
  act(() => api('DELETE', '/v1/keys/' + key.id), 'Key ' + label + ' revoked');
}
async function act(work, done) { try { await work(); say(done); await loadKeys(); } catch (e) { say(e.message, true); } }

$('key-form').onsubmit = (e) => {
  e.preventDefault();
  const key = $('key').value.trim(); if (!key) return;
  localStorage.setItem(KEY, key); $('key').value = ''; start();
};
$('forget').onclick = () => { localStorage.removeItem(KEY); signOut(''); };
$('create-form').onsubmit = (e) => {
  e.preventDefault();
  const body = { role: $('new-role').value };
  if ($('new-name').value.trim()) body.name = $('new-name').value.trim();
  act(async () => {
    const made = await api('POST', '/v1/keys', body);
    $('create-form').reset();
    $('new-secret').textContent = made.key; $('secret-box').hidden = false;
  }, 'Key created: copy it now, it is not shown again');
};
$('secret-done').onclick = () => { $('new-secret').textContent = ''; $('secret-box').hidden = true; };
$('usage-form').onsubmit = (e) => { e.preventDefault(); loadUsage(0).catch((err) => say(err.message, true)); };
$('metric').onchange = () => loadUsage(state.usageOffset).catch((err) => say(err.message, true));
$('output-close').onclick = () => { $('output').hidden = true; };

async function start() {
  // No key yet: ask for one, and say nothing before one was typed.
  if (!localStorage.getItem(KEY)) return signOut('');
  $('key-section').hidden = true; $('app').hidden = false;
  try {
    await loadAccount();
    const cloud = state.account.mode === 'cloud';
    await Promise.all([loadKeys(), cloud ? loadUsage(0) : null, cloud ? loadResults(0) : null]);
    say('');
  } catch (e) { if (e.status !== 401) say(e.message, true); }
}
$('to').value = day(new Date()); $('from').value = day(new Date(Date.now() - 29 * DAY));
start();
`;
