// The baseline of bench/ingest: a bare Fastify route that reads the body and answers 202.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
app.post('/api/e', async (_request, reply) => reply.code(202).send());
process.on('SIGINT', () => process.exit(0));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('ready');
