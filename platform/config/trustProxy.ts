import { isIP } from 'node:net';
import { z } from 'zod';

/** Names Express's `trust proxy` understands for address ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** True for an IPv4/IPv6 address, or a CIDR (`10.0.0.0/8`, `fd00::/8`) whose prefix fits the address family. */
function isAddressOrCidr(entry: string): boolean {
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

const EXPECTED =
  'expected true, false, a hop count (0-255), or a comma-separated list of loopback, linklocal, uniquelocal, ' +
  'IP addresses and CIDRs';

/**
 * `TRUST_PROXY`, as Express users write it: `true`/`false`, a hop count, or a comma-separated list of `loopback`,
 * `linklocal`, `uniquelocal`, addresses and CIDRs. The value is what `app.set('trust proxy', ...)` takes: a
 * boolean, a number or a list. Default `false`: no proxy is trusted, so a client cannot pick its own address with
 * `X-Forwarded-For` (and escape the per-client rate limit) until the operator names the proxy in front.
 */
export const trustProxy = z
  .string()
  .default('false')
  .transform((raw, ctx): boolean | number | string[] => {
    const value = raw.trim().toLowerCase();
    if (value === 'true' || value === 'false') return value === 'true';
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops <= 255) return hops;
    } else {
      const entries = value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean);
      if (entries.length > 0 && entries.every((e) => NAMED_RANGES.has(e) || isAddressOrCidr(e)))
        return entries;
    }
    ctx.addIssue({ code: 'custom', message: EXPECTED });
    return z.NEVER;
  });
