// /share/<token>: a site's dashboard shown through a shared link, without an account: no settings,
// no other site, no `Sign out`. The token goes to POST /app/v1/share in a body (with the link's
// password when it has one); the answer's access token then goes with every read. `?embed=1` drops
// the page's header for an iframe.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, messageOf, setShareAccess } from '../lib/api.js';
import { useAction } from '../lib/hooks.js';
import { PlainLayout } from '../lib/layout.js';
import { mountPage, pathSegment } from '../lib/mount.js';
import { Dashboard } from '../components/site-dashboard.js';
import { ErrorText, Loading } from '../components/feedback.js';
import { Form, SubmitButton, TextField } from '../components/fields.js';
import type { SiteRow } from '../../src/core/vocabulary.js';

interface Opened {
  access: string;
  expiresAt: number;
  site: { id: string; name: string; domain: string; timezone: string };
  filters: string[];
}

const embedded = new URLSearchParams(window.location.search).get('embed') === '1';

/** The site as the dashboard's components take it: read-only, whatever role it would need. */
const sharedSite = (site: Opened['site']): SiteRow => ({ ...site, status: 'active', orgId: 0, orgName: '', role: 'viewer', visitors24h: 0 });

function Frame({ site, children }: { site: Opened['site']; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${site.name} · svc`;
  }, [site.name]);
  if (embedded) return <main id="content" class="embedded">{children}</main>;
  return (
    <>
      <header class="top">
        <span class="brand">svc</span>
        <span class="muted">Shared dashboard, read only</span>
      </header>
      <main id="content" tabIndex={-1}>
        <h1>
          {site.name} <span class="muted">{site.domain}</span>
        </h1>
        {children}
      </main>
    </>
  );
}

function PasswordForm({ onOpen }: { onOpen(password: string): Promise<void> }) {
  const [password, setPassword] = useState('');
  const action = useAction();
  return (
    <PlainLayout title="Shared dashboard">
      <Form onSubmit={() => action.run(() => onOpen(password))} label="Open the shared dashboard">
        <TextField label="Password" type="password" autoComplete="current-password" required autoFocus value={password} onValue={setPassword} />
        <ErrorText message={action.error} />
        <SubmitButton busy={action.busy} busyLabel="Opening…">
          View dashboard
        </SubmitButton>
      </Form>
    </PlainLayout>
  );
}

function SharePage() {
  const token = pathSegment(1);
  const [opened, setOpened] = useState<Opened | undefined>(undefined);
  const [passwordAsked, setPasswordAsked] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const open = async (password?: string) => {
    const answer = await api<Opened | { passwordRequired: true }>('POST', '/share', { token, ...(password === undefined ? {} : { password }) }, { anonymous: true });
    if ('passwordRequired' in answer) {
      setPasswordAsked(true);
      return;
    }
    setShareAccess(answer.access);
    setOpened(answer);
  };
  useEffect(() => {
    open().catch((failure: unknown) => setError(messageOf(failure)));
  }, []);
  if (error) {
    return (
      <PlainLayout title="Shared dashboard">
        <ErrorText message={error} />
      </PlainLayout>
    );
  }
  if (opened) {
    return <Dashboard site={sharedSite(opened.site)} lockedFilters={opened.filters} frame={(children) => <Frame site={opened.site}>{children}</Frame>} />;
  }
  if (passwordAsked) return <PasswordForm onOpen={open} />;
  return <Loading />;
}

mountPage(<SharePage />);
