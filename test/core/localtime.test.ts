// Local-time arithmetic on real IANA zones, including the awkward ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addDays, localDay, localToEpoch, startOfLocalDay } from '../../src/core/localtime.js';

const iso = (ms: number) => new Date(ms).toISOString();

test('midnight in zones with 30- and 45-minute offsets', () => {
  assert.equal(iso(startOfLocalDay('2026-11-22', 'Asia/Kathmandu')), '2026-11-21T18:15:00.000Z');
  assert.equal(iso(startOfLocalDay('2026-11-22', 'Asia/Kolkata')), '2026-11-21T18:30:00.000Z');
  assert.equal(iso(startOfLocalDay('2026-11-22', 'America/St_Johns')), '2026-11-22T03:30:00.000Z');
});

test('a skipped midnight starts the day at the first instant after the gap', () => {
  // Chile: 2024-09-08 00:00 does not exist; clocks go from 23:59:59 to 01:00 (04:00Z).
  assert.equal(iso(startOfLocalDay('2024-09-08', 'America/Santiago')), '2024-09-08T04:00:00.000Z');
  assert.equal(localDay(startOfLocalDay('2024-09-08', 'America/Santiago'), 'America/Santiago'), '2024-09-08');
  assert.equal(localDay(startOfLocalDay('2024-09-08', 'America/Santiago') - 1, 'America/Santiago'), '2024-09-07');
});

test('a skipped hour maps to the end of the gap; a repeated one to its first occurrence', () => {
  assert.equal(iso(localToEpoch(2026, 3, 29, 2, 30, 'Europe/Paris')), '2026-03-29T01:00:00.000Z');
  assert.equal(iso(localToEpoch(2026, 10, 25, 2, 30, 'Europe/Paris')), '2026-10-25T00:30:00.000Z');
  assert.equal(iso(localToEpoch(2026, 3, 8, 2, 15, 'America/New_York')), '2026-03-08T07:00:00.000Z');
  assert.equal(iso(localToEpoch(2026, 11, 1, 1, 30, 'America/New_York')), '2026-11-01T05:30:00.000Z');
});

test('Lord Howe: a 30-minute fall-back repeats 01:30–02:00; the first occurrence wins', () => {
  // 2026-04-05 02:00 (+11:00) falls back to 01:30 (+10:30).
  assert.equal(iso(localToEpoch(2026, 4, 5, 1, 45, 'Australia/Lord_Howe')), '2026-04-04T14:45:00.000Z');
});

test('every day of 2024 starts on that day, in zones with unusual transitions', () => {
  // Midnight transitions (Santiago, Havana, Asunción, Beirut, Cairo), half-hour ones (Lord Howe),
  // 45-minute offsets with DST (Chatham), no DST with odd offsets (Kathmandu, Tehran since 2022).
  const zones = ['America/Santiago', 'America/Havana', 'America/Asuncion', 'Asia/Beirut', 'Africa/Cairo', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Asia/Kathmandu', 'Asia/Tehran', 'America/St_Johns', 'Europe/Paris', 'America/New_York'];
  const bad: string[] = [];
  for (const zone of zones) {
    for (let day = '2024-01-01'; day < '2025-01-01'; day = addDays(day, 1)) {
      const start = startOfLocalDay(day, zone);
      if (localDay(start, zone) !== day || localDay(start - 60_000, zone) !== addDays(day, -1)) bad.push(`${zone} ${day}`);
    }
  }
  assert.deepEqual(bad, []);
});
