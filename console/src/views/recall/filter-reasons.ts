// Why recall's hard filters leave an active entry out (src/queries/recall/hard-filters.ts).
export const FILTER_REASON_TEXT: Readonly<Record<string, string>> = {
  out_of_scope: 'scoped to a project, thread or other scope the request did not name',
  above_sensitivity: 'more sensitive than the request’s sensitivity ceiling',
  not_yet_valid: 'its valid window opens after now',
  no_longer_valid: 'its valid window closed before now',
  expired: 'its time to live has passed (the sweeper has not archived it yet)',
  tainted: 'it comes from a tainted source (the subject’s taint policy)',
  untrusted: 'it comes from a source whose trust was lowered to untrusted',
  unreadable: 'its key is gone (an erasure under way)',
};

export function filterReasonText(reason: string): string {
  return FILTER_REASON_TEXT[reason] ?? 'a filter this console does not describe';
}
