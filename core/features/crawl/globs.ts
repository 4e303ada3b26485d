/**
 * Path globs for `include_paths` / `exclude_paths`: picomatch parses them, and a small automaton
 * matches them. picomatch's own matcher is a backtracking RegExp, and a pattern such as
 * `/*a*a*a*x` against a long path segment — which any crawled site can serve — takes seconds to
 * minutes and blocks the process. Stepping the automaton costs at most path length × pattern
 * length, and callers can budget that up front (`cost`).
 *
 * Supported, with picomatch's meaning: literals, `?`, `*` (within a segment), `**` (across
 * segments; a `/**` part also matches nothing, so `/blog/**` matches `/blog`), `[...]` classes
 * and `{a,b}` alternatives.
 * Extglobs and negation are refused with a message.
 */
import picomatch from 'picomatch';

type Atom =
  | { kind: 'char'; char: string }
  | { kind: 'one' }
  | { kind: 'class'; test: RegExp }
  | { kind: 'star' }
  | { kind: 'any' }
  /** `/` followed by what comes next, or nothing at all: the start of `/**`. */
  | { kind: 'slash-or-skip' }
  /** An optional `/`. */
  | { kind: 'maybe-slash' }
  /** Reads nothing; the path must go on (picomatch's `(?=.)` after a `/` that a `*` follows). */
  | { kind: 'not-end' };

const MAX_ALTERNATIVES = 32;

/** `a{b,c}d` → `abd`, `acd` (nesting allowed); at most MAX_ALTERNATIVES results. */
export function expandBraces(pattern: string): string[] {
  const open = pattern.search(/(?<!\\)\{/);
  if (open < 0) return [pattern];
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < pattern.length; i++) {
    const ch = pattern[i];
    if (pattern[i - 1] === '\\') continue;
    if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) {
      if (commas.length === 0) return [pattern];
      const bounds = [open, ...commas, i];
      const parts = bounds.slice(1).map((end, k) => pattern.slice(bounds[k]! + 1, end));
      const rest = expandBraces(pattern.slice(i + 1));
      const out: string[] = [];
      for (const part of parts)
        for (const head of expandBraces(pattern.slice(0, open) + part))
          for (const tail of rest) {
            out.push(head + tail);
            if (out.length > MAX_ALTERNATIVES) throw new Error(`expands to more than ${MAX_ALTERNATIVES} alternatives`);
          }
      return out;
    } else if (ch === ',' && depth === 1) commas.push(i);
  }
  return [pattern];
}

function compileOne(pattern: string): Atom[] {
  const state = (picomatch.parse as (p: string, o: object) => unknown)(pattern, { dot: true }) as {
    negated?: boolean;
    tokens: Array<{ type: string; value: string; output?: string }>;
  };
  if (state.negated) throw new Error('negation is not supported; use exclude_paths');
  const atoms: Atom[] = [];
  const tokens = state.tokens;
  tokens.forEach((token, index) => {
    switch (token.type) {
      case 'bos':
        return;
      case 'slash':
        // picomatch makes `/**` optional except at the very start (its output opens a group then).
        atoms.push(
          tokens[index + 1]?.type === 'globstar' && token.output?.startsWith('(?:')
            ? { kind: 'slash-or-skip' }
            : { kind: 'char', char: '/' },
        );
        if (tokens[index + 1]?.type === 'star') atoms.push({ kind: 'not-end' });
        return;
      case 'text':
      case 'dot':
        for (const char of token.value.replace(/\\(.)/g, '$1')) atoms.push({ kind: 'char', char });
        return;
      case 'star':
        if (atoms.at(-1)?.kind !== 'star') atoms.push({ kind: 'star' });
        return;
      case 'globstar':
        atoms.push({ kind: 'any' });
        return;
      case 'qmark':
        atoms.push({ kind: 'one' });
        return;
      case 'maybe_slash':
        atoms.push({ kind: 'maybe-slash' });
        return;
      case 'bracket':
        atoms.push({ kind: 'class', test: new RegExp(`^${token.value}$`, 'u') });
        return;
      default:
        throw new Error(`"${token.value}" (${token.type}) is not supported; use *, **, ?, [...] and {a,b}`);
    }
  });
  return atoms;
}

/** Activates what is reachable without reading a character (in order: skips only go forward). */
function close(atoms: Atom[], active: Uint8Array, more: boolean): void {
  for (let i = 0; i < atoms.length; i++) {
    if (!active[i]) continue;
    const kind = atoms[i]!.kind;
    if (kind === 'star' || kind === 'any' || kind === 'maybe-slash' || (kind === 'not-end' && more)) active[i + 1] = 1;
    else if (kind === 'slash-or-skip') active[i + 2] = 1;
  }
}

function run(atoms: Atom[], path: string): boolean {
  const chars = [...path];
  let active = new Uint8Array(atoms.length + 2);
  active[0] = 1;
  close(atoms, active, chars.length > 0);
  for (let at = 0; at < chars.length; at++) {
    const char = chars[at]!;
    const next = new Uint8Array(atoms.length + 2);
    let alive = false;
    for (let i = 0; i < atoms.length; i++) {
      if (!active[i]) continue;
      const atom = atoms[i]!;
      let stay = false;
      let advance = false;
      switch (atom.kind) {
        case 'char':
          advance = atom.char === char;
          break;
        case 'one':
          advance = char !== '/';
          break;
        case 'class':
          advance = char !== '/' && atom.test.test(char);
          break;
        case 'star':
          stay = char !== '/';
          break;
        case 'any':
          stay = true;
          break;
        case 'slash-or-skip':
        case 'maybe-slash':
          advance = char === '/';
          break;
        case 'not-end':
          break;
      }
      if (stay) next[i] = 1;
      if (advance) next[i + 1] = 1;
      alive ||= stay || advance;
    }
    if (!alive) return false;
    close(atoms, next, at + 1 < chars.length);
    active = next;
  }
  return active[atoms.length] === 1;
}

export class GlobSet {
  private readonly alternatives: Atom[][];
  /** Automaton states over all patterns: one step of a path character costs at most this. */
  readonly size: number;

  /** Throws an Error saying what is wrong with the first bad pattern. */
  constructor(patterns: readonly string[]) {
    this.alternatives = patterns.flatMap((pattern) => expandBraces(pattern).map(compileOne));
    this.size = this.alternatives.reduce((sum, atoms) => sum + atoms.length + 1, 0);
  }

  matches(path: string): boolean {
    return this.alternatives.some((atoms) => run(atoms, path));
  }

  /** Upper bound of the work `matches(path)` does, for budgeting. */
  cost(path: string): number {
    return path.length * this.size;
  }
}

/** Why a glob cannot be used, or null. */
export function globProblem(pattern: string): string | null {
  try {
    new GlobSet([pattern]);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}
