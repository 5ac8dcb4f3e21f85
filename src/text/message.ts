/** An error's message, whatever was thrown: its own words, before any guard is applied. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
