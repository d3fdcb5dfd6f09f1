// memory_usage: what feedback said about each memory, folded by the domain's
// own rule (src/domain/usage) from the rows the batch read, so incremental
// application and a rebuild agree. Rows are written once per batch (upsert).
import type { Insertable, Selectable } from 'kysely';
import type { SubjectEventData } from '../../../domain/events/subject-events.js';
import { NO_USAGE, usageAfter, type MemoryUsage } from '../../../domain/usage/usage.js';
import type { MemoryUsageTable } from '../tables.js';
import { memoryKey } from './event-point.js';

interface Held {
  readonly tenant: string;
  readonly subject: string;
  readonly memoryId: string;
  usage: MemoryUsage;
}

export class MemoryUsageLedger {
  private readonly held = new Map<string, Held>();
  private readonly changed = new Set<string>();

  load(rows: readonly Selectable<MemoryUsageTable>[]): void {
    for (const r of rows) {
      this.held.set(memoryKey(r.tenant, r.subject, r.memory_id), {
        tenant: r.tenant,
        subject: r.subject,
        memoryId: r.memory_id,
        usage: {
          usedCount: r.used_count,
          confirmedCount: r.confirmed_count,
          ignoredCount: r.ignored_count,
          harmfulCount: r.harmful_count,
          correctedCount: r.corrected_count,
          ...(r.last_reinforced_at ? { lastReinforcedAt: r.last_reinforced_at.toISOString() } : {}),
          underReview: r.under_review,
        },
      });
    }
  }

  feedback(tenant: string, subject: string, data: SubjectEventData<'MemoryFeedbackGiven'>): void {
    const key = memoryKey(tenant, subject, data.memoryId);
    const held = this.held.get(key) ?? { tenant, subject, memoryId: data.memoryId, usage: NO_USAGE };
    held.usage = usageAfter(held.usage, data);
    this.held.set(key, held);
    this.changed.add(key);
  }

  rows(): Insertable<MemoryUsageTable>[] {
    return [...this.changed].map((key) => {
      const { tenant, subject, memoryId, usage } = this.held.get(key)!;
      return {
        tenant,
        subject,
        memory_id: memoryId,
        used_count: usage.usedCount,
        confirmed_count: usage.confirmedCount,
        ignored_count: usage.ignoredCount,
        harmful_count: usage.harmfulCount,
        corrected_count: usage.correctedCount,
        last_reinforced_at: usage.lastReinforcedAt ?? null,
        under_review: usage.underReview,
      };
    });
  }
}
