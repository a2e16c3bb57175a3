// Test only, loaded into a real `returns-station serve` with NODE_OPTIONS=--import=<this file>, so the
// station itself exposes nothing of its heap. In every node process it runs in (the command's first
// one and the one it restarts into), it drives V8's young generation to its ceiling — records that
// survive a scavenge or two, as the station's requests make them — and appends one JSON line to
// YOUNG_GENERATION_PROBE_FILE: the pid, node's arguments and the largest new space V8 committed.
import { appendFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

const file = process.env.YOUNG_GENERATION_PROBE_FILE;
if (file) {
  const newSpaceMiB = () => (getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0) / 2 ** 20;
  let largest = newSpaceMiB();
  const window: unknown[] = new Array(50_000);
  for (let i = 0; i < 2_000_000; i++) {
    window[i % window.length] = { i, text: `record ${i}`, pair: [i, i] };
    if (i % 10_000 === 0) largest = Math.max(largest, newSpaceMiB());
  }
  window.length = 0;
  appendFileSync(file, `${JSON.stringify({ pid: process.pid, execArgv: process.execArgv, newSpaceMiB: largest })}\n`);
}
