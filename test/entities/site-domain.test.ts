// The site domain the dashboard's Add site form makes of what is typed or pasted, and its agreement
// with the admin API's own check of a domain; a loopback address makes the local site.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { siteDomainOf } from '../../src/entities/sites.js';
import { parseDomain } from '../../src/http/admin/domain.js';

test('a pasted address becomes its host, without www., port, path or letter case', () => {
  const cases: Array<[string, string]> = [
    ['https://www.Example.com/path', 'example.com'],
    ['  http://shop.example.com:8080/a?b=1#c ', 'shop.example.com'],
    ['HTTPS://user:pw@WWW.Example.COM.', 'example.com'],
    ['//www.example.org/', 'example.org'],
    ['example.com/pricing', 'example.com'],
    ['example.com:443', 'example.com'],
    ['www.example.com', 'example.com'],
    ['blog.example.com', 'blog.example.com'],
    ['Example.COM.', 'example.com'],
    // `www` as the name itself, or before a single label, is kept.
    ['www.com', 'www.com'],
    ['www', 'www'],
    ['wwwexample.com', 'wwwexample.com'],
    // A loopback address makes the local site, which takes every loopback origin.
    ['http://127.0.0.1:5173/', 'localhost'],
    ['http://[::1]:3000', 'localhost'],
    ['http://app.localhost:8080/x', 'localhost'],
    ['localhost:3000', 'localhost'],
    ['127.0.0.1.example', '127.0.0.1.example'],
  ];
  for (const [input, domain] of cases) assert.equal(siteDomainOf(input), domain, input);
});

test('the admin API stores the form’s domain as it is', () => {
  for (const input of ['https://www.Example.com/path', 'Example.COM.', 'http://a-b.example.co.uk:8000/x', 'http://127.0.0.1:5173/']) {
    const domain = siteDomainOf(input);
    assert.equal(parseDomain(domain), domain, input);
  }
});
