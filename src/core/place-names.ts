// Names of places shown to people: a country's ISO 3166 code as its name in a language (the
// dashboard's and the email reports' reader's), by the runtime's own tables; the key of an imported
// city that kept its GeoNames id (the catalogue words it).
const regionNames = new Map<string, Intl.DisplayNames | null>();

/** The name of a two-letter country code in `locale` (the runtime's default when undefined); anything else as it is. */
export function countryName(code: string, locale?: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return code;
  let names = regionNames.get(locale ?? '');
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames(locale, { type: 'region' });
    } catch {
      names = null; // a runtime without the region names: codes are shown as they are
    }
    regionNames.set(locale ?? '', names);
  }
  return names?.of(code) ?? code;
}

/**
 * The start of the key of an imported city whose GeoNames id svc's table of cities does not hold
 * (docs/imports.md): `geonames:<id>`.
 */
export const GEONAMES_KEY_PREFIX = 'geonames:';
export const GEONAMES_KEY = /^geonames:(\d+)$/;
