/**
 * Final polish of turndown's output: whitespace-only lines emptied, runs of blank lines collapsed
 * to one, trailing spaces dropped (except a two-space hard break), the whole trimmed. Fenced code
 * is left byte for byte: blank lines there are part of the code.
 */

const FENCE = /^\s*(`{3,}|~{3,})/;

export function tidyMarkdown(markdown: string): string {
  const out: string[] = [];
  let openFence: string | null = null;
  const lines = markdown.split('\n');
  lines.forEach((raw, i) => {
    const fence = FENCE.exec(raw)?.[1];
    if (openFence) {
      out.push(raw);
      if (fence && fence[0] === openFence[0] && fence.length >= openFence.length && raw.trim() === fence) openFence = null;
      return;
    }
    if (fence) openFence = fence;
    // Two trailing spaces are a hard break only when the paragraph goes on.
    const hardBreak = /\S {2,}$/.test(raw) && /\S/.test(lines[i + 1] ?? '');
    const line = hardBreak ? raw.replace(/ +$/, '  ') : raw.trimEnd();
    if (line === '' && (out.length === 0 || out[out.length - 1] === '')) return;
    out.push(line);
  });
  return out.join('\n').trim();
}
