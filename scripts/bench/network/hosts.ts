/**
 * What the network mode's runs talk to: the fake purge API and a content host (which answers the
 * URL purges), both over HTTPS with the bench's certificate, each behind a delaying proxy of its
 * own, as two hosts on a network are.
 */
import { DelayProxy, type ConnectionTimeline } from '../../../tools/delay-proxy.js'
import { FakePurgeServer } from '../../../tools/fake-purge-api/server.js'
import { makeCertificate } from '../../../tools/certificate.js'
import { TOKEN } from '../options.js'
import { scratchDir } from '../scratch.js'

export interface NetworkHosts {
  api: FakePurgeServer
  content: FakePurgeServer
  apiProxy: DelayProxy
  contentProxy: DelayProxy
  /** The certificate's PEM file, for NODE_EXTRA_CA_CERTS. */
  certFile: string
  /** The inputs that point the action at the API through its proxy. */
  apiInputs: Record<string, string>
  /** The content host's address through its proxy. */
  contentUrl: string
}

export async function openHosts(): Promise<NetworkHosts> {
  const certificate = await makeCertificate(await scratchDir('edge-purge-cert-'), [
    '127.0.0.1',
    'localhost'
  ])
  const tls = { key: certificate.key, cert: certificate.cert }
  const api = await FakePurgeServer.start({ tokens: { [TOKEN]: 'engineer' }, tls })
  // The fake purge API answers PURGE for any URL under its address: a second one is the content host.
  const content = await FakePurgeServer.start({ tls })
  const apiProxy = await DelayProxy.start(Number(new URL(api.url).port), 0)
  const contentProxy = await DelayProxy.start(Number(new URL(content.url).port), 0)
  return {
    api,
    content,
    apiProxy,
    contentProxy,
    certFile: certificate.certFile,
    apiInputs: {
      'api-token': TOKEN,
      'base-url': `https://127.0.0.1:${apiProxy.port}`,
      'service-id': 'svc123'
    },
    contentUrl: `https://127.0.0.1:${contentProxy.port}`
  }
}

export function setRtt(hosts: NetworkHosts, rttMs: number): void {
  hosts.apiProxy.rttMs = rttMs
  hosts.contentProxy.rttMs = rttMs
}

/** Where the counters stand: a run's share is what they grew by. */
export interface HostMarks {
  requests: number
  apiConnections: number
  contentConnections: number
}

export const marksOf = (hosts: NetworkHosts): HostMarks => ({
  requests: hosts.api.requests.length + hosts.content.requests.length,
  apiConnections: hosts.apiProxy.connections.length,
  contentConnections: hosts.contentProxy.connections.length
})

/** The requests both hosts received since `marks`. */
export const requestsSince = (hosts: NetworkHosts, marks: HostMarks): number =>
  marksOf(hosts).requests - marks.requests

/** The connections both proxies accepted since `marks`, in the order they were opened. */
export function connectionsSince(hosts: NetworkHosts, marks: HostMarks): ConnectionTimeline[] {
  return [
    ...hosts.apiProxy.connections.slice(marks.apiConnections),
    ...hosts.contentProxy.connections.slice(marks.contentConnections)
  ].sort((a, b) => a.openedAt - b.openedAt)
}

export async function closeHosts(hosts: NetworkHosts): Promise<void> {
  await Promise.all([hosts.apiProxy.close(), hosts.contentProxy.close()])
  await Promise.all([hosts.api.close(), hosts.content.close()])
}
