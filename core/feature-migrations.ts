/**
 * The features' migrations gathered into one set by name. Storage runs migrations and knows no
 * feature; whoever holds a feature list (the container, the admin command, tests) collects them
 * here and hands the set to `openStorage` or `Storage.migrate`.
 */
import type { Migration } from 'kysely/migration';
import type { AnyFeature } from './feature.ts';

/** Every feature's migrations; a name declared twice is a programming error. */
export function featureMigrations(features: readonly AnyFeature[]): Record<string, Migration> {
  const all: Record<string, Migration> = {};
  for (const feature of features) {
    for (const [name, migration] of Object.entries(feature.migrations ?? {})) {
      if (name in all) throw new Error(`Feature "${feature.name}": migration "${name}" is already declared`);
      all[name] = migration;
    }
  }
  return all;
}
