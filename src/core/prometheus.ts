// A tiny Prometheus text-format registry (counters and gauges), so /metrics needs no dependency.

type Labels = Record<string, string>;

interface Series {
  help: string;
  type: 'counter' | 'gauge';
  values: Map<string, { labels: Labels; value: number }>;
}

function labelKey(labels: Labels): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join(',');
}

function escapeLabel(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

export class PrometheusRegistry {
  private readonly series = new Map<string, Series>();
  private readonly collectors: Array<() => void> = [];

  private get(name: string, type: Series['type'], help: string): Series {
    let s = this.series.get(name);
    if (!s) {
      s = { help, type, values: new Map() };
      this.series.set(name, s);
    }
    return s;
  }

  /**
   * A counter. One without labels is shown from the start, at 0, so that a rule such as
   * `svc_pipeline_errors_total == 0` has a sample to read; a labelled one (`labelled: true`) shows
   * each label set from its first increment.
   */
  counter(name: string, help: string, options: { labelled?: boolean } = {}) {
    const s = this.get(name, 'counter', help);
    if (!options.labelled && !s.values.has('')) s.values.set('', { labels: {}, value: 0 });
    return {
      inc: (labels: Labels = {}, by = 1) => {
        const key = labelKey(labels);
        const cur = s.values.get(key);
        if (cur) cur.value += by;
        else s.values.set(key, { labels, value: by });
      },
      value: (labels: Labels = {}) => s.values.get(labelKey(labels))?.value ?? 0,
    };
  }

  gauge(name: string, help: string) {
    const s = this.get(name, 'gauge', help);
    return {
      set: (value: number, labels: Labels = {}) => {
        s.values.set(labelKey(labels), { labels, value });
      },
    };
  }

  /** Called before each render, to sample gauges (buffer size, …). */
  onCollect(fn: () => void): void {
    this.collectors.push(fn);
  }

  render(): string {
    for (const fn of this.collectors) fn();
    const lines: string[] = [];
    for (const [name, s] of this.series) {
      lines.push(`# HELP ${name} ${s.help}`, `# TYPE ${name} ${s.type}`);
      for (const { labels, value } of s.values.values()) {
        const l = Object.entries(labels)
          .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
          .join(',');
        lines.push(`${name}${l ? `{${l}}` : ''} ${value}`);
      }
    }
    return lines.join('\n') + '\n';
  }
}
