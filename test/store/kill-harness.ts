// The kill test's harness, shared by the suite (a few rounds) and `npm run bench` (more): a child
// process runs concurrent writers and is killed with SIGKILL at a random moment; after each kill
// the store is reopened and every write the child saw acknowledged must be there.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openStore, trackingKey } from '../../electron/station/store/index.ts';
import { insidesOf } from '../../electron/station/store/insides.ts';
import { seededRandom } from '../support/test-seed.ts';

const CHILD = fileURLToPath(new URL('./child-writers.ts', import.meta.url));

export interface KillReport {
  rounds: number;
  /** Writes the children saw acknowledged, over all rounds. */
  acknowledged: number;
  /** Acknowledged writes missing or different after a restart. */
  lost: number;
  /** Broken invariants after a restart (atomicity, unique index, SQLite copy), described. */
  violations: string[];
}

/** A child that has acknowledged nothing this long after it is ready is broken, not slow. */
const FIRST_ACK_DEADLINE_MS = 60_000;

/**
 * Runs the writers child and SIGKILLs it `killAfterMs` after its first acknowledged write, returns
 * the acknowledged writes. Timed from the first acknowledgement, not from "ready": on a loaded
 * machine a kill timed from "ready" could land before any write finished, and such a round proves
 * nothing.
 */
function runAndKill(dir: string, round: number, killAfterMs: number): Promise<Map<number, string>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, dir, String(round), '16'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const acknowledged = new Map<number, string>();
    let buffer = '';
    let stderr = '';
    let watchdog: NodeJS.Timeout | undefined;
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (line === 'ready') {
          watchdog = setTimeout(() => {
            reject(new Error(`round ${round}: the writer child acknowledged nothing within ${FIRST_ACK_DEADLINE_MS} ms: ${stderr}`));
            child.kill('SIGKILL');
          }, FIRST_ACK_DEADLINE_MS);
          continue;
        }
        const [id, tracking] = line.split(' ');
        if (acknowledged.size === 0) {
          clearTimeout(watchdog);
          setTimeout(() => child.kill('SIGKILL'), killAfterMs);
        }
        acknowledged.set(Number(id), tracking ?? '');
      }
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      clearTimeout(watchdog);
      if (signal !== 'SIGKILL') reject(new Error(`writer child exited without being killed: ${stderr}`));
      else resolve(acknowledged);
    });
  });
}

export async function killRounds(dir: string, rounds: number): Promise<KillReport> {
  const everAcknowledged = new Map<number, string>();
  const violations: string[] = [];
  let lost = 0;
  // When each round is killed, from the run's seed: a replay kills at the same times.
  const killAt = seededRandom('killRounds');
  for (let round = 0; round < rounds; round++) {
    const acknowledged = await runAndKill(dir, round, Math.floor(killAt() * 350));
    for (const [id, tracking] of acknowledged) everAcknowledged.set(id, tracking);

    const store = await openStore({ dataDir: dir });
    try {
      const packages = await insidesOf(store).db.return_packages.toArray();
      const byId = new Map(packages.map((p) => [p.id, p]));
      for (const [id, tracking] of everAcknowledged) if (byId.get(id)?.tracking_number !== tracking) lost += 1;
      // Every package came with its line item in the same transaction: all or nothing.
      const withItems = new Set((await insidesOf(store).db.package_line_items.toArray()).map((item) => item.return_package_id));
      if (withItems.size !== byId.size || [...byId.keys()].some((id) => !withItems.has(id)))
        violations.push(`round ${round}: a package and its line item were split`);
      // The unique index still holds: one live tracking key per account.
      const live = packages.filter((p) => p.tracking_key !== null).map((p) => `${p.account_id}:${p.tracking_key}`);
      if (new Set(live).size !== live.length) violations.push(`round ${round}: a tracking number is live twice`);
      if (packages.some((p) => p.tracking_key !== (p.status === 'cancelled' ? null : trackingKey(p.tracking_number))))
        violations.push(`round ${round}: a tracking key is wrong`);
      // SQLite's copy (the list queries) agrees with the engine.
      if (store.count('return_packages', {}) !== packages.length) violations.push(`round ${round}: SQLite and the engine disagree`);
    } finally {
      await store.close();
    }
  }
  return { rounds, acknowledged: everAcknowledged.size, lost, violations };
}
