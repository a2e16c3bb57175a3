import { fleetCase } from './sync-fleet-bench.ts';
const stations = Number(process.env.N ?? 16);
const rows = await fleetCase({ filters: 'ignored', topology: 'hub', stations, section: 'site', receiptsPerStation: Math.max(1, Math.floor(200 / stations)) });
for (const r of rows) console.log(r.name, '|', r.value, '|', r.ok);
process.exit(0);
