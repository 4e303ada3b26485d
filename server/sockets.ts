/**
 * Mounts the route modules' WebSocket routes on the Elysia app: at most `server.maxWebSockets`
 * connections at once (the next upgrade is a 503), inbound messages capped small and ignored (the
 * routes only stream out), sends that wait while a slow client's buffer drains (so a reader that
 * stops reading holds one message in memory, not the whole run), and the sub-protocol the client
 * offered echoed back (clients that send their key that way fail the handshake otherwise).
 */
import type { Elysia } from 'elysia';
import type { Logger } from 'pino';
import { TrawlError } from '../core/errors.ts';
import type { Caller, RouteSocket, SocketRoute } from './route.ts';

/** Inbound frames are never read; anything larger than this closes the connection. */
const MAX_INBOUND_BYTES = 4096;
const IDLE_TIMEOUT_SECONDS = 120;

interface Connection {
  abort: AbortController;
  drained: (() => void) | null;
}

interface RawSocket {
  send(data: string): number;
  close(code?: number, reason?: string): void;
}

export function mountSockets(app: Elysia<any, any, any, any, any, any, any>, sockets: readonly SocketRoute[], maxOpen: number, logger: Logger): void {
  let open = 0;
  const connections = new WeakMap<object, Connection>();
  for (const route of sockets) {
    app.ws(route.path, {
      maxPayloadLength: MAX_INBOUND_BYTES,
      idleTimeout: IDLE_TIMEOUT_SECONDS,
      upgrade({ request, set }: { request: Request; set: { headers: Record<string, string> } }) {
        if (open >= maxOpen) throw new TrawlError('overloaded', `Too many WebSocket connections (server.maxWebSockets = ${maxOpen}); poll the status instead`);
        const offered = request.headers.get('sec-websocket-protocol')?.split(',')[0]?.trim();
        if (offered) set.headers['sec-websocket-protocol'] = offered;
      },
      open(ws: { raw: RawSocket; data: { params: Record<string, string>; caller: Caller } }) {
        open++;
        const raw = ws.raw;
        const connection: Connection = { abort: new AbortController(), drained: null };
        connections.set(raw, connection);
        const socket: RouteSocket = {
          signal: connection.abort.signal,
          close: (code, reason) => raw.close(code, reason),
          async send(text) {
            if (connection.abort.signal.aborted) return;
            // -1: queued behind backpressure; wait for the drain before the next message.
            if (raw.send(text) === -1) await new Promise<void>((resolve) => { connection.drained = resolve; });
          },
        };
        const { params, caller } = ws.data;
        route.stream(socket, { params, workspace: caller.workspace, caller })
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
      close(ws: { raw: RawSocket }) {
        open--;
        const connection = connections.get(ws.raw);
        connection?.abort.abort();
        connection?.drained?.();
      },
    } as never);
  }
}
