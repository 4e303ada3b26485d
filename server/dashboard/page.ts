/**
 * GET /dashboard: the page shell (layout and forms, no data) and its script, served as same-origin
 * ES modules from /dashboard/assets/ (assets.ts). The page loads nothing from elsewhere; its
 * Content-Security-Policy allows scripts from this origin only (no inline script, no eval), and the
 * snapshot preview the selector picker shows is a sandboxed srcdoc frame without scripts.
 */
import { STYLE } from './styles.ts';

const PRESETS: Array<[string, string]> = [
  ['clock', 'Clocks showing the time of the check'],
  ['relative_time', 'Relative ages ("5 minutes ago")'],
  ['counters', 'View, like and comment counters'],
  ['tokens', 'Long random tokens'],
];

const presetBoxes = PRESETS.map(
  ([name, label]) => `<label><input type="checkbox" name="ignore_patterns" value="${name}" checked> ${label}</label>`,
).join('');

const EDITOR = `<section id="editor" hidden><h2 id="editor-title">New watch</h2>
<form id="watch-form" novalidate>
<fieldset><legend>Page</legend><div class="fields">
<label>URL<input id="f-url" type="url" placeholder="https://example.com/page" required></label>
<label>Name<input id="f-name" placeholder="Defaults to the URL"></label>
<label>Check every (minutes)<input id="f-interval" type="number" min="1" placeholder="1440"></label>
<label>Tags (comma-separated)<input id="f-tags" placeholder="prices, news"></label>
</div></fieldset>
<fieldset><legend>What to watch</legend><div class="fields">
<label>Only these parts (CSS selectors, one a line)<textarea id="f-include" placeholder="#timetable"></textarea>
<span class="row"><button type="button" id="pick-open">Pick on the page…</button></span></label>
<label>Leave out (CSS selectors)<textarea id="f-ignore-selectors" placeholder=".banner"></textarea></label>
<label>Ignore lines containing (one a line, * for anything)<textarea id="f-ignore-text"></textarea></label>
</div>
<div id="picker" class="picker" hidden><div class="row"><span class="muted grow">Click a part of the page to watch it. Scripts of the page do not run here.</span>
<code id="pick-selector" class="wrap"></code><button type="button" id="pick-close">Close</button></div><iframe id="pick-frame" title="Page preview" sandbox="allow-same-origin" referrerpolicy="no-referrer"></iframe></div>
<h3>Never count as change</h3><div class="checks">${presetBoxes}</div></fieldset>
<fieldset><legend>When to notify</legend><div class="fields">
<label>Changes<select id="f-changes"><option value="any">Any change</option><option value="added">Only added text</option><option value="removed">Only removed text</option></select></label>
<label>Only when this text is present (one a line)<textarea id="f-trigger"></textarea></label>
<label>Stay quiet while this text is present (one a line)<textarea id="f-block"></textarea></label>
</div>
<div class="checks"><label><input type="checkbox" id="f-only-new"> Only lines never seen before</label>
<label><input type="checkbox" id="f-restock"> Back in stock</label></div>
<h3>Number conditions</h3><p class="muted">A number read from the selected element: notify when it is below, above, or moved by a percentage.</p>
<div id="conditions"></div><button type="button" id="add-condition">Add condition</button></fieldset>
<fieldset><legend>Where to tell</legend><div class="fields">
<label>Notify (one a line: chat webhook URLs, mailto:, https://)<textarea id="f-notify" placeholder="mailto:me@example.com"></textarea></label>
<label>Signed webhook URL<input id="f-webhook" type="url" placeholder="https://example.com/hook"></label>
</div></fieldset>
<div class="row"><button class="primary" id="save-watch">Save</button><button type="button" id="cancel-edit">Cancel</button><span id="form-error" class="err"></span></div>
</form></section>`;

const DETAIL = `<section id="detail" hidden><div class="row"><h2 class="grow">Timeline of <span id="detail-name"></span></h2><button type="button" id="detail-close">Close</button></div>
<p id="detail-url" class="muted wrap"></p><div id="detail-delivery"></div>
<table class="cards"><thead><tr><th>From</th><th>To</th><th>Checked</th><th>Result</th><th>Why</th><th>What changed</th><th></th></tr></thead>
<tbody id="timeline-rows"></tbody></table><p id="timeline-empty" class="muted" hidden>No snapshots yet: the first check is on its way.</p>
<div class="row"><h3 class="grow" id="diff-title">Diff</h3>
<label class="muted"><input type="radio" name="diff-mode" value="side" checked> Side by side</label>
<label class="muted"><input type="radio" name="diff-mode" value="inline"> Inline</label></div>
<p id="diff-summary" class="muted"></p><div id="diff" class="diff"></div>
<div id="preview-box" hidden><h3>Snapshot of <span id="preview-when"></span></h3><div id="preview" class="diff preview"></div></div></section>`;

const TRANSFER = `<section id="transfer" hidden><div class="row"><h2 class="grow">Import and export</h2><button type="button" id="transfer-close">Close</button></div>
<div class="row"><button type="button" id="export-json">Export settings (JSON)</button><button type="button" id="export-urls">Export URL list</button></div>
<h3>Import</h3><p class="muted">Paste a JSON export or a list of URLs (one a line), or choose a file. Each watch is created through the API.</p>
<textarea id="import-text" rows="5"></textarea>
<div class="row"><input type="file" id="import-file" accept=".json,.txt,application/json,text/plain"><button type="button" class="primary" id="import-run">Import</button></div>
<ul id="import-results" class="muted"></ul></section>`;

const FEED = `<section id="feed" hidden><div class="row"><h2 class="grow">Atom feed of changes</h2><button type="button" id="feed-close">Close</button></div>
<p class="muted">A feed reader gets the notified changes of this workspace. Its address holds a feed token (never your API key); revoking the token closes the feed.</p>
<p id="feed-state"></p><p id="feed-url" class="feed-url" hidden></p>
<div class="row"><button type="button" class="primary" id="feed-create">Create feed address</button><button type="button" class="danger" id="feed-revoke">Revoke</button></div></section>`;

const body =
  () => `<header><h1>Trawl · Watches</h1><span id="message" class="muted" role="status"></span><a href="/account">Account</a><a href="/docs">API reference</a><button id="forget" type="button" hidden>Forget key</button></header>
<main>
<section id="key-section" hidden><h2>API key</h2>
<form id="key-form" class="row"><input id="key" class="grow" type="password" placeholder="trawl_… (leave empty when the server has none)" autocomplete="off">
<button class="primary">Use this key</button></form><p id="key-error" class="err" hidden></p><p class="muted">Kept in this browser only (localStorage).</p></section>
<div id="app" hidden>
<section><div class="row"><input id="search" class="grow" type="search" placeholder="Search names and URLs" aria-label="Search">
<select id="tag-filter" aria-label="Tag"><option value="">All tags</option></select>
<button type="button" class="primary" id="new-watch">New watch</button><button type="button" id="recheck-all">Recheck all</button>
<button type="button" id="transfer-open">Import / export</button><button type="button" id="feed-open">Feed</button></div></section>
${EDITOR}
<section><h2>Watches <span id="watch-count" class="muted"></span></h2>
<table class="cards"><thead><tr><th>Watch</th><th>State</th><th>Last change</th><th>Next check</th><th></th></tr></thead>
<tbody id="watch-rows"></tbody></table><p id="empty" class="muted" hidden>No watches yet.</p></section>
${DETAIL}${TRANSFER}${FEED}
</div></main>
<dialog id="confirm"><p id="confirm-text"></p><div class="row"><button type="button" id="confirm-cancel">Cancel</button><button type="button" class="danger primary" id="confirm-ok">Delete</button></div></dialog>`;

export function dashboardPage(): { html: string; headers: Record<string, string> } {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Trawl watches</title>
<style>${STYLE}</style><script type="module" src="/dashboard/assets/main.js"></script></head><body>${body()}</body></html>`;
  return {
    html,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      // Inline styles stay allowed for the page's own sheet and the preview of a watched page (which has no scripts).
      'content-security-policy':
        "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      'cache-control': 'no-store',
    },
  };
}
