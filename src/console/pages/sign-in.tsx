import { useEffect, useState } from 'preact/hooks';
import { Session, SINGLE_SIGN_ON_URL, type Credentials } from '../api.js';
import { errorText } from '../ui.js';

/**
 * Sign-in: with single sign-on when the server offers it (the session cookie then signs in every
 * reload and tab, so a session found here signs in at once), or with an API key's client credentials
 * or an API user's name and password.
 */
export function SignInPage({ onSignedIn }: { onSignedIn(session: Session): void }) {
  /** undefined: still asking the server; false: no single sign-on configured. */
  const [oidc, setOidc] = useState<boolean>();
  const [type, setType] = useState<Credentials['type']>('apiKey');
  const [id, setId] = useState('');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    document.title = 'Sign in · Blockyard console';
    Session.resume()
      .then(({ oidc: offered, session }) => {
        if (session) {
          if (!window.location.hash) window.location.hash = '#/marketplace';
          onSignedIn(session);
        } else setOidc(offered);
      })
      .catch((failure: unknown) => {
        setOidc(false);
        setError(errorText(failure));
      });
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const credentials: Credentials =
        type === 'apiKey' ? { type, clientId: id.trim(), clientSecret: secret } : { type, username: id.trim(), password: secret };
      const session = await Session.signIn(credentials);
      if (!window.location.hash) window.location.hash = '#/marketplace';
      onSignedIn(session);
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" class="sign-in">
      <h1>Sign in to Blockyard</h1>
      {oidc === undefined ? (
        <p class="muted" role="status">
          Looking for your session…
        </p>
      ) : null}
      {oidc ? (
        <>
          <p>
            <button type="button" class="primary" onClick={() => window.location.assign(SINGLE_SIGN_ON_URL)}>
              Sign in with single sign-on
            </button>
          </p>
          <p class="muted">
            Your company's identity provider signs you in as your meshUser; you stay signed in across reloads and tabs until you sign out.
          </p>
          <h2>Or with an API key or API user</h2>
        </>
      ) : null}
      <form onSubmit={(event) => void submit(event)}>
        <fieldset>
          <legend>Sign in with</legend>
          <label class="inline">
            <input type="radio" name="type" checked={type === 'apiKey'} onChange={() => setType('apiKey')} /> an API key
          </label>
          <label class="inline">
            <input type="radio" name="type" checked={type === 'apiUser'} onChange={() => setType('apiUser')} /> an API user
          </label>
        </fieldset>
        <label for="sign-in-id">{type === 'apiKey' ? 'Client id' : 'Username'}</label>
        <input
          id="sign-in-id"
          name="id"
          autoComplete="username"
          required
          value={id}
          onInput={(event) => setId(event.currentTarget.value)}
        />
        <label for="sign-in-secret">{type === 'apiKey' ? 'Client secret' : 'Password'}</label>
        <input
          id="sign-in-secret"
          name="secret"
          type="password"
          autoComplete="current-password"
          required
          value={secret}
          onInput={(event) => setSecret(event.currentTarget.value)}
        />
        {error ? (
          <p class="error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p class="muted">Your credentials stay in this tab's memory only; signing out or closing the tab forgets them.</p>
    </main>
  );
}
