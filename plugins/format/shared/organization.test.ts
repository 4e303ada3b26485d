import { expect, test } from 'bun:test';
import { parseHtmlDocument } from '../../../core/kit.ts';
import { organizationsOf } from './organization.ts';

const ld = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
const orgs = (head: string, body = '') =>
  organizationsOf(parseHtmlDocument(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`), 'https://acme.example/');

test('a graph organisation referenced by its WebSite counts once; a publisher written inside an Article counts too', () => {
  const found = orgs(
    ld({
      '@graph': [
        { '@type': 'WebSite', publisher: { '@id': '#org' } },
        { '@type': 'Organization', '@id': '#org', name: 'Acme', logo: { '@id': '#logo' } },
        { '@type': 'ImageObject', '@id': '#logo', url: '/logo.png' },
      ],
    }) +
      ld({
        '@type': 'NewsArticle',
        headline: 'x',
        publisher: {
          '@type': 'NewsMediaOrganization',
          name: 'Daily Acme',
          numberOfEmployees: { '@type': 'QuantitativeValue', minValue: 51, maxValue: 200 },
        },
      }),
  );
  expect(found.map((o) => [o.name, o.logo, o.industry, o.employees])).toEqual([
    ['Acme', 'https://acme.example/logo.png', null, null],
    ['Daily Acme', null, 'News Media Organization', '51-200'],
  ]);
});

test("microdata: the item's own properties and its nested address, not a nested person's name", () => {
  const [org] = orgs(
    '',
    `<div itemscope itemtype="https://schema.org/Dentist"><h1 itemprop="name">Smile Dental</h1>
    <div itemprop="founder" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Dr. Lee</span></div>
    <p itemprop="address" itemscope itemtype="https://schema.org/PostalAddress"><span itemprop="streetAddress">1 Main St</span> <span itemprop="addressLocality">Springfield</span></p>
    <a itemprop="email" href="mailto:hi@smile.example">mail</a> <a itemprop="sameAs" href="https://www.facebook.com/smiledental">fb</a></div>`,
  );
  expect(org).toMatchObject({
    name: 'Smile Dental',
    industry: 'Dentist',
    emails: ['hi@smile.example'],
    profiles: ['https://www.facebook.com/smiledental'],
    address: { street: '1 Main St', locality: 'Springfield', text: '1 Main St, Springfield' },
  });
});
