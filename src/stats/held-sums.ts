// What a settlement counted, held in memory by the process that reads it (docs/read-path.md, "Held
// sums"). A settlement stands for the 10 minutes between two rollup runs, and every read of
// its days (today) in that time would add up the same settled rows and group the same events of the
// sessions open at its cut: a few thousand rows on a busy site, which cost DuckDB and ClickHouse
// several milliseconds of CPU time a statement. Held, a read asks only for the events after the cut.
//
// Every measure is a sum but the distinct visitors of a group (a day; a day and goal; a day and key), so a held
// group keeps its sums and its visitor hashes, sorted: a visitor of the later rows counts once more
// only if the group does not hold it already. A session open at the cut is held as its facts and
// daily counts before it, which count in the held sums; a read that has events of it after the cut
// adds what they change (its bounce and duration over its whole length), so that a read's work
// follows the events after the cut. The rows of a settlement's cut are written before the settlement is
// recorded and never change after (they are removed, once replaced, after a grace); the events
// before the cut are what the settlement's check counts. Each read that uses what is held runs that
// check beside its statements, as a read of the rows does: what is held is kept only from a read
// whose check held, and used only by such reads.
import type { Period } from '../core/period.js';
import type { Sql } from '../sql/sql.js';
import { bouncedOf, combinedFacts, durationOf, PART_FACT_PREFIX, SESSION_FACTS, TRAFFIC_MEASURES, type SessionFacts, type TrafficMeasure } from './measures.js';
import type { EventReader } from '../storage/events/types.js';

/**
 * What a process holds at most, over every settlement, in visitor hashes (8 bytes each: 8 MB): the
 * least recently read go first.
 */
const CAPACITY = 1_000_000;
/** An open session's objects (its facts, its parts) weigh about as much as so many visitor hashes. */
const SESSION_WEIGHT = 32;
/** The most declined parts a process remembers (a key each), the oldest forgotten first. */
const DECLINED_MOST = 10_000;

/** The columns of the rows a form adds up: one row per group and visitor, from settled rows or raw events. */
export interface HeldForm {
  /** The columns that name a group, whose values the answer's rows carry. */
  readonly group: readonly string[];
  /** The answer's column of the group's distinct visitors (the rows' `visitor_id`, counted once). */
  readonly visitors: string;
  /** The columns summed, each row's value added. */
  readonly sums: readonly string[];
}

/** What a read that holds sums asks of its settlement: what it counted, and the raw events' since its cut. */
export interface HeldPart {
  /** The settlement's site and cut: a process holds one cut of a site. */
  readonly site: string;
  readonly cut: number;
  /** The settlement and the rows added up (what, site, cut, days): one held sum each. */
  readonly key: string;
  readonly form: HeldForm;
  /**
   * What is held of the time before the cut, one row per group and visitor (asked of a reader that
   * holds sums, when it does not hold them): the settled rows.
   */
  readonly settled: Sql;
  /**
   * The rows since the cut, one per group and visitor (asked of a reader that holds sums); with
   * `open`, one per day, session and visitor (`OpenSessions`).
   */
  readonly recent: Sql;
  /** The sessions open at the cut, as `OpenSessions` reads them, and the days whose parts count. */
  readonly open?: { readonly rows: Sql; readonly at: number; readonly days: Period };
}

/** What a read asks of its settlement: its rows and the raw events' since its cut, per day (and goal). */
export interface SettledPart extends HeldPart {
  /** Both added up by the engine, one row per group (asked of a reader that holds no sums, or not these). */
  readonly whole: Sql;
}

type Row = Record<string, unknown>;

interface Group {
  /** The group's columns, as the rows carry them. */
  readonly values: Row;
  readonly sums: number[];
  /** The group's visitor hashes, ascending. */
  readonly visitors: BigInt64Array;
  /** The group's answer row while no later row adds to it (frozen: every read shares it). */
  readonly row: Row;
}

const groupKey = (form: HeldForm, row: Row): string => form.group.map((c) => String(row[c])).join('\u0000');

/** A group's columns and sums at 0, of the group of a row. */
const groupOf = (form: HeldForm, row: Row) => ({ values: Object.fromEntries(form.group.map((c) => [c, row[c]])), sums: form.sums.map(() => 0) });

/** Adds a row's summed columns to a group's sums. */
const addSums = (form: HeldForm, sums: number[], row: Row) => form.sums.forEach((c, i) => (sums[i]! += Number(row[c])));

/** The answer row of a group: its columns, its visitors and its sums (frozen: reads share it). */
function answerRow(form: HeldForm, g: { values: Row; sums: readonly number[]; visitors: number }): Row {
  const row: Row = { ...g.values, [form.visitors]: g.visitors };
  form.sums.forEach((c, i) => (row[c] = g.sums[i]));
  return Object.freeze(row);
}

/** Whether a sorted array includes a value (binary search). */
function includes(sorted: BigInt64Array, value: bigint): boolean {
  let [lo, hi] = [0, sorted.length - 1];
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = sorted[mid]!;
    if (at === value) return true;
    if (at < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** A settlement's rows added up: per group, its sums and its visitors. */
export class HeldSums {
  private constructor(
    private readonly form: HeldForm,
    private readonly byGroup: ReadonlyMap<string, Group>,
    /** How many visitor hashes it holds. */
    readonly visitors: number,
  ) {}

  /**
   * The sums of rows of a group and visitor each (a visitor's rows of one source already added up):
   * a visitor of several rows of a group (a settled session's and an open one's) counts once.
   */
  static of(form: HeldForm, rows: readonly Row[]): HeldSums {
    const building = new Map<string, { values: Row; sums: number[]; visitors: bigint[] }>();
    for (const row of rows) {
      const key = groupKey(form, row);
      let g = building.get(key);
      if (!g) building.set(key, (g = { ...groupOf(form, row), visitors: [] }));
      addSums(form, g.sums, row);
      g.visitors.push(BigInt(row.visitor_id as bigint));
    }
    const groups = new Map<string, Group>();
    let visitors = 0;
    for (const [key, g] of building) {
      const sorted = BigInt64Array.from(g.visitors).sort();
      const distinct = sorted.filter((v, i) => i === 0 || v !== sorted[i - 1]);
      groups.set(key, { values: g.values, sums: g.sums, visitors: distinct, row: answerRow(form, { values: g.values, sums: g.sums, visitors: distinct.length }) });
      visitors += distinct.length;
    }
    return new HeldSums(form, groups, visitors);
  }

  /**
   * One row per group: the held sums with `recent`'s (rows of one group and visitor each, whose sums
   * may be changes below 0) added, a visitor of both counted once. A group no recent row adds to
   * answers its held row (frozen, shared).
   */
  plus(recent: readonly Row[]): Row[] {
    const { form } = this;
    const added = new Map<string, { values: Row; sums: number[]; visitors: number }>();
    for (const row of recent) {
      const key = groupKey(form, row);
      const held = this.byGroup.get(key);
      let g = added.get(key);
      if (!g) added.set(key, (g = held ? { values: held.values, sums: [...held.sums], visitors: held.visitors.length } : { ...groupOf(form, row), visitors: 0 }));
      addSums(form, g.sums, row);
      if (!held || !includes(held.visitors, BigInt(row.visitor_id as bigint))) g.visitors += 1;
    }
    const out: Row[] = [];
    for (const [key, g] of this.byGroup) if (!added.has(key)) out.push(g.row);
    for (const g of added.values()) out.push(answerRow(form, g));
    return out;
  }
}

/** A session's part of one day: its visitor hash that day, and its counts. */
interface Part {
  readonly day: string;
  readonly visitor: bigint;
  starts: number;
  pageviews: number;
  events: number;
}

interface Session {
  readonly parts: Part[];
  facts: SessionFacts;
}

/** Adds a part's counts to a session's part of the same day and visitor hash, or the part to its parts. */
function addPart(session: Session, part: Part): void {
  const same = session.parts.find((p) => p.day === part.day && p.visitor === part.visitor);
  if (!same) session.parts.push(part);
  else [same.starts, same.pageviews, same.events] = [same.starts + part.starts, same.pageviews + part.pageviews, same.events + part.events];
}

/** The sessions of part rows. */
function sessionsOf(rows: readonly Row[]): Map<bigint, Session> {
  const sessions = new Map<bigint, Session>();
  for (const row of rows) {
    const facts = Object.fromEntries(SESSION_FACTS.map((f) => [f.column, Number(row[`${PART_FACT_PREFIX}${f.column}`])])) as SessionFacts;
    const part: Part = { day: String(row.b), visitor: BigInt(row.visitor_id as bigint), starts: Number(row.starts), pageviews: facts.pageviews, events: Number(row.events) };
    const id = BigInt(row.session_id as bigint);
    const session = sessions.get(id);
    if (!session) sessions.set(id, { parts: [part], facts });
    else {
      session.facts = combinedFacts(session.facts, facts);
      addPart(session, part);
    }
  }
  return sessions;
}

/**
 * Each traffic measure but visitors of a session's part, as SESSION_ROW_AGGREGATES sums it over session
 * rows: the part's counts, and on the part that starts the session whether it bounced and its duration.
 */
const PART_MEASURE_OF: Record<Exclude<TrafficMeasure, 'visitors'>, (p: Part, facts: SessionFacts) => number> = {
  pageviews: (p) => p.pageviews,
  events: (p) => p.events,
  sessions: (p) => p.starts,
  bounces: (p, facts) => (p.starts > 0 && bouncedOf(facts) ? 1 : 0),
  durationMs: (p, facts) => (p.starts > 0 ? durationOf(facts) : 0),
};
/** Each one's column, and its value of a part. */
const PART_MEASURES = (Object.entries(PART_MEASURE_OF) as Array<[Exclude<TrafficMeasure, 'visitors'>, (p: Part, facts: SessionFacts) => number]>).map(
  ([name, of]) => [TRAFFIC_MEASURES[name].column, of] as const,
);

/**
 * The sessions open at a settlement's cut, from their events before it: per session its facts, and
 * its parts (rows of one day, session and visitor: columns b, session_id, visitor_id, starts,
 * events, and the facts prefixed PART_FACT_PREFIX).
 */
export class OpenSessions {
  private constructor(private readonly sessions: ReadonlyMap<bigint, Session>) {}

  /** The sessions of part rows whose last event before the cut came at `at` (a session gap before it) or later. */
  static of(rows: readonly Row[], at: number): OpenSessions {
    return new OpenSessions(new Map([...sessionsOf(rows)].filter(([, s]) => s.facts.last_ts >= at)));
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * Per day of `days` and visitor, the traffic measures but visitors of these sessions from their
   * parts before the cut: each part's counts, and on the part that starts a session whether it
   * bounced and its duration. Columns: b, visitor_id, then the measures.
   */
  rowsOf(days: Period): Row[] {
    const out = new PartRows(days);
    for (const s of this.sessions.values()) out.add(s, 1);
    return out.rows();
  }

  /**
   * What the parts since the cut (`recent`, rows as `of` reads them) change in `rowsOf`: per day
   * and visitor, the measures of each session they extend, over its whole length, less its own
   * before the cut (a bounce undone: bounces below 0), and the measures of the sessions only they
   * have. Sessions they do not extend change nothing, so a read's work follows the rows since the
   * cut, not the sessions held.
   */
  changes(recent: readonly Row[], days: Period): Row[] {
    const out = new PartRows(days);
    for (const [id, s] of sessionsOf(recent)) {
      const held = this.sessions.get(id);
      if (!held) {
        out.add(s, 1);
        continue;
      }
      // A new object: the held session stays as it is for the next read.
      const both: Session = { parts: held.parts.map((p) => ({ ...p })), facts: combinedFacts(held.facts, s.facts) };
      for (const p of s.parts) addPart(both, p);
      out.add(both, 1);
      out.add(held, -1);
    }
    return out.rows();
  }
}

/** Rows per day and visitor of some days, sessions' part measures added in (or taken out, sign −1). */
class PartRows {
  private readonly byKey = new Map<string, Record<string, number | string | bigint>>();

  constructor(private readonly days: Period) {}

  add({ parts, facts }: Session, sign: 1 | -1): void {
    for (const p of parts) {
      if (p.day < this.days.from || p.day > this.days.to) continue;
      const key = `${p.day}\u0000${p.visitor}`;
      let row = this.byKey.get(key);
      if (!row) this.byKey.set(key, (row = { b: p.day, visitor_id: p.visitor, ...Object.fromEntries(PART_MEASURES.map(([column]) => [column, 0])) }));
      for (const [column, of] of PART_MEASURES) row[column] = (row[column] as number) + sign * of(p, facts);
    }
  }

  rows(): Row[] {
    return [...this.byKey.values()];
  }
}

/** What a process holds of a settlement's part: its rows' sums, and for traffic the sessions open at the cut. */
export class Held {
  private constructor(
    private readonly sums: HeldSums,
    private readonly open: { readonly sessions: OpenSessions; readonly days: Period } | null,
  ) {}

  /**
   * A part's settled rows (one per group and visitor) and, where it has `open`, its open sessions'
   * part rows: their measures before the cut are held with the settled rows' sums, and each read
   * adds what the rows since the cut change (`OpenSessions.changes`).
   */
  static of(part: HeldPart, settled: readonly Row[], open: readonly Row[] | null): Held {
    if (!part.open) return new Held(HeldSums.of(part.form, settled), null);
    const sessions = OpenSessions.of(open ?? [], part.open.at);
    return new Held(HeldSums.of(part.form, [...settled, ...sessions.rowsOf(part.open.days)]), { sessions, days: part.open.days });
  }

  /** What it weighs, in visitor hashes. */
  get size(): number {
    return this.sums.visitors + SESSION_WEIGHT * (this.open?.sessions.size ?? 0);
  }

  /**
   * One row per group: the held sums with the rows since the cut (`recent`, as the part asks them).
   * The reads of a dashboard's load share the statement since the cut (../stats/shared-reads.ts),
   * and so its rows: given the same rows again, it answers the same rows (read, never changed).
   */
  plus(recent: readonly Row[]): readonly Row[] {
    if (this.last?.recent !== recent) this.last = { recent, rows: this.sums.plus(this.open ? this.open.sessions.changes(recent, this.open.days) : recent) };
    return this.last.rows;
  }

  /** The rows of the last call of `plus`, and what it was given. */
  private last: { readonly recent: readonly Row[]; readonly rows: readonly Row[] } | null = null;
}

/**
 * What one process's reads hold, the least recently read dropped past `capacity` (in visitor
 * hashes), and one cut of a site at a time. A settlement of more rows than a quarter of the capacity
 * is added up by each read's statement: what it holds would push out most others', and converting
 * its rows takes long. A part its reads declined (its check no longer held, or its rows were too
 * many to be worth holding) is remembered until the site's next cut, so that its reads skip it.
 */
export class HeldSumsCache {
  private readonly entries = new Map<string, { readonly held: Held; readonly site: string; readonly cut: number }>();
  private readonly declinedParts = new Map<string, { readonly site: string; readonly cut: number }>();
  private weight = 0;

  constructor(private readonly capacity = CAPACITY) {}

  /** Whether it holds what a settlement of so many rows counted. */
  takes(rows: number): boolean {
    return rows <= this.capacity / 4;
  }

  get(key: string): Held | undefined {
    const found = this.entries.get(key);
    if (found) {
      // Map order is insertion order: read last, dropped last.
      this.entries.delete(key);
      this.entries.set(key, found);
    }
    return found?.held;
  }

  /** Holds a part's sums; what it held of the site's other cuts goes (a newer run replaced them, or they were replaced since). */
  keep(part: Pick<HeldPart, 'key' | 'site' | 'cut'>, held: Held): void {
    if (this.entries.has(part.key)) return;
    this.forgetOtherCuts(part);
    this.entries.set(part.key, { held, site: part.site, cut: part.cut });
    this.weight += held.size;
    for (const [oldest] of this.entries) {
      if (this.weight <= this.capacity) break;
      this.drop(oldest);
    }
  }

  /** Lets go of a part's sums (its settlement's check no longer holds). */
  drop(key: string): void {
    const found = this.entries.get(key);
    if (!found) return;
    this.entries.delete(key);
    this.weight -= found.held.size;
  }

  /** Lets go of a part's sums, and remembers that its reads skip it until the site's next cut. */
  decline(part: Pick<HeldPart, 'key' | 'site' | 'cut'>): void {
    this.drop(part.key);
    this.forgetOtherCuts(part);
    this.declinedParts.delete(part.key);
    this.declinedParts.set(part.key, { site: part.site, cut: part.cut });
    for (const [oldest] of this.declinedParts) {
      if (this.declinedParts.size <= DECLINED_MOST) break;
      this.declinedParts.delete(oldest);
    }
  }

  /** Whether a part's reads skip it (declined at its cut). */
  declined(key: string): boolean {
    return this.declinedParts.has(key);
  }

  /** What it holds, in visitor hashes. */
  get size(): number {
    return this.weight;
  }

  private forgetOtherCuts(part: Pick<HeldPart, 'site' | 'cut'>): void {
    for (const [key, e] of this.entries) if (e.site === part.site && e.cut !== part.cut) this.drop(key);
    for (const [key, e] of this.declinedParts) if (e.site === part.site && e.cut !== part.cut) this.declinedParts.delete(key);
  }
}

/** A reader of the statistics reads, with the sums it holds of their settlements where it holds any (without: the engine adds them up). */
export type StatsReader = EventReader & { readonly held?: HeldSumsCache };

/** `reader`, made to hold the sums of the settled reads through it (the service's one reader per app, whose routes share them). */
export function holdingSums<R extends EventReader>(reader: R, held = new HeldSumsCache()): R & { readonly held: HeldSumsCache } {
  return Object.assign(reader, { held });
}
