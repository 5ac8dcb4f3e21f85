/**
 * The floor for the checks: node's own HTTP fetching the same pages in a process of its own, with a
 * keep-alive agent of `concurrency` sockets and the prober's headers, timed from the first request
 * to the last body. What the checks take beyond this is the action's, not node's or the machine's.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { median } from './numbers.js'
import { RUNS } from './options.js'
import { moduleEntry } from './scratch.js'

export async function bareLoopMs(urls: string[], concurrency: number): Promise<number> {
  const entry = await moduleEntry(`
import { Agent, get } from 'node:http'
const urls = process.env.BENCH_URLS.split('\\n')
const agent = new Agent({ keepAlive: true, maxSockets: ${concurrency} })
const headers = { 'User-Agent': 'edge-purge-bench', 'Accept-Encoding': 'gzip, deflate, br' }
let next = 0
const fetchOne = (url) => new Promise((resolve, reject) => {
  get(url, { agent, headers }, (response) => response.resume().on('end', resolve)).on('error', reject)
})
const worker = async () => { while (next < urls.length) await fetchOne(urls[next++]) }
const started = performance.now()
await Promise.all(Array.from({ length: ${concurrency} }, worker))
console.log(performance.now() - started)
agent.destroy()
`)
  const times: number[] = []
  for (let index = 0; index < Math.min(RUNS, 3); index += 1) {
    // Asynchronous: the page server answering it lives in this process.
    const { stdout } = await promisify(execFile)(process.execPath, [entry], {
      env: { PATH: process.env.PATH ?? '', BENCH_URLS: urls.join('\n') }
    })
    times.push(Number(stdout))
  }
  return median(times)
}
