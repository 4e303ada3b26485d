/**
 * The explicit list of built-in plugins. Order matters where a stage takes the first match
 * (sources and fetchers, document types) and among transforms of the same `order`.
 * Adding a plugin is one import and one entry here, plus its table in config/default.toml.
 */
import type { AnyPlugin } from '../core/kit.ts';
import { browserFetcher } from './fetcher/browser/browser.ts';
import { httpFetcher } from './fetcher/http/http.ts';
import { htmlDocument } from './document/html/html.ts';
import { pdfDocument } from './document/pdf/pdf.ts';
import { docxDocument } from './document/docx/docx.ts';
import { xlsxDocument } from './document/xlsx/xlsx.ts';
import { csvDocument } from './document/csv/csv.ts';
import { textDocument } from './document/text/text.ts';
import { videoSource } from './source/video/video.ts';
import { cleanTransform } from './transform/clean/clean.ts';
import { selectorsTransform } from './transform/selectors/selectors.ts';
import { mainContentTransform } from './transform/main-content/main-content.ts';
import { resolveUrlsTransform } from './transform/resolve-urls/resolve-urls.ts';
import { markdownFormat } from './format/markdown/markdown.ts';
import { textFormat } from './format/text/text.ts';
import { linksFormat } from './format/links/links.ts';
import { rawHtmlFormat } from './format/raw-html/raw-html.ts';
import { jsonFormat } from './format/json/json.ts';
import { llmFormat } from './format/llm/llm.ts';
import { attributesFormat } from './format/attributes/attributes.ts';
import { queryFormat } from './format/query/query.ts';
import { screenshotFormat } from './format/screenshot/screenshot.ts';
import { htmlFormat } from './format/html/html.ts';
import { summaryFormat } from './format/summary/summary.ts';
import { extractFormat } from './format/extract/extract.ts';
import { leadFormat } from './format/lead/lead.ts';
import { brandFormat } from './format/brand/brand.ts';
import { resultsSink } from './sink/results/results.ts';
import { clickAction } from './action/click/click.ts';
import { typeAction } from './action/type/type.ts';
import { scrollAction } from './action/scroll/scroll.ts';
import { waitAction } from './action/wait/wait.ts';
import { screenshotAction } from './action/screenshot/screenshot.ts';
import { pressAction } from './action/press/press.ts';
import { executeJavascriptAction } from './action/execute-javascript/execute-javascript.ts';
import { searxngSearch } from './search/searxng/searxng.ts';
import { braveSearch } from './search/brave/brave.ts';
import { serperSearch } from './search/serper/serper.ts';
import { tavilySearch } from './search/tavily/tavily.ts';
import { duckduckgoSearch } from './search/duckduckgo/duckduckgo.ts';
import { openaiLlm } from './llm/openai/openai.ts';
import { ollamaLlm } from './llm/ollama/ollama.ts';
import { geminiLlm } from './llm/gemini/gemini.ts';
import { llamaCppLlm } from './llm/llama-cpp/llama-cpp.ts';
import { javascriptScanner } from './scanner/javascript/javascript.ts';
import { sourceMapScanner } from './scanner/source-map/source-map.ts';
import { stringsScanner } from './scanner/strings/strings.ts';
import { rssSocial } from './social/rss/rss.ts';
import { xSocial } from './social/x/x.ts';
import { cloudflareBlocker } from './blocker/cloudflare/cloudflare.ts';
import { akamaiBlocker } from './blocker/akamai/akamai.ts';
import { datadomeBlocker } from './blocker/datadome/datadome.ts';
import { perimeterxBlocker } from './blocker/perimeterx/perimeterx.ts';
import { recaptchaBlocker } from './blocker/recaptcha/recaptcha.ts';
import { hcaptchaBlocker } from './blocker/hcaptcha/hcaptcha.ts';
import { turnstileBlocker } from './blocker/turnstile/turnstile.ts';

export const builtinPlugins: readonly AnyPlugin[] = [
  browserFetcher, // before http: it takes only the jobs that need a browser
  httpFetcher,
  videoSource, // a source: tried before every fetcher for the URLs it matches
  // Specific document types before html: magic bytes beat a lying Content-Type (a PDF served as text/html).
  pdfDocument,
  docxDocument,
  xlsxDocument,
  csvDocument,
  htmlDocument,
  textDocument, // after html and the specific types: text/plain is what a server says when it knows nothing better
  cleanTransform,
  selectorsTransform,
  mainContentTransform,
  resolveUrlsTransform,
  markdownFormat,
  textFormat,
  linksFormat,
  rawHtmlFormat,
  jsonFormat,
  llmFormat,
  attributesFormat,
  queryFormat,
  screenshotFormat,
  htmlFormat,
  summaryFormat,
  extractFormat,
  leadFormat,
  brandFormat,
  resultsSink,
  clickAction,
  typeAction,
  scrollAction,
  waitAction,
  screenshotAction,
  pressAction,
  executeJavascriptAction,
  // Search providers are asked in this order (the first that answers wins); each is off until configured.
  searxngSearch,
  braveSearch,
  serperSearch,
  tavilySearch,
  duckduckgoSearch, // keyless and often answered with a bot check: last, and opt-in
  // Language-model providers: `llm.provider` picks one, else the first enabled here; each is off until configured.
  openaiLlm,
  ollamaLlm,
  geminiLlm,
  llamaCppLlm,
  // Endpoint discovery: for each source the first scanner that reads it wins, so the parser before the string fallback.
  javascriptScanner,
  sourceMapScanner,
  stringsScanner,
  // Social sources (monitors and audience export): the first enabled one serves; off until configured.
  xSocial,
  rssSocial,
  // Blocked pages, asked after every fetch; the first verdict names the page. The anti-bot vendors'
  // own pages come before the CAPTCHA walls, which also step aside on a vendor's page by themselves.
  cloudflareBlocker,
  akamaiBlocker,
  datadomeBlocker,
  perimeterxBlocker,
  recaptchaBlocker,
  hcaptchaBlocker,
  turnstileBlocker,
] as unknown as readonly AnyPlugin[];
