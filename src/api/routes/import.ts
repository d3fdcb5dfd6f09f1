// Bulk import: `{"entries": [...]}` as JSON, or JSON lines
// (application/x-ndjson, one entry per line). Every entry is validated
// before anything is written; the import id — from the Idempotency-Key, or
// else from the content — makes sending the same import again append nothing.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { importEntries, validateImportLines } from '../../commands/import.js';
import { entrySchema } from '../../domain/entry/entry.js';
import { InvalidInput, parseWith } from '../../domain/validation/invalid-input.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { subjectParams } from '../schemas/common.js';
import { importResultSchema } from '../schemas/results.js';
import type { ApiServices } from '../services.js';
import { resultOf } from './outcome.js';

export const NDJSON = 'application/x-ndjson';
export const MAX_IMPORT_ENTRIES = 100_000;
export const IMPORT_BODY_LIMIT = 64 * 1024 * 1024;

const batchSize = z
  .number({ error: 'must be a whole number from 1 to 10000' })
  .int({ error: 'must be a whole number from 1 to 10000' })
  .min(1, { error: 'must be a whole number from 1 to 10000' })
  .max(10_000, { error: 'must be a whole number from 1 to 10000' });

const importJsonBody = z.strictObject({
  entries: z
    .array(z.unknown(), { error: 'must be an array of entries' })
    .min(1, { error: 'must hold at least one entry' })
    .max(MAX_IMPORT_ENTRIES, { error: `must hold at most ${MAX_IMPORT_ENTRIES} entries` }),
  batchSize: batchSize.optional(),
});

const documentedJsonBody = z.strictObject({
  entries: z.array(entrySchema).min(1).max(MAX_IMPORT_ENTRIES),
  batchSize: batchSize.optional(),
});

export function importRoutes(services: ApiServices): RouteSpec[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/subjects/{subject}/memories:import',
      operationId: 'importMemories',
      summary: 'Bulk import: every entry validated first, then appended in batches',
      description: `A JSON body {"entries": [...]} or ${NDJSON} (one entry per line). Rejected entries (e.g. the subject was forgotten) are listed in the answer.`,
      tag: 'memories',
      permission: 'memories:write',
      idempotent: true,
      params: subjectParams,
      documentedBodies: { 'application/json': documentedJsonBody, [NDJSON]: z.string() },
      bodyLimit: IMPORT_BODY_LIMIT,
      responses: { 200: { description: 'what the import did, line by line counts', schema: importResultSchema } },
      handler: async (call) => {
        const context = call.commandContext(call.params.subject);
        const { entries, size, fingerprint } = parseImportBody(call.rawBody);
        const scope = `${context.tenant}/${context.subject}\n`;
        const importId = createHash('sha256')
          .update(scope)
          .update(call.idempotencyKey !== undefined ? `key:${call.idempotencyKey}` : `content:${fingerprint}`)
          .digest('hex');
        const outcome = await importEntries(services.ledger, context, entries, {
          importId,
          ...(size !== undefined ? { batchSize: size } : {}),
        });
        return { status: 200, body: resultOf(outcome) };
      },
    }),
  ];
}

function parseImportBody(raw: unknown) {
  if (typeof raw === 'string') {
    const values: unknown[] = [];
    raw.split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        values.push(JSON.parse(line));
      } catch {
        throw new InvalidInput(`line ${i + 1}`, 'is not valid JSON');
      }
    });
    if (values.length === 0) throw new InvalidInput('body', 'holds no entries');
    if (values.length > MAX_IMPORT_ENTRIES) throw new InvalidInput('body', `must hold at most ${MAX_IMPORT_ENTRIES} entries`);
    return { entries: validateImportLines(values), size: undefined, fingerprint: createHash('sha256').update(raw).digest('hex') };
  }
  const parsed = parseWith(importJsonBody, raw);
  if (!parsed.ok) throw parsed.error.field === '' ? new InvalidInput('body', parsed.error.reason) : parsed.error;
  try {
    const entries = validateImportLines(parsed.value.entries);
    return {
      entries,
      size: parsed.value.batchSize,
      fingerprint: createHash('sha256').update(JSON.stringify(parsed.value.entries)).digest('hex'),
    };
  } catch (error) {
    // validateImportLines names `line N: field`; in a JSON body the entry is entries.(N-1).
    const m = error instanceof InvalidInput ? /^line (\d+): (.*)$/.exec(error.field) : null;
    if (m) throw new InvalidInput(`entries.${Number(m[1]) - 1}${m[2] ? `.${m[2]}` : ''}`, (error as InvalidInput).reason);
    throw error;
  }
}
