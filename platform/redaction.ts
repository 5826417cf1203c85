/**
 * One redaction rule for every URL that can reach a log line or an error: store URIs (MongoDB, Redis, Qdrant, SMTP),
 * JSON-RPC endpoints (Alchemy and Infura keep the API key in the path) and provider endpoints. What remains is the
 * scheme, host and port, which is what an operator needs to tell which dependency failed; credentials, path, query
 * and fragment are replaced by `[redacted]`.
 */

const REDACTED = '[redacted]';

/**
 * `scheme://[userinfo@]hosts[/rest]`. Hosts may be a comma-separated list (MongoDB seed lists) or a bracketed IPv6
 * address. The URL ends at whitespace, a quote, a backslash (JSON escaping) or an angle bracket.
 */
const URL_PATTERN =
  /\b([a-z][a-z0-9+.-]{1,20}):\/\/(?:([^\s"'<>\\/@]*)@)?((?:\[[0-9a-f:.]+\]|[^\s"'<>\\/?#@])*)([^\s"'<>\\]*)/gi;

/** The URL with userinfo, path, query and fragment replaced: `https://host:port/[redacted]`. */
export function redactUrl(url: string): string {
  return redactUrls(url);
}

/** Every URL inside `text` redacted as `redactUrl` does; text without `://` is returned as is, at no cost. */
export function redactUrls(text: string): string {
  if (!text.includes('://')) return text;
  return text.replace(URL_PATTERN, (_match, scheme: string, userinfo?: string, hosts = '', rest = '') => {
    const credentials = userinfo === undefined ? '' : `${REDACTED}@`;
    const tail = rest === '' || rest === '/' ? rest : `/${REDACTED}`;
    return `${scheme}://${credentials}${hosts}${tail}`;
  });
}

/** Configuration variables whose whole value is a credential. */
const SECRET_VARIABLE = /(?:TOKEN|SECRET|API_KEY|PASSWORD|PRIVATE_KEY|MNEMONIC)$/;
/** A path segment or query value that looks like an API key: long, with letters and digits. */
const looksLikeKey = (value: string) => value.length >= 12 && /\d/.test(value) && /[a-z]/i.test(value);

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The credential values inside a configuration: every secret variable's value, and from every URL-valued variable
 * password and the path segments and query values that look like API keys (Alchemy and Infura
 * keep the key in the path). The logger removes each of them wherever it appears in a line, for instance in a
 * provider's error body that echoes the key back.
 */
export function secretsOf(config: Record<string, unknown>): string[] {
  const secrets = new Set<string>();
  for (const [name, value] of Object.entries(config)) {
    if (typeof value !== 'string' || value === '') continue;
    if (SECRET_VARIABLE.test(name) && value.length >= 6) secrets.add(value);
    if (!value.includes('://') || !URL.canParse(value)) continue;
    const url = new URL(value);
    const password = safeDecode(url.password);
    if (password.length >= 6) secrets.add(password);
    for (const segment of url.pathname.split('/').map(safeDecode))
      if (looksLikeKey(segment)) secrets.add(segment);
    for (const item of url.searchParams.values()) if (looksLikeKey(item)) secrets.add(item);
  }
  return [...secrets];
}

/**
 * A line rewriter for the logger: URLs redacted (`redactUrls`), then every one of `secrets` (as written and as
 * escaped inside a JSON string) replaced by `[redacted]`.
 */
export function lineRedactor(secrets: readonly string[]): (line: string) => string {
  const needles = [...new Set(secrets.flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]))];
  return (line) => {
    let out = redactUrls(line);
    for (const needle of needles) if (out.includes(needle)) out = out.split(needle).join(REDACTED);
    return out;
  };
}
