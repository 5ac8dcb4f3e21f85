/** The `purge-ids` output: each purged target's id, grouped by service when there are several. Pure. */
import type { Results } from '../record/index.js'

/** Where URL purge ids go when ids are grouped by service: URL purges belong to no service. */
export const URL_IDS_GROUP = 'urls'

/** target → id. */
export type TargetIds = Record<string, string>

/**
 * target → id, or with several services service → target → id (URL purges under `urls`); a
 * target given twice keeps its first place and its last id, as assigning each in turn does. The
 * objects have no prototype, so a target or service named `__proto__` is a property like any other.
 * `hide` is applied to every name and id: a secret in a target must not survive as a property name.
 */
export function purgeIds(
  results: Results,
  perService: boolean,
  hide: (text: string) => string = (text) => text
): TargetIds | Record<string, TargetIds> {
  const ids: TargetIds = Object.create(null) as TargetIds
  const groups: Record<string, TargetIds> = Object.create(null) as Record<string, TargetIds>
  for (const { status, id, target, service } of results) {
    if (status !== 'purged' || id === null) continue
    const group = perService
      ? (groups[hide(service ?? URL_IDS_GROUP)] ??= Object.create(null) as TargetIds)
      : ids
    group[hide(target)] = hide(id)
  }
  return perService ? groups : ids
}
