// The baseline: a bare Fastify hello-world on loopback, measured in the same run as the station.
import Fastify from 'fastify';

const server = Fastify({ logger: false });
server.get('/', async () => ({ hello: 'world' }));
await server.listen({ host: '127.0.0.1', port: 0 });
const address = server.server.address();
if (address && typeof address === 'object') process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
