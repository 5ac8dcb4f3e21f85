/**
 * A self-signed certificate for a few host names and addresses, made with the system's `openssl`
 * (Node cannot make an X.509 certificate itself). The action trusts it through
 * NODE_EXTRA_CA_CERTS, as a self-hosted runner trusts a corporate CA: the bench's HTTPS hosts on
 * 127.0.0.1, and the proxy suite's hosts that only the proxy resolves.
 */
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { isIP } from 'node:net'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { TlsIdentity } from './loopback-server.js'

export interface Certificate extends TlsIdentity {
  /** The certificate's PEM file: the value of NODE_EXTRA_CA_CERTS. */
  certFile: string
}

/** Writes `key.pem` and `cert.pem` into `dir` (the caller removes it), for `names`, the first its CN. */
export async function makeCertificate(
  dir: string,
  names: [string, ...string[]]
): Promise<Certificate> {
  const keyFile = join(dir, 'key.pem')
  const certFile = join(dir, 'cert.pem')
  const altNames = names.map((name) => (isIP(name) === 0 ? `DNS:${name}` : `IP:${name}`))
  // An ECDSA P-256 key: small and quick to make; its handshake signature costs well under 1 ms.
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    `/CN=${names[0]}`,
    '-addext',
    `subjectAltName=${altNames.join(',')}`,
    '-keyout',
    keyFile,
    '-out',
    certFile
  ]).catch((error: unknown) => {
    throw new Error(`making a certificate needs openssl: ${String(error)}`)
  })
  return { key: await readFile(keyFile, 'utf8'), cert: await readFile(certFile, 'utf8'), certFile }
}
