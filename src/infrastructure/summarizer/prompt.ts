// The consolidation prompt for chat models. Its version is recorded in every
// manifest: a changed text is a new version.
import { renderStatedValue } from '../../domain/consolidation/rendering.js';
import { inputWords } from '../../domain/consolidation/text-facts/input-words.js';
import { uncertaintyOf } from '../../domain/compaction/uncertainty.js';
import type { SummarizerRequest } from './port.js';

export const PROMPT_VERSION = 'consolidate-v3';

export const SYSTEM_PROMPT = `You consolidate an AI agent's long-term memory entries into a summary.
A summary is a derived index, never a source of new facts. Answer with ONE JSON object and nothing else:
{"claims":[{"key":string,"scopes":{"project"?:string,"thread"?:string,"agent"?:string},"value":{"type":"text","text":string}|{"type":"number","amount":string,"unit"?:string}|{"type":"date","date":string}|{"type":"entity","id":string}|{"type":"boolean","value":boolean}|{"type":"json","json":any},"polarity":"affirmed"|"negated","derivedFrom":[memoryId],"conflictIds"?:[conflictId],"uncertain"?:boolean,"statement"?:string}],
 "openItems":[{"text":string,"derivedFrom":[memoryId]}],
 "conflicts":[conflictId],
 "summary":string}
Rules:
- Every entry listed in mustPreserve must appear as a claim with exactly its key, scopes, value (same unit) and polarity, and its memoryId in derivedFrom. Entries whose key starts with task., todo., pending. or followup. go to openItems instead.
- A claim's "statement" says in plain words what its entries' content says; you may shorten it, but it must keep every phrase listed in the entry's mustKeep as written: each negation with what it applies to, number with its unit, amount of money, date, time, id and permission. An open item's text keeps them too.
- Merge entries that state the same thing into one claim whose derivedFrom lists all of them. Never merge different values, scopes or polarities.
- Never resolve a conflict: give every side its own claim with the conflict id in conflictIds, and list every conflict id in "conflicts".
- An entry marked "uncertain" (low confidence or a model's inference) is unverified: every claim deriving from it has "uncertain": true. Never state it as settled.
- Never state anything that is not in the entries: no number, date, id or negation the entries do not contain. Keep negations exactly, double negations included.
- The summary text is plain prose for the agent, within the token budget given, under the same rules.`;

/** The user message: the entries (or the parent's claims plus what they do not cite), conflicts and the must-preserve ids. */
export function userMessage(request: SummarizerRequest): string {
  const cited = new Set(
    (request.parent?.claims ?? []).flatMap((c) => c.derivedFrom).concat((request.parent?.openItems ?? []).flatMap((o) => o.derivedFrom)),
  );
  const entries = request.inputs
    .filter((i) => !cited.has(i.memoryId))
    .map((i) => {
      const keep = inputWords(i).facts.map((f) =>
        (f.field === 'content' ? i.content! : i.value.type === 'text' ? i.value.text : '').slice(f.span.start, f.span.end),
      );
      return {
        memoryId: i.memoryId,
        kind: i.kind,
        key: i.key,
        scopes: i.scopes,
        value: i.value,
        polarity: i.polarity,
        ...(i.content !== undefined ? { content: i.content } : {}),
        reads: renderStatedValue(i.value, i.polarity),
        ...(uncertaintyOf(i) ? { uncertain: true } : {}),
        ...(keep.length > 0 ? { mustKeep: [...new Set(keep)] } : {}),
      };
    });
  return JSON.stringify({
    tokenBudget: request.tokenBudget,
    mustPreserve: request.mustPreserveIds,
    conflicts: request.conflicts,
    ...(request.parent ? { previousClaims: request.parent.claims, previousOpenItems: request.parent.openItems } : {}),
    entries,
  });
}
