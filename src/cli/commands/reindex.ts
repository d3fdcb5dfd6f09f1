// `memledger reindex --tenant T [--subject S]`: computes the embedding
// vectors a subject (or every subject of the tenant) lacks for the
// configured model (MEMLEDGER_EMBEDDING_URL, _MODEL): after a model change,
// after endpoint failures, or for memories written with no embedder. Reads
// the sealed fields from the log; needs no projection.
import type { Command } from 'commander';
import { reindexTenant, requireReindexRequest } from '../../commands/retrieval/reindex.js';
import { run } from '../session.js';

export function registerReindexCommand(program: Command): void {
  program
    .command('reindex')
    .description("compute the embedding vectors of the configured model that a subject's (or the tenant's) active memories lack")
    .requiredOption('--tenant <tenant>', 'the tenant')
    .option('--subject <subject>', 'only this subject (default: every subject of the tenant)')
    .action((o: { tenant: string; subject?: string }) =>
      run(async (ledger) => {
        // Bad input opens nothing.
        const request = requireReindexRequest({ tenant: o.tenant, ...(o.subject !== undefined ? { subject: o.subject } : {}) });
        return reindexTenant(await ledger(), request);
      }),
    );
}
