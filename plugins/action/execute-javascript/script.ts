/**
 * How `executeJavascript` code becomes something the page can run. The code may be an expression
 * (`document.title`) or a function body with `return` (`const a = 1; return a + 1`); both may use
 * `await`. Which one it is, is decided by parsing here (compiling only, never running), so a
 * script is never run twice and broken code is refused before the page is even opened.
 */

/** Results larger than this (as JSON) are refused rather than shipped into the response. */
export const MAX_RESULT_CHARS = 1_000_000;

const asExpression = (code: string) => `(async () => (${code}\n))()`;
const asBody = (code: string) => `(async () => {${code}\n})()`;

function compiles(source: string): boolean {
  try {
    new Function(`return ${source}`);
    return true;
  } catch {
    return false;
  }
}

/** The call that runs the code, or null when it is not valid JavaScript in either form. */
export function wrapScript(code: string): string | null {
  const call = compiles(asExpression(code)) ? asExpression(code) : compiles(asBody(code)) ? asBody(code) : null;
  if (!call) return null;
  // JSON in the page: values that do not survive JSON (functions, DOM nodes, cycles) fail there,
  // with the page's own error message, instead of arriving half-serialised.
  return `(async () => {
    const value = await ${call};
    const json = JSON.stringify(value === undefined ? null : value) ?? 'null';
    if (json.length > ${MAX_RESULT_CHARS}) throw new Error('the result is larger than ${MAX_RESULT_CHARS} characters of JSON');
    return json;
  })()`;
}
