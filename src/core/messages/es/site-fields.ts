// The catalogue's `siteFields` section in Spanish: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const siteFields: WebCatalogue['siteFields'] = {
  timeZone: 'Zona horaria',
  timeZoneHint: 'Escriba para buscar, por ejemplo Europe/Madrid.',
  unlistedZone: 'No está en la lista de zonas: el servicio la comprobará al guardar.',
  keepEvents: 'Conservar eventos individuales',
  keepEventsHint:
    'Hasta aquí llegan las vistas filtradas (varios filtros a la vez, o un filtro junto a otro desglose); los días anteriores responden a un filtro cada vez. Con 20.000 páginas vistas al día, un año conservado 13 meses ocupa unos 540 MB más de disco que conservado 30 días.',
};
