// Everything the CLI prints: aligned tables, key/value blocks, raw JSON (--json) and the progress bar.

export interface Stream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export type Cell = string | number | boolean | null | undefined;

/** A cell as text: '-' for absent values, yes/no for booleans. */
export function cellText(value: Cell): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/** Aligned columns separated by two spaces; the last column is not padded. */
export function formatTable(headers: string[], rows: Cell[][]): string {
  const text = rows.map((row) => headers.map((_, i) => cellText(row[i])));
  const widths = headers.map((h, i) => Math.max(h.length, ...text.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...text.map(line)].join('\n') + '\n';
}

/** `key  value` lines, keys aligned. */
export function formatFields(fields: Array<[string, Cell]>): string {
  const width = Math.max(...fields.map(([k]) => k.length));
  return fields.map(([k, v]) => `${k.padEnd(width)}  ${cellText(v)}`).join('\n') + '\n';
}

/** An epoch-millisecond timestamp as an ISO instant to the second (or '-'). */
export function time(ms: unknown): string | undefined {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return typeof ms === 'string' ? ms : undefined;
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export class Output {
  constructor(
    readonly json: boolean,
    readonly stdout: Stream,
    readonly stderr: Stream,
  ) {}

  /** Prints `data` raw with --json, else the readable rendering. */
  result(data: unknown, readable: () => string): void {
    this.stdout.write(this.json ? JSON.stringify(data, null, 2) + '\n' : readable());
  }

  line(text: string): void {
    this.stdout.write(text + '\n');
  }

  /** A remark for a human, on stderr (never mixed into --json output). */
  note(text: string): void {
    this.stderr.write(text + '\n');
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}

/** One frame of the bar: `[#########-----------]  45%  1.2 MiB / 2.7 MiB`. */
export function renderProgress(done: number, total: number, width = 30): string {
  const ratio = total > 0 ? Math.min(1, Math.max(0, done / total)) : 1;
  const filled = Math.round(ratio * width);
  const pct = `${Math.floor(ratio * 100)}%`.padStart(4);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${pct}  ${formatBytes(done)} / ${formatBytes(total)}`;
}

/** A bar redrawn in place on a TTY (at most every `intervalMs`); silent elsewhere. */
export class ProgressBar {
  private done = 0;
  private lastDraw = -Infinity;
  private drawn = false;

  constructor(
    private readonly stream: Stream,
    private readonly total: number,
    private readonly label = '',
    private readonly intervalMs = 100,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.stream.isTTY === true;
  }

  advance(bytes: number): void {
    this.done += bytes;
    const t = this.now();
    if (this.enabled && (t - this.lastDraw >= this.intervalMs || this.done >= this.total)) {
      this.lastDraw = t;
      this.draw(renderProgress(this.done, this.total));
    }
  }

  /** Replaces the bar with a status text (e.g. while the server stores the events). */
  status(text: string): void {
    if (this.enabled) this.draw(text);
  }

  /** Clears the bar's line. */
  finish(): void {
    if (this.enabled && this.drawn) this.stream.write('\r\x1b[2K');
    this.drawn = false;
  }

  private draw(text: string): void {
    this.stream.write(`\r\x1b[2K${this.label}${text}`);
    this.drawn = true;
  }
}
