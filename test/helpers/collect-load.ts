// Steady collection traffic through a proxy: one visitor per source network (127.0.<n>.1, each its
// own /24, so each stays under the per-network collection rate limit), pageviews at a fixed pace,
// every answer counted.
import { postFrom } from './post-from.js';
import { browserHeaders } from './server.js';

export interface CollectLoadOptions {
  port: number;
  siteId: string;
  domain: string;
  /** Visitors, one per source network (1 – 250). */
  networks: number;
  /** Pageviews a second per visitor; the default rate limit allows 10. */
  perSecond: number;
}

export interface CollectTally {
  /** Events answered 202: each one svc promises to store. */
  answered: number;
  /** Other answers and failed requests, by status or error code. */
  failed: Record<string, number>;
}

export interface CollectLoad {
  tally(): CollectTally;
  /** Stops sending and resolves once every request sent is answered. */
  stop(): Promise<CollectTally>;
}

export function startCollectLoad(options: CollectLoadOptions): CollectLoad {
  const tally: CollectTally = { answered: 0, failed: {} };
  let running = true;
  const fail = (reason: string) => (tally.failed[reason] = (tally.failed[reason] ?? 0) + 1);
  const visitor = async (network: number) => {
    const address = `127.0.${network}.1`;
    const pause = 1000 / options.perSecond;
    for (let i = 0; running; i++) {
      const started = Date.now();
      const body = JSON.stringify({ s: options.siteId, u: `/load/${network}/${i}` });
      try {
        const status = await postFrom(address, options.port, '/api/e', body, browserHeaders(options.domain));
        if (status === 202) tally.answered++;
        else fail(String(status));
      } catch (err) {
        fail((err as NodeJS.ErrnoException).code ?? 'error');
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, pause - (Date.now() - started))));
    }
  };
  const visitors = Array.from({ length: options.networks }, (_, n) => visitor(n + 1));
  return {
    tally: () => ({ answered: tally.answered, failed: { ...tally.failed } }),
    async stop() {
      running = false;
      await Promise.all(visitors);
      return { answered: tally.answered, failed: { ...tally.failed } };
    },
  };
}
