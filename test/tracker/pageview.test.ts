// Pageviews: the body fields at load, the query filter, and single-page navigations.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bodies, browserSuite, trackedPage } from './harness.js';

describe('tracker pageviews', () => {
  const suite = browserSuite();

  it('sends s, u, r, w, l at load, without e and p', async () => {
    suite.server.page('/pricing', trackedPage(suite.server, {}));
    await suite.page.goto(`${suite.server.origin('site')}/pricing`, { referer: 'https://news.example/item?id=1' });
    const [event] = await suite.server.next(1);
    assert.equal(
      event!.body,
      `{"s":"${suite.server.site}","u":"/pricing","r":"https://news.example/item?id=1","w":1920,"l":"fr-FR"}`,
    );
  });

  it('leaves r out when the page has no referrer', async () => {
    suite.server.page('/direct', trackedPage(suite.server));
    await suite.page.goto(`${suite.server.origin('site')}/direct`);
    assert.deepEqual(bodies(await suite.server.next(1)), [{ s: suite.server.site, u: '/direct', w: 1920, l: 'fr-FR' }]);
  });

  it('keeps only utm_*, ref and source in the query of u, and drops the fragment', async () => {
    suite.server.page('/landing', trackedPage(suite.server));
    await suite.page.goto(
      `${suite.server.origin('site')}/landing?q=secret&utm_source=news&gclid=abc&utm_campaign=spring%20sale&ref=hn&email=a%40b.c&source=tw#top`,
    );
    const [event] = bodies(await suite.server.next(1)) as [{ u: string }];
    assert.equal(event.u, '/landing?utm_source=news&utm_campaign=spring%20sale&ref=hn&source=tw');
  });

  it('sends u without "?" when no kept parameter remains', async () => {
    suite.server.page('/search', trackedPage(suite.server));
    await suite.page.goto(`${suite.server.origin('site')}/search?q=shoes&page=2`);
    const [event] = bodies(await suite.server.next(1)) as [{ u: string }];
    assert.equal(event.u, '/search');
  });

  it('sends a pageview on pushState, replaceState and popstate navigations that change the pathname', async () => {
    suite.server.page('/app', trackedPage(suite.server));
    await suite.page.goto(`${suite.server.origin('site')}/app`);
    await suite.server.next(1);

    await suite.page.evaluate(() => history.pushState({}, '', '/app/settings?utm_medium=email&tab=1'));
    assert.deepEqual(bodies(await suite.server.next(1)), [
      { s: suite.server.site, u: '/app/settings?utm_medium=email', w: 1920, l: 'fr-FR' },
    ]);

    await suite.page.evaluate(() => history.replaceState({}, '', '/app/profile'));
    assert.deepEqual(bodies(await suite.server.next(1)), [{ s: suite.server.site, u: '/app/profile', w: 1920, l: 'fr-FR' }]);

    await suite.page.evaluate(() => history.back());
    assert.deepEqual(bodies(await suite.server.next(1)), [{ s: suite.server.site, u: '/app', w: 1920, l: 'fr-FR' }]);
  });

  it('does not send again when a navigation keeps the pathname (query or hash change)', async () => {
    suite.server.page('/list', trackedPage(suite.server));
    await suite.page.goto(`${suite.server.origin('site')}/list`);
    await suite.server.next(1);
    await suite.page.evaluate(() => {
      history.pushState({}, '', '/list?page=2');
      history.replaceState({}, '', '/list?page=2&utm_source=x');
      location.hash = '#item-4';
    });
    await suite.server.expectQuiet();
    // The tracker is still listening: a real navigation afterwards is sent.
    await suite.page.evaluate(() => history.pushState({}, '', '/detail'));
    const [event] = bodies(await suite.server.next(1)) as [{ u: string }];
    assert.equal(event.u, '/detail');
  });

  it('does not track single-page navigations with data-spa="off", and keeps history working', async () => {
    suite.server.page('/spa-off', trackedPage(suite.server, { attributes: `data-site="${suite.server.site}" data-spa="off"` }));
    await suite.page.goto(`${suite.server.origin('site')}/spa-off`);
    await suite.server.next(1);
    await suite.page.evaluate(() => history.pushState({}, '', '/elsewhere'));
    await suite.page.evaluate(() => history.back());
    await suite.server.expectQuiet();
    assert.equal(new URL(suite.page.url()).pathname, '/spa-off');
  });

  it('treats only the exact value "off" as off (data-spa="false" keeps SPA tracking)', async () => {
    suite.server.page('/spa-false', trackedPage(suite.server, { attributes: `data-site="${suite.server.site}" data-spa="false"` }));
    await suite.page.goto(`${suite.server.origin('site')}/spa-false`);
    await suite.server.next(1);
    await suite.page.evaluate(() => history.pushState({}, '', '/next'));
    const [event] = bodies(await suite.server.next(1)) as [{ u: string }];
    assert.equal(event.u, '/next');
  });

  it('keeps the state and title arguments of patched history methods', async () => {
    suite.server.page('/state', trackedPage(suite.server));
    await suite.page.goto(`${suite.server.origin('site')}/state`);
    await suite.server.next(1);
    const state = await suite.page.evaluate(() => {
      history.pushState({ step: 2 }, '', '/state/2');
      return history.state as unknown;
    });
    assert.deepEqual(state, { step: 2 });
    await suite.server.next(1);
  });

  it('sends no pageview whose body would exceed 4096 bytes', async () => {
    suite.server.page('/ok', trackedPage(suite.server));
    await suite.page.goto(`${suite.server.origin('site')}/ok`);
    await suite.server.next(1);
    await suite.page.evaluate(() => history.pushState({}, '', '/' + 'a'.repeat(4100)));
    await suite.server.expectQuiet();
    // The next navigation, within the limit, is sent.
    await suite.page.evaluate(() => history.pushState({}, '', '/' + 'a'.repeat(4000)));
    const [event] = await suite.server.next(1);
    assert.ok(Buffer.byteLength(event!.body) <= 4096);
  });
});
