// How promptly processes answer /healthz while a test puts load on them: each address is asked every
// few milliseconds, one request at a time, and each answer's wait is counted from the moment the
// request was due, so that a server stalled in the test's own process (whose timers then fire late)
// counts as one in a child process does.

export interface HealthzWaits {
  url: string;
  samples: number;
  /** Requests that got no answer (the connection closed). */
  failures: number;
  /** The longest wait, in milliseconds, from a request's due time to its answer or failure. */
  worstMs: number;
}

export interface HealthzSampler {
  /** Stops asking and gives each address's waits. */
  stop(): Promise<HealthzWaits[]>;
}

export function sampleHealthz(urls: readonly string[], everyMs = 50): HealthzSampler {
  let stopped = false;
  const sample = async (url: string): Promise<HealthzWaits> => {
    const waits: HealthzWaits = { url, samples: 0, failures: 0, worstMs: 0 };
    let due = performance.now();
    while (!stopped) {
      const ok = await fetch(`${url}/healthz`).then((res) => res.ok, () => false);
      const answered = performance.now();
      waits.samples++;
      if (!ok) waits.failures++;
      waits.worstMs = Math.max(waits.worstMs, answered - due);
      due = answered + everyMs;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    return waits;
  };
  const running = urls.map(sample);
  return {
    stop() {
      stopped = true;
      return Promise.all(running);
    },
  };
}
