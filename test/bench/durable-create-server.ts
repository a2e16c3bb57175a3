// The durable-create baseline: a bare Fastify route that makes each create durable the plainest way,
// on the SQLite the store uses (node:sqlite): WAL, synchronous=FULL, and group commit (the creates
// that arrive while a commit runs share the next one), answering 201 only after its commit.
// `node durable-create-server.ts DIR` prints "listening on URL" once ready; SIGTERM stops it.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import Fastify from 'fastify';

const dir = process.argv[2];
if (!dir) throw new Error('usage: node durable-create-server.ts DIR');
const db = new DatabaseSync(join(dir, 'durable-baseline.db'));
db.exec('PRAGMA journal_mode = WAL');
db.exec('PRAGMA synchronous = FULL');
db.exec('CREATE TABLE IF NOT EXISTS packages (id INTEGER PRIMARY KEY, tracking_number TEXT NOT NULL UNIQUE, record TEXT NOT NULL)');
const insert = db.prepare('INSERT INTO packages (tracking_number, record) VALUES (?, ?)');

interface Waiting {
  record: Record<string, unknown>;
  done: (answer: { status: number; body: unknown }) => void;
}
let waiting: Waiting[] = [];
let flushing = false;

/** Commits every create waiting, in one transaction, then answers each. */
function commit(): void {
  const batch = waiting;
  waiting = [];
  flushing = false;
  const answers: Array<{ status: number; body: unknown }> = [];
  db.exec('BEGIN');
  for (const { record } of batch) {
    try {
      const { lastInsertRowid } = insert.run(String(record.tracking_number), JSON.stringify(record));
      answers.push({ status: 201, body: { id: Number(lastInsertRowid), ...record } });
    } catch (error) {
      answers.push({ status: 409, body: { error: error instanceof Error ? error.message : String(error) } });
    }
  }
  db.exec('COMMIT'); // synchronous=FULL: the WAL is fsynced here, before anyone is answered
  batch.forEach((entry, index) => entry.done(answers[index] ?? { status: 500, body: null }));
}

const server = Fastify({ logger: false });
server.post<{ Body: { return_id?: unknown; tracking_number?: unknown } }>('/packages', async (request, reply) => {
  const { return_id: returnId, tracking_number: tracking } = request.body ?? {};
  if (!Number.isInteger(returnId) || typeof tracking !== 'string' || tracking.length === 0 || tracking.length > 64) {
    return reply.code(400).send({ error: 'return_id (an integer) and tracking_number (1-64 characters) are required' });
  }
  const now = new Date().toISOString();
  const record = { return_id: returnId, tracking_number: tracking, status: 'pending', notes: null, created_at: now, updated_at: now };
  const answer = await new Promise<{ status: number; body: unknown }>((done) => {
    waiting.push({ record, done });
    if (!flushing) {
      flushing = true;
      setImmediate(commit);
    }
  });
  return reply.code(answer.status).send(answer.body);
});
await server.listen({ host: '127.0.0.1', port: 0 });
const address = server.server.address();
if (address && typeof address === 'object') process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
process.on('SIGTERM', () => void server.close().then(() => (db.close(), process.exit(0))));
