/**
 * Mounts the route modules' WebSocket routes on the Elysia app: at most `server.maxWebSockets`
 * connections at once and `server.maxWebSocketsPerWorkspace` per workspace (the next upgrade is a
 * 503), inbound messages capped small and ignored (the routes only stream out), sends that wait
 * while a slow client's buffer drains (so a reader that stops reading holds one message in memory,
 * not the whole run), and the sub-protocol the client offered echoed back (clients that send their
 * key that way fail the handshake otherwise).
 *
 * Admission is an HTTP request's: the upgrade reads the key from the database (not the few seconds
 * a key is remembered for ordinary requests) and counts against the workspace's rate limit. An open
 * socket's key is read again every KEY_CHECK_MS, one read per distinct key: once it is revoked the
 * socket closes with 1008 (policy violation) and the reason `API key revoked`.
 */
import type { Elysia } from 'elysia';
import type { Logger } from 'pino';
import { TrawlError } from '../core/errors.ts';
import type { Caller, RouteSocket, SocketRoute } from './route.ts';

/** Inbound frames are never read; anything larger than this closes the connection. */
const MAX_INBOUND_BYTES = 4096;
const IDLE_TIMEOUT_SECONDS = 120;
/** How often an open socket's key is read again: the longest a revoked key keeps one open. */
export const KEY_CHECK_MS = 1000;
/** An admitted upgrade that never opens (the handshake failed) gives its slot back after this. */
const RESERVATION_MS = 10_000;
export const REVOKED_CLOSE = { code: 1008, reason: 'API key revoked' } as const;

export interface SocketAdmission {
  maxOpen: number;
  maxPerWorkspace: number;
  logger: Logger;
  /** The request's key as its authorization header (a WebSocket client sends it as the sub-protocol). */
  authorizationOf(request: Request): string | null;
  /** Authenticates from the database and admits the upgrade as one request (throws 401, 429); answers the caller and headers to add. */
  admit(authorization: string | null): Promise<{ caller: Caller; headers: Record<string, string> }>;
  /** Whether the key still works, read from the database (false: revoked); throws when it cannot tell. */
  stillValid(authorization: string): Promise<boolean>;
}

interface Connection {
  abort: AbortController;
  drained: (() => void) | null;
  raw: RawSocket;
}

interface RawSocket {
  send(data: string): number;
  close(code?: number, reason?: string): void;
}

/** What an admitted upgrade carries into its socket's data. */
interface Admitted {
  caller: Caller;
  authorization: string | null;
  /** Released when the socket closes, or after RESERVATION_MS if it never opens. */
  slot: { opened: boolean; release(): void };
}

/** Counts of open (and admitted, about to open) sockets, overall and by workspace. */
function slots(maxOpen: number, maxPerWorkspace: number) {
  let total = 0;
  const byWorkspace = new Map<string, number>();
  return {
    take(workspace: string): Admitted['slot'] {
      if (total >= maxOpen)
        throw new TrawlError('overloaded', `Too many WebSocket connections (server.maxWebSockets = ${maxOpen}); poll the status instead`);
      const mine = byWorkspace.get(workspace) ?? 0;
      if (mine >= maxPerWorkspace)
        throw new TrawlError(
          'overloaded',
          `Too many WebSocket connections for this workspace (server.maxWebSocketsPerWorkspace = ${maxPerWorkspace}); poll the status instead`,
        );
      total++;
      byWorkspace.set(workspace, mine + 1);
      let released = false;
      const slot = {
        opened: false,
        release() {
          if (released) return;
          released = true;
          total--;
          const left = (byWorkspace.get(workspace) ?? 1) - 1;
          if (left > 0) byWorkspace.set(workspace, left);
          else byWorkspace.delete(workspace);
        },
      };
      setTimeout(() => {
        if (!slot.opened) slot.release();
      }, RESERVATION_MS).unref();
      return slot;
    },
  };
}

export function mountSockets(
  app: Elysia<any, any, any, any, any, any, any>,
  sockets: readonly SocketRoute[],
  admission: SocketAdmission,
): void {
  const { logger } = admission;
  const taken = slots(admission.maxOpen, admission.maxPerWorkspace);
  const connections = new WeakMap<object, Connection>();
  /** Open sockets by the key they came with, for the revocation check. */
  const byKey = new Map<string, Set<Connection>>();
  let checking: ReturnType<typeof setInterval> | null = null;

  async function checkKeys(): Promise<void> {
    for (const [authorization, open] of byKey) {
      const valid = await admission.stillValid(authorization).catch((err) => {
        logger.warn({ err }, "could not check an open WebSocket's key; checking again shortly");
        return true;
      });
      if (!valid) for (const connection of open) connection.raw.close(REVOKED_CLOSE.code, REVOKED_CLOSE.reason);
    }
  }
  const watchKey = (authorization: string, connection: Connection) => {
    const open = byKey.get(authorization) ?? new Set();
    byKey.set(authorization, open.add(connection));
    checking ??= setInterval(() => void checkKeys(), KEY_CHECK_MS);
  };
  const unwatchKey = (authorization: string, connection: Connection) => {
    const open = byKey.get(authorization);
    open?.delete(connection);
    if (open?.size === 0) byKey.delete(authorization);
    if (byKey.size === 0 && checking) {
      clearInterval(checking);
      checking = null;
    }
  };

  for (const route of sockets) {
    app.ws(route.path, {
      maxPayloadLength: MAX_INBOUND_BYTES,
      idleTimeout: IDLE_TIMEOUT_SECONDS,
      async upgrade(context: { request: Request; set: { headers: Record<string, string> }; admitted?: Admitted }) {
        const { request, set } = context;
        const authorization = admission.authorizationOf(request);
        const { caller, headers } = await admission.admit(authorization);
        Object.assign(set.headers, headers);
        // Taken after the awaits, so no two upgrades of one workspace count the same free slot.
        context.admitted = { caller, authorization, slot: taken.take(caller.workspace) };
        const offered = request.headers.get('sec-websocket-protocol')?.split(',')[0]?.trim();
        if (offered) set.headers['sec-websocket-protocol'] = offered;
      },
      open(ws: { raw: RawSocket; data: { params: Record<string, string>; admitted: Admitted } }) {
        const raw = ws.raw;
        const { params, admitted } = ws.data;
        admitted.slot.opened = true;
        const connection: Connection = { abort: new AbortController(), drained: null, raw };
        connections.set(raw, connection);
        if (admitted.authorization) watchKey(admitted.authorization, connection);
        const socket: RouteSocket = {
          signal: connection.abort.signal,
          close: (code, reason) => raw.close(code, reason),
          async send(text) {
            if (connection.abort.signal.aborted) return;
            // -1: queued behind backpressure; wait for the drain before the next message.
            if (raw.send(text) === -1)
              await new Promise<void>((resolve) => {
                connection.drained = resolve;
              });
          },
        };
        const { caller } = admitted;
        route
          .stream(socket, { params, workspace: caller.workspace, caller })
          .catch((err) => logger.error({ err, path: route.path }, 'WebSocket stream failed'))
          .finally(() => {
            if (!connection.abort.signal.aborted) raw.close(1000, 'done');
          });
      },
      drain(ws: { raw: RawSocket }) {
        const connection = connections.get(ws.raw);
        connection?.drained?.();
        if (connection) connection.drained = null;
      },
      message() {},
      close(ws: { raw: RawSocket; data: { admitted: Admitted } }) {
        const { admitted } = ws.data;
        admitted.slot.release();
        const connection = connections.get(ws.raw);
        if (connection && admitted.authorization) unwatchKey(admitted.authorization, connection);
        connection?.abort.abort();
        connection?.drained?.();
      },
    } as never);
  }
}
