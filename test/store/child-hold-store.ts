// Child process for the store tests: opens the store in argv[2], prints "ready", holds it until killed.
import { openStore } from '../../electron/station/store/index.ts';

const store = await openStore({ dataDir: process.argv[2] ?? '' });
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void store.close().then(() => process.exit(0));
});
setInterval(() => {}, 1 << 30);
