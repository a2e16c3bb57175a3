#!/usr/bin/env -S node --disable-warning=ExperimentalWarning
// The operator command. Runs the TypeScript sources directly on Node 24 (type stripping), so the
// command needs no build step; only the UI it serves is built (`npm run build`).
import { restartWithSemiSpace } from '../electron/station/heap/young-generation.ts';

// `serve` needs V8's young generation sized when node starts: restart in place with the flag first,
// before the station is loaded (docs/decisions/memory-over-a-year.md).
if (process.argv[2] === 'serve') restartWithSemiSpace();
const { main } = await import('../electron/cli/main.ts');

await main(process.argv.slice(2));
