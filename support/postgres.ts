// Fresh PostgreSQL databases for tests, on the server every machine of the project runs
// (127.0.0.1:5432, user postgres, trust). Unreachable PostgreSQL fails the test that asked: it
// never skips.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const SERVER = 'postgres://postgres@127.0.0.1:5432';

export interface TestDatabase {
  url: string;
  /** Drops the database, ending any connection still open to it. */
  drop(): Promise<void>;
}

async function onServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: `${SERVER}/postgres`, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`PostgreSQL at ${SERVER} is unreachable (these tests need it): ${String(err)}`);
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  // Identifiers cannot be parameters; the name is generated here from hex digits only.
  await onServer((client) => client.query(`CREATE DATABASE ${name}`));
  return {
    url: `${SERVER}/${name}`,
    drop: () => onServer((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
