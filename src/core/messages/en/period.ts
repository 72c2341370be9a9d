// The English catalogue's words of the period and comparison pickers and the keyboard shortcuts,
// shared by every view of a site that has a period.
import type { Comparison, Preset } from '../../vocabulary.js';

export const period = {
  presetNames: {
    today: 'Today',
    yesterday: 'Yesterday',
    '7d': 'Last 7 days',
    '30d': 'Last 30 days',
    '90d': 'Last 90 days',
    month: 'Month to date',
    last_month: 'Last month',
    year: 'Year to date',
    '12mo': 'Last 12 months',
    all: 'All time',
  } satisfies Record<Preset, string>,
  /** Each comparison as the picker names it. */
  comparisons: { previous: 'Previous period', year: 'A year earlier', off: 'No comparison' } satisfies Record<Comparison, string>,
  /** Each comparison as a change names it after `vs`. */
  versus: { previous: 'vs previous period', year: 'vs a year earlier', off: '' } satisfies Record<Comparison, string>,
  periodField: 'Period',
  customRange: 'Custom range…',
  fromField: 'From',
  toField: 'To',
  applyButton: 'Apply',
  daysIn: 'Days in {zone}',
  compareWith: 'Compare with',
  keyboardShortcuts: 'Keyboard shortcuts',
  closeButton: 'Close',
  thisList: 'This list',
};
