/** The /v1 keys wire: the body that renames a key (creating one takes the admin API's body). */
import { z } from 'zod';
import { keyName } from '../admin/workspaces.ts';

export const renameKeySchema = z.strictObject({ name: keyName.nullable().describe('A label for people; null clears it.') });
