/** The one rule for cutting text short: whole pieces up to a length, then `…`. Pure. */

/**
 * Joins `pieces` (characters, or escapes that each stand for one) while they fit in `maxChars`;
 * past it, ends with `…`. A piece is never split, so no cut can leave half an escape or half a
 * surrogate pair.
 */
export function cut(pieces: Iterable<string>, maxChars: number): string {
  const kept: string[] = []
  let length = 0
  for (const piece of pieces) {
    if (length + piece.length > maxChars) return `${kept.join('')}…`
    kept.push(piece)
    length += piece.length
  }
  return kept.join('')
}
