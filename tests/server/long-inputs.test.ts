import type { FastifyInstance } from 'fastify'
import { CONTACT_RULES } from '@/domain/rules/contact-message.rules'
import { NEWS_RULES } from '@/domain/rules/news-item.rules'
import { SEARCH_RULE } from '@/domain/rules/search-query.rules'
import { segmenterWork } from '../domain/segmenter-work'
import {
  createPostThroughApi,
  useServer,
  editThroughApi,
  postNews,
  contactForm,
  sendForm,
} from './server-fixture'

/**
 * Texts far past their limits, each within what the transport lets through (a URL under Node's
 * 16 KiB of headers, a JSON body under 16 KiB, a form field under 32 KiB): each is refused with
 * the domain's message, by its length alone, before any character of it is counted.
 */
const PROSE = 'The harbour council met at dawn and the market stayed open late. '
const longText = (units: number) => PROSE.repeat(Math.ceil(units / PROSE.length)).slice(0, units)

const { server, app } = useServer()

describe('long inputs are refused at once, in the domain’s words', () => {
  it('GET /api/news?q= of 15,000 characters answers 400 with the query’s length message', async () => {
    let response: Awaited<ReturnType<FastifyInstance['inject']>> | undefined
    const work = await segmenterWork(async () => {
      response = await app.inject(`/api/news?q=${longText(15_000).replaceAll(' ', '+')}`)
    })
    expect(response?.statusCode).toBe(400)
    expect(response?.json()).toMatchObject({ errors: { q: SEARCH_RULE.maxLength.message } })
    expect(work.handed).toEqual([])
  })

  it('POST /api/news with a 16 KiB body answers 422 with the body’s length message', async () => {
    const body = longText(16_000)
    let response: Awaited<ReturnType<FastifyInstance['inject']>> | undefined
    const work = await segmenterWork(async () => {
      response = await postNews(app, { title: 'Long', author: 'Ada', body })
    })
    expect(response?.statusCode).toBe(422)
    expect(response?.json()).toMatchObject({ errors: { body: NEWS_RULES.body.maxLength.message } })
    expect(work.handed).toEqual([])
  })

  it('PATCH /api/news/:id with a 16 KiB title answers 422 with the title’s length message', async () => {
    const post = await createPostThroughApi(server, 'Short')
    let response: Awaited<ReturnType<FastifyInstance['inject']>> | undefined
    const work = await segmenterWork(async () => {
      response = await editThroughApi({ app }, post._id, { title: longText(16_000) })
    })
    expect(response?.statusCode).toBe(422)
    expect(response?.json()).toMatchObject({
      errors: { title: NEWS_RULES.title.maxLength.message },
    })
    expect(work.handed).toEqual([])
  })

  it('the outbox answers a 16 KiB message 400 with the message’s length text', async () => {
    const form = contactForm({ message: longText(16 * 1024) })
    let response: Awaited<ReturnType<FastifyInstance['inject']>> | undefined
    const work = await segmenterWork(async () => {
      response = await sendForm(app, form)
    })
    expect(response?.statusCode).toBe(400)
    expect(response?.body).toBe(CONTACT_RULES.message.maxLength.message)
    expect(work.handed).toEqual([])
  })
})
