/** Table type of social monitors; the migration that creates it is migration.ts. */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../storage/schema.ts';

export interface SocialMonitorsTable {
  id: string;
  workspace_id: string;
  /** `profile`, `search`, `list` or `replies`. */
  kind: string;
  /** Handle (no `@`), query, list id or post id. */
  target: string;
  name: string;
  interval_minutes: number;
  webhook_url: string | null;
  /** 0/1 columns. */
  active: number;
  include_retweets: number;
  include_replies: number;
  include_quotes: number;
  min_faves: number;
  keyword: string | null;
  lang: string | null;
  /** A profile's numeric account id, resolved on its first check and kept. */
  source_id: string | null;
  /** The newest post id seen; where the next check starts. */
  cursor: string | null;
  last_checked_at: string | null;
  last_matched_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

// A type alias, not an interface: kysely's withTables needs the implicit index signature.
export type SocialTables = { social_monitors: SocialMonitorsTable };
export type SocialDatabase = Database & SocialTables;
export type SocialDb = Kysely<SocialDatabase>;
export type SocialExecutor = SocialDb | Transaction<SocialDatabase>;
