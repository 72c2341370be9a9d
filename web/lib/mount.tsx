// Starts a page: renders it into #app once its language is loaded (the shell's loading text stays
// until then); a signed-in page renders again in the account's language when it differs.
import { render, type ComponentChildren, type VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { messageOf } from './api.js';
import { loadLanguage } from './i18n.js';
import { loadSession } from './session.js';
import { ErrorText, Loading } from '../components/feedback.js';
import type { SessionView } from '../../src/core/management.js';

export function mountPage(page: VNode): void {
  const root = document.getElementById('app');
  if (!root) throw new Error('the page shell has no #app element');
  void loadLanguage().then(() => {
    root.textContent = '';
    render(page, root);
  });
}

/** Loads the session, then renders `children(session)`; without a session the api client sends the browser to sign in. */
export function SignedIn({ children }: { children(session: SessionView): ComponentChildren }) {
  const [session, setSession] = useState<SessionView | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    loadSession().then(
      async (loaded) => {
        await loadLanguage(loaded.user.language);
        setSession(loaded);
      },
      (failure: unknown) => setError(messageOf(failure)),
    );
  }, []);
  if (error) {
    return (
      <main id="content" class="narrow">
        <ErrorText message={error} />
      </main>
    );
  }
  if (!session) return <Loading />;
  // An organisation requires two-factor sign-in the user has not enabled: only its account pages work.
  if (session.twoFactor.requiredBy.length > 0 && !window.location.pathname.startsWith('/account')) {
    window.location.assign('/account/security');
    return <Loading />;
  }
  return <>{children(session)}</>;
}

/** The path segment at `index` of the current address (`/orgs/3/settings`: 1 is `3`), decoded. */
export function pathSegment(index: number): string {
  const segment = window.location.pathname.split('/').filter(Boolean)[index] ?? '';
  return decodeURIComponent(segment);
}
