// One evaluation case (seed 003's M-PREF-013 shape): the history a subject
// lived through, the task at hand as a query, which memories the task needs
// (active), which it must not be given (invalidated: superseded, retracted,
// erased), which must surface as conflicts, and the namespaces nothing may be
// read from. Memory ids in a case are the case's own names: the runner maps
// them to the ids the ledger gives. One schema for every case file line.
import { z } from 'zod';
import { entrySchema } from '../entry/entry.js';
import { idSchema } from '../values/ids.js';

/** `tenant/<tenant>/user/<subject>`: until namespaces exist (issue 19), a namespace is a tenant and a subject. */
// The tenant part is short: the runner prefixes it to make the case's tenants fresh.
const NAMESPACE = /^tenant\/([A-Za-z0-9][A-Za-z0-9._:@-]{0,63})\/user\/([A-Za-z0-9][A-Za-z0-9._:@-]{0,127})$/;
export const namespaceSchema = z
  .string({ error: 'must be a string' })
  .regex(NAMESPACE, { error: 'must be tenant/<tenant>/user/<subject>' });
export const DEFAULT_NAMESPACE = 'tenant/home/user/u1';

export function namespaceParts(namespace: string): { readonly tenant: string; readonly subject: string } {
  const m = NAMESPACE.exec(namespace);
  if (!m) throw new Error(`not a namespace: ${namespace}`);
  return { tenant: m[1]!, subject: m[2]! };
}

const ref = idSchema();

const historyEventSchema = z.discriminatedUnion(
  'op',
  [
    z.strictObject({ op: z.literal('record'), memory_id: ref, namespace: namespaceSchema.optional(), entry: entrySchema }),
    z.strictObject({ op: z.literal('supersede'), memory_id: ref, replaces: ref, entry: entrySchema }),
    z.strictObject({ op: z.literal('retract'), memory_id: ref, reason: z.string().min(1) }),
    z.strictObject({ op: z.literal('forget'), memory_id: ref }),
  ],
  { error: 'must be an event with op record, supersede, retract or forget' },
);
export type HistoryEvent = z.output<typeof historyEventSchema>;

export const LANGUAGES = ['en', 'zh'] as const;

const refs = z.array(ref).default([]);

export const evalCaseSchema = z
  .strictObject({
    case_id: idSchema(),
    lang: z.enum(LANGUAGES),
    /** What the case exercises (preference_change, negation, order_id, threshold, conflict, retraction, erasure, lure …): reported per scenario. */
    scenario: idSchema(),
    /** Whose memory the task reads. */
    namespace: namespaceSchema.default(DEFAULT_NAMESPACE),
    history_events: z.array(historyEventSchema).min(1, { error: 'must hold at least one event' }),
    current_task: z.string().trim().min(1, { error: 'must not be empty' }),
    expected_active_memory: refs,
    /** The memories the task cannot be done without (default: all of expected_active_memory). */
    required_memory: z.array(ref).optional(),
    expected_invalidated_memory_ids: refs,
    /** Memories that must be served side by side as an open conflict. */
    expected_conflicts: z.array(z.array(ref).min(2)).default([]),
    forbidden_namespaces: z.array(namespaceSchema).default([]),
    /** What the agent should do (seed 003); not measured: no agent runs here. */
    expected_action: z.string().optional(),
  })
  .superRefine((c, ctx) => {
    const homeOf = new Map<string, string>();
    c.history_events.forEach((e, i) => {
      const at = ['history_events', i];
      if (e.op === 'record') {
        if (homeOf.has(e.memory_id)) ctx.addIssue({ code: 'custom', path: [...at, 'memory_id'], message: `names ${e.memory_id} twice` });
        homeOf.set(e.memory_id, e.namespace ?? c.namespace);
        return;
      }
      const target = e.op === 'supersede' ? e.replaces : e.memory_id;
      const field = e.op === 'supersede' ? 'replaces' : 'memory_id';
      if (!homeOf.has(target)) ctx.addIssue({ code: 'custom', path: [...at, field], message: `names ${target}, not recorded earlier` });
      if (e.op === 'supersede') {
        if (homeOf.has(e.memory_id)) ctx.addIssue({ code: 'custom', path: [...at, 'memory_id'], message: `names ${e.memory_id} twice` });
        homeOf.set(e.memory_id, homeOf.get(target) ?? c.namespace);
      }
    });
    const known = (path: string, ids: readonly string[]) =>
      ids.forEach((id, i) => {
        if (!homeOf.has(id)) ctx.addIssue({ code: 'custom', path: [path, i], message: `names ${id}, not in history_events` });
      });
    known('expected_active_memory', c.expected_active_memory);
    known('required_memory', c.required_memory ?? []);
    known('expected_invalidated_memory_ids', c.expected_invalidated_memory_ids);
    c.expected_conflicts.forEach((set, i) => known(`expected_conflicts.${i}`, set));
    c.expected_active_memory.forEach((id, i) => {
      if (c.expected_invalidated_memory_ids.includes(id))
        ctx.addIssue({ code: 'custom', path: ['expected_active_memory', i], message: `${id} is also expected invalidated` });
      if (homeOf.has(id) && homeOf.get(id) !== c.namespace)
        ctx.addIssue({ code: 'custom', path: ['expected_active_memory', i], message: `${id} is not in the case's namespace` });
    });
    (c.required_memory ?? []).forEach((id, i) => {
      if (!c.expected_active_memory.includes(id))
        ctx.addIssue({ code: 'custom', path: ['required_memory', i], message: `${id} is not in expected_active_memory` });
    });
    c.forbidden_namespaces.forEach((ns, i) => {
      if (ns === c.namespace) ctx.addIssue({ code: 'custom', path: ['forbidden_namespaces', i], message: "is the case's own namespace" });
    });
  });

export type EvalCase = z.output<typeof evalCaseSchema>;

/** The namespace each of the case's memory ids was recorded in (a supersession stays in its predecessor's). */
export function namespacesOf(c: EvalCase): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const e of c.history_events) {
    if (e.op === 'record') out.set(e.memory_id, e.namespace ?? c.namespace);
    if (e.op === 'supersede') out.set(e.memory_id, out.get(e.replaces) ?? c.namespace);
  }
  return out;
}

/** The case's lures: memories recorded in a forbidden namespace. */
export function luresOf(c: EvalCase): readonly string[] {
  return [...namespacesOf(c)].filter(([, ns]) => c.forbidden_namespaces.includes(ns)).map(([id]) => id);
}
