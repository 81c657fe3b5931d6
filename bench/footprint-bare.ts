// The footprint ceiling: what a Node server needs at the least to do Crier's job at all, Fastify
// listening with a pg pool connected and one route that queries it, nothing else loaded. Its RSS,
// heap and start time are what Crier's are compared with (bench/footprint.ts).
//   DATABASE_URL=postgres://... PORT=3999 node bench/footprint-bare.ts
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
await pool.query('SELECT 1');
const app = Fastify({ logger: false });
app.get('/healthz', async () => {
  await pool.query('SELECT 1');
  return { status: 'ok' };
});
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.stdout.write('bare server is running\n');

const stop = () => {
  void app.close().then(() => pool.end()).then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
