/**
 * blocker.akamai: Akamai's edge denial (the bare "Access Denied" page its servers, AkamaiGHost,
 * send when Bot Manager or the WAF refuses a request, with a "Reference #…" id and an
 * errors.edgesuite.net link) and its sec-cpt challenge (a proof-of-work page that sets the
 * `sec_cpt` cookie). The `_abck`/`bm_sz` cookies and the sensor script of Bot Manager ride on
 * ordinary pages and say nothing by themselves.
 */
import { definePlugin } from '../../../core/kit.ts';
import type { BlockerInput, BlockVerdict } from '../../../core/kit.ts';
import { blockingStatus, INTERSTITIAL_CHARS, saysLittle, setsCookie } from '../shared/page.ts';

/**
 * The denial page writes its punctuation as character references (`Reference&#32;&#35;18&#46;…`);
 * the id is a decimal, a dot and hex groups, which a site's own "reference number" rarely copies.
 */
const REFERENCE = /Reference(?:\s|&#32;)*(?:#|&#35;)(?:\s|&#32;)*\d+(?:\.|&#46;)[0-9a-f]{4,}/;
const EDGESUITE = /errors(?:\.|&#46;)edgesuite(?:\.|&#46;)net/;
const DENIED_TITLE = /^access denied$/i;

/** The sec-cpt challenge's own names: its script folder, its container and its settings key. */
const SEC_CPT = [/\/_sec\/cp_challenge\//, /sec-if-cpt-container/, /["']sec-cp-challenge["']/];
/** Any of them, in one pass over a page that has none (a site's ordinary 403). */
const ANY_SEC_CPT = new RegExp(SEC_CPT.map((mark) => mark.source).join('|'));

function edgeDenial(page: BlockerInput): BlockVerdict | null {
  const titled = DENIED_TITLE.test(page.title);
  if (!titled && page.status !== 403) return null;
  const reference = REFERENCE.exec(page.body);
  if (!reference) return null;
  const server = /akamaighost/i.test(page.headers.server ?? '');
  const edgesuite = EDGESUITE.test(page.body);
  // Title or status, the reference, and the server or the edgesuite link: three of Akamai's own.
  if (!server && !edgesuite) return null;
  return {
    vendor: 'akamai',
    kind: 'block',
    evidence: `Access Denied, ${reference[0]}${server ? ', server AkamaiGHost' : ''}${edgesuite ? ', errors.edgesuite.net' : ''}`,
  };
}

function secCpt(page: BlockerInput): BlockVerdict | null {
  const cookie = setsCookie(page, 'sec_cpt');
  if (!cookie && (!blockingStatus(page) || !ANY_SEC_CPT.test(page.body))) return null;
  const marks = SEC_CPT.filter((mark) => mark.test(page.body)).length + (cookie ? 1 : 0);
  if (marks < 2) return null;
  // A write-up of the challenge quotes its names too, but at length and not on a blocking status.
  if (!blockingStatus(page) && !saysLittle(page, INTERSTITIAL_CHARS)) return null;
  return { vendor: 'akamai', kind: 'challenge', evidence: `sec-cpt challenge (${marks} markers${cookie ? ', sec_cpt cookie' : ''})` };
}

export function recogniseAkamai(page: BlockerInput): BlockVerdict | null {
  return edgeDenial(page) ?? secCpt(page);
}

export const akamaiBlocker = definePlugin({
  kind: 'blocker',
  name: 'akamai',
  description: 'Akamai edge denials ("Access Denied", Reference #…, AkamaiGHost) and its sec-cpt challenge.',
  enabledByDefault: true,
  setup: () => ({ recognise: recogniseAkamai }),
});
