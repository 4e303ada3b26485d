/** The Trawl TypeScript SDK: the client, its errors, the /v1 shapes and webhook verification. */
export * from './client.js';
export * from './http.js';
export type * from './types.js';
export * from './webhooks.js';
