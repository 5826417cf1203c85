import type { RawFinding } from './secretFinding';

/** A provider credential recognised by its documented prefix and shape. */
interface TokenRule {
  rule: string;
  pattern: RegExp;
}

/**
 * Provider credentials by their known prefixes and lengths. Each pattern is anchored on both sides so a longer
 * identifier that merely starts like a token does not match.
 */
const TOKEN_RULES: TokenRule[] = [
  { rule: 'aws_access_key_id', pattern: /(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])/g },
  { rule: 'github_token', pattern: /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36,255}(?![A-Za-z0-9_])/g },
  {
    rule: 'github_fine_grained_pat',
    pattern: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{70,255}(?![A-Za-z0-9_])/g,
  },
  { rule: 'gitlab_token', pattern: /(?<![A-Za-z0-9_])glpat-[A-Za-z0-9_-]{20,64}(?![A-Za-z0-9_-])/g },
  {
    rule: 'slack_token',
    pattern: /(?<![A-Za-z0-9])xox[abposr]-[0-9]{6,}-[A-Za-z0-9-]{10,}(?![A-Za-z0-9-])/g,
  },
  {
    rule: 'slack_webhook',
    pattern: /https:\/\/hooks\.slack\.com\/services\/T[A-Z0-9]{6,}\/B[A-Z0-9]{6,}\/[A-Za-z0-9]{20,}/g,
  },
  {
    rule: 'stripe_live_key',
    pattern: /(?<![A-Za-z0-9_])(?:sk|rk)_live_[A-Za-z0-9]{20,255}(?![A-Za-z0-9_])/g,
  },
  {
    rule: 'anthropic_key',
    pattern: /(?<![A-Za-z0-9_-])sk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{80,}(?![A-Za-z0-9_-])/g,
  },
  {
    rule: 'openai_key',
    pattern:
      /(?<![A-Za-z0-9_-])sk-(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g,
  },
  { rule: 'openai_legacy_key', pattern: /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9]{48}(?![A-Za-z0-9_-])/g },
  { rule: 'google_api_key', pattern: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g },
  { rule: 'npm_token', pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/g },
  { rule: 'huggingface_token', pattern: /(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{34,40}(?![A-Za-z0-9_])/g },
  {
    rule: 'sendgrid_key',
    pattern: /(?<![A-Za-z0-9_])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g,
  },
];

/**
 * Documentation placeholders shaped like tokens: AWS's published example keys end in EXAMPLE, others are runs of
 * one character (`sk_live_xxxxxxxx…`) or spell out what goes there (`ghp_YOUR_TOKEN…`).
 */
function isPlaceholder(token: string): boolean {
  const body = token.replace(/^[A-Za-z]+[_-]+/, '');
  return /example|your|placeholder|redacted|xxxxxxxx|00000000/i.test(token) || new Set(body).size < 8;
}

/** Provider credentials in a text, placeholders left out. */
export function findProviderTokens(text: string): RawFinding[] {
  const found: RawFinding[] = [];
  for (const { rule, pattern } of TOKEN_RULES) {
    for (const match of text.matchAll(pattern)) {
      if (isPlaceholder(match[0])) continue;
      found.push({ kind: 'api_token', rule, start: match.index, length: match[0].length });
    }
  }
  return found;
}
