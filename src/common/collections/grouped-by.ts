/** Items by key, each group in their order: one pass, so matching many keys against many rows is not quadratic. */
export function groupedBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) addToGroup(groups, key(item), item);
  return groups;
}

/** Adds an item at the end of its key's group, in place (groups built step by step, e.g. across awaits). */
export function addToGroup<T>(groups: Map<string, T[]>, key: string, item: T): void {
  const group = groups.get(key);
  if (group) group.push(item);
  else groups.set(key, [item]);
}
