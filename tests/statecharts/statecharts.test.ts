import { execFile } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)
// Each run starts tsx in a new process: a second or more on a busy machine.
const CLI_TIMEOUT = 60_000
const root = resolve(import.meta.dirname, '..', '..')
const tsx = join(root, 'node_modules', '.bin', 'tsx')
const fixtures = relative(root, join(import.meta.dirname, 'fixtures'))
const STALE = /is stale: run npm run statecharts/

async function statecharts(...args: string[]) {
  try {
    const { stdout, stderr } = await run(tsx, ['scripts/statecharts.ts', ...args], { cwd: root })
    return { code: 0, stdout, stderr }
  } catch (thrown) {
    const failed = thrown as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

function readAll(dir: string): Record<string, string> {
  const names = readdirSync(dir).sort()
  return Object.fromEntries(names.map((name) => [name, readFileSync(join(dir, name), 'utf8')]))
}

function mermaidOf(page: string): string {
  return /```mermaid\n([\s\S]*?)```/.exec(page)?.[1] ?? ''
}

describe('npm run statecharts', { timeout: CLI_TIMEOUT }, () => {
  let out: string
  beforeEach(() => {
    out = mkdtempSync(join(tmpdir(), 'statecharts-'))
  })
  afterEach(() => rmSync(out, { recursive: true, force: true }))

  describe('drawing a machine', () => {
    let door: string
    let index: string
    beforeAll(async () => {
      const dir = mkdtempSync(join(tmpdir(), 'statecharts-door-'))
      const result = await statecharts('--src', fixtures, '--out', dir)
      expect(result.code).toBe(0)
      door = readFileSync(join(dir, 'door.md'), 'utf8')
      index = readFileSync(join(dir, 'index.md'), 'utf8')
      rmSync(dir, { recursive: true, force: true })
    }, CLI_TIMEOUT)

    it('writes a Mermaid stateDiagram-v2 inside the machine as a whole', () => {
      const chart = mermaidOf(door)
      expect(chart.split('\n')[0]).toBe('stateDiagram-v2')
      expect(chart).toContain('[*] --> door\n  state "door" as door {')
      expect(chart).toContain('[*] --> door__closed\n')
    })

    it.each([
      [
        'draws a nested state as a box with its own initial state',
        ['state "closed" as door__closed {', '[*] --> door__closed__unlocked'],
      ],
      [
        'labels each transition with its event, guard and actions',
        [
          'door__closed__unlocked --> door__closed__checking : door.lock',
          'door__closed --> door__open : door.open [isAwake and not in door.closed.locked]',
        ],
      ],
      [
        'shows an invoked actor in its state and its outcomes as done and error edges',
        [
          'door__closed__checking : invoke checkCode',
          'door__closed__checking --> door__closed__locked : done: checkCode [codeAccepted]',
          'door__closed__checking --> door__closed__unlocked : done: checkCode / assign(tries)',
          'door__closed__checking --> door__closed__unlocked : error: checkCode',
        ],
      ],
      [
        'draws delayed and eventless transitions',
        [
          'door__open --> door__closed : after 5000 ms',
          'door__closed --> door__alarm : always [tooManyTries] (from closed.locked)',
        ],
      ],
      [
        'shows final states, entry actions, tags and events handled in every state',
        [
          'door__alarm : entry / ring\n    door__alarm --> [*]',
          'door__closed__locked : tags safe',
          'note right of door\n    In every state:\n    door.knock / answer\n  end note',
        ],
      ],
    ])('%s', (_, lines) => {
      const chart = mermaidOf(door)
      for (const line of lines) expect(chart).toContain(line)
    })

    it('lists every state and transition, with the params the designer reads', () => {
      expect(door).toContain('6 states, 9 transitions')
      expect(door).toContain('| `alarm` | final |  | `ring(volume: 11)` |  |  |')
      expect(door).toContain('| `open` | `after 5000 ms` |  | `closed` |  |')
      expect(door).toContain('| `door (machine)` | `door.knock` |  | stays | `answer` |')
    })

    it('takes the description from the doc comment above the machine', () => {
      expect(door).toContain('A door with a code lock, drawn by the statechart generator')
      expect(index).toContain(
        "| [Door](door.md) | `door` | `tests/statecharts/fixtures/door.machine.ts` | A door with a code lock, drawn by the statechart generator's tests. |",
      )
    })
  })

  it('writes the same bytes every time', async () => {
    const again = mkdtempSync(join(tmpdir(), 'statecharts-again-'))
    await statecharts('--out', out)
    await statecharts('--out', again)
    expect(readAll(again)).toEqual(readAll(out))
    rmSync(again, { recursive: true, force: true })
  })

  it('draws every machine in src, with an index that links each one', async () => {
    await statecharts('--out', out)
    const files = readAll(out)
    const pages = Object.keys(files).filter((name) => name !== 'index.md')
    expect(pages).toEqual([
      'article.md',
      'changes.md',
      'contact-form.md',
      'history.md',
      'live-updates.md',
      'news-form.md',
      'news-list.md',
      'news-store.md',
      'search.md',
      'trash.md',
      'unknown-route.md',
    ])
    for (const page of pages) expect(files['index.md']).toContain(`](${page})`)
  })

  it('passes --check when the charts are fresh, and fails with the fix when they are not', async () => {
    await statecharts('--src', fixtures, '--out', out)
    expect((await statecharts('--check', '--src', fixtures, '--out', out)).code).toBe(0)

    writeFileSync(join(out, 'door.md'), 'an old chart\n')
    const changed = await statecharts('--check', '--src', fixtures, '--out', out)
    expect(changed.code).toBe(1)
    expect(changed.stderr).toMatch(STALE)
    expect(changed.stderr).toContain('door.md')
  })

  it('fails --check when a chart is missing or left over from a removed machine', async () => {
    await statecharts('--src', fixtures, '--out', out)
    rmSync(join(out, 'door.md'))
    expect((await statecharts('--check', '--src', fixtures, '--out', out)).code).toBe(1)

    await statecharts('--src', fixtures, '--out', out)
    writeFileSync(join(out, 'gone.md'), '# a removed machine\n')
    const leftOver = await statecharts('--check', '--src', fixtures, '--out', out)
    expect(leftOver.code).toBe(1)
    expect(leftOver.stderr).toContain('gone.md')
  })

  it('keeps the hand-written README when it regenerates', async () => {
    cpSync(join(root, 'docs', 'statecharts', 'README.md'), join(out, 'README.md'))
    writeFileSync(join(out, 'gone.md'), '# a removed machine\n')
    await statecharts('--src', fixtures, '--out', out)
    expect(Object.keys(readAll(out))).toEqual(['README.md', 'door.md', 'index.md'])
  })

  it('refuses a machine that is not exported, since it could get no chart', async () => {
    const src = mkdtempSync(join(root, 'tests', 'statecharts', '.hidden-machine-'))
    try {
      writeFileSync(
        join(src, 'hidden.machine.ts'),
        "import { createMachine } from 'xstate'\nconst hidden = createMachine({ id: 'hidden' })\nexport const size = hidden.id.length\n",
      )
      const result = await statecharts('--src', relative(root, src), '--out', out)
      expect(result.code).toBe(1)
      expect(result.stderr).toContain('export every machine so that it gets a chart')
    } finally {
      rmSync(src, { recursive: true, force: true })
    }
  })

  it('finds the committed docs/statecharts fresh', async () => {
    const result = await statecharts('--check')
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
  })
})
