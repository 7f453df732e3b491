/**
 * `npm run bench:move`: moving a site between engines, at size. It seeds a SQLite site of
 * --posts N posts (default 1,000,000) straight into the tables, with history: every post its
 * creation, every second post an edit, every tenth post in the trash, and the change log of all
 * of it. Then it times, each as its own `npm run news` process (the compiled command):
 *   - export of the SQLite site to a file;
 *   - import of that file into a new SQLite database, and into a new PostgreSQL schema;
 *   - copy of the SQLite site into another new PostgreSQL schema (digests of both sides included).
 * For each it prints the wall time and the process's peak memory (RSS: /usr/bin/time -v, else
 * the kernel's VmHWM), which must stay under 300 MB, and the load average, since the machine
 * may be shared. PostgreSQL is BENCH_POSTGRES_URL or TEST_POSTGRES_URL (skipped when neither is
 * set; a throwaway schema is made in it and dropped).
 * `--steps sqlite,postgres,copy` (the default) picks the steps after the export.
 * A missed target never fails the run; a command that fails does.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'

import SQLite from 'better-sqlite3'
import { ensureServerBuilt } from './built.mjs'
import { throwawaySchema, type ThrowawaySchema } from './bench/postgres-schema'
import { benchOptions } from './bench/options'
import { runBench } from './bench/run-bench'
import { seedSqlite } from './bench/seed-posts'

const STEPS = ['sqlite', 'postgres', 'copy'] as const
const values = benchOptions(
  { posts: [1_000_000, 100, 10_000_000] },
  { texts: { steps: STEPS.join(',') } },
)
/** The export always runs; the others as --steps lists them. */
const steps = new Set(values.steps.split(','))
const { posts } = values
const postgresUrl = (process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL)?.trim()
const RSS_LIMIT_MB = 300
const TIME = '/usr/bin/time'

interface Measured {
  readonly step: string
  readonly seconds: number
  readonly peakMb: number
}

/** Every second post edited, every tenth trashed, and one change logged per revision. */
function addHistory(path: string, count: number): { revisions: number } {
  const db = new SQLite(path)
  try {
    db.pragma('synchronous = OFF')
    const start = Date.UTC(2020, 0, 1)
    const later = (index: number, step: number) =>
      new Date(start + count * 1000 + index * 10 + step).toISOString()
    const revise = db.prepare(
      `insert into news_revision (news_id, revision, title, body, author, action, at, restored_from)
       select id, ?, title, body || ?, author, ?, ?, null from news where id = ?`,
    )
    const edit = db.prepare(
      'update news set body = body || ?, revision = ?, updated_at = ? where id = ?',
    )
    const trash = db.prepare(
      'update news set revision = ?, updated_at = ?, deleted_at = ? where id = ? returning search_seq',
    )
    const unindex = db.prepare('delete from news_search where rowid = ?')
    const change = db.prepare(
      'insert into news_change (seq, news_id, kind, revision, at) values (?, ?, ?, ?, ?)',
    )
    let seq = 0
    db.transaction(() => {
      // Read whole first: better-sqlite3 writes nothing while a statement is being iterated.
      const created = db
        .prepare('select id, created_at from news order by search_seq')
        .raw()
        .all() as [string, string][]
      for (const [id, at] of created) change.run(++seq, id, 'created', 1, at)
      created.forEach(([id], index) => {
        let revision = 1
        if (index % 2 === 0) {
          const at = later(index, 1)
          revise.run(++revision, ' (updated)', 'edit', at, id)
          edit.run(' (updated)', revision, at, id)
          change.run(++seq, id, 'edited', revision, at)
        }
        if (index % 10 === 5) {
          const at = later(index, 2)
          revise.run(++revision, '', 'delete', at, id)
          const { search_seq } = trash.get(revision, at, at, id) as { search_seq: number }
          unindex.run(search_seq)
          change.run(++seq, id, 'deleted', revision, at)
        }
      })
      db.prepare('update site_version set version = ? where id = 1').run(seq)
    })()
    return { revisions: seq }
  } finally {
    db.close()
  }
}

/** Runs `npm run news -- ARGS` over `databaseUrl`, timed, with its peak RSS. */
function news(step: string, databaseUrl: string, args: readonly string[]): Promise<Measured> {
  const command = [process.execPath, 'dist-node/news.js', ...args]
  const timed = existsSync(TIME)
  const [program = '', ...rest] = timed ? [TIME, '-v', ...command] : command
  const started = performance.now()
  const child = spawn(program, rest, {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  let peakKb = 0
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  // Without /usr/bin/time, the kernel's high-water mark, read until the process ends.
  const poll = timed
    ? undefined
    : setInterval(() => (peakKb = Math.max(peakKb, vmHwm(child.pid))), 100)
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      clearInterval(poll)
      const seconds = (performance.now() - started) / 1000
      const reported = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1]
      if (reported !== undefined) peakKb = Number(reported)
      if (code !== 0) {
        reject(
          new Error(`${step} exited ${code}: ${stderr.trim().split('\n').slice(0, 3).join(' ')}`),
        )
        return
      }
      resolve({ step, seconds, peakMb: peakKb / 1024 })
    })
  })
}

function vmHwm(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0)
  } catch {
    return 0
  }
}

function load(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')
}

function report(measured: Measured): void {
  const verdict = measured.peakMb < RSS_LIMIT_MB ? 'ok' : `MISSED (< ${RSS_LIMIT_MB} MB)`
  process.stdout.write(
    `${measured.step.padEnd(34)} ${measured.seconds.toFixed(1).padStart(8)} s  ` +
      `peak RSS ${measured.peakMb.toFixed(0).padStart(4)} MB  ${verdict}  (load ${load()})\n`,
  )
}

const work = mkdtempSync(join(tmpdir(), 'newswire-bench-move-'))

async function main(): Promise<void> {
  await ensureServerBuilt()
  const cores = availableParallelism()
  process.stdout.write(
    `bench:move, ${posts.toLocaleString('en')} posts; ${cores} cores, load average ${load()}\n`,
  )
  const source = join(work, 'source.db')
  const seeding = performance.now()
  await seedSqlite(source, posts, { searchable: true })
  const { revisions } = addHistory(source, posts)
  const archive = join(work, 'site.jsonl')
  process.stdout.write(
    `seeded ${posts.toLocaleString('en')} posts, ${revisions.toLocaleString('en')} revisions ` +
      `in ${((performance.now() - seeding) / 1000).toFixed(0)} s\n`,
  )

  report(await news('export (SQLite to file)', `sqlite:${source}`, ['export', archive]))
  process.stdout.write(`  archive: ${(statSync(archive).size / 1e6).toFixed(0)} MB\n`)
  if (steps.has('sqlite')) {
    const imported = `sqlite:${join(work, 'imported.db')}`
    report(await news('import (file to SQLite)', imported, ['import', archive]))
  }
  if (!steps.has('postgres') && !steps.has('copy')) return
  if (postgresUrl === undefined) {
    process.stdout.write('PostgreSQL: skipped (set BENCH_POSTGRES_URL or TEST_POSTGRES_URL)\n')
    return
  }
  const schemas: ThrowawaySchema[] = []
  const schema = async (prefix: string) => {
    const made = await throwawaySchema(postgresUrl, prefix)
    schemas.push(made)
    return made.url
  }
  try {
    if (steps.has('postgres')) {
      const imported = await schema('newswire_bench_import')
      report(await news('import (file to PostgreSQL)', imported, ['import', archive]))
    }
    if (steps.has('copy')) {
      const copied = await schema('newswire_bench_copy')
      report(
        await news('copy (SQLite to PostgreSQL)', `sqlite:${source}`, ['copy', '--to', copied]),
      )
    }
  } finally {
    for (const made of schemas) await made.drop()
  }
}

runBench('bench:move', main, work)
