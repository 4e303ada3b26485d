/**
 * The text steps of the llm pipeline: each one a pure markdown → markdown function that removes
 * tokens a language model does not need (image syntax, emphasis markers, escapes, table rules,
 * blank runs …) without removing words. Code is never touched (prose.ts). What each saves on
 * the dev set is measured by `bun run bench llm-tokens`.
 */
import { mapProse } from './prose.ts';

/**
 * `![alt](url "title")` and the spaces after it (or a line that opened with an image would be
 * left indented); the destination may be `<…>` or hold escaped parentheses.
 */
const IMAGE = /!\[(?:\\.|[^\]\\])*\]\((?:<(?:\\.|[^<>\\\n])*>|(?:\\.|[^\s()\\])*)(?:\s+"(?:\\.|[^"\\])*")?\)[ \t]*/g;

/** Images go, alt text included: the model cannot see them and their URLs are long. */
export function stripImages(markdown: string): string {
  return mapProse(markdown, (prose) => prose.replace(IMAGE, ''));
}

/** Within one paragraph: a lazy run that does not cross a blank line, ending on a non-space. */
const INNER = String.raw`((?:(?!\n\n)[\s\S])*?[^\s\\])`;
const EMPHASIS = [
  new RegExp(String.raw`(?<!\\)\*\*(?=\S)${INNER}\*\*`, 'g'),
  new RegExp(String.raw`(?<!\\)~~(?=\S)${INNER}~~`, 'g'),
  new RegExp(String.raw`(?<![\\\p{L}\p{N}_])_(?=\S)${INNER}_(?![\p{L}\p{N}_])`, 'gu'),
  new RegExp(String.raw`(?<![\\*])\*(?=[^\s*])${INNER}\*(?!\*)`, 'g'),
];

/** Bold, italic and strikethrough markers go; their words stay. */
export function removeEmphasis(markdown: string): string {
  return mapProse(markdown, (prose) => EMPHASIS.reduce((text, pattern) => text.replace(pattern, '$1'), prose));
}

/**
 * Backslash escapes go (`snake\_case`, `\[1\]`, `1\.`): they only keep markdown renderers
 * from reading emphasis that is gone by now. `\|` stays, it keeps a table cell whole.
 */
export function unescapeMarkdown(markdown: string): string {
  return mapProse(markdown, (prose) => prose.replace(/\\([\\`*_{}[\]()#+\-.!<>~=])/g, '$1'));
}

const TABLE_RULE = /^\s*\|(?:\s*:?-{3,}:?\s*\|)+\s*$/;

/** Tables lose their `| --- |` rule row and outer pipes: `a | b` per row; the first row is still the header. */
export function compactTables(markdown: string): string {
  return mapProse(markdown, (prose) =>
    prose
      .split('\n')
      .filter((line) => !TABLE_RULE.test(line))
      .map((line) => (/^\s*\|.*[^\\]\|\s*$/.test(line) ? line.trim().slice(1, -1).trim() : line))
      .join('\n'),
  );
}

/**
 * Typographic quotes become ASCII ones: `don’t` is two tokens, `don't` one. Guillemets and
 * other quotation styles stay: they are a language's spelling, not a typesetter's.
 */
export function asciiQuotes(markdown: string): string {
  return mapProse(markdown, (prose) =>
    prose.replace(/[\u2018\u2019\u201A\u201B\u2032]/g, "'").replace(/[\u201C\u201D\u201E\u201F\u2033]/g, '"'),
  );
}

/**
 * Nothing but markers, punctuation and separators: `-`, `#`, `>`, `|  |`, `•`, `…`. Digits, letters
 * and symbols such as emoji count as content.
 */
const NO_CONTENT = /^[\s\p{P}\p{Z}\p{Sm}\p{Sk}]*$/u;

/** Lines left without a word go: empty list items and headings, horizontal rules, separator lines, links that held only an image. */
export function dropEmptyLines(markdown: string): string {
  return mapProse(markdown, (prose) =>
    prose
      .split('\n')
      .filter((line) => line.trim() === '' || !NO_CONTENT.test(line))
      .join('\n'),
  );
}

/** A figure: `12`, `1,234`, `4.8`, `$99`, `12.5k`, `98%`, `3x`, `10+`, `4.5/5`. */
const STAT_VALUE = /^[+\-−~≈<>]?[$€£¥₹]?\d[\d,.]*\s?(?:[kKmMbB]\+?|%|\+|x|×|\/5|\/10)?$/;
/** A short caption: `Stars`, `Active users`, `Reviews (EU)`; a sentence or a markdown block is not one. */
const STAT_LABEL = /^\p{L}[\p{L}\p{N} '’&/().-]{0,39}$/u;
const isValue = (block: string) => block.length <= 16 && STAT_VALUE.test(block);
const isLabel = (block: string) => STAT_LABEL.test(block) && block.split(' ').length <= 5;

/**
 * Stat blocks (figure and caption as separate paragraphs, as counters and spec grids render)
 * become one line: `12.5k\n\nStars\n\n340\n\nForks` → `12.5k Stars, 340 Forks`. A caption ending
 * in a colon may come first (`Price:\n\n$12` → `Price: $12`).
 */
export function mergeStats(markdown: string): string {
  return mapProse(markdown, (prose) => {
    const blocks = prose.split(/\n{2,}/);
    const out: string[] = [];
    let run: string[] = [];
    const flush = () => {
      if (run.length) out.push(run.join(', '));
      run = [];
    };
    for (let i = 0; i < blocks.length; i++) {
      const block = blocks[i]!.trim();
      const next = blocks[i + 1]?.trim() ?? '';
      if (isValue(block) && isLabel(next)) {
        run.push(`${block} ${next}`);
        i++;
      } else if (block.endsWith(':') && isLabel(block.slice(0, -1)) && isValue(next)) {
        run.push(`${block} ${next}`);
        i++;
      } else {
        flush();
        out.push(blocks[i]!);
      }
    }
    flush();
    return out.join('\n\n');
  });
}

/**
 * Whitespace: exotic spaces become one space, runs of spaces inside a line collapse
 * (indentation stays: it nests lists), trailing spaces and hard breaks go, and blank runs
 * become one blank line.
 */
export function collapseWhitespace(markdown: string): string {
  return mapProse(markdown, (prose) =>
    prose
      .replace(/[\t\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g, ' ')
      .split('\n')
      .map((line) => {
        const indent = /^ */.exec(line)![0];
        return indent + line.slice(indent.length).replace(/ {2,}/g, ' ').trimEnd();
      })
      .map((line) => (line.trim() === '' ? '' : line))
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
  );
}
