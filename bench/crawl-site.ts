/**
 * Benchmark helper: serves the generated crawl fixture site (test/fixtures/crawl-site) in its own
 * process, so the site's work is not billed to either crawler. Prints `{"port": N}` once listening.
 *
 *   bun bench/crawl-site.ts --pages 2000
 */
import { parseArgs } from 'node:util';
import { startCrawlSite } from '../test/fixtures/crawl-site/site.ts';

const { values } = parseArgs({ args: Bun.argv.slice(2), options: { pages: { type: 'string', default: '2000' } } });
const site = await startCrawlSite({ pages: Number(values.pages), recordHits: false });
console.log(JSON.stringify({ port: site.port }));
process.on('SIGTERM', () => void site.stop().then(() => process.exit(0)));
