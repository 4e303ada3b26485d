/**
 * Scrape a page, crawl a site and follow its pages as they arrive: `bun sdks/typescript/examples/quickstart.ts <url>`.
 * Written as a user of the installed package writes it; in this repository tsconfig.json maps @trawl/sdk to src/.
 */
import { NotFoundError, Trawl } from '@trawl/sdk';

const trawl = new Trawl(); // TRAWL_API_URL and TRAWL_API_KEY from the environment
const url = process.argv[2] ?? 'https://example.com';

const page = await trawl.scrape({ url, formats: ['markdown', 'links'] });
console.log(page.markdown?.slice(0, 200));

const { id } = await trawl.startCrawl({ url, max_pages: 10 });
for await (const event of trawl.streamCrawl(id)) {
  if (event.event === 'page') console.log(event.id, event.data.url, event.data.status);
}
try {
  await trawl.getCrawl('00000000-0000-4000-8000-000000000000');
} catch (err) {
  if (err instanceof NotFoundError) console.log(err.status, err.message);
}
