/**
 * Which query parameters carry credentials, by their decoded, normalised name (lowercase, without `_`, `-`, `.`
 * or a trailing `[...]`): sign-in codes and links, tokens, sessions, keys, signatures, passwords. A name that ends
 * with one of the suffixes (`session_token`, `x-api-key`, `wallet_signature`) counts too.
 */
const SECRET_NAMES = new Set([
  'privatekey',
  'mnemonic',
  'clientsecret',
  'session',
  'sessionid',
  'jwt',
  'signature',
  'sig',
  'key',
  'apikey',
  'password',
  'passwd',
  'authorization',
  'auth',
  'token',
  'accesstoken',
  'idtoken',
  'refreshtoken',
  'code',
  'state',
  'secret',
  'credential',
]);
const SECRET_SUFFIXES = ['token', 'secret', 'password', 'key', 'signature', 'session', 'jwt', 'mnemonic'];

/** The query name as a server would read it: `+` as space, percent-decoded (raw when malformed), normalised. */
function normalisedName(raw: string): string {
  let name = raw.replace(/\+/g, ' ');
  try {
    name = decodeURIComponent(name);
  } catch {
    // Malformed percent-encoding: a server reading it would not decode it either.
  }
  return name
    .replace(/\[.*$/, '')
    .toLowerCase()
    .replace(/[\s_.-]/g, '');
}

/** Whether a query parameter name (raw, as in the URL) carries a credential. */
export function isSecretQueryName(raw: string): boolean {
  const name = normalisedName(raw);
  return SECRET_NAMES.has(name) || SECRET_SUFFIXES.some((suffix) => name.endsWith(suffix));
}

/**
 * The URL as logged: the value of every credential parameter (see `isSecretQueryName`, matched on the decoded
 * name, so `%74oken=` and `Token=` count) replaced by `[redacted]`; the fragment is dropped.
 */
export function loggableUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const end = url.indexOf('#', start);
  const query = url.slice(start + 1, end === -1 ? undefined : end);
  const pairs = query.split(/([&;])/).map((part) => {
    const equals = part.indexOf('=');
    if (equals === -1 || !isSecretQueryName(part.slice(0, equals))) return part;
    return `${part.slice(0, equals)}=[redacted]`;
  });
  return `${url.slice(0, start)}?${pairs.join('')}`;
}
