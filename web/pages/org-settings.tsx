// /orgs/:orgId/settings: the organisation's sites (add one, then land on its dashboard), API keys
// (created and shown once, revoked after confirmation) and, for owners, its members and
// invitations (the link shown once).
import { useEffect, useState } from 'preact/hooks';
import { call } from '../lib/client.js';
import { formatInstant } from '../lib/dates.js';
import { useAction, useRead, type Action } from '../lib/hooks.js';
import { Layout } from '../lib/layout.js';
import { mountPage, pathSegment, SignedIn } from '../lib/mount.js';
import { membershipOf } from '../lib/session.js';
import { ConfirmButton } from '../components/confirm.js';
import { ShownOnce } from '../components/copy.js';
import { ErrorText, LoadState } from '../components/feedback.js';
import { CheckboxField, SelectField, TextField } from '../components/fields.js';
import { FormSection } from '../components/form-section.js';
import { SignInSettings } from '../components/sign-in-settings.js';
import { RawDaysField } from '../components/raw-days.js';
import { WideTable } from '../components/table.js';
import { defaultTimezone, TimezoneField } from '../components/timezone.js';
import { siteDomainOf } from '../../src/entities/sites.js';
import type { ManagedInvitation, Member, CreatedInvitation, SessionView } from '../../src/core/management.js';
import { roleAtLeast, SUGGESTED_RAW_DAYS, type KeyScope, type Role } from '../../src/core/vocabulary.js';

const SCOPE_OPTIONS: Array<[KeyScope, string]> = [
  ['read', 'Read: reads statistics (/v1)'],
  ['manage', 'Manage: also manages sites, goals, funnels, alerts and shared links (/app/v1/manage)'],
];

const ROLE_OPTIONS: Array<[Role, string]> = [
  ['viewer', 'Viewer: sees the dashboards'],
  ['admin', 'Admin: also manages sites and keys'],
  ['owner', 'Owner: also manages members'],
];

function Sites({ orgId }: { orgId: number }) {
  const sites = useRead(() => call('GET /manage/orgs/:orgId/sites', { params: { orgId } }), [orgId]);
  const [address, setAddress] = useState('');
  const [name, setName] = useState('');
  const [timezone, setTimezone] = useState('');
  const [rawDays, setRawDays] = useState<number>(SUGGESTED_RAW_DAYS);
  useEffect(() => {
    defaultTimezone().then((zone) => setTimezone((typed) => typed || zone));
  }, []);
  const add = useAction();
  const domain = siteDomainOf(address);
  const submit = () =>
    add.run(async () => {
      const site = await call('POST /manage/orgs/:orgId/sites', { params: { orgId }, body: { domain, name: name || domain, timezone, rawDays } });
      window.location.assign(`/sites/${encodeURIComponent(site.id)}`);
    });
  return (
    <section class="card" id="sites" aria-labelledby="sites-title">
      <h2 id="sites-title">Sites</h2>
      <LoadState state={sites}>
        {({ sites: rows }) => (
          <WideTable
            class="stack"
            columns={['Site', 'Domain', 'Time zone', 'Settings']}
            rows={rows}
            empty={<p class="muted">No sites yet: add the first one below.</p>}
            row={(site) => (
              <tr key={site.id}>
                <td>
                  {site.status === 'active' ? <a href={`/sites/${encodeURIComponent(site.id)}`}>{site.name}</a> : site.name}{' '}
                  {site.status === 'archived' && <span class="badge">archived</span>}
                </td>
                <td class="muted">{site.domain}</td>
                <td class="muted">{site.timezone}</td>
                <td>
                  <a href={`/sites/${encodeURIComponent(site.id)}/settings`} aria-label={`Settings of ${site.name}`}>
                    Settings
                  </a>
                </td>
              </tr>
            )}
          />
        )}
      </LoadState>
      <FormSection title="Add a site" action={add} onSubmit={submit} submitLabel="Add site" busyLabel="Adding…">
        <TextField
          label="Domain"
          required
          placeholder="example.com"
          spellcheck={false}
          value={address}
          onValue={setAddress}
          hint={domain !== '' && domain !== address.trim() ? `Adds the site as ${domain}: events come from it and its subdomains.` : 'A host name, or paste an address of the site.'}
        />
        <TextField label="Name" placeholder="Same as the domain" value={name} onValue={setName} />
        <TimezoneField value={timezone} onValue={setTimezone} />
        <RawDaysField days={rawDays} onDays={setRawDays} />
      </FormSection>
    </section>
  );
}

function Keys({ orgId }: { orgId: number }) {
  const keys = useRead(() => call('GET /manage/orgs/:orgId/keys', { params: { orgId } }), [orgId]);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<KeyScope>('read');
  const [created, setCreated] = useState<{ name: string; key: string } | undefined>(undefined);
  const create = useAction();
  const revoke = useAction();
  const submit = () =>
    create.run(async () => {
      const key = await call('POST /manage/orgs/:orgId/keys', { params: { orgId }, body: name ? { name, scope } : { scope } });
      setCreated(key);
      setName('');
      setScope('read');
      keys.reload();
    });
  return (
    <section class="card" id="keys" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p class="muted">A key reads the statistics of every site of this organisation through /v1; a manage key also manages its sites from code.</p>
      {created && (
        <ShownOnce region="New API key" text={created.key} label="The new API key" onDone={() => setCreated(undefined)}>
          <strong>Copy the key {created.name ? `“${created.name}”` : ''} now:</strong> it is shown only this once.
        </ShownOnce>
      )}
      <LoadState state={keys}>
        {({ keys: rows }) => (
          <WideTable
            columns={['Name', 'Scope', 'Created', 'State']}
            rows={rows}
            empty={<p class="muted">No keys yet.</p>}
            row={(key) => (
              <tr key={key.id}>
                <td>{key.name || <span class="muted">(unnamed)</span>}</td>
                <td>{key.scope}</td>
                <td class="muted">{formatInstant(key.createdAt)}</td>
                <td>
                  {key.revokedAt ? (
                    <span class="badge">revoked {formatInstant(key.revokedAt)}</span>
                  ) : (
                    <ConfirmButton
                      label={`Revoke key ${key.name || key.id}`}
                      question={`Revoke the key ${key.name ? `“${key.name}”` : key.id}? Requests with it stop working at once.`}
                      confirmLabel="Revoke"
                      disabled={revoke.busy}
                      onConfirm={() => revoke.run(() => call('POST /manage/keys/:keyId/revoke', { params: { keyId: key.id } })).then(keys.reload)}
                    >
                      Revoke
                    </ConfirmButton>
                  )}
                </td>
              </tr>
            )}
          />
        )}
      </LoadState>
      <ErrorText message={revoke.error} />
      <FormSection title="Create a key" label="Create an API key" action={create} onSubmit={submit} submitLabel="Create key" busyLabel="Creating…">
        <TextField label="Key name" placeholder="reporting" value={name} onValue={setName} />
        <SelectField<KeyScope> label="Scope" value={scope} onValue={setScope} options={SCOPE_OPTIONS} />
      </FormSection>
    </section>
  );
}

/** The owner's switch: every member must sign in with two factors (the owner's own enabled first). */
function RequireTwoFactor({ orgId }: { orgId: number }) {
  const policy = useRead(() => call('GET /manage/orgs/:orgId/two-factor', { params: { orgId } }), [orgId]);
  const change = useAction();
  return (
    <LoadState state={policy}>
      {({ required }) => (
        <>
          <CheckboxField
            label="Require two-factor sign-in for every member"
            hint="Members without it reach only their account pages until they enable it."
            checked={required}
            onChecked={(next) => change.run(() => call('PUT /manage/orgs/:orgId/two-factor', { params: { orgId }, body: { required: next } })).then(policy.reload)}
          />
          <ErrorText message={change.error} />
        </>
      )}
    </LoadState>
  );
}

function Members({ orgId, session }: { orgId: number; session: SessionView }) {
  const members = useRead(() => call('GET /manage/orgs/:orgId/members', { params: { orgId } }), [orgId]);
  const change = useAction();
  const setMemberRole = (member: Member, next: Role) => change.run(() => call('PUT /manage/orgs/:orgId/members/:userId', { params: { orgId, userId: member.userId }, body: { role: next } })).then(members.reload);
  return (
    <section class="card" id="members" aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      <LoadState state={members}>
        {({ members: rows }) => (
          <WideTable
            class="stack"
            columns={['Member', 'Role', 'Remove']}
            rows={rows}
            row={(member) => (
              <tr key={member.userId}>
                <td>
                  {member.name || member.email}
                  {member.name && <div class="muted">{member.email}</div>}
                </td>
                <td>
                  <select aria-label={`Role of ${member.email}`} value={member.role} disabled={change.busy} onChange={(event) => setMemberRole(member, event.currentTarget.value as Role)}>
                    {ROLE_OPTIONS.map(([value]) => (
                      <option key={value} value={value}>
                        {value}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  {member.userId === session.user.id ? (
                    <span class="muted">you</span>
                  ) : (
                    <ConfirmButton
                      label={`Remove ${member.email}`}
                      question={`Remove ${member.email} from this organisation?`}
                      confirmLabel="Remove"
                      disabled={change.busy}
                      onConfirm={() => change.run(() => call('DELETE /manage/orgs/:orgId/members/:userId', { params: { orgId, userId: member.userId } })).then(members.reload)}
                    >
                      Remove
                    </ConfirmButton>
                  )}
                </td>
              </tr>
            )}
          />
        )}
      </LoadState>
      <ErrorText message={change.error} />
      <RequireTwoFactor orgId={orgId} />
      <SignInSettings orgId={orgId} />
      <Invitations orgId={orgId} />
    </section>
  );
}

function PendingInvitation({ invitation, revoke, onRevoke }: { invitation: ManagedInvitation; revoke: Action; onRevoke(): Promise<void> }) {
  return (
    <tr>
      <td>{invitation.email}</td>
      <td>{invitation.role}</td>
      <td class="muted">{formatInstant(invitation.expiresAt)}</td>
      <td>
        <ConfirmButton label={`Revoke the invitation of ${invitation.email}`} question={`Revoke the invitation of ${invitation.email}? Its link stops working at once.`} confirmLabel="Revoke" disabled={revoke.busy} onConfirm={() => revoke.run(onRevoke)}>
          Revoke
        </ConfirmButton>
      </td>
    </tr>
  );
}

/** Invite member: the link is shown once (and mailed when the service sends mail); pending ones are revoked here. */
function Invitations({ orgId }: { orgId: number }) {
  const pending = useRead(() => call('GET /manage/orgs/:orgId/invitations', { params: { orgId } }), [orgId]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [sent, setSent] = useState<CreatedInvitation | undefined>(undefined);
  const send = useAction();
  const revoke = useAction();
  const submit = () =>
    send.run(async () => {
      setSent(await call('POST /manage/orgs/:orgId/invitations', { params: { orgId }, body: { email, role } }));
      setEmail('');
      pending.reload();
    });
  return (
    <>
      <FormSection title="Invite member" action={send} onSubmit={submit} submitLabel="Send invitation" busyLabel="Sending…">
        <TextField label="Email" type="email" required value={email} onValue={setEmail} />
        <SelectField<Role> label="Role" value={role} onValue={setRole} options={ROLE_OPTIONS} />
      </FormSection>
      {sent && (
        <ShownOnce region="Invitation link" text={sent.url} label={`Invitation link for ${sent.email}`} onDone={() => setSent(undefined)}>
          <strong>Copy the invitation link for {sent.email} now:</strong> it is shown only this once. It works once, until {formatInstant(sent.expiresAt)}.
          {sent.emailed ? ' It was also emailed to them.' : ''}
        </ShownOnce>
      )}
      <h3>Pending invitations</h3>
      <LoadState state={pending}>
        {({ invitations: rows }) => (
          <WideTable
            columns={['Email', 'Role', 'Expires', 'Revoke']}
            rows={rows}
            empty={<p class="muted">No pending invitations.</p>}
            row={(invitation) => <PendingInvitation key={invitation.invitationId} invitation={invitation} revoke={revoke} onRevoke={() => call('DELETE /manage/orgs/:orgId/invitations/:invitationId', { params: { orgId, invitationId: invitation.invitationId } }).then(pending.reload)} />}
          />
        )}
      </LoadState>
      <ErrorText message={revoke.error} />
    </>
  );
}

function OrgSettings({ session }: { session: SessionView }) {
  const orgId = Number(pathSegment(1));
  const membership = membershipOf(session, orgId);
  const title = membership ? `${membership.orgName} settings` : 'Organisation settings';
  return (
    <Layout session={session} title={title}>
      {!membership ? (
        <ErrorText message="There is no such organisation, or you are not one of its members." />
      ) : !roleAtLeast(membership.role, 'admin') ? (
        <p class="error" role="alert">
          Your role in {membership.orgName} is viewer: settings are for admins and owners. <a href="/">Back to the sites</a>.
        </p>
      ) : (
        <>
          <Sites orgId={orgId} />
          <Keys orgId={orgId} />
          {membership.role === 'owner' && <Members orgId={orgId} session={session} />}
        </>
      )}
    </Layout>
  );
}

mountPage(<SignedIn>{(session) => <OrgSettings session={session} />}</SignedIn>);
