import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface JsonServerBaseline {
  origin: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * json-server 0.17, what an integrator would otherwise run locally, serving the same number of
 * package records from a db.json in `dir`.
 */
export async function startJsonServer(dir: string, records: number): Promise<JsonServerBaseline> {
  const statuses = ['pending', 'in_transit', 'in_transit', 'in_transit', 'delivered', 'received', 'received', 'exception', 'cancelled'];
  const packages = Array.from({ length: records }, (_unused, index) => ({
    id: index + 1,
    return_id: index + 1,
    tracking_number: `1Z${String(index).padStart(12, '0')}`,
    status: statuses[index % statuses.length],
    estimated_arrival: '2026-11-24T10:00:00.000Z',
    weight: 1.25,
    weight_unit: 'kg',
    dimensions: { length: 40, width: 30, height: 20, dimension_unit: 'cm' },
    carrier: { id: 1, name: 'UPS', service: 'Ground' },
    location_id: 1,
    fulfillment_center_id: 1,
    line_items_count: 1,
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-01T10:00:00.000Z',
  }));
  const db = join(dir, 'db.json');
  await writeFile(db, JSON.stringify({ return_packages: packages }));
  const port = await freePort();
  const bin = fileURLToPath(new URL('../../node_modules/json-server/lib/cli/bin.js', import.meta.url));
  const child = spawn(process.execPath, [bin, '--port', String(port), '--host', '127.0.0.1', '--quiet', db], { stdio: ['ignore', 'pipe', 'inherit'] });
  const origin = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(`${origin}/return_packages/1`)).ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    origin,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
