/**
 * Fixed SQL texts run as they are, for the statements on a request's path: no query builder there
 * (on SQLite it cost more than the statement itself), and a fixed text lets the driver reuse its
 * prepared form. Texts are written with `?`; Postgres gets them numbered.
 */
import { CompiledQuery } from 'kysely';
import type { AccountsExecutor } from './tables.ts';

export type Exec = (trx: AccountsExecutor, text: string, params: readonly unknown[]) => Promise<Array<Record<string, unknown>>>;

export function executor(dialect: 'sqlite' | 'postgres'): Exec {
  const texts = new Map<string, string>();
  const textOf = (text: string) => {
    if (dialect === 'sqlite') return text;
    let found = texts.get(text);
    if (found === undefined) {
      let n = 0;
      found = text.replace(/\?/g, () => `$${++n}`);
      texts.set(text, found);
    }
    return found;
  };
  return async (trx, text, params) => (await trx.executeQuery<Record<string, unknown>>(CompiledQuery.raw(textOf(text), [...params]))).rows;
}
