// The catalogue's `siteFields` section in French: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const siteFields: WebCatalogue['siteFields'] = {
  timeZone: 'Fuseau horaire',
  timeZoneHint: 'Tapez pour rechercher, par exemple Europe/Paris.',
  unlistedZone: 'Absent de la liste des fuseaux : le service le vérifiera à l’enregistrement.',
  keepEvents: 'Conserver les événements individuels',
  keepEventsHint:
    'Les vues filtrées (plusieurs filtres à la fois, ou un filtre à côté d’une autre ventilation) remontent jusque-là ; au-delà, les jours ne répondent qu’à un filtre à la fois. À 20 000 pages vues par jour, une année conservée 13 mois occupe environ 540 Mo de disque de plus que conservée 30 jours.',
};
