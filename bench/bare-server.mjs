// The baseline of bench/ingest: a bare Fastify route that reads the body and answers 202. With
// BARE_WORK_US, the route first spins for that many microseconds of synchronous work: the bench's
// ceiling run, which shows how much work a request may add to the bare route at a given ratio.
import Fastify from 'fastify';

const workMs = Number(process.env.BARE_WORK_US ?? 0) / 1000;
const app = Fastify({ logger: false });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
app.post('/api/e', async (_request, reply) => {
  if (workMs > 0) {
    const start = performance.now();
    while (performance.now() - start < workMs);
  }
  return reply.code(202).send();
});
process.on('SIGINT', () => process.exit(0));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('ready');
