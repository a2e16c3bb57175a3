import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface BaselineServer {
  origin: string;
  /** Its process (for its CPU time per request). */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** Starts the bare Fastify hello-world baseline in its own process, like the station runs in its own. */
export async function startHelloBaseline(): Promise<BaselineServer> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./hello-server.ts', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
  const origin = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`baseline exited with ${code}`)));
  });
  return {
    origin,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
