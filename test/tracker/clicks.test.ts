// Click tracking: outbound links, downloads, and the declarative data-svc-event attribute.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bodies, browserSuite, trackedPage } from './harness.js';

const DOWNLOAD_EXTENSIONS = [
  'pdf', 'zip', 'dmg', 'exe', 'pkg', 'msi', 'deb', 'rpm', 'apk', 'iso', 'rar', '7z', 'gz', 'tgz', 'tar',
  'csv', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'txt', 'mp3', 'mp4', 'mov', 'avi', 'wmv', 'wav',
];

// Links that would navigate away are kept on the page, so one page can be clicked many times.
const stay = 'onclick="event.preventDefault()"';

describe('tracker clicks', () => {
  const suite = browserSuite();

  it('sends outbound {url} when a link to another host is followed, before the page unloads', async () => {
    const { server, page } = suite;
    const target = `${server.origin('other')}/article?id=7`;
    server.page('/blog', trackedPage(server, { body: `<a id="out" href="${target}">read</a>` }));
    await page.goto(`${server.origin('site')}/blog`);
    await server.next(1);
    await page.click('#out');
    await page.waitForURL(target);
    // Leaving the page also ends its engagement: both events arrive, in either order.
    const events = bodies(await server.next(2)) as { e: string }[];
    const outbound = events.find((event) => event.e === 'outbound');
    assert.deepEqual(outbound, {
      s: server.site,
      u: '/blog',
      w: 1920,
      l: 'fr-FR',
      e: 'outbound',
      p: { url: target },
    });
    assert.deepEqual(events.map((event) => event.e).sort(), ['engage', 'outbound']);
  });

  it('sends outbound on a middle click (new tab) but not on a right click', async () => {
    const { server, page } = suite;
    const target = `${server.origin('other')}/x`;
    server.page('/mid', trackedPage(server, { body: `<a id="out" href="${target}" ${stay}>x</a>` }));
    await page.goto(`${server.origin('site')}/mid`);
    await server.next(1);
    await page.evaluate(() => {
      // A middle click would open a real tab; the event the browser dispatches is what matters.
      const link = document.getElementById('out')!;
      link.dispatchEvent(new MouseEvent('auxclick', { bubbles: true, button: 2 }));
      link.dispatchEvent(new MouseEvent('auxclick', { bubbles: true, button: 1 }));
    });
    const [event] = bodies(await server.next(1)) as [{ e: string; p: unknown }];
    assert.equal(event.e, 'outbound');
    assert.deepEqual(event.p, { url: target });
    await server.expectQuiet();
  });

  it('sends download {url} for internal links ending with each listed extension, in any case', async () => {
    const { server, page } = suite;
    const links = DOWNLOAD_EXTENSIONS.map(
      (extension, index) =>
        `<a class="dl" href="/files/f${index}.${index % 2 ? extension.toUpperCase() : extension}?v=2" ${stay}>f</a>`,
    // Spaced apart: adjacent "f" texts can render as one "ff" ligature, leaving every second link 0 px wide.
    ).join(' ');
    server.page('/downloads', trackedPage(server, { body: links }));
    await page.goto(`${server.origin('site')}/downloads`);
    await server.next(1);
    for (const link of await page.locator('a.dl').all()) await link.click();
    const urls = (bodies(await server.next(DOWNLOAD_EXTENSIONS.length)) as { e: string; p: { url: string } }[]).map(
      (event) => {
        assert.equal(event.e, 'download');
        return event.p.url;
      },
    );
    const expected = DOWNLOAD_EXTENSIONS.map(
      (extension, index) =>
        `${server.origin('site')}/files/f${index}.${index % 2 ? extension.toUpperCase() : extension}?v=2`,
    );
    assert.deepEqual(urls.sort(), expected.sort());
  });

  it('sends nothing for internal links to pages, nor for extensions that only look alike', async () => {
    const { server, page } = suite;
    const body = ['/about', '/files/pdf', '/report.pdf.html', '/archive.tar.bz2', '/image.png', '#section']
      .map((href, index) => `<a class="in" id="in${index}" href="${href}" ${stay}>x</a>`)
      .join('');
    server.page('/internal', trackedPage(server, { body }));
    await page.goto(`${server.origin('site')}/internal`);
    await server.next(1);
    for (const link of await page.locator('a.in').all()) await link.click();
    await server.expectQuiet();
  });

  it('reports a file on another host as outbound, not download', async () => {
    const { server, page } = suite;
    const target = `${server.origin('other')}/setup.exe`;
    server.page('/ext', trackedPage(server, { body: `<a id="f" href="${target}" ${stay}>x</a>` }));
    await page.goto(`${server.origin('site')}/ext`);
    await server.next(1);
    await page.click('#f');
    const [event] = bodies(await server.next(1)) as [{ e: string; p: unknown }];
    assert.deepEqual([event.e, event.p], ['outbound', { url: target }]);
  });

  it('sends neither outbound nor download with data-outbound="off"', async () => {
    const { server, page } = suite;
    const body = `<a id="out" href="${server.origin('other')}/" ${stay}>o</a><a id="dl" href="/a.pdf" ${stay}>d</a>`;
    server.page('/off', trackedPage(server, { attributes: `data-site="${server.site}" data-outbound="off"`, body }));
    await page.goto(`${server.origin('site')}/off`);
    await server.next(1);
    await page.click('#out');
    await page.click('#dl');
    await server.expectQuiet();
  });

  it('keeps outbound tracking for any other data-outbound value', async () => {
    const { server, page } = suite;
    const body = `<a id="out" href="${server.origin('other')}/" ${stay}>o</a>`;
    server.page('/no', trackedPage(server, { attributes: `data-site="${server.site}" data-outbound="no"`, body }));
    await page.goto(`${server.origin('site')}/no`);
    await server.next(1);
    await page.click('#out');
    const [event] = bodies(await server.next(1)) as [{ e: string }];
    assert.equal(event.e, 'outbound');
  });

  it('sends the data-svc-event name of the nearest ancestor on click, lowercased, without props; nothing for other elements nor for an invalid name', async () => {
    const { server, page } = suite;
    const body = `<div id="card" data-svc-event="Card_Open"><p id="text">text</p>
      <button data-svc-event="Signup-CTA"><span id="label">Sign up</span></button></div>
      <button id="plain">no event</button><div id="bad" data-svc-event="not valid!">bad</div>`;
    server.page('/declarative', trackedPage(server, { body }));
    await page.goto(`${server.origin('site')}/declarative`);
    await server.next(1);

    await page.click('#label');
    assert.deepEqual(bodies(await server.next(1)), [
      { s: server.site, u: '/declarative', w: 1920, l: 'fr-FR', e: 'signup-cta' },
    ]);
    await page.click('#text');
    const [event] = bodies(await server.next(1)) as [{ e: string }];
    assert.equal(event.e, 'card_open');
    // No event for an element without the attribute, nor for a name outside the rule.
    await page.click('#plain');
    await page.click('#bad');
    await server.expectQuiet();
  });

  it('sends data-svc-event clicks even with data-outbound="off"', async () => {
    const { server, page } = suite;
    const body = `<button id="b" data-svc-event="newsletter">join</button>`;
    server.page('/decl-off', trackedPage(server, { attributes: `data-site="${server.site}" data-outbound="off"`, body }));
    await page.goto(`${server.origin('site')}/decl-off`);
    await server.next(1);
    await page.click('#b');
    const [event] = bodies(await server.next(1)) as [{ e: string }];
    assert.equal(event.e, 'newsletter');
  });
});
