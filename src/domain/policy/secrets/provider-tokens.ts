// API keys and tokens by their providers' published formats: a fixed prefix,
// a known alphabet and length. These are the surest findings, so they take
// precedence over the shape-based ones (password, entropy) where both match.
import type { KindPattern } from '../pattern-scan.js';

/** Not inside a longer token. */
const B = '(?<![A-Za-z0-9_-])';
const E = '(?![A-Za-z0-9_-])';
const re = (source: string, flags = 'g') => new RegExp(source, flags.includes('d') ? flags : `${flags}d`);

export const PROVIDER_PATTERNS: readonly KindPattern[] = [
  { kind: 'secret:anthropic_key', re: re(`${B}sk-ant-(?:api|admin|oat|sid)\\d{2}-[A-Za-z0-9_-]{32,}`) },
  { kind: 'secret:openai_key', re: re(`${B}sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}`) },
  { kind: 'secret:openai_key', re: re(`${B}sk-[A-Za-z0-9]{32,}${E}`) },
  { kind: 'secret:aws_access_key', re: re(`(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}(?![A-Za-z0-9])`) },
  {
    // A secret access key is 40 characters of base64 with nothing to mark it: found only next to words that name it.
    kind: 'secret:aws_secret_key',
    re: re('(?:aws|amazon)[^\\n]{0,40}?(?:secret|密钥)[^\\n]{0,30}?(?<![A-Za-z0-9/+])([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])', 'gi'),
    group: 1,
  },
  { kind: 'secret:github_token', re: re(`${B}gh[pousr]_[A-Za-z0-9]{36,255}${E}`) },
  { kind: 'secret:github_token', re: re(`${B}github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}${E}`) },
  { kind: 'secret:gitlab_token', re: re(`${B}gl(?:pat|dt|rt|ptt|cbt|oas|ft|imt|agent|soat)-[A-Za-z0-9_-]{20,}`) },
  { kind: 'secret:slack_token', re: re(`${B}xox[abposre]-\\d{6,}-[A-Za-z0-9-]{8,}`) },
  { kind: 'secret:slack_token', re: re(`${B}xapp-\\d-[A-Z0-9]+-\\d+-[A-Za-z0-9]{16,}`) },
  { kind: 'secret:slack_webhook', re: re('https://hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]{20,}') },
  { kind: 'secret:stripe_key', re: re(`${B}(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{24,}${E}`) },
  { kind: 'secret:stripe_key', re: re(`${B}whsec_[A-Za-z0-9+/=]{24,}${E}`) },
  { kind: 'secret:google_api_key', re: re(`${B}AIza[0-9A-Za-z_-]{35}${E}`) },
  { kind: 'secret:google_oauth', re: re(`${B}GOCSPX-[A-Za-z0-9_-]{28}${E}`) },
  { kind: 'secret:google_oauth', re: re(`${B}ya29\\.[0-9A-Za-z_-]{20,}`) },
  { kind: 'secret:twilio_key', re: re(`${B}SK[0-9a-fA-F]{32}${E}`) },
  { kind: 'secret:sendgrid_key', re: re(`${B}SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}${E}`) },
  { kind: 'secret:npm_token', re: re(`${B}npm_[A-Za-z0-9]{36}${E}`) },
  { kind: 'secret:pypi_token', re: re(`${B}pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`) },
  { kind: 'secret:huggingface_token', re: re(`${B}hf_[A-Za-z0-9]{34,}${E}`) },
  { kind: 'secret:shopify_token', re: re(`${B}shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}${E}`) },
  { kind: 'secret:digitalocean_token', re: re(`${B}do[opr]_v1_[a-f0-9]{64}${E}`) },
  { kind: 'secret:mailgun_key', re: re(`${B}key-[0-9a-f]{32}${E}`) },
  { kind: 'secret:telegram_bot_token', re: re(`(?<![0-9A-Za-z])\\d{8,10}:AA[A-Za-z0-9_-]{33}${E}`) },
  { kind: 'secret:alibaba_access_key', re: re(`${B}LTAI[A-Za-z0-9]{12,20}${E}`) },
  { kind: 'secret:tencent_secret_id', re: re(`${B}AKID[A-Za-z0-9]{32}${E}`) },
  { kind: 'secret:azure_storage_key', re: re('AccountKey=([A-Za-z0-9+/]{86}==)', 'gi'), group: 1 },
];
