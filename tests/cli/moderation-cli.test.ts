import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import type { NewsItem } from '@/domain/news-item.entity'
import { openDatabase } from '@/adapters/sql/database'
import { SqlNewsStore } from '@/adapters/sql/news/store'
import {
  postgresSchema,
  sqliteFile,
  TEST_POSTGRES_URL,
  type TestStore,
  type TestStoreKind,
} from '../support/test-databases'
import { CLI_TIMEOUT, news, newsProgram } from '../server/support/news-command'

const KINDS: readonly TestStoreKind[] = [
  sqliteFile,
  ...(TEST_POSTGRES_URL === undefined ? [] : [postgresSchema(TEST_POSTGRES_URL)]),
]

const VANDAL = 'bad0bad0ba'
const ADA = 'a1a1a1a1a1'
const draft = (title: string) => ({ title, body: `${title}, the story.`, author: 'Ada' })

/** Works on the database as a server would, with the editors named. */
async function onSite<T>(url: string, work: (site: JournaledNewsRepository) => Promise<T>) {
  const database = await openDatabase(url)
  try {
    return await work(new JournaledNewsRepository(new SqlNewsStore(database)))
  } finally {
    await database.close()
  }
}

describe.each(KINDS)('npm run news moderation on $name', { timeout: CLI_TIMEOUT * 4 }, (kind) => {
  let place: TestStore
  beforeEach(async () => {
    place = await kind.create()
    // The database a server made at its first start.
    await onSite(place.url, async () => undefined)
  })
  afterEach(() => place.dispose())

  async function spamWave(): Promise<{ good: NewsItem; vandalised: NewsItem; spam: NewsItem }> {
    return onSite(place.url, async (site) => {
      const good = await site.create(draft('Harbour'), { editor: ADA })
      const vandalised = await site.create(draft('Market'), { editor: ADA })
      await site.update(vandalised._id, { title: 'Buy pills' }, undefined, VANDAL)
      const spam = await site.create(draft('Cheap pills'), { editor: VANDAL })
      return { good, vandalised, spam }
    })
  }

  it('rolls an editor back: a dry run first, then for real, each step printed and logged', async () => {
    const { vandalised, spam } = await spamWave()

    const dry = await news(place.url, 'rollback', '--editor', VANDAL, '--dry-run')
    expect(dry.stderr).toBe('')
    expect(dry.stdout.trimEnd().split('\n').sort()).toEqual(
      [
        `would reverted   ${vandalised._id}  "Buy pills"  to revision 1`,
        `would trashed    ${spam._id}  "Cheap pills"`,
        `Would roll back ${VANDAL} on 2 post(s): 0 put back from the trash, 1 reverted, 1 trashed.`,
      ].sort(),
    )
    expect(await onSite(place.url, (site) => site.get(vandalised._id))).toMatchObject({
      title: 'Buy pills',
    })

    const done = await news(place.url, 'rollback', '--editor', VANDAL)
    expect(done.code, done.stderr).toBe(0)
    expect(done.stdout).toContain(
      `reverted   ${vandalised._id}  "Market"  to revision 1 (now revision 3)`,
    )
    expect(done.stdout).toContain(`trashed    ${spam._id}  "Cheap pills"  (now revision 2)`)
    expect(await onSite(place.url, (site) => site.get(vandalised._id))).toMatchObject({
      title: 'Market',
    })
    const history = await news(place.url, 'history', vandalised._id)
    expect(history.stdout).toMatch(/ 3 {2}\S+ {2}restore +operator +"Market"/)
    expect(history.stdout).toMatch(new RegExp(` 2 {2}\\S+ {2}edit +${VANDAL} +"Buy pills"`))

    const log = await news(place.url, 'log')
    expect(log.stdout).toMatch(new RegExp(`rollback +${VANDAL} +2 step\\(s\\) on 2 post\\(s\\)`))
  })

  it('restores a window by one editor, and says what it would do first', async () => {
    const since = new Date().toISOString()
    const { vandalised } = await spamWave()
    const dry = await news(place.url, 'restore', '--since', since, '--editor', VANDAL, '--dry-run')
    expect(dry.code, dry.stderr).toBe(0)
    // Posts made in the window are rollback's to remove, not restore's.
    expect(dry.stdout).toBe(`Nothing to undo: no post was deleted or edited since ${since}.\n`)
    const until = await news(place.url, 'restore', '--since', since, '--until', 'soon')
    expect(until.code).toBe(1)
    expect(until.stderr).toContain('--until must be an ISO 8601 time with a zone')
    expect(vandalised.title).toBe('Market')
  })

  it('names an address by its pseudonym, blocks it and a range, lists and lifts the blocks', async () => {
    const who = await news(place.url, 'who', '203.0.113.9')
    expect(who.code, who.stderr).toBe(0)
    const pseudonym = who.stdout.trim()
    expect(pseudonym).toMatch(/^[0-9a-f]{10}$/)
    expect((await news(place.url, 'who', '203.0.113.9')).stdout.trim()).toBe(pseudonym)
    expect((await news(place.url, 'who', '203.0.113.10')).stdout.trim()).not.toBe(pseudonym)

    expect((await news(place.url, 'block', '203.0.113.9', '--reason', 'spam wave')).stdout).toMatch(
      new RegExp(`^Blocked editor ${pseudonym} until lifted`),
    )
    const range = await news(place.url, 'block', '198.51.100.0/24', '--for', '24h')
    expect(range.stdout).toMatch(/^Blocked range 198\.51\.100\.0\/24 until \d{4}-/)
    const blocks = await news(place.url, 'blocks')
    expect(blocks.stdout).toContain(pseudonym)
    expect(blocks.stdout).toContain('"spam wave"')
    // No address is kept: the block names the pseudonym.
    expect(blocks.stdout).not.toContain('203.0.113.9')

    expect((await news(place.url, 'unblock', '203.0.113.9')).stdout).toBe(
      `Lifted 1 block(s) of ${pseudonym}.\n`,
    )
    expect((await news(place.url, 'unblock', '203.0.113.9')).code).toBe(1)
    expect((await news(place.url, 'block', 'not-a-client')).stderr).toContain(
      'is not a pseudonym, an address or a CIDR range',
    )
  })

  it('protects, redacts and purges posts, and logs each with its reason', async () => {
    const { good, vandalised, spam } = await spamWave()

    expect((await news(place.url, 'protect', good._id, '--reason', 'edit war')).code).toBe(0)
    expect((await news(place.url, 'unprotect', good._id)).code).toBe(0)
    expect((await news(place.url, 'unprotect', good._id)).code).toBe(1)

    const redact = await news(place.url, 'redact', vandalised._id, '1', '--reason', 'libel')
    expect(redact.code, redact.stderr).toBe(0)
    expect((await news(place.url, 'redact', vandalised._id, '2')).stderr).toContain(
      "is the post's newest version",
    )
    expect((await news(place.url, 'history', vandalised._id)).stdout).toMatch(
      new RegExp(` 1 {2}\\S+ {2}create +${ADA} +hidden by the operator`),
    )

    expect((await news(place.url, 'purge', spam._id, '--reason', 'illegal')).code).toBe(0)
    expect((await news(place.url, 'history', spam._id)).code).toBe(1)

    const log = (await news(place.url, 'log')).stdout.trimEnd().split('\n')
    expect(log.map((line) => line.split(/ {2,}/).slice(2, 4))).toEqual([
      ['protect', good._id],
      ['unprotect', good._id],
      ['redact', `${vandalised._id} revision 1`],
      ['purge', spam._id],
    ])
    expect(log[0]).toContain('reason: "edit war"')
    expect(log[3]).toContain('reason: "illegal"')
  })

  it('refuses a rollback without an editor, and a bad duration, as the compiled program', async () => {
    const rollback = await newsProgram(place.url, 'rollback')
    expect(rollback.code).toBe(1)
    expect(rollback.stderr).toContain('rollback needs --editor E')
    expect((await newsProgram(place.url, 'block', VANDAL, '--for', 'ever')).stderr).toContain(
      '--for must be like 30m, 24h or 7d',
    )
  })
})
