// svc member set|list|rm: a user's role in an organisation.
import { numericId, required } from '../args.js';
import { seg } from '../client.js';
import { formatFields, formatTable } from '../output.js';
import type { Invocation, Noun } from '../types.js';
import { isRole, ROLES } from '../../core/vocabulary.js';
import type { Member, RoleAssignment } from '../../core/management.js';

function orgOption(inv: Invocation): number {
  return numericId(inv, '--org', required(inv, 'org'));
}

export const member: Noun = {
  name: 'member',
  summary: "memberships: a user's role (viewer, admin, owner) in an organisation",
  commands: [
    {
      verb: 'set',
      usage: 'svc member set --org ORG_ID --user USER_ID|EMAIL --role viewer|admin|owner',
      summary: 'give a user a role in an organisation (creates or changes the membership)',
      options: { org: { type: 'string' }, user: { type: 'string' }, role: { type: 'string' } },
      example: 'svc member set --org 1 --user ana@example.com --role admin',
      async run(inv) {
        const orgId = orgOption(inv);
        const userText = required(inv, 'user');
        const role = required(inv, 'role');
        if (!isRole(role)) inv.usage(`--role must be one of ${ROLES.join(', ')}, got ${JSON.stringify(role)}`);
        const client = inv.client();
        const set = userText.includes('@')
          ? await client.request<RoleAssignment>('POST', `/orgs/${seg(orgId)}/members`, { email: userText, role })
          : await client.request<RoleAssignment>('PUT', `/orgs/${seg(orgId)}/members/${seg(numericId(inv, '--user', userText))}`, { role });
        inv.out.result(set, () => formatFields([['org', set.orgId], ['user', set.userId], ['role', set.role]]));
      },
    },
    {
      verb: 'list',
      usage: 'svc member list --org ORG_ID',
      summary: "list an organisation's members",
      options: { org: { type: 'string' } },
      example: 'svc member list --org 1',
      async run(inv) {
        const answer = await inv.client().request<{ members: Member[] }>('GET', `/orgs/${seg(orgOption(inv))}/members`);
        inv.out.result(answer, () => formatTable(['USER', 'EMAIL', 'NAME', 'ROLE'], answer.members.map((m) => [m.userId, m.email, m.name, m.role])));
      },
    },
    {
      verb: 'rm',
      usage: 'svc member rm --org ORG_ID --user USER_ID',
      summary: 'remove a user from an organisation',
      options: { org: { type: 'string' }, user: { type: 'string' } },
      example: 'svc member rm --org 1 --user 3',
      async run(inv) {
        const orgId = orgOption(inv);
        const userId = numericId(inv, '--user', required(inv, 'user'));
        await inv.client().request('DELETE', `/orgs/${seg(orgId)}/members/${seg(userId)}`);
        inv.out.result({ orgId, userId, removed: true }, () => `removed user ${userId} from organisation ${orgId}\n`);
      },
    },
  ],
};
