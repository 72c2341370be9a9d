// Browser, OS and device families from the User-Agent, with ua-parser-js 1.x (MIT) behind an LRU
// cache: real traffic repeats a few thousand UA strings, and parsing is the costly part.
import { LRUCache } from 'lru-cache';
import UAParser from 'ua-parser-js';
import type { DeviceClass } from '../core/vocabulary.js';

export interface UaFamilies {
  browser: string | null;
  os: string | null;
  parserDevice: 'mobile' | 'tablet' | null;
}

/** ua-parser-js's browser names → svc's families; a name not listed is its own family. */
export const BROWSERS: Readonly<Record<string, string>> = {
  'Mobile Safari': 'Safari',
  Safari: 'Safari',
  Chrome: 'Chrome',
  'Chrome WebView': 'Chrome',
  'Chrome Mobile': 'Chrome',
  Chromium: 'Chromium',
  Firefox: 'Firefox',
  'Mobile Firefox': 'Firefox',
  'Firefox Mobile': 'Firefox',
  'Firefox Focus': 'Firefox',
  Edge: 'Edge',
  'Edge Mobile': 'Edge',
  Opera: 'Opera',
  'Opera Mobi': 'Opera',
  'Opera Touch': 'Opera',
  'Opera GX': 'Opera',
  'Samsung Browser': 'Samsung Internet',
  Vivaldi: 'Vivaldi',
  Yandex: 'Yandex',
  Brave: 'Brave',
  DuckDuckGo: 'DuckDuckGo',
  IE: 'Internet Explorer',
  IEMobile: 'Internet Explorer',
  UCBrowser: 'UC Browser',
};

/** ua-parser-js's system names → svc's families; a name not listed is its own family. */
export const OSES: Readonly<Record<string, string>> = {
  Windows: 'Windows',
  'Windows Phone': 'Windows',
  'Mac OS': 'macOS',
  macOS: 'macOS',
  iOS: 'iOS',
  iPadOS: 'iOS',
  Android: 'Android',
  HarmonyOS: 'Android',
  'Chromium OS': 'ChromeOS',
  Linux: 'Linux',
  Ubuntu: 'Linux',
  Debian: 'Linux',
  Fedora: 'Linux',
  'Arch': 'Linux',
  Mint: 'Linux',
  SUSE: 'Linux',
  'Red Hat': 'Linux',
  CentOS: 'Linux',
  Gentoo: 'Linux',
  FreeBSD: 'FreeBSD',
  OpenBSD: 'OpenBSD',
};

const cache = new LRUCache<string, UaFamilies>({ max: 5000 });

export function parseUserAgent(ua: string): UaFamilies {
  const hit = cache.get(ua);
  if (hit) return hit;
  const result = new UAParser(ua).getResult();
  const type = result.device.type;
  const families: UaFamilies = {
    browser: result.browser.name ? (BROWSERS[result.browser.name] ?? result.browser.name) : null,
    os: result.os.name ? (OSES[result.os.name] ?? result.os.name) : null,
    parserDevice: type === 'mobile' || type === 'tablet' ? type : null,
  };
  cache.set(ua, families);
  return families;
}

/** Device class: by screen width when the tracker sent one, else the parser's device type. */
export function deviceClass(width: number | null, parserDevice: UaFamilies['parserDevice']): DeviceClass {
  if (width !== null && width > 0) return width < 576 ? 'mobile' : width < 992 ? 'tablet' : 'desktop';
  return parserDevice ?? 'desktop';
}
