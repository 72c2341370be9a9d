// The store's DuckDB database, opened with row groups of ROW_GROUP_ROWS rows. DuckDB takes a row
// group size only as an option of ATTACH, so a file store runs on an in-memory instance with its
// file attached as `store`, and every connection makes `store` its default catalog.
//
// Why not DuckDB's default of 122 880: a checkpoint (at the commit of an import) analyses and
// compresses a whole row group's columns at once, and with long strings (2 KB paths) that is where
// an import's memory peaked. With row groups of 16 384 rows two 40 000-session imports of 2 KB
// paths peak at 665 – 682 MB instead of 911 – 1 136 (docs/operations.md#memory).
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/** Rows in a row group of a file store (test/storage/duckdb-bulk-parts.test.ts reads it back). */
export const ROW_GROUP_ROWS = 16_384;
/** The catalog a file store's file is attached as. */
const STORE_CATALOG = 'store';

/** An open DuckDB database, and how to connect to it with its tables as the default catalog. */
export interface DuckDbDatabase {
  instance: DuckDBInstance;
  connect(): Promise<DuckDBConnection>;
}

/** Opens `path` (a file, or ':memory:' which keeps DuckDB's default row groups) with `config`. */
export async function openDuckDb(path: string, config: Record<string, string>): Promise<DuckDbDatabase> {
  if (path === ':memory:') {
    const instance = await DuckDBInstance.create(path, config);
    return { instance, connect: () => instance.connect() };
  }
  // Spills go beside the file, as DuckDB does for a file it opens itself (for an in-memory
  // instance it would use `.tmp` in the working folder).
  const instance = await DuckDBInstance.create(':memory:', { temp_directory: `${path}.tmp`, ...config });
  const attaching = await instance.connect();
  try {
    await attaching.run(`ATTACH ${fileLiteral(path)} AS ${STORE_CATALOG} (ROW_GROUP_SIZE ${ROW_GROUP_ROWS})`);
  } catch (err) {
    attaching.closeSync();
    instance.closeSync();
    throw err;
  }
  attaching.closeSync();
  return {
    instance,
    async connect() {
      const connection = await instance.connect();
      try {
        await connection.run(`USE ${STORE_CATALOG}`);
      } catch (err) {
        connection.closeSync();
        throw err;
      }
      return connection;
    },
  };
}

/**
 * A file path as a DuckDB string literal (ATTACH takes no parameter): quoted, with each quote
 * doubled; DuckDB reads no backslash escape in it. The path is the operator's data folder, never
 * a tenant's text; a NUL, which no file name holds, is refused.
 */
export function fileLiteral(path: string): string {
  if (path.includes('\0')) throw new Error('a DuckDB file path holds a NUL character');
  return `'${path.replaceAll("'", "''")}'`;
}
