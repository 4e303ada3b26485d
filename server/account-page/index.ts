/**
 * GET /account: a workspace runs its account in the browser — its balance and plan, usage per
 * endpoint per day as a chart and the usage log with filters, the results history with each run's
 * output, and its API keys (list, create shown once, rename, revoke). The page holds no data: its
 * script (script.ts) signs in with a workspace key and calls the API, which enforces the key's
 * role (a member key sees the refusal where key management and billing would be). Self-hosted,
 * the page shows the default workspace's keys; usage and results are kept in cloud mode only.
 * No outside resources: Chart.js comes from this server's asset path (server/docs.ts), and a
 * per-response nonce is the only script source the Content-Security-Policy allows.
 */
import { asset } from '../docs.ts';
import { noncePageHeaders } from '../page-headers.ts';
import { ACCOUNT_SCRIPT } from './script.ts';

const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d232a;background:#f6f7f9}
header{background:#17324d;color:#fff;padding:.7rem 1.5rem;display:flex;gap:1rem;align-items:center}
header h1{font-size:1.15rem;margin:0}header a{color:#fff}#message{flex:1}main{max-width:1100px;margin:1rem auto;padding:0 1rem}
section{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:1rem 1.2rem;margin-bottom:1rem}
h2{font-size:1.05rem;margin:.1rem 0 .8rem}table{width:100%;border-collapse:collapse}
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #eef0f2;vertical-align:top;font-size:14px}
input,select{font:inherit;padding:.3rem .45rem;border:1px solid #bbc2ca;border-radius:5px}
button{font:inherit;padding:.25rem .7rem;border-radius:5px;border:1px solid #17324d;background:#fff;color:#17324d;cursor:pointer}
button.primary{background:#17324d;color:#fff}button.danger{border-color:#b42318;color:#b42318}button:disabled{opacity:.4;cursor:default}
.muted{color:#68727d;font-size:13px}.err{color:#b42318}.mono,pre{font:13px/1.4 ui-monospace,monospace}
.badge{display:inline-block;padding:0 .45rem;border-radius:9px;font-size:12px;background:#e8ecf0}.succeeded{background:#e9f6ec;color:#22663a}
.failed{background:#fdecec;color:#b42318}.running{background:#e2efff;color:#1f4f96}form.row,.row{display:flex;gap:.5rem;flex-wrap:wrap;align-items:center}
.facts{display:grid;grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));gap:.8rem}.facts div{font-size:1.1rem}.facts b{font-weight:600}.facts span{display:block;font-size:12px;color:#68727d}
.chart{position:relative;height:280px;margin:.8rem 0}.url{word-break:break-all;max-width:28rem}
.refused{background:#fff4e5;border:1px solid #f5c38b;border-radius:6px;padding:.6rem .8rem;color:#7a4100}
#secret-box{background:#e9f6ec;border:1px solid #9fd3ad;border-radius:6px;padding:.6rem .8rem;margin-top:.8rem}
#new-secret{display:block;margin:.3rem 0;word-break:break-all;font-weight:600}
pre{white-space:pre-wrap;word-break:break-word;max-height:28rem;overflow:auto;background:#f6f7f9;border-radius:6px;padding:.6rem}
`;

const pager = (prefix: string) =>
  `<div class="row"><button type="button" id="${prefix}-newer">Newer</button><button type="button" id="${prefix}-older">Older</button><span id="${prefix}-range" class="muted"></span></div>`;

const BODY = `
<section id="key-section" hidden><h2>Sign in with a workspace API key</h2>
<form id="key-form" class="row"><input id="key" type="password" placeholder="trawl_…" size="52" autocomplete="off" aria-label="API key">
<button class="primary">Sign in</button></form><p id="key-error" class="err"></p>
<p class="muted">The key stays in this browser (localStorage) and is sent only to this server. Admin keys see everything here; member keys see their workspace's results.</p></section>
<div id="app" hidden>
<section id="summary"><h2>Workspace <span id="ws-name"></span> <span id="ws-id" class="muted"></span></h2>
<div class="facts"><div><span>Balance</span><b id="ws-balance"></b></div><div><span>Plan</span><b id="ws-plan"></b></div>
<div><span>Rate limit</span><b id="ws-limit"></b></div><div><span>This key's role</span><b id="ws-role"></b></div></div>
<p id="cloud-only" class="muted" hidden>Self-hosted server: usage, billing and the results history are kept in cloud mode only.</p></section>
<section id="usage"><h2>Usage</h2><p id="usage-refused" class="refused" hidden></p><div id="usage-body">
<form id="usage-form" class="row"><label>From <input id="from" type="date"></label><label>To <input id="to" type="date"></label>
<select id="endpoint" aria-label="Endpoint"><option value="">All endpoints</option></select>
<select id="metric" aria-label="Measure"><option value="credits">Credits</option><option value="runs">Runs</option></select>
<button class="primary">Show</button><span id="usage-total" class="muted"></span></form>
<div class="chart"><canvas id="chart" role="img" aria-label="Usage per endpoint per day"></canvas></div><p id="chart-empty" class="muted" hidden>No usage in this range.</p>
<table><thead><tr><th>Started</th><th>Endpoint</th><th>URL</th><th>Credits</th><th>Status</th><th>Took</th><th></th></tr></thead><tbody id="usage-rows"></tbody></table>
<p id="usage-empty" class="muted" hidden>No runs in this range.</p>${pager('usage')}</div></section>
<section id="results"><h2>Results history</h2>
<table><thead><tr><th>Stored</th><th>Endpoint</th><th>URL</th><th></th></tr></thead><tbody id="result-rows"></tbody></table>
<p id="results-empty" class="muted" hidden>No stored results yet.</p>${pager('results')}</section>
<section id="output" hidden><div class="row"><h2 id="output-title"></h2><button type="button" id="output-close">Close</button></div><pre id="output-body"></pre></section>
<section id="keys"><h2>API keys <span id="key-count" class="muted"></span></h2><p id="keys-refused" class="refused" hidden></p><div id="keys-body">
<table><thead><tr><th>Name</th><th>Key</th><th>Role</th><th>Created</th><th></th></tr></thead><tbody id="key-rows"></tbody></table>
<h2 style="margin-top:1rem">New key</h2><form id="create-form" class="row"><input id="new-name" placeholder="Name (optional)" maxlength="200">
<select id="new-role" aria-label="Role"><option value="member">member — calls the API only</option><option value="admin">admin — also manages keys and billing</option></select>
<button class="primary">Create key</button></form>
<div id="secret-box" hidden>Copy the new key now: it is not shown again.<code id="new-secret"></code><button type="button" id="secret-done">I have copied it</button></div>
</div></section>
</div>`;

export function accountPage(nonce: string): { html: string; headers: Record<string, string> } {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Trawl account</title>
<style>${STYLE}</style></head><body>
<header><h1>Trawl · Account</h1><span id="message" class="muted"></span><a href="/dashboard">Watches</a><a href="/docs">API reference</a><button id="forget" type="button">Sign out</button></header>
<main>${BODY}</main>
<script nonce="${nonce}" src="${asset('chart.umd.min.js')}"></script>
<script nonce="${nonce}">${ACCOUNT_SCRIPT}</script></body></html>`;
  return { html, headers: noncePageHeaders(nonce) };
}
