// The English catalogue's words of the pages the server writes itself (src/http/plain-page.ts): the
// confirm-email link's, the report unsubscribe link's and /setup's once set-up is done. They stay on
// the server, like the mails'. An entry with `{signIn}` takes a link the page writes.
export const plainPages = {
  confirmEmail: {
    title: 'Confirm your email',
    invalid: 'This confirmation link is not valid.',
    question: 'Confirm this email as your svc account’s email?',
    confirm: 'Confirm',
    changed: 'Your account’s email is now {email}. Sign in again with it.',
    confirmed: 'Your email {email} is confirmed.',
    signIn: 'Sign in',
  },
  unsubscribe: {
    title: 'Email reports',
    invalid: 'This unsubscribe link is not valid.',
    question: 'Stop receiving this report for this site?',
    unsubscribe: 'Unsubscribe',
    /** A sentence per kind of report: a language may word (or inflect) weekly and monthly differently. */
    done: {
      weekly: 'Done: you will no longer receive the weekly report of this site. Choose reports again on your account page.',
      monthly: 'Done: you will no longer receive the monthly report of this site. Choose reports again on your account page.',
    },
  },
  setupDone: {
    title: 'Set-up is done',
    body: 'svc is set up: its first account exists. {signIn} instead.',
    signIn: 'Sign in',
  },
};
