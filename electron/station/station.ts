import type { FastifyInstance } from 'fastify';
import { lockDataDir } from './data-dir-lock.ts';
import { buildServer, type ServerOptions } from './server.ts';

export interface StationOptions extends ServerOptions {
  dataDir: string;
  /** Names the process in the data-directory lock, for the message a second process prints. */
  command?: string;
}

/** The station core: the data directory it owns and the HTTP server over it. */
export interface Station {
  readonly dataDir: string;
  readonly server: FastifyInstance;
  /** Starts listening; resolves to the origin, with the real port when `port` is 0. */
  listen(host: string, port: number): Promise<string>;
  /** Stops accepting, finishes in-flight requests, flushes, releases the data directory. */
  close(): Promise<void>;
}

export async function openStation(options: StationOptions): Promise<Station> {
  const lock = lockDataDir(options.dataDir, options.command ?? 'returns-station');
  let server: FastifyInstance;
  try {
    server = await buildServer(options);
  } catch (error) {
    lock.release();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    dataDir: options.dataDir,
    server,
    async listen(host, port) {
      await server.listen({ host, port });
      const address = server.server.address();
      if (address === null || typeof address === 'string') throw new Error('The station is not listening on TCP.');
      return `http://${formatHost(host)}:${address.port}`;
    },
    close() {
      closing ??= (async () => {
        try {
          await server.close();
        } finally {
          lock.release();
        }
      })();
      return closing;
    },
  };
}

function formatHost(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}
