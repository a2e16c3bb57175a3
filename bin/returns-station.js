#!/usr/bin/env -S node --disable-warning=ExperimentalWarning
// The operator command. Runs the TypeScript sources directly on Node 24 (type stripping), so the
// command needs no build step; only the UI it serves is built (`npm run build`).
import { main } from '../electron/cli/main.ts';

await main(process.argv.slice(2));
