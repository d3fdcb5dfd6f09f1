// Labeled corpus for the secret detectors (issue 17 item 3): true secrets,
// each with the kind the detectors should name, and near-misses that look
// like secrets but are not (order ids, hashes in URLs, base64 images, UUIDs,
// git SHAs, long ids, public keys, masked or placeholder passwords).
//
// TEST FIXTURES, NOT CREDENTIALS: every token is synthetic; see synthetic.ts
// for how they are kept whole out of the committed text so that GitHub-style
// secret scanning does not flag this file.
//
// How it was made: the rows were written from the providers' published token
// formats and from the shapes the issue names, before the detectors were
// written, and were not changed while tuning them (rows were only added).
// Contexts mix English and Chinese, as the memories do.
import { ALNUM, B64, B64URL, BASE32, DIGITS, HEX, UPPER_ALNUM, j, jwt, pem, synth } from './synthetic.js';

export interface SecretRow {
  readonly id: string;
  /** The detection kind expected among the detections. */
  readonly kind: string;
  readonly text: string;
}
export interface NearMissRow {
  readonly id: string;
  readonly text: string;
  /** Why it is not a secret. */
  readonly why: string;
}

const openaiLegacy = j('sk', '-', synth(48, ALNUM, 1, 'SYNTHETIC'));
const awsKeyId = j('AK', 'IA', synth(16, BASE32, 3, 'SYNTHETIC'));
const awsSecret = synth(40, B64, 4, 'SYNTHETICfake');
const hs256 = jwt({ alg: 'HS256', typ: 'JWT' }, { sub: 'synthetic-user', iat: 1752566400 }, synth(43, B64URL, 5, 'SYNTHETIC'));
const rs256 = jwt(
  { alg: 'RS256', typ: 'JWT', kid: 'synthetic-key-1' },
  { iss: 'https://auth.example.com', sub: 'u-7', aud: 'memledger', exp: 1893456000 },
  synth(342, B64URL, 6, 'SYNTHETIC'),
);
const unsigned = `${jwt({ alg: 'none' }, { sub: 'synthetic', admin: true }, '')}`;
const pkBody = (seed: number) => synth(640, B64, seed, 'MIIEogIBAAKCAQEASYNTHETIC');

export const TRUE_SECRETS: readonly SecretRow[] = [
  { id: 'openai-legacy', kind: 'secret:openai_key', text: `OPENAI_API_KEY=${openaiLegacy}` },
  { id: 'openai-proj', kind: 'secret:openai_key', text: `use ${j('sk-', 'proj-', synth(120, B64URL, 7, 'SYNTHETIC'))} for the bot` },
  { id: 'openai-svcacct', kind: 'secret:openai_key', text: `服务账号密钥 ${j('sk-', 'svcacct-', synth(64, B64URL, 8, 'FAKE'))}` },
  { id: 'openai-admin', kind: 'secret:openai_key', text: j('sk-', 'admin-', synth(64, B64URL, 9, 'SYNTHETIC')) },
  {
    id: 'anthropic-api',
    kind: 'secret:anthropic_key',
    text: `key: ${j('sk-', 'ant-', 'api03-', synth(93, B64URL, 10, 'SYNTHETIC'), 'AA')}`,
  },
  {
    id: 'anthropic-admin',
    kind: 'secret:anthropic_key',
    text: `Claude 管理密钥是 ${j('sk-', 'ant-', 'admin01-', synth(93, B64URL, 11, 'FAKE'), 'AA')}`,
  },
  { id: 'aws-akia', kind: 'secret:aws_access_key', text: `deploy user key ${awsKeyId}` },
  {
    id: 'aws-asia',
    kind: 'secret:aws_access_key',
    text: `temporary credentials ${j('AS', 'IA', synth(16, BASE32, 12, 'SYNTHETIC'))} expire at noon`,
  },
  { id: 'aws-config-id', kind: 'secret:aws_access_key', text: `aws_access_key_id = ${j('AK', 'IA', synth(16, BASE32, 13, 'FAKE'))}` },
  { id: 'aws-secret-ini', kind: 'secret:aws_secret_key', text: `aws_secret_access_key = ${awsSecret}` },
  { id: 'aws-secret-env', kind: 'secret:aws_secret_key', text: `AWS_SECRET_ACCESS_KEY=${synth(40, B64, 14, 'SYNTHETIC')}` },
  { id: 'aws-secret-zh', kind: 'secret:aws_secret_key', text: `AWS 的 secret 是 ${synth(40, B64, 15, 'FAKEfake')}` },
  { id: 'github-ghp', kind: 'secret:github_token', text: `token ${j('gh', 'p_', synth(36, ALNUM, 16, 'SYNTHETIC'))}` },
  { id: 'github-gho', kind: 'secret:github_token', text: j('gh', 'o_', synth(36, ALNUM, 17, 'SYNTHETIC')) },
  { id: 'github-ghs', kind: 'secret:github_token', text: `CI 用的 ${j('gh', 's_', synth(36, ALNUM, 18, 'FAKE'))}` },
  { id: 'github-ghr', kind: 'secret:github_token', text: `refresh: ${j('gh', 'r_', synth(36, ALNUM, 19, 'SYNTHETIC'))}` },
  {
    id: 'github-fine-grained',
    kind: 'secret:github_token',
    text: j('github', '_pat_', synth(22, ALNUM, 20, 'SYNTHETIC'), '_', synth(59, ALNUM, 21, 'FAKE')),
  },
  { id: 'gitlab-pat', kind: 'secret:gitlab_token', text: `GitLab token ${j('gl', 'pat-', synth(20, B64URL, 22, 'SYNTH'))}` },
  { id: 'gitlab-deploy', kind: 'secret:gitlab_token', text: `部署令牌 ${j('gl', 'dt-', synth(20, B64URL, 23, 'FAKE'))}` },
  { id: 'gitlab-runner', kind: 'secret:gitlab_token', text: `runner ${j('gl', 'rt-', synth(20, B64URL, 24, 'SYNTH'))}` },
  {
    id: 'slack-bot',
    kind: 'secret:slack_token',
    text: `Slack bot ${j('xo', 'xb-', synth(12, DIGITS, 25), '-', synth(13, DIGITS, 26), '-', synth(24, ALNUM, 27, 'SYNTH'))}`,
  },
  {
    id: 'slack-user',
    kind: 'secret:slack_token',
    text: j('xo', 'xp-', synth(12, DIGITS, 28), '-', synth(12, DIGITS, 29), '-', synth(13, DIGITS, 30), '-', synth(32, HEX, 31, 'fa4e')),
  },
  {
    id: 'slack-app',
    kind: 'secret:slack_token',
    text: `app-level ${j('xa', 'pp-1-', 'A0SYNTH42', '-', synth(13, DIGITS, 32), '-', synth(64, HEX, 33, 'deadbeef'))}`,
  },
  {
    id: 'slack-webhook',
    kind: 'secret:slack_webhook',
    text: `post alerts to ${j('https://hooks.', 'slack.com/services/', 'T0SYNTH01/', 'B0SYNTH02/', synth(24, ALNUM, 34, 'SYNTH'))}`,
  },
  { id: 'stripe-sk-live', kind: 'secret:stripe_key', text: `Stripe: ${j('sk', '_live_', synth(99, ALNUM, 35, 'SYNTHETIC'))}` },
  { id: 'stripe-rk-live', kind: 'secret:stripe_key', text: `受限密钥 ${j('rk', '_live_', synth(32, ALNUM, 36, 'FAKE'))}` },
  { id: 'stripe-sk-test', kind: 'secret:stripe_key', text: j('sk', '_test_', synth(24, ALNUM, 37, 'SYNTH')) },
  { id: 'stripe-webhook', kind: 'secret:stripe_key', text: `webhook signing secret ${j('wh', 'sec_', synth(32, ALNUM, 38, 'SYNTH'))}` },
  { id: 'google-api', kind: 'secret:google_api_key', text: `Maps key ${j('AI', 'za', synth(35, B64URL, 39, 'SYNTHETIC'))}` },
  { id: 'google-api-zh', kind: 'secret:google_api_key', text: `谷歌地图 key：${j('AI', 'za', synth(35, B64URL, 40, 'FAKE'))}` },
  { id: 'google-oauth-secret', kind: 'secret:google_oauth', text: `client secret ${j('GOC', 'SPX-', synth(28, B64URL, 41, 'SYNTH'))}` },
  { id: 'google-oauth-token', kind: 'secret:google_oauth', text: `access ${j('ya', '29.', 'a0', synth(120, B64URL, 42, 'SYNTHETIC'))}` },
  { id: 'twilio-api-key', kind: 'secret:twilio_key', text: `Twilio ${j('S', 'K', synth(32, HEX, 43, 'fa4e'))}` },
  { id: 'twilio-auth-token', kind: 'secret:credential_assignment', text: `twilio auth_token: ${synth(32, HEX, 44, 'deadbeef')}` },
  {
    id: 'sendgrid',
    kind: 'secret:sendgrid_key',
    text: `SendGrid ${j('S', 'G.', synth(22, B64URL, 45, 'SYNTH'), '.', synth(43, B64URL, 46, 'FAKE'))}`,
  },
  { id: 'npm-token', kind: 'secret:npm_token', text: `publish with ${j('np', 'm_', synth(36, ALNUM, 47, 'SYNTHETIC'))}` },
  {
    id: 'npmrc',
    kind: 'secret:npm_token',
    text: `//registry.npmjs.org/:_authToken=${j('np', 'm_', synth(36, ALNUM, 48, 'FAKE'))}`,
  },
  { id: 'pypi', kind: 'secret:pypi_token', text: `twine password ${j('py', 'pi-', 'AgEIcHlwaS5vcmc', synth(70, B64URL, 49, 'SYNTH'))}` },
  { id: 'huggingface', kind: 'secret:huggingface_token', text: `HF_TOKEN=${j('h', 'f_', synth(34, ALNUM, 50, 'SYNTHETIC'))}` },
  { id: 'shopify', kind: 'secret:shopify_token', text: `店铺 admin token ${j('sh', 'pat_', synth(32, HEX, 51, 'fa4e'))}` },
  { id: 'digitalocean', kind: 'secret:digitalocean_token', text: j('do', 'p_v1_', synth(64, HEX, 52, 'deadbeef')) },
  { id: 'mailgun', kind: 'secret:mailgun_key', text: `mailgun ${j('ke', 'y-', synth(32, HEX, 53, 'fa4e'))}` },
  {
    id: 'telegram',
    kind: 'secret:telegram_bot_token',
    text: `bot token ${j(synth(10, DIGITS, 54, '7'), ':AA', synth(33, B64URL, 55, 'SYNTH'))}`,
  },
  { id: 'alibaba', kind: 'secret:alibaba_access_key', text: `阿里云 AccessKey ID: ${j('LT', 'AI', synth(20, ALNUM, 56, 'SYNTH'))}` },
  { id: 'alibaba-short', kind: 'secret:alibaba_access_key', text: `oss key ${j('LT', 'AI', synth(16, ALNUM, 57, 'FAKE'))}` },
  { id: 'tencent', kind: 'secret:tencent_secret_id', text: `腾讯云 SecretId ${j('AK', 'ID', synth(32, ALNUM, 58, 'SYNTHETIC'))}` },
  {
    id: 'azure-storage',
    kind: 'secret:azure_storage_key',
    text: j(
      'DefaultEndpointsProtocol=https;AccountName=synthetic;',
      'Account',
      'Key=',
      synth(86, B64, 59, 'SYNTHETIC'),
      '==;EndpointSuffix=core.windows.net',
    ),
  },
  { id: 'jwt-hs256', kind: 'secret:jwt', text: `session ${hs256}` },
  { id: 'jwt-rs256', kind: 'secret:jwt', text: rs256 },
  { id: 'jwt-bearer', kind: 'secret:jwt', text: `Authorization: Bearer ${hs256}` },
  { id: 'jwt-zh', kind: 'secret:jwt', text: `令牌是${rs256}，明天过期` },
  { id: 'jwt-unsigned', kind: 'secret:jwt', text: `unsigned token ${unsigned} still opens the admin page` },
  { id: 'pem-rsa', kind: 'secret:private_key', text: pem('RSA PRIVATE KEY', pkBody(60)) },
  {
    id: 'pem-openssh',
    kind: 'secret:private_key',
    text: `我的 ssh 私钥：\n${pem('OPENSSH PRIVATE KEY', synth(400, B64, 61, 'b3BlbnNzaC1rZXktdjEAAAAASYNTHETIC'))}`,
  },
  { id: 'pem-ec', kind: 'secret:private_key', text: pem('EC PRIVATE KEY', synth(160, B64, 62, 'MHcCAQEEIFAKE')) },
  { id: 'pem-pkcs8', kind: 'secret:private_key', text: pem('PRIVATE KEY', pkBody(63)) },
  { id: 'pem-encrypted', kind: 'secret:private_key', text: pem('ENCRYPTED PRIVATE KEY', pkBody(64)) },
  { id: 'pem-pgp', kind: 'secret:private_key', text: pem('PGP PRIVATE KEY BLOCK', synth(300, B64, 65, 'lQdGBFSYNTHETIC')) },
  {
    id: 'pem-truncated',
    kind: 'secret:private_key',
    text: `key starts: ${pem('RSA PRIVATE KEY', 'MIIEpAIBAAKCAQEAsynthetic').split('\n')[0]} MIIEpAIBAAKC…`,
  },
  { id: 'password-colon', kind: 'secret:password', text: 'password: Synthetic#Pass2026' },
  { id: 'password-is', kind: 'secret:password', text: 'my password is hunter2-synthetic' },
  { id: 'password-zh-colon', kind: 'secret:password', text: '邮箱密码：Synth2026!' },
  { id: 'password-zh-shi', kind: 'secret:password', text: '登录密码是abc12345synthetic，别告诉别人' },
  { id: 'password-zh-pin', kind: 'secret:password', text: '支付密码 654321' },
  { id: 'password-pwd', kind: 'secret:password', text: 'db pwd=S3cr3tSynth' },
  { id: 'password-quoted', kind: 'secret:password', text: "The wifi password is 'SyntheticWifi88'" },
  { id: 'password-passwd', kind: 'secret:password', text: 'passwd: qwerty-synth-77' },
  { id: 'password-kouling', kind: 'secret:password', text: '口令：synth_2026_pw' },
  { id: 'password-word', kind: 'secret:password', text: 'Remember my bank password is sunshine' },
  { id: 'password-json', kind: 'secret:password', text: '{"user": "ops", "password": "Fake-Pa55word"}' },
  { id: 'url-postgres', kind: 'secret:url_credentials', text: j('postgres://app:', 'SyntheticPw2026', '@db.internal:5432/app') },
  { id: 'url-https', kind: 'secret:url_credentials', text: `clone ${j('https://deploy:', 'synthPassw0rd', '@git.example.com/repo.git')}` },
  {
    id: 'url-mongo',
    kind: 'secret:url_credentials',
    text: `连接串 ${j('mongodb+srv://admin:', 'Synth3tic', '@cluster0.example.mongodb.net/db')}`,
  },
  {
    id: 'url-api-key',
    kind: 'secret:credential_in_url',
    text: `GET https://api.example.com/v1/items?api_key=${synth(28, ALNUM, 66, 'Synth')}&page=2`,
  },
  {
    id: 'url-sas-sig',
    kind: 'secret:credential_in_url',
    text: `https://storage.example.net/c/blob?sv=2022-11-02&sig=${synth(30, ALNUM, 67, 'Fake')}%3D`,
  },
  {
    id: 'url-access-token',
    kind: 'secret:credential_in_url',
    text: `回调 https://app.example.com/cb#access_token=${synth(32, ALNUM, 68, 'SYNTH')}&state=x`,
  },
  { id: 'assign-hex', kind: 'secret:credential_assignment', text: `api_key = ${synth(32, HEX, 69, 'deadbeef')}` },
  { id: 'assign-client-secret', kind: 'secret:credential_assignment', text: "client_secret: 'SyntheticClientSecretValue2026xyz'" },
  { id: 'assign-token', kind: 'secret:credential_assignment', text: `token=${synth(28, ALNUM, 70, 'synthetic0')}` },
  { id: 'assign-zh', kind: 'secret:credential_assignment', text: `访问令牌（access_token）：${synth(24, ALNUM, 71, 'Synth')}` },
  { id: 'assign-django', kind: 'secret:credential_assignment', text: 'export SECRET_KEY=django-insecure-synthetic-0a9b8c7d6e5f4g3h' },
  { id: 'assign-json', kind: 'secret:credential_assignment', text: `{"apiKey": "${synth(32, ALNUM, 72, 'FAKE')}"}` },
  { id: 'bearer-opaque', kind: 'secret:bearer_token', text: `Authorization: Bearer ${synth(40, ALNUM, 73, 'SyntheticOpaque')}` },
  { id: 'entropy-mixed', kind: 'secret:high_entropy', text: `use this one: ${synth(32, ALNUM, 74, 'SYNTH')}` },
  { id: 'entropy-base64', kind: 'secret:high_entropy', text: `the blob ${synth(44, B64, 75, 'Synthetic/')}= unlocks it` },
  { id: 'entropy-zh', kind: 'secret:high_entropy', text: `临时凭证 ${synth(40, ALNUM, 76, 'FAKE')} 用完即删` },
  { id: 'entropy-base32', kind: 'secret:high_entropy', text: `otp seed ${synth(32, BASE32, 77, 'SYNTHETIC')}` },
  { id: 'entropy-b64url', kind: 'secret:high_entropy', text: `cookie value ${synth(48, B64URL, 78, 'Synthetic')}` },
];

const gitSha = synth(40, HEX, 101);
const sha256 = synth(64, HEX, 102);
const pngB64 = j('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk', synth(120, B64, 103));
const sshPub = j('AAAAC3NzaC1lZDI1NTE5AAAAI', synth(43, B64, 104));

export const NEAR_MISSES: readonly NearMissRow[] = [
  { id: 'order-id', text: '订单 ORD-A1B2C3D4 三天没发货', why: 'order id (seed 003)' },
  { id: 'refund-id', text: 'refund://RF-20260715-88', why: 'refund ref' },
  { id: 'order-long', text: '订单号 SO20260715000123456789 已签收', why: 'long numeric order id' },
  { id: 'ups-tracking', text: 'UPS tracking 1Z999AA10123456784', why: 'tracking number' },
  { id: 'ulid', text: 'memory 01HY8K3ZJ5Q2X7N9R4T6V8W0YB was superseded', why: 'ULID' },
  { id: 'ulid-prefixed', text: 'mem_01HY8K3ZJ5Q2X7N9R4T6V8W0YB', why: 'prefixed ULID (seed 001 memory_id)' },
  { id: 'trace-id', text: 'trace tr_20260509_001, turn turn_14', why: 'trace ids (seed 001)' },
  { id: 'stripe-customer', text: 'Stripe customer cus_NffrFeUfNV2Hib', why: 'Stripe object id' },
  { id: 'stripe-price', text: 'price id price_1MoBy5LkdIwHu7ixZhnattbh', why: 'Stripe object id' },
  { id: 'stripe-publishable', text: `checkout uses ${j('pk', '_live_', synth(40, ALNUM, 105))}`, why: 'publishable key, public by design' },
  { id: 'stripe-mention', text: 'never paste sk_live keys into memory', why: 'prefix named, no key' },
  { id: 'github-mention', text: 'ghp_ tokens are GitHub personal access tokens', why: 'prefix named, no token' },
  { id: 'google-mention', text: 'Google API keys start with AIza', why: 'prefix named, no key' },
  { id: 'slack-ids', text: 'channel C024BE91L, user U012AB3CD', why: 'Slack ids' },
  { id: 'youtube', text: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', why: 'video id' },
  { id: 'aws-arn', text: 'arn:aws:iam::123456789012:role/SyntheticDeployRole', why: 'ARN with account id' },
  { id: 'aws-region', text: 'bucket synthetic-logs-2026 in us-east-1', why: 'names' },
  { id: 'uuid', text: 'request 550e8400-e29b-41d4-a716-446655440000 failed', why: 'UUID' },
  { id: 'uuid-upper', text: 'SESSION 6F9619FF-8B86-D011-B42D-00C04FC964FF', why: 'UUID, upper case' },
  { id: 'uuid-zh', text: '会话 ID 是 123e4567-e89b-12d3-a456-426614174000，已结束', why: 'UUID' },
  { id: 'uuid-compact', text: 'id 550e8400e29b41d4a716446655440000', why: 'UUID without hyphens (hex)' },
  { id: 'git-sha', text: `fixed in commit ${gitSha}`, why: 'git SHA' },
  { id: 'git-short', text: 'reverted a1b2c3d and 9fceb02', why: 'short SHAs' },
  { id: 'git-url', text: `https://github.com/example/memledger/commit/${gitSha}`, why: 'git SHA in URL' },
  { id: 'cdn-hash', text: 'https://cdn.example.com/assets/app.3f9a8b7c6d5e4f3a2b1c0d9e.js', why: 'content hash in URL' },
  { id: 'ipfs-url', text: 'https://ipfs.io/ipfs/QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG', why: 'CID in URL' },
  { id: 'drive-url', text: 'https://drive.google.com/file/d/1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvW/view', why: 'file id in URL path' },
  { id: 'url-query-page', text: 'https://shop.example.com/search?q=phone+case&page=3&sort=price', why: 'ordinary query' },
  { id: 'url-utm', text: 'https://example.com/p?utm_source=newsletter&utm_campaign=2026Q3', why: 'tracking params' },
  { id: 'docker-digest', text: `registry.example.com/team/app@sha256:${sha256}`, why: 'image digest' },
  { id: 'sha256', text: `checksum ${sha256}`, why: 'SHA-256 hex' },
  { id: 'md5', text: 'md5: 5d41402abc4b2a76b9719d911017c592', why: 'MD5 hex' },
  { id: 'etag', text: 'ETag "d41d8cd98f00b204e9800998ecf8427e"', why: 'ETag' },
  { id: 'sri', text: `"integrity": "sha512-${synth(86, B64, 106)}=="`, why: 'subresource integrity hash' },
  { id: 'eth-address', text: '0x52908400098527886E0F7030069857D2E4169EE7', why: 'public address (hex)' },
  { id: 'btc-bech32', text: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', why: 'public address' },
  { id: 'data-uri-png', text: `![logo](data:image/png;base64,${pngB64})`, why: 'base64 image' },
  { id: 'data-uri-jpeg', text: `<img src="data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ${synth(200, B64, 107)}">`, why: 'base64 image' },
  { id: 'data-uri-gif', text: `data:image/gif;base64,R0lGODlhAQABAIAAAP${synth(60, B64, 108)}`, why: 'base64 image' },
  { id: 'data-uri-pdf', text: `data:application/pdf;base64,JVBERi0xLjcK${synth(160, B64, 109)}`, why: 'base64 document' },
  { id: 'bare-png', text: `截图：${pngB64}`, why: 'bare base64 PNG' },
  { id: 'b64-text', text: 'VGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZw==', why: 'base64 of plain text' },
  { id: 'b64-short', text: 'SGVsbG8gV29ybGQ=', why: 'short base64' },
  { id: 'ssh-pub', text: `ssh-ed25519 ${sshPub} ops@bastion`, why: 'public key' },
  { id: 'ssh-rsa-pub', text: `ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ${synth(300, B64, 110)} deploy`, why: 'public key' },
  { id: 'pem-public', text: pem('PUBLIC KEY', synth(300, B64, 111, 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A')), why: 'public key block' },
  { id: 'pem-cert', text: pem('CERTIFICATE', synth(600, B64, 112, 'MIIDdzCCAl+gAwIBAgIE')), why: 'certificate' },
  { id: 'password-policy', text: 'password: at least 12 characters, one digit', why: 'policy text' },
  { id: 'password-masked', text: 'password: ********', why: 'masked' },
  { id: 'password-redacted', text: 'password: <redacted>', why: 'placeholder' },
  { id: 'password-wrong', text: 'the password is wrong, account locked', why: 'no value' },
  { id: 'password-forgot', text: 'Forgot password? A reset link was sent.', why: 'no value' },
  { id: 'password-zh-changed', text: '密码：已修改', why: 'Chinese status word' },
  { id: 'password-zh-reset', text: '密码已重置，请查收邮件', why: 'no value' },
  { id: 'password-zh-enter', text: '请输入密码后再试', why: 'no value' },
  { id: 'password-zh-wrong', text: '用户说密码是错的，需要人工重置', why: 'no value' },
  { id: 'pwd-path', text: 'pwd: /home/synthetic/project', why: 'working directory' },
  { id: 'token-count', text: 'token count: 1532, budget 4000', why: 'LLM tokens' },
  { id: 'token-expired', text: 'token: expired, ask the user to log in again', why: 'status' },
  { id: 'placeholder-env', text: 'api_key: ${OPENAI_API_KEY}', why: 'placeholder' },
  { id: 'placeholder-angle', text: 'secret: <your-secret-here>', why: 'placeholder' },
  { id: 'env-name', text: 'OPENAI_API_KEY is kept in the vault, not here', why: 'variable name' },
  { id: 'zh-key-advice', text: '把 API 密钥存到 Vault 里，不要写进记忆', why: 'advice, no key' },
  { id: 'sku', text: 'the SKU sk-2291 is out of stock', why: 'short product code' },
  { id: 'camel', text: 'ConsolidationScheduleWorkerSupervisor2 restarted', why: 'identifier' },
  { id: 'path', text: 'see src/domain/policy/secrets/high-entropy-token.ts', why: 'file path' },
  { id: 'java-package', text: 'com.example.synthetic.memory.ledger.WriteGateEvaluator', why: 'package name' },
  { id: 'k8s-pod', text: 'pod memledger-api-7d9f8b6c5d-x2k9p OOMKilled', why: 'pod name' },
  { id: 'semver', text: 'version 1.4.2+build.20260715.abcdef0', why: 'version' },
  { id: 'ga-ids', text: 'Analytics G-SYNTH12345 and UA-12345678-1', why: 'public ids' },
  { id: 'jwt-shaped', text: 'eyJzeW50aGV0aWM.eyJub3Q.c2ln', why: 'JWT-shaped but not JSON inside' },
  { id: 'phone', text: '手机号 13812345678', why: 'personal data, not a secret' },
  { id: 'card', text: 'card 4111 1111 1111 1111', why: 'personal data, not a secret' },
  { id: 'iban', text: 'IBAN GB82 WEST 1234 5698 7654 32', why: 'personal data, not a secret' },
  { id: 'cn-id', text: '身份证 11010519491231002X', why: 'personal data, not a secret' },
  { id: 'timestamp', text: 'at 1752566400000 ms the batch ended', why: 'epoch millis' },
  { id: 'zh-plain', text: '用户希望技术文档用中文、结构紧凑、直接给结论', why: 'prose' },
  { id: 'product-slug', text: 'ordered iPhone15ProMaxSilver256GB twice', why: 'camel-case product name' },
  { id: 'hashtag', text: '#BlackFriday2026MegaSaleEvent starts Friday', why: 'hashtag' },
  { id: 'upper-id', text: `batch ${synth(24, UPPER_ALNUM, 113)}`, why: 'upper-case id under 32 characters' },
];
