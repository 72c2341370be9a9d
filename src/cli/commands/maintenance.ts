// svc maintenance run: the periodic jobs, now.
import { MAINTENANCE_TASKS } from '../../core/maintenance.js';
import { many } from '../args.js';
import type { Noun } from '../types.js';

export const maintenance: Noun = {
  name: 'maintenance',
  summary: `periodic jobs (${MAINTENANCE_TASKS.join(', ')})`,
  commands: [
    {
      verb: 'run',
      usage: `svc maintenance run [--task ${MAINTENANCE_TASKS.join('|')} ...]`,
      summary: 'run the periodic jobs now (all of them without --task)',
      options: { task: { type: 'string', multiple: true } },
      example: 'svc maintenance run --task rollup --task retention',
      async run(inv) {
        const tasks = many(inv, 'task');
        const answer = await inv.client().request<{ ran: string[] }>('POST', '/maintenance/run', tasks.length > 0 ? { tasks } : {});
        inv.out.result(answer, () => `ran: ${answer.ran.length > 0 ? answer.ran.join(', ') : 'nothing'}\n`);
      },
    },
  ],
};
