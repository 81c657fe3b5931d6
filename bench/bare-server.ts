// The HTTP ceiling: the same Fastify major as Crier, with nothing on top (no auth, hooks, database,
// logging), run as its own process like the API. Whatever Crier loses against this is Crier's cost.
//   PORT=3999 node bench/bare-server.ts
import Fastify from 'fastify';

const port = Number(process.env.PORT ?? 0);
const app = Fastify({ logger: false });

app.get('/bare', async () => ({ ok: true }));
// Echoes the parsed JSON body, so the ceiling also pays for body parsing and serialisation.
app.post('/bare', async (request) => request.body);

await app.listen({ port, host: '127.0.0.1' });

const stop = () => {
  void app.close().then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
