// The tools whose exports hold raw events, and their readers (service.ts looks them up by source).
import type { ImportSource } from '../core/vocabulary.js';
import { goatcounterFormat } from './goatcounter.js';
import type { RawEventFormat } from './raw-events.js';
import { umamiFormat } from './umami.js';

export type RawEventSource = 'goatcounter' | 'umami';

export const RAW_EVENT_FORMATS: Readonly<Record<RawEventSource, RawEventFormat>> = { goatcounter: goatcounterFormat, umami: umamiFormat };

/** Whether `source`'s exports hold raw events (they go through the NDJSON import path). */
export const isRawEventSource = (source: ImportSource): source is RawEventSource => Object.hasOwn(RAW_EVENT_FORMATS, source);
