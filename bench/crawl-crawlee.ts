/**
 * Benchmark helper: the baseline crawler. Crawlee's CheerioCrawler crawls the fixture site with a
 * fixed concurrency, doing the work Trawl does per page — markdown of the page (turndown, the
 * library Trawl's markdown format uses) stored in Crawlee's dataset on disk, robots.txt obeyed,
 * same-host links enqueued. Prints `{"pages": N, "seconds": S}`.
 *
 *   CRAWLEE_STORAGE_DIR=/tmp/x bun bench/crawl-crawlee.ts --url http://127.0.0.1:PORT/ --concurrency 8
 */
import { parseArgs } from 'node:util';
import { CheerioCrawler } from '@crawlee/cheerio';
import TurndownService from 'turndown';

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: { url: { type: 'string' }, concurrency: { type: 'string', default: '8' }, max: { type: 'string', default: '100000' } },
});
const concurrency = Number(values.concurrency);
const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
let pages = 0;
const crawler = new CheerioCrawler({
  minConcurrency: concurrency,
  maxConcurrency: concurrency,
  maxRequestsPerCrawl: Number(values.max),
  respectRobotsTxtFile: true,
  async requestHandler({ $, request, enqueueLinks, pushData }) {
    pages++;
    await pushData({ url: request.url, title: $('title').text(), markdown: turndown.turndown($('body').html() ?? '') });
    await enqueueLinks({ strategy: 'same-hostname' });
  },
});
const started = performance.now();
await crawler.run([values.url!]);
console.log(JSON.stringify({ pages, seconds: (performance.now() - started) / 1000 }));
