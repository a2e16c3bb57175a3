import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openStore, trackingKey } from '../../electron/station/store/index.ts';
import { tempDataDir } from './fixtures.ts';

const CHILD = fileURLToPath(new URL('./child-writers.ts', import.meta.url));
const ROUNDS = 4;

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDataDir());
});
afterEach(() => cleanup());

/** Runs the writers child until `killAfterMs` after it is ready, SIGKILLs it, returns the acknowledged writes. */
function runAndKill(round: number, killAfterMs: number): Promise<Map<number, string>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, dir, String(round), '16'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const acknowledged = new Map<number, string>();
    let buffer = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (line === 'ready') {
          setTimeout(() => child.kill('SIGKILL'), killAfterMs);
          continue;
        }
        const [id, tracking] = line.split(' ');
        acknowledged.set(Number(id), tracking ?? '');
      }
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`writer child exited without being killed: ${stderr}`));
      else resolve(acknowledged);
    });
  });
}

it('loses no acknowledged write when killed with SIGKILL at random moments', async () => {
  const everAcknowledged = new Map<number, string>();
  for (let round = 0; round < ROUNDS; round++) {
    const acknowledged = await runAndKill(round, 150 + Math.floor(Math.random() * 350));
    expect(acknowledged.size).toBeGreaterThan(0);
    for (const [id, tracking] of acknowledged) everAcknowledged.set(id, tracking);

    const store = await openStore({ dataDir: dir });
    try {
      const packages = await store.db.return_packages.toArray();
      const byId = new Map(packages.map((p) => [p.id, p]));
      for (const [id, tracking] of everAcknowledged) expect(byId.get(id)?.tracking_number).toBe(tracking);
      // Every package came with its line item in the same transaction: all or nothing.
      const lineItems = await store.db.package_line_items.toArray();
      expect(new Set(lineItems.map((item) => item.return_package_id))).toEqual(new Set(byId.keys()));
      // The unique index still holds: one live tracking key per account.
      const live = packages.filter((p) => p.tracking_key !== null).map((p) => `${p.account_id}:${p.tracking_key}`);
      expect(new Set(live).size).toBe(live.length);
      for (const p of packages) expect(p.tracking_key).toBe(p.status === 'cancelled' ? null : trackingKey(p.tracking_number));
      // SQLite's copy (the list queries) agrees with the engine.
      expect(store.count('return_packages', {})).toBe(packages.length);
    } finally {
      await store.close();
    }
  }
});
