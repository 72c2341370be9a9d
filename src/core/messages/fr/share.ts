// The catalogue's `share` section in French: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const share: WebCatalogue['share'] = {
  viewsNav: 'Vues',
  lockedToFilters: 'Les entonnoirs et le temps réel ne sont pas partagés par ce lien : il est limité à des filtres, et ils comptent tous les visiteurs du site. Les objectifs sont comptés avec ses filtres, dans le panneau Événements.',
  lockedToPages: 'Les objectifs, les entonnoirs et le temps réel ne sont pas partagés par ce lien : il est limité à des pages, au-delà desquelles les objectifs peuvent porter, et les entonnoirs et le temps réel comptent tous les visiteurs du site.',
  patternBefore: 'Les pages correspondant à ',
  patternAfter: " sont comptées à partir des événements individuels, que ce site conserve pour ses {days} derniers jours : la période doit s'y trouver, et une comparaison avec les jours antérieurs n'affiche aucun chiffre précédent.",
  readOnlyNote: 'Tableau de bord partagé, en lecture seule',
  sharedDashboard: 'Tableau de bord partagé',
  openShared: 'Ouvrir le tableau de bord partagé',
  passwordField: 'Mot de passe',
  openingNote: 'Ouverture…',
  viewDashboard: 'Voir le tableau de bord',
};
