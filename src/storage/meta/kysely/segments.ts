// A site's segments and annotations (migration 018), each kind bounded per site: the count and the
// write are one serialized transaction, so concurrent creations cannot pass the bound together.
import type { Kysely, Selectable } from 'kysely';
import type { Annotation } from '../../../core/answers.js';
import type { AnnotationPatch, NewAnnotation, NewSegment, Segment, SegmentPatch } from '../../../entities/segments.js';
import type { AnnotationsTable, MetaDatabase, SegmentsTable } from '../schema.js';
import type { MetaStore } from '../types.js';
import { boundedInsert } from './serialized-write.js';

const toSegment = (row: Selectable<SegmentsTable>): Segment => ({
  id: row.id,
  siteId: row.site_id,
  name: row.name,
  filters: JSON.parse(row.filters) as string[],
  shared: row.shared === 1,
  ownerUserId: row.owner_user_id,
  createdAt: Number(row.created_at),
});

const toAnnotation = (row: Selectable<AnnotationsTable>): Annotation => ({ id: row.id, date: row.day, text: row.text, createdAt: Number(row.created_at) });

/** Sets `values` on a row of a site's table (no values: reads it): the row as it is then, undefined when the site has no such row. */
async function updateSiteRow<Row>(db: Kysely<MetaDatabase>, table: 'segments' | 'annotations', siteId: number, id: number, values: Record<string, unknown>): Promise<Row | undefined> {
  const untyped = db as Kysely<any>;
  const name: string = table;
  const row = Object.keys(values).length === 0
    ? await untyped.selectFrom(name).selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst()
    : await untyped.updateTable(name).set(values).where('site_id', '=', siteId).where('id', '=', id).returningAll().executeTakeFirst();
  return row as Row | undefined;
}

/** Deletes a row of a site's table; false when the site has no such row. */
async function deleteSiteRow(db: Kysely<MetaDatabase>, table: 'segments' | 'annotations', siteId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom(table).where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Segments and annotations. */
export function segmentRecords(db: Kysely<MetaDatabase>) {
  return {
    async createSegment(siteInternalId: number, segment: NewSegment, now: number, max: number): Promise<Segment> {
      return boundedInsert(db, 'segments', siteInternalId, max, async (trx) => {
        const row = await trx
          .insertInto('segments')
          .values({ site_id: siteInternalId, name: segment.name, filters: JSON.stringify(segment.filters), shared: segment.shared ? 1 : 0, owner_user_id: segment.ownerUserId, created_at: now })
          .returningAll()
          .executeTakeFirstOrThrow();
        return toSegment(row);
      });
    },

    async listSegments(siteInternalId: number): Promise<Segment[]> {
      const rows = await db.selectFrom('segments').selectAll().where('site_id', '=', siteInternalId).orderBy('id').execute();
      return rows.map(toSegment);
    },

    async getSegment(siteInternalId: number, id: number): Promise<Segment | undefined> {
      const row = await db.selectFrom('segments').selectAll().where('site_id', '=', siteInternalId).where('id', '=', id).executeTakeFirst();
      return row && toSegment(row);
    },

    async updateSegment(siteInternalId: number, id: number, patch: SegmentPatch): Promise<Segment | undefined> {
      const values: Partial<Record<keyof SegmentsTable, unknown>> = {};
      if (patch.name !== undefined) values.name = patch.name;
      if (patch.filters !== undefined) values.filters = JSON.stringify(patch.filters);
      if (patch.shared !== undefined) values.shared = patch.shared ? 1 : 0;
      if (patch.ownerUserId !== undefined) values.owner_user_id = patch.ownerUserId;
      const row = await updateSiteRow<Selectable<SegmentsTable>>(db, 'segments', siteInternalId, id, values);
      return row && toSegment(row);
    },

    deleteSegment(siteInternalId: number, id: number): Promise<boolean> {
      return deleteSiteRow(db, 'segments', siteInternalId, id);
    },

    async createAnnotation(siteInternalId: number, annotation: NewAnnotation, now: number, max: number): Promise<Annotation> {
      return boundedInsert(db, 'annotations', siteInternalId, max, async (trx) => {
        const row = await trx.insertInto('annotations').values({ site_id: siteInternalId, day: annotation.date, text: annotation.text, created_at: now }).returningAll().executeTakeFirstOrThrow();
        return toAnnotation(row);
      });
    },

    async listAnnotations(siteInternalId: number, days?: { from: string; to: string }): Promise<Annotation[]> {
      let query = db.selectFrom('annotations').selectAll().where('site_id', '=', siteInternalId);
      if (days) query = query.where('day', '>=', days.from).where('day', '<=', days.to);
      return (await query.orderBy('day').orderBy('id').execute()).map(toAnnotation);
    },

    async updateAnnotation(siteInternalId: number, id: number, patch: AnnotationPatch): Promise<Annotation | undefined> {
      const values: Partial<Record<keyof AnnotationsTable, unknown>> = {};
      if (patch.date !== undefined) values.day = patch.date;
      if (patch.text !== undefined) values.text = patch.text;
      const row = await updateSiteRow<Selectable<AnnotationsTable>>(db, 'annotations', siteInternalId, id, values);
      return row && toAnnotation(row);
    },

    deleteAnnotation(siteInternalId: number, id: number): Promise<boolean> {
      return deleteSiteRow(db, 'annotations', siteInternalId, id);
    },
  } satisfies Partial<MetaStore>;
}
