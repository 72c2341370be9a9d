// The shared link's views besides its dashboard, one module the share page loads when a viewer first
// opens one of them: most links are opened on the dashboard, which the page carries itself.
import '../lib/on-demand-base.js';

export { FunnelView } from './funnel-view.js';
export { GoalsView } from './goals-view.js';
export { RealtimeView } from './realtime-view.js';
