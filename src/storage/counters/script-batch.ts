// Calls of one Lua script coalesced into one EVALSHA: the calls made within one turn of the event
// loop (the events of the requests read in that turn), up to `maxCalls`, travel together and run
// in Redis one after the other, in the order they were made, atomically as one script.
import type { Redis } from 'ioredis';

/**
 * A script that runs a list of calls: KEYS holds each call's keys in turn, ARGV the shared arguments
 * then each call's arguments in turn; it answers a list with one result per call.
 */
export interface BatchScript {
  /** The command name the script is defined under on the connection. */
  name: string;
  lua: string;
}

type ScriptCommand = (numKeys: number, ...keysAndArgs: Array<string | number>) => Promise<unknown[]>;

export class ScriptBatch<R> {
  private keys: string[] = [];
  private args: Array<string | number> = [];
  private waiting: Array<{ resolve(result: R): void; reject(err: unknown): void }> = [];
  private scheduled = false;
  private readonly command: ScriptCommand;

  /**
   * `shared` are the arguments every call of this batch has in common (a limit, a window).
   * `maxCalls` 1 sends every call on its own (what bench/counters compares batching with).
   */
  constructor(
    redis: Redis,
    private readonly script: BatchScript,
    private readonly shared: ReadonlyArray<string | number>,
    private readonly maxCalls = 512,
  ) {
    if (!(script.name in redis)) redis.defineCommand(script.name, { lua: script.lua });
    const command = (redis as unknown as Record<string, ScriptCommand>)[script.name]!;
    this.command = command.bind(redis);
  }

  call(keys: ReadonlyArray<string>, args: ReadonlyArray<string | number>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.keys.push(...keys);
      this.args.push(...args);
      this.waiting.push({ resolve, reject });
      if (this.waiting.length >= this.maxCalls) this.send();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.send());
      }
    });
  }

  private send(): void {
    this.scheduled = false;
    const { keys, args, waiting } = this;
    if (waiting.length === 0) return;
    this.keys = [];
    this.args = [];
    this.waiting = [];
    this.command(keys.length, ...keys, ...this.shared, ...args).then(
      (results) => {
        for (let i = 0; i < waiting.length; i++) waiting[i]!.resolve(results[i] as R);
      },
      (err: unknown) => {
        for (const w of waiting) w.reject(err);
      },
    );
  }
}
