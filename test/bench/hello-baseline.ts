import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface BaselineServer {
  origin: string;
  /** Its process (for its CPU time per request). */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** Starts the bare Fastify hello-world baseline in its own process, like the station runs in its own. */
export function startHelloBaseline(): Promise<BaselineServer> {
  return startBaselineServer('./hello-server.ts');
}

/** Starts a baseline server script of this folder in its own process; it prints "listening on URL" when ready. */
export async function startBaselineServer(script: string, args: string[] = []): Promise<BaselineServer> {
  const child = spawn(process.execPath, [fileURLToPath(new URL(script, import.meta.url)), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const origin = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`baseline ${script} exited with ${code}`)));
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
