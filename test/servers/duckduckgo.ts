/**
 * DuckDuckGo's HTML endpoint as it behaves (the page its no-JavaScript form posts to): `POST
 * /html/` with the form fields `q` and `kl` (or `GET /html/?q=`). Results are `.result` blocks
 * with `a.result__a` (its href a `//duckduckgo.com/l/?uddg=<target>&rut=…` redirect), an
 * `a.result__url` and an `a.result__snippet`; ads come first as `.result--ad` blocks linking to
 * `y.js`; an empty search shows a `.no-results` notice; a "Next" form carries the paging fields.
 * With `botCheck` set it answers what data-centre addresses get: HTTP 202 and the anomaly page
 * ("Unfortunately, bots use DuckDuckGo too.", a `challenge-form` posting to anomaly.js).
 */
import { startProviderServer, type CannedResult, type ProviderServer, type ProviderServerOptions } from './search-provider.ts';

export interface DuckDuckGoServer extends ProviderServer {
  botCheck: boolean;
}

const PER_PAGE = 30;
const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const redirect = (url: string) => `//duckduckgo.com/l/?uddg=${encodeURIComponent(url)}&amp;rut=${'0a1b2c3d'.repeat(8)}`;

const page = (title: string, body: string) =>
  `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">\n` +
  `<html xmlns="http://www.w3.org/1999/xhtml"><head><meta http-equiv="content-type" content="text/html; charset=UTF-8" />` +
  `<title>${esc(title)}</title><link rel="stylesheet" href="/dist/h.css" type="text/css" /></head><body class="body--html">${body}</body></html>`;

const ad = () =>
  `<div class="result results_links results_links_deep result--ad result--ad--small"><div class="links_main links_deep result__body">` +
  `<h2 class="result__title"><a rel="nofollow" class="result__a" href="https://duckduckgo.com/y.js?ad_domain=shop.example&amp;ad_provider=bingv7aa&amp;u3=x">Buy tidal turbines</a></h2>` +
  `<a class="result__snippet" href="https://duckduckgo.com/y.js?ad_domain=shop.example">Ad · Great prices</a></div></div>`;

const result = (r: CannedResult) => {
  const shown = new URL(r.url);
  return (
    `<div class="result results_links results_links_deep web-result "><div class="links_main links_deep result__body">` +
    `<h2 class="result__title"><a rel="nofollow" class="result__a" href="${redirect(r.url)}">${esc(r.title)}</a></h2>` +
    `<div class="result__extras"><div class="result__extras__url"><span class="result__icon"><a rel="nofollow" href="${redirect(r.url)}">` +
    `<img class="result__icon__img" width="16" height="16" alt="" src="//external-content.duckduckgo.com/ip3/${shown.hostname}.ico" name="i15" /></a></span>` +
    `<a class="result__url" href="${redirect(r.url)}">${esc(shown.hostname + shown.pathname)}</a></div></div>` +
    `<a class="result__snippet" href="${redirect(r.url)}">${esc(r.snippet)}</a><div class="clear"></div></div></div>`
  );
};

const nextForm = (q: string, kl: string) =>
  `<div class="nav-link"><form action="/html/" method="post"><input type="submit" class="btn btn--alt" value="Next" />` +
  `<input type="hidden" name="q" value="${esc(q)}" /><input type="hidden" name="s" value="${PER_PAGE}" /><input type="hidden" name="nextParams" value="" />` +
  `<input type="hidden" name="v" value="l" /><input type="hidden" name="o" value="json" /><input type="hidden" name="dc" value="${PER_PAGE + 1}" />` +
  `<input type="hidden" name="api" value="d.js" /><input type="hidden" name="vqd" value="4-123456789012345678901234567890" /><input name="kl" value="${esc(kl)}" type="hidden" /></form></div>`;

export const anomalyPage = (q: string) =>
  page(
    'DuckDuckGo',
    `<div class="anomaly-modal__mask"><div class="anomaly-modal__modal" data-testid="anomaly-modal">` +
      `<div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div>` +
      `<div class="anomaly-modal__description">Please complete the following challenge to confirm this search was made by a human.</div>` +
      `<form id="challenge-form" action="//duckduckgo.com/anomaly.js?sv=html&amp;cc=botnet&amp;q=${encodeURIComponent(q)}" method="POST">` +
      `<div class="anomaly-modal__instructions">Select all squares containing a duck:</div><div class="anomaly-modal__puzzle"></div>` +
      `<button class="anomaly-modal__submit" type="submit">Submit</button></form></div></div>`,
  );

export function startDuckDuckGoServer(options: ProviderServerOptions = {}): DuckDuckGoServer {
  const server = startProviderServer(options, (req, self) => {
    if (req.path !== '/html/' && req.path !== '/html') return new Response('Not Found', { status: 404 });
    const form = req.method === 'POST' ? new URLSearchParams(req.body) : req.query;
    if (req.method === 'POST' && !req.headers['content-type']?.startsWith('application/x-www-form-urlencoded'))
      return new Response('Bad Request', { status: 400 });
    const q = form.get('q') ?? '';
    const kl = form.get('kl') ?? 'wt-wt';
    const html = (body: string, status = 200) => new Response(body, { status, headers: { 'content-type': 'text/html; charset=UTF-8' } });
    if ((self as DuckDuckGoServer).botCheck) return html(anomalyPage(q), 202);
    if (!q.trim()) return html(page('DuckDuckGo', '<div id="links" class="results"></div>'));
    const all = self.results(q);
    const links = all.length
      ? ad() + all.slice(0, PER_PAGE).map(result).join('') + (all.length > PER_PAGE ? nextForm(q, kl) : '')
      : `<div class="result results_links results_links_deep result--no-result"><div class="no-results">No results.</div></div>`;
    return html(page(`${q} at DuckDuckGo`, `<div id="links" class="results">${links}</div>`));
  });
  return Object.assign(server, { botCheck: false });
}
