/**
 * A self-signed certificate for 127.0.0.1 and localhost, made at the bench's start with the
 * system's `openssl` (Node cannot make an X.509 certificate itself). Only the bench needs openssl:
 * the tests serve plain HTTP. The action trusts the certificate through NODE_EXTRA_CA_CERTS, as a
 * self-hosted runner trusts a corporate CA.
 */
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { TlsIdentity } from '../../../tools/loopback-server.js'
import { scratchDir } from '../scratch.js'

export interface Certificate extends TlsIdentity {
  /** The certificate's PEM file: the value of NODE_EXTRA_CA_CERTS. */
  certFile: string
}

export async function makeCertificate(): Promise<Certificate> {
  const dir = await scratchDir('edge-purge-cert-')
  const keyFile = join(dir, 'key.pem')
  const certFile = join(dir, 'cert.pem')
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
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1,DNS:localhost',
    '-keyout',
    keyFile,
    '-out',
    certFile
  ]).catch((error: unknown) => {
    throw new Error(`the network bench needs openssl to make its certificate: ${String(error)}`)
  })
  return { key: await readFile(keyFile, 'utf8'), cert: await readFile(certFile, 'utf8'), certFile }
}
