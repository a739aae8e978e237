/** Shown on a 401: the browser has no login cookie yet (or the token was regenerated). */
export function LoginRequired() {
  return (
    <main className="login-required">
      <div className="login-card" role="alert">
        <h1>Log in to Baton</h1>
        <p>This browser is not logged in to the Baton server.</p>
        <ol>
          <li>
            Open the login link that <code>baton serve</code> printed when it started — it looks like{' '}
            <code>http://127.0.0.1:PORT/login?code=…</code> (each link works once)
          </li>
          <li>
            Lost it, or already used? Run <code>baton login-link</code> in a terminal: it prints a fresh one-time link.
          </li>
        </ol>
        <p className="muted">This page reconnects by itself once you have logged in in this browser.</p>
        <button type="button" className="primary" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    </main>
  );
}
