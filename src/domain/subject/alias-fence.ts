// The switch fence of consolidation (DESIGN section 4, step 5): the alias
// moves to a new artifact only if nothing it was built from has changed
// since the snapshot. Tail appends (MemoryRecorded, corroborations) do not
// advance inputEpoch and so do not block it.
import type { FenceFailure } from '../events/alias.js';
import { sameAlias } from '../events/alias.js';
import type { SubjectCommandOf } from './commands.js';
import { reject } from '../result/result.js';
import { accept, type DecideResult } from './decision.js';
import type { SubjectState } from './state.js';

type Fence = { ok: true } | { ok: false; code: FenceFailure; message: string; field: string };

/** Checks the fences in DESIGN's order; the first failure is the reason. */
export function checkAliasFence(state: SubjectState, command: SubjectCommandOf<'SwitchSummaryAlias'>): Fence {
  const { manifest } = command;
  const fail = (code: FenceFailure, message: string, field: string): Fence => ({ ok: false, code, message, field });
  if (state.forgotten) return fail('subject_forgotten', 'the subject was forgotten', 'manifest.subject');
  if (manifest.inputEpoch !== state.inputEpoch) {
    return fail(
      'epoch_changed',
      `inputEpoch moved from ${manifest.inputEpoch} to ${state.inputEpoch} since the snapshot`,
      'manifest.inputEpoch',
    );
  }
  if (!sameAlias(state.alias, manifest.expectedAlias)) {
    return fail(
      'alias_changed',
      `the alias is ${state.alias ? state.alias.artifactId : 'unset'}, not the expected ${manifest.expectedAlias?.artifactId ?? 'unset'}`,
      'manifest.expectedAlias',
    );
  }
  for (const input of manifest.inputs) {
    const entry = state.entries.get(input.memoryId);
    if (!entry || entry.status !== 'active') {
      return fail('input_not_active', `input ${input.memoryId} is ${entry?.status ?? 'missing'}`, 'manifest.inputs');
    }
    if (entry.sequence !== input.sequence || entry.valueHash !== input.valueHash || entry.contentHash !== input.contentHash) {
      return fail('input_hash_changed', `input ${input.memoryId} no longer matches its manifest hash`, 'manifest.inputs');
    }
  }
  const open = state.openConflictIds;
  const known = new Set(manifest.conflictIds);
  if (open.length !== known.size || open.some((id) => !known.has(id))) {
    return fail(
      'new_conflict',
      `the open conflicts are [${open.join(', ')}], the artifact was built with [${[...known].sort().join(', ')}]`,
      'manifest.conflictIds',
    );
  }
  const current = state.alias?.coversThrough ?? 0;
  if (manifest.newCoversThrough < current) {
    return fail('coverage_regressed', `coverage would fall from ${current} to ${manifest.newCoversThrough}`, 'manifest.newCoversThrough');
  }
  if (manifest.newCoversThrough > state.highWaterMark) {
    return fail(
      'coverage_beyond_head',
      `coverage ${manifest.newCoversThrough} is beyond the last sequence ${state.highWaterMark}`,
      'manifest.newCoversThrough',
    );
  }
  return { ok: true };
}

export function decideSwitchAlias(state: SubjectState, command: SubjectCommandOf<'SwitchSummaryAlias'>): DecideResult {
  const fence = checkAliasFence(state, command);
  if (!fence.ok) return reject(fence.code, fence.message, fence.field);
  const { manifest } = command;
  return accept([
    {
      type: 'SummaryAliasSwitched',
      data: {
        artifactId: manifest.artifactId,
        sourceEpoch: manifest.inputEpoch,
        coversThrough: manifest.newCoversThrough,
        previous: state.alias,
        switchedAt: command.now,
      },
    },
  ]);
}
