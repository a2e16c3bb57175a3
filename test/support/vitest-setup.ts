import { afterAll } from 'vitest';
import { killStrayStations } from './station-process.ts';

// Runs after each test file: stations a failed test did not stop are killed, not left running.
afterAll(killStrayStations);
