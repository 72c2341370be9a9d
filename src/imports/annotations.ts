// A site's annotations in svc's own export (docs/imports.md, "Export"): a file of their own,
// `svc_annotations.csv` (`date,text`, text neutralised for spreadsheets as every field is), which
// svc's import reads back into the importing site once its figures are written. Plausible's import
// and other exports have no such file; a file of the name in another export is read alike.
import { ANNOTATION_TEXT_LENGTH, MAX_ANNOTATIONS_PER_SITE } from '../core/segments.js';
import type { Annotation } from '../core/answers.js';
import { csvField, restoredText } from '../core/csv-field.js';
import { isValidDay } from '../core/period.js';
import type { NewAnnotation } from '../entities/segments.js';
import type { Site } from '../entities/sites.js';
import { LimitReached, type MetaStore } from '../storage/meta/types.js';
import { csvRecords } from './csv.js';
import { isZipFile, openZipEntry, readZipDirectory } from './zip.js';

export const ANNOTATIONS_FILE = 'svc_annotations.csv';
const HEADER = ['date', 'text'];

/** The annotations file of an export. */
export async function* annotationsCsv(annotations: readonly Annotation[]): AsyncGenerator<string> {
  yield HEADER.join(',') + '\n';
  yield annotations.map((a) => `${csvField(a.date)},${csvField(a.text)}\n`).join('');
}

/**
 * The annotations an uploaded ZIP holds in its annotations file (none for another file): each line
 * a day and a text of 1 to 200 characters, others skipped; at most a site's bound of them are read.
 */
export async function readAnnotations(path: string): Promise<NewAnnotation[]> {
  if (!(await isZipFile(path))) return [];
  const entry = (await readZipDirectory(path)).find((e) => e.name.slice(e.name.lastIndexOf('/') + 1) === ANNOTATIONS_FILE);
  if (!entry) return [];
  const out: NewAnnotation[] = [];
  let header = true;
  for await (const record of csvRecords(await openZipEntry(path, entry))) {
    if (header) {
      if (!('fields' in record) || record.fields.join(',') !== HEADER.join(',')) return [];
      header = false;
      continue;
    }
    if (!('fields' in record) || record.fields.length !== HEADER.length) continue;
    const [date, raw] = record.fields.map(restoredText) as [string, string];
    const text = raw.trim();
    if (isValidDay(date) && text.length >= ANNOTATION_TEXT_LENGTH.min && text.length <= ANNOTATION_TEXT_LENGTH.max) out.push({ date, text });
    if (out.length >= MAX_ANNOTATIONS_PER_SITE) break;
  }
  return out;
}

/**
 * Adds annotations to a site, but those it holds already (the same day and text: an export imported
 * twice adds nothing the second time), up to the site's bound; returns how many were added.
 */
export async function addAnnotations(meta: MetaStore, site: Site, annotations: readonly NewAnnotation[], now: number): Promise<number> {
  const held = new Set((await meta.listAnnotations(site.internalId)).map((a) => `${a.date}\n${a.text}`));
  let added = 0;
  for (const annotation of annotations) {
    const key = `${annotation.date}\n${annotation.text}`;
    if (held.has(key)) continue;
    try {
      await meta.createAnnotation(site.internalId, annotation, now, MAX_ANNOTATIONS_PER_SITE);
    } catch (err) {
      if (err instanceof LimitReached) break;
      throw err;
    }
    held.add(key);
    added++;
  }
  return added;
}
