import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { EmailJsAccount } from './newswire-server'

export const SEND_FORM_PATH = '/api/v1.0/email/send-form'

/** One sendForm request as it arrived, its multipart body parsed into fields. */
export interface SentForm {
  readonly method: string
  readonly path: string
  readonly contentType: string
  readonly origin: string | undefined
  readonly fields: Readonly<Record<string, string>>
  readonly status: number
}

export interface EmailJsStandIn {
  readonly account: EmailJsAccount
  /** Every sendForm request so far, oldest first. */
  readonly received: SentForm[]
  /** The next sendForm answers this instead of checking the ids. */
  failNext(status: number, text: string): void
  reset(): void
  close(): Promise<void>
}

const IDS = {
  serviceId: 'service_newswire_e2e',
  templateId: 'template_contact_e2e',
  publicKey: 'pk_newswire_e2e',
} as const

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': '*',
}

/**
 * A local stand-in for api.emailjs.com. It parses the real SDK's multipart body with Node's
 * own form-data parser, records it, and answers as EmailJS does: 200 'OK' for the right ids,
 * 400 with a reason otherwise, with CORS headers because the page posts from another origin.
 */
export async function startEmailJsStandIn(): Promise<EmailJsStandIn> {
  const received: SentForm[] = []
  let failures: [number, string][] = []

  const answer = (response: ServerResponse, status: number, text: string) => {
    response.writeHead(status, { ...CORS, 'Content-Type': 'text/plain; charset=utf-8' })
    response.end(text)
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const path = (request.url ?? '/').split('?', 1)[0] ?? '/'
      if (request.method === 'OPTIONS') return void response.writeHead(204, CORS).end()
      if (request.method !== 'POST' || path !== SEND_FORM_PATH) return answer(response, 404, '')
      const contentType = request.headers['content-type'] ?? ''
      void parseForm(contentType, Buffer.concat(chunks)).then((fields) => {
        const [status, text] = failures.shift() ?? emailJsAnswer(fields)
        received.push({
          method: request.method ?? '',
          path,
          contentType,
          origin: request.headers.origin,
          fields,
          status,
        })
        answer(response, status, text)
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    account: { origin: `http://127.0.0.1:${port}`, ...IDS },
    received,
    failNext(status, text) {
      failures.push([status, text])
    },
    reset() {
      received.length = 0
      failures = []
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function emailJsAnswer(fields: Readonly<Record<string, string>>): [number, string] {
  if (fields.service_id !== IDS.serviceId) return [400, 'The service ID is invalid']
  if (fields.template_id !== IDS.templateId) return [400, 'The template ID is invalid']
  if (fields.user_id !== IDS.publicKey) return [400, 'The Public Key is invalid']
  return [200, 'OK']
}

/** Node's own multipart parser reads the body as a real server would; anything else gives no fields. */
async function parseForm(contentType: string, body: Buffer): Promise<Record<string, string>> {
  try {
    const form = await new Response(new Uint8Array(body), {
      headers: { 'Content-Type': contentType },
    }).formData()
    return Object.fromEntries([...form].map(([name, value]) => [name, String(value)]))
  } catch {
    return {}
  }
}
