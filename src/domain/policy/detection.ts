// What the write gate's detectors report: a typed finding in one field of an
// entry, by kind and span, never by value, so a detection can be logged,
// recorded on an event and shown in a refusal without leaking what it found.

export const SECRET_KINDS = [
  'openai_key',
  'anthropic_key',
  'aws_access_key',
  'aws_secret_key',
  'github_token',
  'gitlab_token',
  'slack_token',
  'slack_webhook',
  'stripe_key',
  'google_api_key',
  'google_oauth',
  'twilio_key',
  'sendgrid_key',
  'npm_token',
  'pypi_token',
  'huggingface_token',
  'shopify_token',
  'digitalocean_token',
  'mailgun_key',
  'telegram_bot_token',
  'alibaba_access_key',
  'tencent_secret_id',
  'azure_storage_key',
  'jwt',
  'private_key',
  'password',
  'url_credentials',
  'credential_in_url',
  'credential_assignment',
  'bearer_token',
  'high_entropy',
] as const;

/** Personal data. The special categories (health … politics) are GDPR art. 9 data; third_party is an identifier next to a relation word ("my colleague's …"). */
export const PERSONAL_KINDS = [
  'email',
  'phone',
  'cn_national_id',
  'card_number',
  'iban',
  'postal_address',
  'health',
  'religion',
  'sexuality',
  'politics',
  'third_party',
] as const;

export const INJECTION_KINDS = [
  'override_instructions',
  'role_reassignment',
  'system_prompt',
  'privilege_escalation',
  'safety_bypass',
  'exfiltration',
] as const;

export type SecretKind = `secret:${(typeof SECRET_KINDS)[number]}`;
export type PersonalKind = `personal:${(typeof PERSONAL_KINDS)[number]}`;
export type InjectionKind = `injection:${(typeof INJECTION_KINDS)[number]}`;
export type DetectionKind = SecretKind | PersonalKind | InjectionKind;
export type DetectionCategory = 'secret' | 'personal' | 'injection';

export const DETECTION_KINDS: readonly DetectionKind[] = [
  ...SECRET_KINDS.map((k): SecretKind => `secret:${k}`),
  ...PERSONAL_KINDS.map((k): PersonalKind => `personal:${k}`),
  ...INJECTION_KINDS.map((k): InjectionKind => `injection:${k}`),
];

/** Personal identifiers: the kinds that name or reach one person (not the special categories). */
export const PERSONAL_IDENTIFIER_KINDS: readonly PersonalKind[] = [
  'personal:email',
  'personal:phone',
  'personal:cn_national_id',
  'personal:card_number',
  'personal:iban',
  'personal:postal_address',
];

/** A finding in a text, before it is tied to a field: [start, end) in UTF-16 code units. */
export interface Span {
  readonly kind: DetectionKind;
  readonly start: number;
  readonly end: number;
}

/** A finding in a field of an entry (dotted path, e.g. `content`, `value.json.db.password`, `source.refs.0`). */
export interface Detection extends Span {
  readonly field: string;
}

export function categoryOf(kind: DetectionKind): DetectionCategory {
  return kind.slice(0, kind.indexOf(':')) as DetectionCategory;
}

/** A detection pattern: an exact kind, `category:*`, or `*`. */
export function kindMatches(kind: DetectionKind, pattern: string): boolean {
  if (pattern === '*' || pattern === kind) return true;
  return pattern.endsWith(':*') && kind.startsWith(pattern.slice(0, -1));
}

export function isDetectionPattern(pattern: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith(':*')) return ['secret:*', 'personal:*', 'injection:*'].includes(pattern);
  return (DETECTION_KINDS as readonly string[]).includes(pattern);
}

/** Keeps the first of overlapping spans, in order of `priority` (earlier wins), then by position. */
export function withoutOverlaps(spans: readonly Span[], priority: (span: Span) => number): Span[] {
  const kept: Span[] = [];
  for (const span of [...spans].sort((a, b) => priority(a) - priority(b) || a.start - b.start)) {
    if (!kept.some((k) => span.start < k.end && k.start < span.end)) kept.push(span);
  }
  return kept.sort((a, b) => a.start - b.start || a.end - b.end);
}
