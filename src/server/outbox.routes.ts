import multipart from '@fastify/multipart'
import type { FastifyError, FastifyPluginAsync, onRequestAsyncHookHandler } from 'fastify'
import type { SendContactMessage } from '@/application/send-contact-message.use-case'
import { CONTACT_FIELDS } from '@/domain/contact-message.entity'
import { OUTBOX_IDS } from '@/server/config'

export interface OutboxRoutesOptions {
  readonly sendContactMessage: SendContactMessage
  readonly writeGuards: readonly onRequestAsyncHookHandler[]
}

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

/**
 * The built-in outbox: an EmailJS-compatible endpoint for @emailjs/browser's sendForm, used
 * when no EmailJS account is set. It stores the message; nothing reads it back over HTTP.
 */
export const outboxRoutes: FastifyPluginAsync<OutboxRoutesOptions> = async (app, options) => {
  await app.register(multipart, { limits: FORM_LIMITS })

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500
    if (status >= 500) request.log.error({ err: error }, 'outbox failed')
    const text =
      status === 429
        ? 'Too many requests'
        : status === 413
          ? 'The form is too large'
          : status >= 500
            ? 'The outbox is unavailable, try again later'
            : 'The request is not a valid form'
    return reply
      .code(status >= 500 ? 500 : status)
      .type(TEXT)
      .send(text)
  })

  app.post(
    OUTBOX_PATH,
    {
      onRequest: [...options.writeGuards],
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
      const result = await options.sendContactMessage.execute({ name, email, message })
      if (result.ok) return reply.code(200).type(TEXT).send('OK')
      if (result.error.code === 'ValidationFailed') {
        return reply.code(400).type(TEXT).send(Object.values(result.error.fields).join('\n'))
      }
      return reply.code(503).type(TEXT).send('The outbox is unavailable, try again later')
    },
  )
}

function text(description: string) {
  return { description, content: { 'text/plain': { schema: { type: 'string' } } } } as const
}
