// Forgetting (crypto-shredding, DESIGN section 8): one memory or every entry
// recorded from a source ref (writer), a whole subject or a source ref in
// every subject of the tenant (admin). Each runs the erasure pipeline with
// the read side's and the API's own checks, after the projections have
// caught up with the tombstones, and answers with the deletion receipt.
// An auditor lists a subject's receipts and can run a receipt's checks again,
// optionally telling what to search for in the request body (never in the
// URL, which access logs keep).
import { z } from 'zod';
import { forgetMemory, forgetSourceRef, forgetSubject, type ErasureOptions } from '../../commands/forget.js';
import { forgetSourceRefEverywhere } from '../../commands/forgetting/source-ref-everywhere.js';
import type { ErasureCheck } from '../../reads/erasure/verification.js';
import { sourceRefSchema } from '../../domain/entry/source.js';
import { receiptIdSchema, subjectIdSchema } from '../../domain/values/ids.js';
import { readSideErasureChecks } from '../../queries/erasure/index.js';
import { subjectReceipts } from '../../queries/erasure/receipts.js';
import { reverifyErasure } from '../../queries/erasure/verify-erasure.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { memoryParams, reasonSchema, subjectParams } from '../schemas/common.js';
import {
  deletionReceiptSchema,
  erasureReverificationSchema,
  sourceRefErasureEverywhereSchema,
  subjectReceiptsSchema,
} from '../schemas/results.js';
import type { ApiServices } from '../services.js';
import { resultOf } from './outcome.js';

const reasonQuery = z.strictObject({ reason: reasonSchema.optional() });
const sourceRefQuery = z.strictObject({ sourceRef: sourceRefSchema, reason: reasonSchema.optional() });
const receiptParams = z.strictObject({ subject: subjectIdSchema, receiptId: receiptIdSchema });
const searchBody = z.strictObject({ searchFor: z.array(z.string().min(1).max(10_000)).max(100).default([]) });
const receipt = { 200: { description: 'the deletion receipt', schema: deletionReceiptSchema } };

/** `apiChecks`: the checks of the HTTP API itself (app.ts makes them: they need the fastify instance). */
export function erasureRoutes(services: ApiServices, apiChecks: () => ErasureCheck[]): RouteSpec[] {
  const { ledger } = services;
  const checks = () => [...readSideErasureChecks(services.read), ...apiChecks()];
  const options = (): Omit<ErasureOptions, 'reason'> => ({ checks: checks(), beforeVerify: services.readYourWrites });
  return [
    defineRoute({
      method: 'DELETE',
      path: '/v1/subjects/{subject}/memories/{memoryId}',
      operationId: 'forgetMemory',
      summary:
        'Erase one memory: its key and the keys of the summaries deriving from it are destroyed; tombstone, checks, deletion receipt',
      tag: 'erasure',
      permission: 'memories:write',
      idempotent: true,
      params: memoryParams,
      query: reasonQuery,
      responses: receipt,
      handler: async (call) => ({
        status: 200,
        body: resultOf(
          await forgetMemory(ledger, call.commandContext(call.params.subject), call.params.memoryId, call.query.reason, options()),
        ),
      }),
    }),

    defineRoute({
      method: 'DELETE',
      path: '/v1/subjects/{subject}/memories',
      operationId: 'forgetSourceRef',
      summary: 'Erase every entry of the subject recorded from a source ref (?sourceRef=…); entries it only corroborated stay',
      tag: 'erasure',
      permission: 'memories:write',
      idempotent: true,
      params: subjectParams,
      query: sourceRefQuery,
      responses: receipt,
      handler: async (call) => ({
        status: 200,
        body: resultOf(
          await forgetSourceRef(ledger, call.commandContext(call.params.subject), call.query.sourceRef, call.query.reason, options()),
        ),
      }),
    }),

    defineRoute({
      method: 'DELETE',
      path: '/v1/subjects/{subject}',
      operationId: 'forgetSubject',
      summary: 'Erase a whole subject: its keys are destroyed; nothing more is recorded for it',
      tag: 'erasure',
      permission: 'subjects:forget',
      idempotent: true,
      params: subjectParams,
      query: reasonQuery,
      responses: receipt,
      handler: async (call) => ({
        status: 200,
        body: resultOf(await forgetSubject(ledger, call.commandContext(call.params.subject), call.query.reason, options())),
      }),
    }),

    defineRoute({
      method: 'DELETE',
      path: '/v1/memories',
      operationId: 'forgetSourceRefEverywhere',
      summary: 'Erase every entry recorded from a source ref (?sourceRef=…) in every subject of the tenant: a deletion receipt per subject',
      tag: 'erasure',
      permission: 'subjects:forget',
      access: 'tenant',
      idempotent: true,
      query: sourceRefQuery,
      responses: { 200: { description: 'the receipts, by subject', schema: sourceRefErasureEverywhereSchema } },
      handler: async (call) => {
        // One key for the whole request; each subject's erasure scopes it further by subject.
        const { tenant, actor, idempotencyKey } = call.commandContext('*');
        const result = await forgetSourceRefEverywhere(
          ledger,
          { tenant, ...(actor ? { actor } : {}), ...(idempotencyKey ? { idempotencyKey } : {}) },
          call.query.sourceRef,
          call.query.reason,
          () => options(),
        );
        return { status: 200, body: result };
      },
    }),

    defineRoute({
      method: 'GET',
      path: '/v1/subjects/{subject}/receipts',
      operationId: 'listDeletionReceipts',
      summary: "The subject's deletion receipts: ids, counts, who asked, why, verification — never the content",
      tag: 'erasure',
      permission: 'audit:read',
      params: subjectParams,
      responses: { 200: { description: 'the receipts, in the order they were issued', schema: subjectReceiptsSchema } },
      handler: async (call) => {
        const { tenant, subject } = call.commandContext(call.params.subject);
        return { status: 200, body: await subjectReceipts(services.read, tenant, subject) };
      },
    }),

    defineRoute({
      method: 'POST',
      path: '/v1/subjects/{subject}/receipts/{receiptId}/verify',
      operationId: 'verifyErasure',
      summary: "Run a deletion receipt's checks again (searching for the erased keyed hashes, and for the texts in searchFor)",
      tag: 'erasure',
      permission: 'audit:read',
      params: receiptParams,
      body: searchBody,
      responses: { 200: { description: 'the checks, by read path', schema: erasureReverificationSchema } },
      handler: async (call) => {
        const { tenant, subject } = call.commandContext(call.params.subject);
        await services.readYourWrites();
        return {
          status: 200,
          body: await reverifyErasure(services.read, {
            tenant,
            subject,
            receiptId: call.params.receiptId,
            plaintexts: call.body.searchFor,
            checks: apiChecks(),
          }),
        };
      },
    }),
  ];
}
