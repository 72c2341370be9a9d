// withLease: work under one name never overlaps, neither within a process nor between two stores
// on one database (two processes' connections), and a lease left by a stopped holder expires.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withLease } from '../../src/storage/meta/leases.js';
import { openSqliteMetaStore } from '../../src/storage/meta/sqlite.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('work under one lease name never overlaps, across stores on one database', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-lease-'));
  const [a, b] = [await openSqliteMetaStore(join(dir, 'meta.sqlite')), await openSqliteMetaStore(join(dir, 'meta.sqlite'))];
  try {
    let inside = 0;
    let most = 0;
    const order: string[] = [];
    const work = (label: string) => async () => {
      inside++;
      most = Math.max(most, inside);
      order.push(`${label}+`);
      await sleep(30);
      order.push(`${label}-`);
      inside--;
      return label;
    };
    const results = await Promise.all([
      withLease(a, 'job', work('a1'), { retryMs: 5 }),
      withLease(b, 'job', work('b1'), { retryMs: 5 }),
      withLease(a, 'job', work('a2'), { retryMs: 5 }),
      withLease(b, 'job', work('b2'), { retryMs: 5 }),
      withLease(a, 'other', async () => 'other'),
    ]);
    assert.deepEqual(results, ['a1', 'b1', 'a2', 'b2', 'other']);
    assert.equal(most, 1, `overlapping work: ${order.join(' ')}`);
    assert.ok(order.indexOf('a1-') < order.indexOf('a2+'), 'one store serves its callers in order');
  } finally {
    await a.close();
    await b.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a lease whose holder stopped is taken once it expires; a failed work releases it', async () => {
  const store = await openSqliteMetaStore(':memory:');
  try {
    const now = Date.now();
    assert.equal(await store.acquireLease('job', 'gone-process', now, now + 150), true);
    const started = Date.now();
    await withLease(store, 'job', async () => undefined, { retryMs: 10 });
    assert.ok(Date.now() - started >= 100, 'waited for the stale lease to expire');
    await assert.rejects(withLease(store, 'job', async () => Promise.reject(new Error('boom'))), /boom/);
    assert.equal(await store.acquireLease('job', 'next', Date.now(), Date.now() + 1000), true, 'released after the failure');
  } finally {
    await store.close();
  }
});

test('a renewal that finds the lease taken over reports it lost', async () => {
  const store = await openSqliteMetaStore(':memory:');
  try {
    const lost: string[] = [];
    await withLease(
      store,
      'job',
      async () => {
        // Another process takes the lease as if this one had stalled past its expiry.
        await store.acquireLease('job', 'intruder', Date.now() + 10_000, Date.now() + 20_000);
        await sleep(80);
      },
      { ttlMs: 60, onLost: (name) => lost.push(name) },
    );
    assert.ok(lost.includes('job'));
  } finally {
    await store.close();
  }
});
