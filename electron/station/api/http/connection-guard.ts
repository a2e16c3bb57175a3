import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** Open connections in all. Keep it well below the process's file limit (often 1024). */
  maxConnections: number;
  /** Open connections from one address. Every local caller is 127.0.0.1, so this is for remote binds. */
  maxPerPeer: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { maxConnections: 640, maxPerPeer: 512 };

interface Tracked {
  socket: Socket;
  peer: string;
  /** Requests in progress on the connection. */
  busy: number;
  /** A request on it carried a valid token: the UI's or an integration's own connection. */
  trusted: boolean;
}

export interface ConnectionGuard {
  /** Marks the connection of a request with a valid token: it is cut last. */
  trust(socket: Socket): void;
  readonly open: number;
}

/**
 * Caps connections in all and per peer without letting a flood lock the station's own clients out.
 * A new connection over a cap is not refused: room is made by cutting, oldest first, a connection
 * with no request in progress (a slow client still sending its headers, or an idle keep-alive),
 * else one whose request carries no valid token; only when every connection is a token holder's
 * busy request is the new one refused. A flood of slow connections thus cycles through the
 * untrusted slots while the UI's new connection gets in and is answered.
 */
export function guardConnections(server: Server, limits: ConnectionLimits): ConnectionGuard {
  const tracked = new Map<Socket, Tracked>();
  const perPeer = new Map<string, number>();
  // Served over TLS, a request's socket is the TLS socket over the tracked TCP one: found by its remote end.
  const overTls = new WeakMap<Socket, Tracked>();
  const entryOf = (socket: Socket): Tracked | undefined => tracked.get(socket) ?? overTls.get(socket);

  const evictFrom = (candidates: Iterable<Tracked>): boolean => {
    let idle: Tracked | undefined;
    let untrusted: Tracked | undefined;
    // Map order is insertion order: the first match is the oldest.
    for (const entry of candidates) {
      if (entry.busy === 0 && !entry.trusted) {
        idle = entry;
        break;
      }
      if (entry.busy === 0) idle ??= entry;
      else if (!entry.trusted) untrusted ??= entry;
    }
    const victim = idle ?? untrusted;
    if (!victim) return false;
    forget(victim.socket);
    victim.socket.destroy();
    return true;
  };

  const forget = (socket: Socket): void => {
    const entry = tracked.get(socket);
    if (!entry) return;
    tracked.delete(socket);
    const left = (perPeer.get(entry.peer) ?? 1) - 1;
    if (left > 0) perPeer.set(entry.peer, left);
    else perPeer.delete(entry.peer);
  };

  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress ?? 'unknown';
    if ((perPeer.get(peer) ?? 0) >= limits.maxPerPeer) {
      const fromPeer = [...tracked.values()].filter((entry) => entry.peer === peer);
      if (!evictFrom(fromPeer)) return void socket.destroy();
    }
    if (tracked.size >= limits.maxConnections && !evictFrom(tracked.values())) return void socket.destroy();
    tracked.set(socket, { socket, peer, busy: 0, trusted: false });
    perPeer.set(peer, (perPeer.get(peer) ?? 0) + 1);
    socket.once('close', () => forget(socket));
  });

  server.on('secureConnection', (secure: Socket) => {
    for (const entry of tracked.values()) {
      if (entry.socket.remotePort === secure.remotePort && entry.socket.remoteAddress === secure.remoteAddress) return void overTls.set(secure, entry);
    }
  });

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const entry = entryOf(request.socket);
    if (!entry) return;
    entry.busy += 1;
    response.once('close', () => {
      entry.busy = Math.max(0, entry.busy - 1);
    });
  });

  return {
    trust(socket) {
      const entry = entryOf(socket);
      if (entry) entry.trusted = true;
    },
    get open() {
      return tracked.size;
    },
  };
}
