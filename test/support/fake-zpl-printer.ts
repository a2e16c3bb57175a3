import { createServer, type Server, type Socket } from 'node:net';

/*
 * A network label printer in a test: a TCP listener that takes raw ZPL as a Zebra printer's port
 * 9100 does, one job a connection, and keeps what it received. It can be down (not listening: the
 * station's connect is refused) and come back on the same port.
 */
export interface FakeZplPrinter {
  readonly port: number;
  /** Every job received whole (connection closed by the sender), in order. */
  readonly jobs: string[];
  /** Listens (again) on `port`. */
  up(): Promise<void>;
  /** Stops listening and drops open connections: the printer is off. */
  down(): Promise<void>;
  /**
   * The next connection is held open until `release` resolves, then reset: the job is not taken
   * (a printer that fails mid-job), and the connections after it are taken as usual.
   */
  failNext(release: Promise<unknown>): void;
  /** Resolves once `count` jobs have arrived (or rejects after `timeoutMs`). */
  waitForJobs(count: number, timeoutMs?: number): Promise<string[]>;
}

/** A free TCP port on 127.0.0.1 now (listened on and closed again). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export async function fakeZplPrinter(options: { port?: number; up?: boolean } = {}): Promise<FakeZplPrinter> {
  const port = options.port ?? (await freePort());
  const jobs: string[] = [];
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const waiters: Array<() => void> = [];
  const failures: Array<Promise<unknown>> = [];
  const printer: FakeZplPrinter = {
    port,
    jobs,
    async up() {
      if (server) return;
      server = createServer((socket) => {
        sockets.add(socket);
        const failure = failures.shift();
        if (failure) {
          socket.on('error', () => undefined);
          void failure.then(() => socket.resetAndDestroy());
          return;
        }
        const chunks: Buffer[] = [];
        socket.on('data', (chunk) => chunks.push(chunk));
        // The sender closed its end: the job is whole. The listener's end closes too (allowHalfOpen false).
        socket.on('end', () => {
          jobs.push(Buffer.concat(chunks).toString('utf8'));
          for (const wake of waiters.splice(0)) wake();
        });
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => undefined);
      });
      const listening = server;
      await new Promise<void>((resolve, reject) => {
        listening.once('error', reject);
        listening.listen(port, '127.0.0.1', () => resolve());
      });
    },
    async down() {
      const closing = server;
      server = undefined;
      if (!closing) return;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
    failNext(release) {
      failures.push(release);
    },
    async waitForJobs(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (jobs.length < count) {
        if (Date.now() > deadline) throw new Error(`The printer received ${jobs.length} job(s), expected ${count}.`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return [...jobs];
    },
  };
  if (options.up ?? true) await printer.up();
  return printer;
}
