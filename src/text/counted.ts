/** "1 key", "3 keys": a count with its noun, for log lines, messages and the summary. */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
