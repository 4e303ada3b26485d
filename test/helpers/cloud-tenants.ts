/** Cloud-mode test tenants through the admin API: a workspace with a plan, credits and a key; its balance; a wait for a condition. */
import type { TestServer } from './trawl-server.ts';

export const ADMIN_KEY = 'admin-key-for-tests-0123456789';
export const admin = { authorization: `Bearer ${ADMIN_KEY}` };
export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

export function cloudTenants(server: () => TestServer) {
  return {
    async tenant(plan: string, credits: number) {
      const workspace = await server().post('/admin/workspaces', { name: 'tenant', plan, credits }, admin);
      const key = await server().post(`/admin/workspaces/${workspace.body.id}/keys`, '', admin);
      return { id: workspace.body.id as string, key: key.body.key as string };
    },
    balance: async (id: string) => (await server().get(`/admin/workspaces/${id}`, admin)).body.credits as number,
    async until(what: () => Promise<boolean>) {
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; await Bun.sleep(40)) if (await what()) return;
      throw new Error('condition not met in time');
    },
  };
}
