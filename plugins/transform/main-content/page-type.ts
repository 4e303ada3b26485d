/**
 * The page type (article, forum, product, listing, collection, documentation, service, other),
 * told from what the page says about itself (hints.ts: schema.org types, og:type, the CMS's
 * template classes, date and author, URL words) and what the extraction found (signals.ts: the
 * kinds it recognised, and the content's shape: prose or teasers, code, headed sections,
 * pictures). Each type collects evidence points and the most wins; a thread is a forum whatever
 * else it shows, and a page with next to no content is `other`. Weights were set on the dev set
 * (bench/extraction-calibration.ts reports the accuracy).
 */
import type { PageType } from '../../../core/kit.ts';
import type { PageHints } from './hints.ts';
import type { PageSignals } from './signals.ts';

const PRODUCT_TYPE = /^(?:Product|ProductGroup|IndividualProduct|ProductModel|Car|Vehicle)$/;
const COLLECTION_TYPE = /^(?:CollectionPage|OfferCatalog)$/;
const LIST_TYPE = /^(?:ItemList|SearchResultsPage)$/;
const ARTICLE_TYPE =
  /^(?:Article|NewsArticle|BlogPosting|ReportageNewsArticle|AnalysisNewsArticle|OpinionNewsArticle|LiveBlogPosting|ScholarlyArticle|Report)$/;
const DOCS_TYPE = /^(?:TechArticle|APIReference|HowTo)$/;
const SERVICE_TYPE =
  /^(?:Service|ProfessionalService|FinancialService|LegalService|SoftwareApplication|WebApplication|InsuranceAgency|EducationalOccupationalProgram|Course|HomeAndConstructionBusiness|[A-Za-z]+Business)$/;

/** Hosts and path words of documentation sites, and the software that builds them. */
const DOCS_HOST = /^(?:docs?|developers?|devdocs|wiki|learn|manual|man\d?|reference|help|support|kb)\./;
const DOCS_PATH =
  /\/(?:docs?|documentation|reference|manual|handbook|guides?|tutorials?|api|man-?pages?|book|howto|kb|knowledge-?base|glossary|specs?)(?:\/|$|[-_.])/;
const DOCS_GENERATOR =
  /sphinx|mkdocs|docusaurus|gitbook|vitepress|docfx|read ?the ?docs|antora|mdbook|starlight|nextra|docsify|doxygen|javadoc/i;
/** Path words of posts (blog and news sections, dated paths), shop categories, product pages, indexes and service pages. */
const POST_PATH = /\/(?:blogs?|news|articles?|stor(?:y|ies)|posts?|insights?|magazine|journal|opinion)\/[^/?]+|\/20\d\d\/(?:[01]?\d\/)?/;
const COLLECTION_PATH =
  /\/(?:collections?|categor(?:y|ies)|product-category|sub-categories|c|cat|browse|departments?|catalog|shop)(?:\/|$|-)|[?&](?:category|cat)=/;
const PRODUCT_PATH = /\/(?:products?|p|dp|itm|item|pr|listing)\/[^/?]+/;
const LISTING_PATH =
  /\/(?:news|blog|articles|stories|posts|topics?|tags?|sections?|archives?|issues|lists?|search|results|jobs|events|podcasts|directory|chart|trending|recent|latest)(?:\/?$|\/?\?|\/page\/\d+)/;
const SERVICE_PATH =
  /\/(?:services?|solutions?|features?|platform|pricing|what-we-do|expertise|consulting|insurance|programs?|tutoring|hire|agency)(?:\/|$|[-_.])/;
/** A site's front page (or a language's: "/en/", "/en-us/"). */
const HOME_PATH = /^\/?(?:[a-z]{2}(?:[-_][a-z]{2})?\/?)?(?:\?|$)/;

/**
 * Template classes CMSs put on `<body>`: WordPress's "single-{post type}", "{type}-template-default",
 * "page-id-N" and archive classes, Drupal's "node-type-{type}", Shopify's "template-{name}",
 * Magento's and WooCommerce's product and category classes.
 */
const word = (alternatives: string) => new RegExp(`(?:^|\\s)(?:${alternatives})(?:\\s|$)`);
const TEMPLATE =
  /(?:^|\s)(?:single|(?:page-)?node-+type|template|post-type-archive|tax)-([a-z_-]+)|(?:^|\s)([a-z_-]+?)-template(?:-default)?(?:\s|$)/g;
const PAGE_BODY = word('page-template(?:-\\S+)?|page-id-\\d+|node-type-page|page-node-type-page|template-page');
const ARCHIVE_BODY = word('blog|archive|category|tag|search|search-results|paged|date|page-term|topic-page');
const PRODUCT_BODY = word('single-product|catalog-product-view|page-product|product-page|product_page');
const SHOP_BODY = word(
  'tax-product_cat|tax-product_tag|post-type-archive-product|woocommerce-shop|template-collection|catalog-category-view|product-listing-page|category-page|page-category',
);
/** What a template's name says the page is. */
const TEMPLATE_TYPES: ReadonlyArray<[RegExp, PageType]> = [
  [/^(?:post|article|blog|news|story|posting)/, 'article'],
  [/^(?:product)$/, 'product'],
  [/^(?:guide|docs?|documentation|kb|knowledge|manual|glossary|tutorial)/, 'documentation'],
  [/^(?:services?|solutions?|landing|programs?|courses?|features?|locations?|treatments?|practice)/, 'service'],
  [/^(?:collection|product_cat)/, 'collection'],
];

type Evidence = Record<PageType, number>;

/** Shape of the content: how much of it is prose, links, pictures, code and headings. */
function shape(signals: PageSignals) {
  const c = signals.content ?? signals.likely ?? signals.page;
  const text = Math.max(1, c.text);
  return {
    prose: c.goodText / text,
    links: c.link / text,
    /** Per 1,000 characters. */
    imgs: (1000 * c.imgs) / text,
    headings: (1000 * c.headings) / text,
    code: c.code,
    /** Mean characters per paragraph. */
    paragraph: c.text / Math.max(1, c.paras),
    /** Blocks a list of teasers or cards is made of, at least. */
    items: Math.max(c.headings, c.imgs, c.lis / 2),
  };
}

function count(types: readonly string[], re: RegExp): number {
  let n = 0;
  for (const t of types) if (re.test(t)) n++;
  return n;
}

/** Too little text to call the page anything (an empty shell, a login wall). */
const TOO_LITTLE = 100;

export function pageType(signals: PageSignals, hints: PageHints): PageType {
  if (signals.forum) return 'forum';
  if (signals.described || signals.text < TOO_LITTLE) return 'other';
  const e = evidence(signals, hints);
  let best: PageType = 'other';
  for (const t of Object.keys(e) as PageType[]) if (e[t] > e[best]) best = t;
  return best;
}

/** Each type's evidence points. */
function evidence(signals: PageSignals, hints: PageHints): Evidence {
  const e: Evidence = { article: 0, forum: 0, product: 0, listing: 0, collection: 0, documentation: 0, service: 0, other: 0.25 };
  declared(e, signals, hints);
  template(e, hints.bodyClass);
  located(e, hints);
  shaped(e, signals);
  return e;
}

/** What the page's markup declares: schema.org types, og:type, date and author, a product mark. */
function declared(e: Evidence, signals: PageSignals, hints: PageHints): void {
  const { schemaTypes: types, ogType } = hints;
  const products = count(types, PRODUCT_TYPE);
  if (signals.product) e.product += 2;
  if (products === 1 || products === 2) e.product += 1;
  if (products >= 3) e.collection += 2;
  if (/^product/.test(ogType)) e.product += 1;
  if (/group$/.test(ogType)) e.collection += 2;
  // (SEO plugins write og:type "article" on every page of a site, landing pages included: a weak sign)
  if (ogType === 'article') e.article += 0.5;
  if (ogType === 'website') e.article -= 0.5;
  if (count(types, COLLECTION_TYPE)) e.collection += 2;
  if (count(types, LIST_TYPE)) signals.product || products ? (e.collection += 1) : (e.listing += 1);
  if (count(types, ARTICLE_TYPE)) e.article += 1.5;
  if (count(types, DOCS_TYPE)) e.documentation += 1;
  if (count(types, SERVICE_TYPE)) e.service += 1;
  if (DOCS_GENERATOR.test(hints.generator)) e.documentation += 2;
  // (articles carry their date and author; landing, docs and shop pages seldom do)
  if (hints.dated) e.article += 1;
  if (hints.authored) e.article += 1;
}

/** The CMS template named on `<body>`. */
function template(e: Evidence, bodyClass: string): void {
  if (!bodyClass) return;
  const named = new Set<PageType>();
  for (const m of bodyClass.matchAll(TEMPLATE)) {
    const name = m[1] ?? m[2] ?? '';
    const found = TEMPLATE_TYPES.find(([re]) => re.test(name));
    if (found) named.add(found[1]);
  }
  for (const t of named) e[t] += 2;
  if (PAGE_BODY.test(bodyClass)) {
    e.service += 1;
    e.article -= 0.5;
  }
  if (ARCHIVE_BODY.test(bodyClass)) e.listing += 1;
  if (PRODUCT_BODY.test(bodyClass)) e.product += 2;
  if (SHOP_BODY.test(bodyClass)) e.collection += 2;
}

/** Where the page sits on its site. */
function located(e: Evidence, { host, path }: PageHints): void {
  if (DOCS_HOST.test(host)) e.documentation += 1.5;
  if (DOCS_PATH.test(path)) e.documentation += 1.5;
  if (POST_PATH.test(path)) e.article += 1;
  if (COLLECTION_PATH.test(path)) e.collection += 1.5;
  if (PRODUCT_PATH.test(path)) e.product += 1;
  if (LISTING_PATH.test(path)) e.listing += 1.5;
  if (SERVICE_PATH.test(path)) e.service += 1;
  if (host && HOME_PATH.test(path)) {
    e.listing += 0.5;
    e.service += 0.5;
    e.article -= 1;
  }
}

/** What the content looks like. */
function shaped(e: Evidence, signals: PageSignals): void {
  const s = shape(signals);
  if (s.prose >= 0.75 && s.links < 0.2) e.article += s.paragraph >= 130 ? 1 : 0.5;
  if (s.code >= 3) e.documentation += 1.5;
  if ((s.prose < 0.5 || s.links >= 0.3) && s.items >= 8) {
    // (teasers of things for sale are a shop's category; of anything else, an index)
    const shop = signals.product || e.product > 0 || e.collection > 0;
    e.listing += shop ? 0.5 : 1.5;
    e.collection += shop ? 1.5 : 0.5;
    e.article -= 1;
  }
  if (s.imgs >= 3) {
    e.collection += 0.5;
    e.product += 0.5;
    e.service += 0.5;
  }
  if (s.headings >= 2.5 && s.paragraph < 110) e.service += 1;
}
