// The pages the server writes itself in German (formal address): see ../en/plain-pages.ts.
import type { PlainPagesCatalogue } from '../catalogue.js';

const de: PlainPagesCatalogue = {
  confirmEmail: {
    title: 'E-Mail-Adresse bestätigen',
    invalid: 'Dieser Bestätigungslink ist ungültig.',
    question: 'Diese E-Mail-Adresse als E-Mail-Adresse Ihres svc-Kontos bestätigen?',
    confirm: 'Bestätigen',
    changed: 'Die E-Mail-Adresse Ihres Kontos lautet jetzt {email}. Melden Sie sich damit erneut an.',
    confirmed: 'Ihre E-Mail-Adresse {email} ist bestätigt.',
    signIn: 'Anmelden',
  },
  unsubscribe: {
    title: 'E-Mail-Berichte',
    invalid: 'Dieser Abmeldelink ist ungültig.',
    question: 'Diesen Bericht für diese Website nicht mehr erhalten?',
    unsubscribe: 'Abbestellen',
    done: {
      weekly: 'Erledigt: Sie erhalten den Wochenbericht dieser Website nicht mehr. Auf Ihrer Kontoseite können Sie wieder Berichte auswählen.',
      monthly: 'Erledigt: Sie erhalten den Monatsbericht dieser Website nicht mehr. Auf Ihrer Kontoseite können Sie wieder Berichte auswählen.',
    },
  },
  setupDone: {
    title: 'Einrichtung abgeschlossen',
    body: 'svc ist eingerichtet: Das erste Konto existiert bereits. Gehen Sie stattdessen zur {signIn}.',
    signIn: 'Anmeldung',
  },
};

export default de;
