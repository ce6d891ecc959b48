/**
 * The few pages oidc-provider renders itself (errors it cannot redirect,
 * RP-initiated logout). Plain HTML in the site's look; no external fonts or
 * scripts. Everything interpolated is escaped.
 */
const escapeHtml = (value: unknown) =>
  String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const STYLE = `body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;background:#f6f8fa;color:#1b1f24;line-height:1.5}
main{max-width:440px;margin:3rem auto;padding:0 1rem}.card{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:1.25rem}
h1{font-size:1.4rem;margin:0 0 1rem}code{word-break:break-all}.muted{color:#57606a}
button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid #0b5cad;background:#0b5cad;color:#fff;cursor:pointer;margin-right:.5rem}
button.secondary{background:#fff;color:#0b5cad}`;

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer"><title>${escapeHtml(title)} · Paddle Results</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1><div class="card">${body}</div></main></body></html>`;
}

/** An authorization error that cannot be sent back to the application (unknown client, unregistered redirect URI…). */
export function errorPage(out: Record<string, string>): string {
  return page(
    "Authorization failed",
    `<p>The application's request could not be completed. Return to the application and try again.</p>
<p><strong>Error:</strong> <code>${escapeHtml(out.error)}</code></p>
${out.error_description ? `<p class="muted">${escapeHtml(out.error_description)}</p>` : ""}`,
  );
}

/** `form` is oidc-provider's hidden form (id "op.logoutForm") with its anti-forgery token. */
export function logoutPage(form: string): string {
  return page(
    "Sign out",
    // also_site: this page's "Yes" also ends the site session; the provider's own automatic
    // logout (when a different account signs in) does not carry it.
    `<p>Do you want to sign out of Paddle Results?</p>${form}<input type="hidden" form="op.logoutForm" name="also_site" value="yes">
<p><button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>
<button class="secondary" type="submit" form="op.logoutForm">No, stay signed in</button></p>`,
  );
}

export function loggedOutPage(): string {
  return page("Signed out", `<p>You are signed out. You can close this page.</p>`);
}

/** The sign-in form refused for a while (its rate limit, or the sign-in throttle's lock of the client address): the 429's page. */
export function tooManyAttemptsPage(message: string, retryPath: string): string {
  return page("Too many sign-in attempts", `<p>${escapeHtml(message)}</p><p><a href="${escapeHtml(retryPath)}">Try again</a></p>`);
}
