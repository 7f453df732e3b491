import type { AddressInfo } from 'node:net'
import { CreateNews } from '@/application/create-news.use-case'
import { EditNews } from '@/application/edit-news.use-case'
import { ListNews } from '@/application/list-news.use-case'
import { HttpNewsRepository } from '@/adapters/http/http-news.repository'
import { RuntimeConfigClient } from '@/adapters/http/runtime-config.client'
import type { ComposedServer } from '@/composition/server/server.composition'
import { DomainErrorException } from '@/domain/domain-error'
import type { NewsItem } from '@/domain/news-item.entity'
import { composeTestServer, removeTempDirs } from './server-fixture'

// The browser's adapters against the real server: the two halves of the hexagon meet.
let server: ComposedServer
let repository: HttpNewsRepository
let baseUrl: string

beforeAll(async () => {
  server = await composeTestServer()
  await server.app.listen({ port: 0, host: '127.0.0.1' })
  baseUrl = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`
  repository = new HttpNewsRepository({ baseUrl })
})

afterAll(async () => {
  await server.close()
  removeTempDirs()
})

async function rejectionOf(call: Promise<unknown>) {
  try {
    await call
  } catch (thrown) {
    return thrown instanceof DomainErrorException ? thrown.error : thrown
  }
  throw new Error('expected a rejection')
}

describe('the browser adapters against the real server', () => {
  it('create, read, edit and delete a post through the HTTP repository', async () => {
    const created = await repository.create({ title: 'Tide', body: 'High\nand low', author: 'Ada' })
    expect(await repository.get(created._id)).toEqual(created)

    const edited = await repository.update(created._id, { title: 'Tide turns' })
    expect(edited).toEqual({ ...created, title: 'Tide turns' })

    await repository.remove(created._id)
    expect(await rejectionOf(repository.get(created._id))).toEqual({ code: 'NotFound' })
    expect(await rejectionOf(repository.remove(created._id))).toEqual({ code: 'NotFound' })
  })

  it('page through the list by following the server’s Link header, newest first', async () => {
    const create = new CreateNews(repository)
    const titles: string[] = []
    for (let n = 1; n <= 30; n += 1) {
      const result = await create.execute({ title: `Post ${n}`, body: 'Body.', author: 'Ada' })
      if (!result.ok) throw new Error('create failed')
      titles.unshift(result.value.title)
    }
    const list = new ListNews(repository)
    const seen: NewsItem[] = []
    let cursor: string | undefined
    let pages = 0
    do {
      const page = await list.execute({ cursor })
      if (!page.ok) throw new Error('list failed')
      seen.push(...page.value.items)
      cursor = page.value.next
      pages += 1
    } while (cursor !== undefined)
    expect(pages).toBe(2)
    expect(seen.map((item) => item.title)).toEqual(titles)
  })

  it('bring the server’s field messages back as the domain’s, word for word', async () => {
    const refused = await rejectionOf(
      repository.create({ title: ' ', body: 'b'.repeat(501), author: 'A' }),
    )
    expect(refused).toEqual({
      code: 'ValidationFailed',
      fields: { title: 'Sorry, title is required', body: 'Must be 500 characters or less' },
    })
  })

  it('refuse an edit the domain refuses before it reaches the server', async () => {
    const created = await repository.create({ title: 'Kept', body: 'Body.', author: 'Ada' })
    const result = await new EditNews(repository).execute({
      id: created._id,
      changes: { author: 'x'.repeat(31) },
    })
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'ValidationFailed',
        fields: { author: 'Name must be less than 30 characters' },
      },
    })
    expect(await repository.get(created._id)).toEqual(created)
  })

  it('read the outbox settings from /api/config when no EmailJS account is set', async () => {
    const settings = await new RuntimeConfigClient({ baseUrl }).loadEmailJsSettings()
    expect(settings).toEqual({
      origin: '',
      serviceId: 'newswire_outbox',
      templateId: 'contact_form',
      publicKey: 'newswire-outbox',
    })
  })
})
