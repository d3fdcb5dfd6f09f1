// Open items (未决事项): pending work the agent must not forget, such as
// "refund for ORD-A1B2C3D4 awaits approval". v1 recognises them by the first
// segment of the key; they go to the output's openItems and are never dropped.
export const OPEN_ITEM_NAMESPACES = ['task', 'todo', 'pending', 'followup'] as const;

export function isOpenItemKey(key: string): boolean {
  const head = key.split('.', 1)[0] ?? '';
  return (OPEN_ITEM_NAMESPACES as readonly string[]).includes(head);
}
