// What consolidation needs besides the ledger: a summarizer, a tokenizer, the
// token budget and which tenants run in shadow mode.
//   MEMLEDGER_SUMMARY_TOKEN_BUDGET  tokens of summary text (default 4000)
//   MEMLEDGER_SHADOW_TENANTS        comma-separated tenants whose artifacts
//                                   publish only after approval; * for all
//   MEMLEDGER_SUMMARY_CEILINGS      tenant=sensitivity pairs (* for every other
//                                   tenant): entries above stay out of summaries
import type { CountTokens } from '../../domain/consolidation/cold-tier.js';
import type { SelectorVersion } from '../../domain/consolidation/selector.js';
import { SENSITIVITIES, type Sensitivity } from '../../domain/entry/vocabulary.js';
import { ConfigError } from '../../infrastructure/config.js';
import { summarizerFromEnv } from '../../infrastructure/summarizer/from-env.js';
import type { Summarizer } from '../../infrastructure/summarizer/port.js';
import { loadTokenCounter } from '../../infrastructure/summarizer/tokenizer.js';

export interface ConsolidationServices {
  readonly summarizer: Summarizer;
  readonly countTokens: CountTokens;
  readonly tokenBudget: number;
  readonly shadowMode: (tenant: string) => boolean;
  /** The highest sensitivity a tenant's summaries may carry: entries above it stay out (listed as discards). */
  readonly summaryCeiling?: (tenant: string) => Sensitivity;
  readonly selectorVersion?: SelectorVersion;
}

export const CONSOLIDATION_ENV = {
  tokenBudget: 'MEMLEDGER_SUMMARY_TOKEN_BUDGET',
  shadowTenants: 'MEMLEDGER_SHADOW_TENANTS',
  summaryCeilings: 'MEMLEDGER_SUMMARY_CEILINGS',
} as const;
export const DEFAULT_TOKEN_BUDGET = 4000;

export function shadowTenantsFrom(value: string | undefined): (tenant: string) => boolean {
  const names = (value ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  if (names.includes('*')) return () => true;
  const set = new Set(names);
  return (tenant) => set.has(tenant);
}

/** `acme=personal,*=confidential`; a tenant not named (and no `*`) has no ceiling below restricted. */
export function summaryCeilingsFrom(value: string | undefined): (tenant: string) => Sensitivity {
  const ceilings = new Map<string, Sensitivity>();
  for (const pair of (value ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const [tenant, level] = pair.split('=').map((p) => p.trim());
    if (!tenant || !level || !(SENSITIVITIES as readonly string[]).includes(level)) {
      throw new ConfigError(
        CONSOLIDATION_ENV.summaryCeilings,
        `must be tenant=sensitivity pairs (${SENSITIVITIES.join(', ')}); got ${pair}`,
      );
    }
    ceilings.set(tenant, level as Sensitivity);
  }
  return (tenant) => ceilings.get(tenant) ?? ceilings.get('*') ?? 'restricted';
}

/** `tokenizer: false` for commands that only publish (loading the tokenizer takes a moment). */
export async function consolidationServicesFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  options: { readonly tokenizer?: boolean } = {},
): Promise<ConsolidationServices> {
  const budgetText = env[CONSOLIDATION_ENV.tokenBudget]?.trim() || String(DEFAULT_TOKEN_BUDGET);
  const tokenBudget = Number(budgetText);
  if (!Number.isInteger(tokenBudget) || tokenBudget < 1 || tokenBudget > 10_000_000) {
    throw new ConfigError(CONSOLIDATION_ENV.tokenBudget, 'must be a whole number of tokens from 1 to 10000000');
  }
  return {
    summarizer: summarizerFromEnv(env),
    countTokens: options.tokenizer === false ? noTokenizer : await loadTokenCounter(),
    tokenBudget,
    shadowMode: shadowTenantsFrom(env[CONSOLIDATION_ENV.shadowTenants]),
    summaryCeiling: summaryCeilingsFrom(env[CONSOLIDATION_ENV.summaryCeilings]),
  };
}

function noTokenizer(): number {
  throw new Error('this command was set up without a tokenizer');
}
