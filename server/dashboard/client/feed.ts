/**
 * The feed panel: whether the workspace has a feed token, creating (or rotating) one — its address
 * is shown once, as the server keeps only a hash — and revoking it.
 */
import { api } from './api.ts';
import { $, confirmDialog, say, when } from './dom.ts';

export async function showFeed(): Promise<void> {
  const state = await api<{ active: boolean; created_at: string | null }>('GET', '/v1/watch/feed-token');
  $('feed').hidden = false;
  $('feed-state').textContent = state.active
    ? `A feed address exists (created ${when(state.created_at)}). Its token is shown only when created: create a new one to see an address (the old one stops working).`
    : 'No feed address yet.';
  $('feed-create').textContent = state.active ? 'Replace feed address' : 'Create feed address';
  ($('feed-revoke') as HTMLButtonElement).disabled = !state.active;
}

export async function createFeed(): Promise<void> {
  const created = await api<{ feed_url: string }>('POST', '/v1/watch/feed-token');
  await showFeed();
  $('feed-url').textContent = created.feed_url;
  $('feed-url').hidden = false;
  say('Feed address created: add it to your feed reader.');
}

export async function revokeFeed(): Promise<void> {
  if (!(await confirmDialog('Revoke the feed address? Feed readers using it stop getting changes.', 'Revoke'))) return;
  await api('DELETE', '/v1/watch/feed-token');
  $('feed-url').hidden = true;
  await showFeed();
  say('Feed address revoked');
}
