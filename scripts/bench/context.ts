/** What every scenario is handed: the fake purge API, and the empty action every bound starts from. */
import type { FakePurgeServer } from '../../tools/fake-purge-api/server.js'
import { format, keyList } from './numbers.js'
import { TOKEN } from './options.js'
import { moduleEntry } from './scratch.js'
import { actionStart } from './timing.js'

export interface Bench {
  server: FakePurgeServer
  /** The inputs that point the action at the fake purge API's service. */
  api: Record<string, string>
  /** An action whose main is an empty file, launched as the action is. */
  emptyEntry: string
  /** Its median start: where the lower bounds begin. */
  emptyMs: number
  /** 1,000 URLs under the fake's address (it answers their PURGE): urls1k, curl-loop, the curve. */
  urls: string[]
  /** Those URLs as the `urls-file` of a run. */
  urlsFile: { files: Record<string, string> }
}

/** Times the empty action's start first: every scenario after it is judged against it. */
export async function openBench(server: FakePurgeServer): Promise<Bench> {
  const emptyEntry = await moduleEntry('')
  const emptyMs = await actionStart(emptyEntry)
  console.log(`empty action start (median): ${format(emptyMs)}`)
  const urls = keyList(1000, `${server.url}/page`)
  return {
    server,
    api: { 'api-token': TOKEN, 'base-url': server.url, 'service-id': 'svc123' },
    emptyEntry,
    emptyMs,
    urls,
    urlsFile: { files: { 'urls.txt': urls.join('\n') } }
  }
}
