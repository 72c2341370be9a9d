// The catalogue's `singleSignOn` section in German: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const singleSignOn: WebCatalogue['singleSignOn'] = {
  failures: {
    denied: 'Die Anmeldung wurde beim Identitätsanbieter abgebrochen. Starten Sie sie erneut, um sich anzumelden.',
    state: 'Diese Anmeldung ist abgelaufen oder wurde bereits verwendet. Bitte starten Sie erneut.',
    browser: 'Diese Anmeldung wurde in einem anderen Browser gestartet und hat Sie deshalb hier nicht angemeldet. Starten Sie erneut von dieser Seite aus.',
    check: 'Die Antwort des Identitätsanbieters hat eine Prüfung nicht bestanden und wurde deshalb nicht verwendet. Starten Sie erneut; passiert es wieder, informieren Sie Ihren Betreiber.',
    provider: 'Der Identitätsanbieter ist gerade nicht erreichbar. Versuchen Sie es in einigen Minuten erneut oder melden Sie sich mit Ihrem Passwort an.',
    noEmail: 'Der Identitätsanbieter hat Ihre E-Mail-Adresse nicht übermittelt und kann Sie deshalb hier nicht anmelden. Bitten Sie Ihren Betreiber, svc den E-Mail-Claim lesen zu lassen, und starten Sie dann erneut.',
    unverified: 'Laut Identitätsanbieter ist Ihre E-Mail-Adresse nicht verifiziert, deshalb kann er Sie hier nicht anmelden. Verifizieren Sie sie beim Anbieter und starten Sie dann erneut.',
    unconfirmed: 'Hier gibt es ein Konto mit Ihrer E-Mail-Adresse, doch diese ist nicht bestätigt, deshalb kann Single Sign-on es nicht verwenden. Melden Sie sich zuerst mit Ihrem Passwort an und bestätigen Sie Ihre E-Mail-Adresse auf Ihrer Kontoseite.',
    noAccount: 'Ihr Konto existiert hier nicht. Bitten Sie einen Inhaber Ihrer Organisation um eine Einladung.',
    busy: 'Gerade laufen zu viele Anmeldungen. Warten Sie einige Minuten und starten Sie dann erneut.',
    unconfigured: 'Single Sign-on ist bei diesem Dienst nicht eingerichtet. Melden Sie sich mit Ihrem Passwort an.',
    internal: 'Die Anmeldung ist auf der Seite dieses Dienstes fehlgeschlagen. Bitte versuchen Sie es gleich noch einmal.',
  },
};
