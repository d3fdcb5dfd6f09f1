// `memledger keys create --tenant T --role R [--namespace P]… | list | revoke
// --key-id K`: the HTTP API's keys (src/infrastructure/api-keys). A key acts
// only on its namespaces (none given: `*`, the whole tenant). create prints the key once;
// only its digest is stored, so a lost key is revoked and replaced, never shown again.
import type { Command } from 'commander';
import { z } from 'zod';
import { ApiKeyStore } from '../../infrastructure/api-keys/api-key-store.js';
import { API_ROLES, ENVIRONMENTS, KEY_CHANNELS, type ApiRole } from '../../infrastructure/api-keys/roles.js';
import { resolveConnections } from '../../infrastructure/config.js';
import { migrateToLatest } from '../../infrastructure/postgres/migrate.js';
import { requireNamespacePatterns } from '../../domain/namespace/pattern.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { requireId } from '../../domain/values/ids.js';
import { oneOf } from '../input.js';
import { opt, optionsOf } from '../options.js';
import { run } from '../session.js';

const collect = (value: string, previous: string[]) => [...previous, value];

/** The key table lives in the projections' PostgreSQL (the embedded server when nothing is configured). */
async function withKeyStore<T>(use: (store: ApiKeyStore) => Promise<T>): Promise<T> {
  const connections = await resolveConnections();
  try {
    await migrateToLatest(connections.databaseUrl);
    const store = new ApiKeyStore(connections.databaseUrl, { poolSize: 1 });
    try {
      return await use(store);
    } finally {
      await store.close();
    }
  } finally {
    await connections.release();
  }
}

export function registerKeyCommands(program: Command): void {
  const keys = program.command('keys').description("the HTTP API's keys: each maps to one tenant, one role and its namespaces");

  keys
    .command('create')
    .description(`make a key and print it once (roles: ${API_ROLES.join(', ')})`)
    .requiredOption('--tenant <tenant>', 'the tenant the key speaks for')
    .requiredOption('--role <role>', API_ROLES.join(' | '))
    .option('--namespace <pattern>', 'a namespace the key may act on (*, user:u-7, team:*); repeatable; none: *', collect, [])
    .option(
      '--channel <channel>',
      `${KEY_CHANNELS.join(' | ')}: user = made for the user's own channel, the only key that may claim user_assertion (default service)`,
    )
    .option('--environment <environment>', `${ENVIRONMENTS.join(' | ')} (default: the tenant's; another is refused)`)
    .option('--label <text>', 'what the key is for (shown by keys list)')
    .action((flags) =>
      run(async () => {
        const o = optionsOf(
          z.object({
            tenant: opt.text,
            role: opt.text,
            namespace: z.array(z.string()),
            channel: opt.optionalText,
            environment: opt.optionalText,
            label: opt.optionalText,
          }),
          flags,
        );
        const channel = o.channel === undefined ? undefined : oneOf('channel', KEY_CHANNELS, o.channel);
        const environment = o.environment === undefined ? undefined : oneOf('environment', ENVIRONMENTS, o.environment);
        const tenant = requireId('tenant', o.tenant);
        const role: ApiRole = oneOf('role', API_ROLES, o.role);
        if (o.label !== undefined && (o.label.trim() === '' || o.label.length > 200))
          throw new InvalidInput('label', 'must be 1-200 characters');
        const namespaces = requireNamespacePatterns(o.namespace);
        return withKeyStore((store) =>
          store.create({
            tenant,
            role,
            namespaces,
            ...(channel !== undefined ? { channel } : {}),
            ...(environment !== undefined ? { environment } : {}),
            ...(o.label !== undefined ? { label: o.label } : {}),
            now: new Date(),
          }),
        );
      }),
    );

  keys
    .command('list')
    .description('every key (ids, tenants, roles, when made and revoked; never the keys themselves)')
    .option('--tenant <tenant>', 'only this tenant')
    .action((flags) =>
      run(async () => {
        const o = optionsOf(z.object({ tenant: opt.optionalText }), flags);
        const tenant = o.tenant === undefined ? undefined : requireId('tenant', o.tenant);
        return withKeyStore((store) => store.list(tenant === undefined ? {} : { tenant }));
      }),
    );

  keys
    .command('mark-tenant')
    .description('mark a tenant test or production (unmarked: production); keys of the other environment reach nothing of it from then on')
    .requiredOption('--tenant <tenant>', 'the tenant')
    .requiredOption('--environment <environment>', ENVIRONMENTS.join(' | '))
    .action((flags) =>
      run(async () => {
        const o = optionsOf(z.object({ tenant: opt.text, environment: opt.text }), flags);
        const tenant = requireId('tenant', o.tenant);
        const environment = oneOf('environment', ENVIRONMENTS, o.environment);
        return withKeyStore((store) => store.markTenant(tenant, environment, new Date()));
      }),
    );

  keys
    .command('revoke')
    .description('revoke a key: the service refuses it from then on (within its key cache time, MEMLEDGER_API_KEY_CACHE_MS)')
    .requiredOption('--key-id <id>', 'the key id (as keys list shows it)')
    .action((flags) =>
      run(async () => {
        const o = optionsOf(z.object({ keyId: opt.text }), flags);
        const keyId = o.keyId.trim();
        if (!/^[a-z0-9]{16}$/.test(keyId))
          throw new InvalidInput('key-id', 'must be a key id as keys list shows it (16 lowercase letters and digits)');
        return withKeyStore((store) => store.revoke(keyId, new Date()));
      }),
    );
}
