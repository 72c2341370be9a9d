// The catalogue's `share` section in Spanish: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const share: WebCatalogue['share'] = {
  viewsNav: 'Vistas',
  lockedToFilters: 'Los embudos y el tiempo real no se comparten con este enlace: está limitado a filtros, y ambos cuentan a todos los visitantes del sitio. Los objetivos se cuentan con sus filtros, en el panel Eventos.',
  lockedToPages: 'Los objetivos, los embudos y el tiempo real no se comparten con este enlace: está limitado a páginas, más allá de las cuales pueden llegar los objetivos, y los embudos y el tiempo real cuentan a todos los visitantes del sitio.',
  patternBefore: 'Las páginas que coinciden con ',
  patternAfter: ' se cuentan a partir de eventos individuales, que este sitio conserva durante sus últimos {days} días: el periodo debe caer dentro de ellos, y una comparación con días anteriores no muestra cifras previas.',
  readOnlyNote: 'Panel compartido, solo lectura',
  sharedDashboard: 'Panel compartido',
  openShared: 'Abrir el panel compartido',
  passwordField: 'Contraseña',
  openingNote: 'Abriendo…',
  viewDashboard: 'Ver el panel',
};
