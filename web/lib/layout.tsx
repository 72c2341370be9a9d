// The frame of every signed-in page: the service name (home), where the page sits (breadcrumbs),
// the user and `Sign out`, then the page's title and content.
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { useAction } from './hooks.js';
import { signOut } from './session.js';
import { ErrorText } from '../components/feedback.js';
import { fill } from './i18n.js';
import { frameText } from './text/frame.js';
import type { SessionView } from '../../src/core/management.js';

export interface Crumb {
  href: string;
  label: string;
}

export function Layout({
  session,
  title,
  crumbs = [],
  tabs,
  children,
}: {
  session: SessionView;
  title: string;
  /** Links to the pages above this one, outermost first. */
  crumbs?: Crumb[];
  /** Links between the pages of one site or organisation, under the title. */
  tabs?: ComponentChildren;
  children: ComponentChildren;
}) {
  const leaving = useAction();
  useEffect(() => {
    document.title = `${title} · svc`;
  }, [title]);
  return (
    <>
      <a class="skip" href="#content">
        {frameText.skipLink}
      </a>
      <header class="top">
        <nav aria-label={frameText.breadcrumbsNav} class="crumbs">
          <a href="/" class="brand">
            svc
          </a>
          {crumbs.map((crumb) => (
            <span key={crumb.href}>
              <span aria-hidden="true" class="sep">
                /
              </span>
              <a href={crumb.href}>{crumb.label}</a>
            </span>
          ))}
        </nav>
        <div class="user">
          <a class="email" href="/account" title={fill(frameText.accountOf, { email: session.user.email })}>
            {session.user.name || session.user.email}
          </a>
          <button type="button" onClick={() => leaving.run(signOut)} disabled={leaving.busy}>
            {frameText.signOutButton}
          </button>
          <ErrorText message={leaving.error} />
        </div>
      </header>
      <main id="content" tabIndex={-1}>
        <h1>{title}</h1>
        {tabs}
        {children}
      </main>
    </>
  );
}

/** The page-less frame of /login and /setup. */
export function PlainLayout({ title, children }: { title: string; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · svc`;
  }, [title]);
  return (
    <main id="content" class="narrow">
      <p class="brand">svc</p>
      <h1>{title}</h1>
      {children}
    </main>
  );
}
