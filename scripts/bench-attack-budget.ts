/**
 * `npm run bench:attack-budget`: does the write budget hold under a burst? The real server in
 * its own process, behind a pretend proxy (TRUST_PROXY=127.0.0.1) with WRITE_RATE_LIMIT=60,
 * gets 300 POST /api/news at once from one forwarded address: every connection is opened, every
 * head sent, and the bodies a moment later, so that all 300 are in flight before any is answered
 * (scripts/bench/write-burst.ts). It prints how many got 201 and 429; the target is at most 64
 * accepted. A second burst sends half the writes invalid (422): the refused ones must give their
 * units back, so the writes accepted in the burst and one at a time after it add up to 60.
 * SQLite always; PostgreSQL too when BENCH_POSTGRES_URL or TEST_POSTGRES_URL names a database
 * (a throwaway schema is made in it and dropped after); --postgres makes that required.
 * A missed target never fails the run.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { startBenchServer } from './bench/bench-server'
import { throwawaySchema } from './bench/postgres-schema'
import { benchOptions } from './bench/options'
import { runBench } from './bench/run-bench'
import { burst, countOf, forwardedPost, send } from './bench/write-burst'

const values = benchOptions({}, { flags: ['postgres'] })
const postgresUrl = (process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL)?.trim()

const BUDGET = 60
const BURST = 300
const TARGET_MOST_ACCEPTED = 64
/** The sequel of the mixed burst stops here even if the budget never ran out. */
const MOST_SEQUEL = 200

const GOOD_POST = JSON.stringify({ title: 'Burst', body: 'One of many.', author: 'Bench' })
const BAD_POST = JSON.stringify({ title: '', body: 'No title.', author: 'Bench' })

const work = mkdtempSync(join(tmpdir(), 'newswire-attack-budget-'))

interface Row {
  readonly engine: string
  readonly accepted: number
  readonly refused: number
  readonly other: number
  /** The mixed burst: accepted in it, then one at a time after it until a 429. */
  readonly mixedAccepted: number
  readonly sequelAccepted: number
}

async function run(engine: string, databaseUrl: string): Promise<Row> {
  const server = await startBenchServer({
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    TRUST_PROXY: '127.0.0.1',
    WRITE_RATE_LIMIT: String(BUDGET),
    CREATE_RATE_LIMIT: '0',
  })
  try {
    const port = Number(new URL(server.base).port)
    const statuses = await burst(
      port,
      Array.from({ length: BURST }, () => forwardedPost('203.0.113.10', GOOD_POST)),
    )
    const mixed = await burst(
      port,
      Array.from({ length: BURST }, (_, index) =>
        forwardedPost('203.0.113.11', index % 2 === 0 ? BAD_POST : GOOD_POST),
      ),
    )
    let sequelAccepted = 0
    while (
      sequelAccepted < MOST_SEQUEL &&
      (await send(port, forwardedPost('203.0.113.11', GOOD_POST))) === 201
    ) {
      sequelAccepted += 1
    }
    const accepted = countOf(statuses, 201)
    const refused = countOf(statuses, 429)
    return {
      engine,
      accepted,
      refused,
      other: BURST - accepted - refused,
      mixedAccepted: countOf(mixed, 201),
      sequelAccepted,
    }
  } finally {
    await server.stop()
  }
}

async function main(): Promise<void> {
  if (values.postgres && !postgresUrl) {
    throw new Error('--postgres needs BENCH_POSTGRES_URL or TEST_POSTGRES_URL')
  }
  const rows: Row[] = [await run('SQLite', `sqlite:${join(work, 'budget.db')}`)]
  if (postgresUrl) {
    const schema = await throwawaySchema(postgresUrl, 'newswire_attack_budget')
    try {
      rows.push(await run('PostgreSQL', schema.url))
    } finally {
      await schema.drop()
    }
  } else {
    process.stdout.write('PostgreSQL: skipped (set BENCH_POSTGRES_URL or TEST_POSTGRES_URL)\n')
  }
  process.stdout.write(
    `\nWrite budget under a burst: ${BURST} POSTs at once from one forwarded address, ` +
      `WRITE_RATE_LIMIT=${BUDGET}, TRUST_PROXY\n`,
  )
  const columns = ['201', '429', 'other', 'half 422: 201', 'then one by one', 'target']
  process.stdout.write(`${'engine'.padEnd(12)}${columns.map((c) => c.padStart(16)).join('')}\n`)
  for (const row of rows) {
    const met =
      row.accepted <= TARGET_MOST_ACCEPTED &&
      row.mixedAccepted + row.sequelAccepted <= TARGET_MOST_ACCEPTED &&
      row.mixedAccepted + row.sequelAccepted >= BUDGET
    const cells = [
      row.accepted,
      row.refused,
      row.other,
      row.mixedAccepted,
      row.sequelAccepted,
      met ? 'met' : 'MISSED',
    ]
    process.stdout.write(
      `${row.engine.padEnd(12)}${cells.map((cell) => String(cell).padStart(16)).join('')}\n`,
    )
  }
  process.stdout.write(
    `target: at most ${TARGET_MOST_ACCEPTED} accepted of ${BURST}, and the refused writes ` +
      `give their units back (the mixed burst and the writes after it add up to ${BUDGET} to ${TARGET_MOST_ACCEPTED})\n`,
  )
}

runBench('bench:attack-budget', main, work)
