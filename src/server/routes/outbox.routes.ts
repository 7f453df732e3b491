import multipart from '@fastify/multipart'
import type { FastifyError, FastifyPluginAsync, FastifyRequest } from 'fastify'
import { CONTACT_FIELDS } from '@/domain/contact-message.entity'
import { OUTBOX_IDS } from '@/server/services/server-config'
import { DETAILS, refuse } from '@/server/services/problem'
import { problemResponse } from '@/contract/problem.schema'
import { originOf } from '@/server/services/site-origin'
import { WRITE_LIMITED } from '@/server/plugins/write-limit'

export const OUTBOX_PATH = '/api/v1.0/email/send-form'

/** Bounds a form far above what the contact rules allow, so nothing valid is cut. */
const FORM_LIMITS = { fields: 16, fieldSize: 32 * 1024, fieldNameSize: 100, files: 0, parts: 32 }

/** EmailJS answers in plain text; the outbox does the same, in its words where we know them. */
const ID_CHECKS = [
  {
    field: 'service_id',
    expected: OUTBOX_IDS.serviceId,
    missing: 'The service ID is required',
    wrong: 'The service ID is invalid',
  },
  {
    field: 'template_id',
    expected: OUTBOX_IDS.templateId,
    missing: 'The template ID is required',
    wrong: 'The template ID is invalid',
  },
  {
    field: 'user_id',
    expected: OUTBOX_IDS.publicKey,
    missing: 'The user ID is required',
    wrong: 'The public key is invalid',
  },
] as const

const TEXT = 'text/plain; charset=utf-8'

/** The outbox's words for the client errors Fastify and its plugins raise while reading a form. */
const CLIENT_ERROR_TEXT: Readonly<Record<number, string>> = {
  413: 'The form is too large',
  429: 'Too many requests',
}

/**
 * The built-in outbox: an EmailJS-compatible endpoint for @emailjs/browser's sendForm, used
 * when no EmailJS account is set. It stores the message; nothing reads it back over HTTP.
 */
export const outboxRoutes: FastifyPluginAsync = async (app) => {
  await app.register(multipart, { limits: FORM_LIMITS })

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    // An error without a status is a problem the route refused with, or a fault of the server,
    // not of the form (a form the parser cannot read is refused 400 by error-handler.ts): the
    // app's handler answers the problem, or logs the fault and answers a 500 problem.
    const status = error.statusCode
    if (status === undefined || status >= 500) throw error
    return reply
      .code(status)
      .type(TEXT)
      .send(CLIENT_ERROR_TEXT[status] ?? 'The request is not a valid form')
  })

  app.post(
    OUTBOX_PATH,
    {
      // Before the form is read, and before the write budget is looked at.
      onRequest: async (request) => {
        if (!fromOwnSite(request, app.siteOrigin(request))) {
          request.log.info({ origin: request.headers.origin ?? null }, 'outbox post from elsewhere')
          refuse(403, DETAILS.foreignOrigin)
        }
      },
      // A message counts against the same write budget as the news writes.
      config: WRITE_LIMITED,
      schema: {
        tags: ['outbox'],
        summary: 'Store a contact message (EmailJS-compatible sendForm)',
        description:
          'A multipart form as @emailjs/browser 4 sendForm sends it: lib_version, service_id, ' +
          'template_id, user_id, name, email and message. Answers plain text, as EmailJS does.',
        consumes: ['multipart/form-data'],
        response: {
          200: text('Stored; the text is OK.'),
          400: text('A missing or wrong id, or an invalid message, in words.'),
          403: problemResponse(
            'The Origin header is missing or is not the site’s own (PUBLIC_URL, or the request’s scheme and Host).',
          ),
          413: text('The form is too large.'),
          429: text('Too many writes from this address; see Retry-After.'),
          503: text('The outbox cannot store the message now.'),
        },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart())
        return reply.code(400).type(TEXT).send('The request is not a form')
      const form = new Map<string, string>()
      for await (const part of request.parts()) {
        if (part.type === 'file') continue
        if (part.valueTruncated) return reply.code(413).type(TEXT).send('The form is too large')
        if (!form.has(part.fieldname)) form.set(part.fieldname, String(part.value))
      }

      for (const check of ID_CHECKS) {
        const value = form.get(check.field)?.trim() ?? ''
        if (value === '') return reply.code(400).type(TEXT).send(check.missing)
        if (value !== check.expected) return reply.code(400).type(TEXT).send(check.wrong)
      }

      const [name = '', email = '', message = ''] = CONTACT_FIELDS.map((f) => form.get(f) ?? '')
      const result = await app.useCases.sendContactMessage.execute({ name, email, message })
      if (result.ok) return reply.code(200).type(TEXT).send('OK')
      if (result.error.code === 'ValidationFailed') {
        return reply.code(400).type(TEXT).send(Object.values(result.error.fields).join('\n'))
      }
      return reply.code(503).type(TEXT).send('The outbox is unavailable, try again later')
    },
  )
}

/**
 * Whether the post comes from one of the site's own pages: its Origin header is the site's
 * origin, PUBLIC_URL's or else the request's own scheme and Host (X-Forwarded-Proto and
 * X-Forwarded-Host only from a trusted proxy). A browser sends Origin with every POST from a
 * script, @emailjs/browser's fetch included, so a post without one (curl, another server) is
 * refused as well: no page of another site can send through the outbox. A program outside a
 * browser can send any Origin it likes; the write limit is what bounds it.
 */
function fromOwnSite(request: FastifyRequest, siteOrigin: string): boolean {
  const origin = originOf(request.headers.origin)
  if (origin === undefined) return false
  return origin === siteOrigin
}

function text(description: string) {
  return { description, content: { 'text/plain': { schema: { type: 'string' } } } } as const
}
