// What a DuckDB event store sets on itself as its work changes: the buffer pool's limit and the
// write-ahead log's checkpoint threshold while imports roll up; at an idle check, a checkpoint and
// the pool emptied. Each statement runs alone on a connection of its own, in the order asked, and
// never fails the work around it (DuckDB's refusal goes to `warn`).
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DuckDbDatabase } from './duckdb-file.js';

/** The pool's limit for the moment of an idle release: low enough to evict almost every block no statement holds (a lower one fails where an open connection's own state is pinned). */
const IDLE_POOL_LIMIT = '16MiB';

/**
 * The write-ahead log's size past which a commit checkpoints while an import rolls up (DuckDB's
 * default, kept otherwise: 16 MiB). A 200 000-line import's rollups log about 18 MB, and each paid
 * a checkpoint in its commits (0.45 – 0.64 s); now the next commit past 16 MiB or an idle check
 * does. A checkpoint asked as the import ends ran beside the next one's appends, whose synchronous
 * flushes waited for it with the event loop held (a live p99 of 1.8 s); always at 64 MiB, four
 * imports' log took about 1 s at once, but collection at 20 000 events/s held up to 70 MB more.
 */
export const IMPORT_CHECKPOINT_THRESHOLD = '64MiB';
const CHECKPOINT_THRESHOLD = '16MiB';

/** A memory limit as the configuration writes it ('224MiB', '2GB'): the only text a SET here is given. */
export function checkedMemoryLimit(limit: string): string {
  if (!/^\d{1,7}(MB|GB|MiB|GiB)$/.test(limit)) throw new Error(`not a memory limit: ${JSON.stringify(limit)}`);
  return limit;
}

export class DuckDbSettings {
  /** The last statement asked: they run one at a time, in order, and it never rejects. */
  private last: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly database: DuckDbDatabase,
    /** The pool's limit and the one while imports roll up (null: imports keep the pool as it is). */
    private readonly limits: { memory: string; import: string } | null,
    /** The pool's configured limit, restored after an idle release (null: DuckDB's default, and no pool release). */
    private readonly memoryLimit: string | null,
    private readonly warn: (err: unknown, message: string) => void,
  ) {}

  /** Once every statement asked so far has run. */
  get settled(): Promise<void> {
    return this.last;
  }

  /** The pool's limit (where imports have one of their own) and the checkpoint threshold, for imports rolling up or not. */
  importing(yes: boolean): Promise<void> {
    const threshold = yes ? IMPORT_CHECKPOINT_THRESHOLD : CHECKPOINT_THRESHOLD;
    void this.alone(`SET checkpoint_threshold = '${threshold}'`, `DuckDB's checkpoint threshold could not be set to ${threshold}`);
    return this.limits === null ? this.last : this.setMemoryLimit(yes ? this.limits.import : this.limits.memory);
  }

  /**
   * What the write-ahead log holds checkpointed (its rows leave memory for the file), then, with a
   * configured limit, the limit down to IDLE_POOL_LIMIT, evicting the blocks reads cached, and back.
   */
  releaseIdle(): Promise<void> {
    void this.alone('CHECKPOINT', 'the write-ahead log was not checkpointed; a later commit or idle check does it');
    if (this.memoryLimit === null) return this.last;
    void this.setMemoryLimit(IDLE_POOL_LIMIT);
    return this.setMemoryLimit(this.memoryLimit);
  }

  /** No statement after those asked so far. */
  close(): Promise<void> {
    this.closed = true;
    return this.last;
  }

  private setMemoryLimit(limit: string): Promise<void> {
    return this.alone(`SET memory_limit = '${limit}'`, `DuckDB's memory_limit could not be set to ${limit}; the pool keeps the limit it has`);
  }

  private alone(statement: string, failure: string): Promise<void> {
    this.last = this.last.then(async () => {
      if (this.closed) return;
      let connection: DuckDBConnection | undefined;
      try {
        connection = await this.database.connect();
        await connection.run(statement);
      } catch (err) {
        this.warn(err, failure);
      } finally {
        connection?.closeSync();
      }
    });
    return this.last;
  }
}
