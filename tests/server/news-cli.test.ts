import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsRevision } from '@/domain/news-revision.entity'
import { MAX_HISTORY_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import type { ComposedServer } from '@/composition/server/server.composition'
import { TOKENS } from '@/composition/server/server.tokens'
import { composeTestServer, createPostThroughApi, tempDir, editThroughApi } from './server-fixture'
import { CLI_TIMEOUT, news, newsProgram } from './support/news-command'

const pause = () => new Promise((resolve) => setTimeout(resolve, 5))

/** Runs `work` against the server's API over the database, then closes it. */
async function withApi<T>(url: string, work: (server: ComposedServer) => Promise<T>): Promise<T> {
  const server = await composeTestServer({ DATABASE_URL: url })
  try {
    return await work(server)
  } finally {
    await server.close()
  }
}

/** A post made through the API, a moment before the next, so that --since can fall between. */
async function createPost(server: ComposedServer, title: string): Promise<NewsItem> {
  const item = await createPostThroughApi(server, title)
  await pause()
  return item
}

async function historyOf(server: ComposedServer, id: string): Promise<NewsRevision[]> {
  return (await server.app.inject(`/api/news/${id}/revisions`)).json<NewsRevision[]>()
}

describe('npm run news', { timeout: CLI_TIMEOUT }, () => {
  it('restore --since puts back deleted and edited posts as new revisions, and says so', async () => {
    const url = `sqlite:${join(tempDir('newswire-cli-'), 'news.db')}`
    const { deleted, edited, untouched, since } = await withApi(url, async (server) => {
      const deleted = await createPost(server, 'Deleted by a vandal')
      const edited = await createPost(server, 'Edited by a vandal')
      const untouched = await createPost(server, 'Left alone')
      const since = new Date()
      await pause()
      await server.app.inject({ method: 'DELETE', url: `/api/news/${deleted._id}` })
      for (const title of ['Nonsense', 'More nonsense']) {
        await editThroughApi(server, edited._id, { title })
      }
      await createPost(server, 'Made after')
      return { deleted, edited, untouched, since }
    })

    const undo = await news(url, 'restore', '--since', since.toISOString())
    expect(undo.stderr).toBe('')
    expect(undo.code, undo.stderr).toBe(0)
    const lines = undo.stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(3)
    expect(lines).toEqual(
      expect.arrayContaining([
        `untrashed  ${deleted._id}  "Deleted by a vandal"  (now revision 3)`,
        `reverted   ${edited._id}  "Edited by a vandal"  to revision 1 (now revision 4)`,
      ]),
    )
    expect(lines[2]).toBe(
      `Undid the changes since ${since.toISOString()} to 2 post(s): 1 put back from the trash, ` +
        '1 reverted, each as a new revision.',
    )

    await withApi(url, async (server) => {
      const back = (await server.app.inject(`/api/news/${deleted._id}`)).json<NewsItem>()
      expect(back).toMatchObject({ title: 'Deleted by a vandal', revision: 3 })
      expect((await historyOf(server, deleted._id)).map((r) => r.action)).toEqual([
        'restore',
        'delete',
        'create',
      ])
      const reverted = (await server.app.inject(`/api/news/${edited._id}`)).json<NewsItem>()
      expect(reverted).toMatchObject({ title: 'Edited by a vandal', revision: 4 })
      expect((await historyOf(server, edited._id))[0]).toMatchObject({
        action: 'restore',
        restoredFrom: 1,
      })
      expect((await server.app.inject(`/api/news/${untouched._id}`)).json()).toEqual(untouched)
      const titles = (await server.app.inject('/api/news')).json<NewsItem[]>().map((p) => p.title)
      expect(titles).toContain('Made after')
    })

    // Undoing again finds nothing left to put back.
    const again = await news(url, 'restore', '--since', since.toISOString())
    expect(again.code, again.stderr).toBe(0)
    expect(again.stdout).toBe(
      `Nothing to undo: no post was deleted or edited since ${since.toISOString()}.\n`,
    )
  })

  it('history prints every revision of a post, newest first, in the trash too', async () => {
    const url = `sqlite:${join(tempDir('newswire-cli-'), 'news.db')}`
    const item = await withApi(url, async (server) => {
      const item = await createPost(server, 'Chronicle')
      // The API refuses control characters now; a post stored before that rule may hold them,
      // so this edit goes straight to the repository.
      await server.container
        .get(TOKENS.newsRepository)
        .update(item._id, { title: 'Chronicle \u001b[31mred', author: 'Grace' })
      await server.app.inject({
        method: 'POST',
        url: `/api/news/${item._id}/revisions/1/restore`,
      })
      await server.app.inject({ method: 'DELETE', url: `/api/news/${item._id}` })
      return item
    })

    const { code, stdout, stderr } = await news(url, 'history', item._id)
    expect(code, stderr).toBe(0)
    const lines = stdout.trimEnd().split('\n')
    expect(lines[0]).toBe(`Post ${item._id} (in the trash): 4 revision(s), newest first.`)
    expect(lines[1]).toMatch(/^revision\s+time\s+action\s+editor\s+title by author$/)
    expect(lines.slice(2).map((line) => line.trim().split(/\s+/).slice(0, 1)[0])).toEqual([
      '4',
      '3',
      '2',
      '1',
    ])
    // The API's writes record the client's pseudonym (the same client each time); the edit
    // made straight to the repository, none.
    const editor = /[0-9a-f]{10}/.exec(lines[2] ?? '')?.[0] ?? 'none'
    expect(lines[2]).toMatch(
      new RegExp(
        `^ {7}4 {2}\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z {2}delete {3}${editor} {2}"Chronicle" by "Ada"$`,
      ),
    )
    expect(lines[3]).toMatch(
      new RegExp(`restore {2}${editor} {2}"Chronicle" by "Ada" {2}\\(from revision 1\\)$`),
    )
    // A title's control characters are shown escaped, never sent to the terminal.
    expect(lines[4]).toContain('edit     unknown     "Chronicle \\u001b[31mred" by "Grace"')
    expect(stdout).not.toContain('\u001b')
    expect(lines[5]).toContain(`${item.createdAt}  create   ${editor}  "Chronicle" by "Ada"`)
  })

  it('history prints every revision of a history longer than one page', async () => {
    const url = `sqlite:${join(tempDir('newswire-cli-'), 'news.db')}`
    const edits = MAX_HISTORY_PAGE_SIZE + 5
    const item = await withApi(url, async (server) => {
      const item = await createPost(server, 'Saga')
      for (let index = 1; index <= edits; index += 1) {
        await editThroughApi(server, item._id, { title: `Saga ${index}` })
      }
      return item
    })

    const { code, stdout, stderr } = await news(url, 'history', item._id)
    expect(code, stderr).toBe(0)
    const lines = stdout.trimEnd().split('\n')
    const total = edits + 1
    expect(lines[0]).toBe(`Post ${item._id} (live): ${total} revision(s), newest first.`)
    expect(lines.slice(2).map((line) => Number(line.trim().split(/\s+/)[0]))).toEqual(
      Array.from({ length: total }, (_, index) => total - index),
    )
  })

  it('prints its usage for --help, as the compiled program', async () => {
    const { code, stdout, stderr } = await newsProgram('sqlite::memory:', '--help')
    expect(code, stderr).toBe(0)
    expect(stdout).toMatch(/^Usage: npm run news -- <command>/)
    expect(stdout).toContain('restore --since <ISO time>')
    expect(stdout).toContain('history <id>')
    for (const command of ['export [FILE]', 'import FILE', 'copy --to URL', 'backup FILE']) {
      expect(stdout).toContain(command)
    }
  })

  it.each([
    [['restore', '--since', 'yesterday'], /--since must be an ISO 8601 time.*"yesterday"/],
    [['restore', '--since', '2026-02-30T10:00:00Z'], /--since must be an ISO 8601 time/],
    [['restore', '--since', '2026-05-01T12:00:00'], /--since must be an ISO 8601 time/],
    [['restore'], /restore needs --since/],
    [['history'], /history needs one post id/],
    [['history', 'never-existed'], /no post has the id "never-existed"/],
    [['frobnicate'], /unknown command "frobnicate"/],
    [['restore', '--sinse', '2026-05-01'], /Unknown option '--sinse'/],
    [[], /name a command/],
    [['import'], /import needs one file/],
    [['import', 'no-such-archive.jsonl'], /there is no file no-such-archive.jsonl/],
    [['export', 'a.jsonl', 'b.jsonl'], /export takes at most one file/],
    [['export', '--to', 'x'], /export takes no --to/],
    [['copy'], /copy needs --to/],
    [['backup'], /backup needs one file/],
  ])('exits 1 with one line for %j', async (args, message) => {
    const url = `sqlite:${join(tempDir('newswire-cli-'), 'news.db')}`
    await withApi(url, async () => undefined)
    const { code, stdout, stderr } = await news(url, ...args)
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toMatch(message)
    expect(stderr.trimEnd().split('\n')).toHaveLength(1)
  })

  it('exits 1, creating nothing, when DATABASE_URL names no database, as the compiled program', async () => {
    const path = join(tempDir('newswire-cli-'), 'missing', 'news.db')
    const { code, stderr } = await newsProgram(`sqlite:${path}`, 'history', 'some-id')
    expect(code).toBe(1)
    expect(stderr).toMatch(/^news: there is no database at .* \(npm run news -- --help\)\n$/)
    expect(existsSync(path)).toBe(false)
  })
})
