/** The Trawl TypeScript SDK: the client, its errors, the /v1 shapes and webhook verification. */
export * from './client.ts';
export * from './http.ts';
export type * from './types.ts';
export * from './webhooks.ts';
