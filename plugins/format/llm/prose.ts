/**
 * The llm steps rewrite prose, never code: a backslash, an underscore or a run of spaces inside
 * a fenced block or an inline code span is part of the code. `mapProse` swaps every piece of
 * code for a placeholder (private-use characters, which no step treats as text or punctuation),
 * lets the step rewrite the whole text, and puts the code back byte for byte.
 */

const FENCE = /^\s*(`{3,}|~{3,})/;
/** A backtick run and the same-length run that closes it (CommonMark code spans). */
const CODE_SPAN = /(?<!\\)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g;
const OPEN = '\uE000';
const CLOSE = '\uE001';
const PLACEHOLDER = /\uE000(\d+)\uE001/g;

/** Lines of fenced code blocks (fences included) become one placeholder line each block. */
function protectFences(markdown: string, store: string[]): string {
  const out: string[] = [];
  let code: string[] = [];
  let open: string | null = null;
  const keep = () => {
    out.push(`${OPEN}${store.length}${CLOSE}`);
    store.push(code.join('\n'));
    code = [];
  };
  for (const line of markdown.split('\n')) {
    const fence = FENCE.exec(line)?.[1];
    if (open) {
      code.push(line);
      if (fence && fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) {
        keep();
        open = null;
      }
    } else if (fence) {
      open = fence;
      code.push(line);
    } else out.push(line);
  }
  if (code.length) keep(); // an unclosed fence runs to the end, as CommonMark reads it
  return out.join('\n');
}

export function mapProse(markdown: string, step: (prose: string) => string): string {
  const store: string[] = [];
  const fenced = protectFences(markdown.replace(PLACEHOLDER, ''), store);
  const spans = fenced.replace(CODE_SPAN, (span) => {
    store.push(span);
    return `${OPEN}${store.length - 1}${CLOSE}`;
  });
  // A code span may enclose a fence's placeholder, so a second pass restores what the first put back.
  let text = step(spans);
  for (let pass = 0; pass < 2 && text.includes(OPEN); pass++)
    text = text.replace(PLACEHOLDER, (_m, index: string) => store[Number(index)] ?? '');
  return text;
}
