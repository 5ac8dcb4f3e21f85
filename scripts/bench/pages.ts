/**
 * Pages as the edge serves them right after a purge: a small page with `Age: 0`, after the same
 * added latency as the purge API. The fake purge server answers no GET, so the checks need this.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { LoopbackServer } from '../../tools/loopback-server.js'
import { LATENCY_MS } from './options.js'

/** When one run's checks reached the pages: the first GET arrived, the last answer was sent (ms epoch). */
export interface PageWindow {
  firstGetMs: number
  lastAnswerMs: number
}

const PAGE =
  '<!doctype html><html><head><title>Release</title></head><body>The new release.</body></html>'

export class PageServer {
  gets = 0
  connections = 0
  /** Reset before each run, which then reads it. */
  window: PageWindow = { firstGetMs: NaN, lastAnswerMs: NaN }

  private constructor(private readonly http: LoopbackServer) {}

  static async start(): Promise<PageServer> {
    const http = new LoopbackServer()
    const pages = new PageServer(http)
    http.server.on('connection', () => {
      pages.connections += 1
    })
    await http.listen((request, response) => pages.answer(request, response))
    return pages
  }

  get url(): string {
    return this.http.url
  }

  async close(): Promise<void> {
    await this.http.close()
  }

  private answer(request: IncomingMessage, response: ServerResponse): void {
    this.gets += 1
    if (Number.isNaN(this.window.firstGetMs)) this.window.firstGetMs = Date.now()
    request.resume()
    setTimeout(() => {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', Age: '0' })
      response.end(PAGE, () => {
        this.window.lastAnswerMs = Date.now()
      })
    }, LATENCY_MS)
  }
}
