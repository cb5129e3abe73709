// Keeping a judge's credentials out of everything we print: error messages, quoted response bodies,
// model text. The secrets are the API key, the password (and user) of a `user:pass@` URL, the
// values of query parameters that look like credentials (`?api-key=…`, `key=`, `code=`, `token=`,
// `sig=`, `pwd=` …), the value of every request header given (the whole value, the token after a
// scheme such as `Bearer`, the user and password in `Basic`, each cookie's value) except a few that
// carry none (`content-type`, `accept`, `user-agent`, `*-version`), and the values listed in the
// `secrets` option.

const REDACTED = '[redacted]';

/** Query parameters whose values are treated as secrets (`code` is how Azure Functions takes its key). */
const SECRET_NAME = /key|token|secret|pass|pwd|auth|sig|code|credential|session|cookie/i;

/** Headers that carry no credential: their values stay readable in messages. */
const PLAIN_HEADER = /^(content-type|accept|accept-language|user-agent|[\w-]*-version)$/i;

/** Shorter values are not searched for: replacing every "a" in a message would hide it without protecting anything. */
const MIN_SECRET_LENGTH = 3;

export interface JudgeEndpoint {
  /** Where requests go: the API root + /chat/completions, query kept, credentials removed. */
  url: string;
  /** The same URL with secret query values replaced, for messages. */
  displayUrl: string;
  /** "user:password" from the URL, to be sent as Basic authorization. */
  basicCredentials: string | undefined;
  secrets: string[];
}

/** Splits `baseUrl` into the request URL, a printable URL, and the secrets it holds. `baseUrl` must parse. */
export function judgeEndpoint(baseUrl: string): JudgeEndpoint {
  const url = new URL(baseUrl);
  const secrets: string[] = [];
  let basicCredentials: string | undefined;
  if (url.username !== '' || url.password !== '') {
    secrets.push(url.username, url.password, decodeURIComponent(url.username), decodeURIComponent(url.password));
    basicCredentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    secrets.push(Buffer.from(basicCredentials, 'utf8').toString('base64'));
    url.username = '';
    url.password = '';
  }
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/chat/completions`;
  const display = new URL(url.href);
  for (const [name, value] of url.searchParams) {
    if (!SECRET_NAME.test(name)) continue;
    secrets.push(value, encodeURIComponent(value));
    display.searchParams.set(name, REDACTED);
  }
  // URLSearchParams writes "[redacted]" percent-encoded; show it as written.
  const displayUrl = display.href.replaceAll(encodeURIComponent(REDACTED), REDACTED);
  return { url: url.href, displayUrl, basicCredentials, secrets };
}

/** The secrets in request headers: every value but those of PLAIN_HEADER, and the credentials inside it. */
export function headerSecrets(headers: Readonly<Record<string, string>>): string[] {
  return Object.entries(headers)
    .filter(([name]) => !PLAIN_HEADER.test(name))
    .flatMap(([, value]) => credentialsIn(String(value)));
}

/**
 * A header value and the credentials inside it: the token after an authorization scheme
 * (`Bearer <token>`), the decoded `user:password` of `Basic` and each half, and the value of each
 * `name=value` pair of a cookie list. A server may quote any of them alone.
 */
function credentialsIn(value: string): string[] {
  const found = [value];
  const scheme = /^\s*([A-Za-z][\w.+-]*)\s+(\S.*?)\s*$/s.exec(value);
  if (scheme !== null) {
    const token = scheme[2]!;
    found.push(token);
    if (scheme[1]!.toLowerCase() === 'basic') {
      const decoded = Buffer.from(token, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon !== -1) found.push(decoded, decoded.slice(0, colon), decoded.slice(colon + 1));
    }
  }
  for (const pair of value.split(';')) {
    const equals = pair.indexOf('=');
    if (equals !== -1) found.push(pair.slice(equals + 1).trim());
  }
  return found;
}

/** A function replacing every occurrence of each secret (and its URL-encoded and JSON-escaped forms) in a text. */
export function secretRedactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret === undefined || secret.length < MIN_SECRET_LENGTH) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    forms.add(JSON.stringify(secret).slice(1, -1));
    forms.add(decodedForm(secret));
  }
  // Longest first, so a secret containing another is replaced whole.
  const ordered = [...forms].filter((form) => form.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  return (text) => {
    let result = text;
    for (const form of ordered) result = result.split(form).join(REDACTED);
    return result;
  };
}

/** A percent-encoded secret (a cookie's or a query's value) as a server may echo it decoded. */
function decodedForm(secret: string): string {
  try {
    return decodeURIComponent(secret.replaceAll('+', ' '));
  } catch {
    return secret;
  }
}

/** `error` when its message holds no secret, else an Error with the redacted message (and the original's name). */
export function redactedCause(error: unknown, redact: (text: string) => string): unknown {
  if (!(error instanceof Error)) return typeof error === 'string' ? redact(error) : error;
  const inner = error.cause instanceof Error ? error.cause.message : '';
  if (redact(error.message) === error.message && redact(inner) === inner) return error;
  const copy = new Error(redact(error.message), inner === '' ? undefined : { cause: new Error(redact(inner)) });
  copy.name = error.name;
  return copy;
}
