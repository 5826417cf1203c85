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
