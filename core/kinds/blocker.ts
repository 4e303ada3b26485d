/**
 * The `blocker` plugin kind's handler shape: one fetched response in, a verdict out when the page is
 * an anti-bot interstitial, a block page or a CAPTCHA wall rather than the content asked for. One
 * plugin per vendor (plugins/blocker/); the pipeline asks every enabled one right after the fetch,
 * on the server thread, so a recogniser must be cheap: plain string and header checks, no parsing.
 */

/** What a recogniser sees of a response. */
export interface BlockerInput {
  /** HTTP status of the final response (a rendered page: the status its document was served with). */
  status: number;
  /** Response headers, names in lower case; `set-cookie` values joined with ", ". */
  headers: Readonly<Record<string, string>>;
  /** The final URL. */
  url: string;
  /**
   * The start of the body as text (at most `BLOCKER_BODY_CHARS`), for HTML and other textual
   * responses; empty for binary ones. Markers are ASCII, so the page's charset does not matter.
   */
  body: string;
  /** The `<title>` found in `body`, trimmed and with whitespace collapsed; '' without one. */
  title: string;
}

/** How the page stops us: a challenge a browser may pass, an outright block, or a CAPTCHA to solve. */
export type BlockKind = 'challenge' | 'block' | 'captcha';

export interface BlockVerdict {
  /** Lower-case vendor id: `cloudflare`, `akamai`, `datadome`, `perimeterx`, `recaptcha`, `hcaptcha`, `turnstile`, … */
  vendor: string;
  kind: BlockKind;
  /** Which marker decided it, for logs and tests (never shown as the page's content). */
  evidence: string;
}

/** How much of a body recognisers read: challenge and block pages are small, and their markers come early. */
export const BLOCKER_BODY_CHARS = 256 * 1024;

export interface BlockerHandler {
  /** null: not this vendor's block (or not a block at all). */
  recognise(page: BlockerInput): BlockVerdict | null;
}
