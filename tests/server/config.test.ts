import { ConfigError } from '@/server/services/config-error'
import { readConfig } from '@/composition/server/read-config'
import { runtimeConfigOf, usesOutbox } from '@/server/services/server-config'

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    readConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
  return []
}

describe('readConfig', () => {
  it('uses the documented defaults', () => {
    expect(readConfig({})).toEqual({
      port: 3000,
      host: 'localhost',
      database: { engine: 'sqlite', path: './data/newswire.db' },
      emailjsAccount: undefined,
      emailjsOrigin: 'https://api.emailjs.com',
      writeRateLimit: 60,
      createRateLimit: 10,
      searchRateLimit: 60,
      demoPosts: true,
      trashDays: 30,
      trustProxy: false,
      publicOrigin: undefined,
      timeouts: { requestMs: 30_000, headersMs: 10_000, keepAliveMs: 5_000 },
      maxConnections: 2000,
      maxConnectionsPerAddress: 100,
      maxStreams: 1000,
      logLevel: 'info',
      logAddresses: false,
      metricsToken: undefined,
      pageCacheBytes: 64 * 1024 * 1024,
      metricsPort: undefined,
    })
  })

  it('reads every variable', () => {
    expect(
      readConfig({
        PORT: '8080',
        HOST: '0.0.0.0',
        DATABASE_URL: 'postgres://news:secret@db.internal:5432/newswire',
        EMAILJS_SERVICE_ID: 'service_1',
        EMAILJS_TEMPLATE_ID: 'template_1',
        EMAILJS_PUBLIC_KEY: 'key_1',
        EMAILJS_ORIGIN: 'https://api.eu.emailjs.com/',
        WRITE_RATE_LIMIT: '0',
        CREATE_RATE_LIMIT: '0',
        SEARCH_RATE_LIMIT: '120',
        DEMO_POSTS: '0',
        TRASH_DAYS: '7',
        TRUST_PROXY: '10.0.0.0/8, 192.0.2.1',
        PUBLIC_URL: 'https://news.example.com/',
        REQUEST_TIMEOUT: '60',
        HEADERS_TIMEOUT: '20',
        KEEP_ALIVE_TIMEOUT: '15',
        MAX_CONNECTIONS: '5000',
        MAX_CONNECTIONS_PER_ADDRESS: '0',
        MAX_STREAMS: '2500',
        LOG_LEVEL: 'Debug',
        LOG_ADDRESSES: 'TRUE',
        METRICS_TOKEN: 'scrape-0123456789abcdef',
        METRICS_PORT: '9464',
        PAGE_CACHE_MB: '16',
      }),
    ).toEqual({
      port: 8080,
      host: '0.0.0.0',
      database: {
        engine: 'postgres',
        connectionString: 'postgres://news:secret@db.internal:5432/newswire',
        host: 'db.internal',
        port: 5432,
        preparedStatements: true,
      },
      emailjsAccount: { serviceId: 'service_1', templateId: 'template_1', publicKey: 'key_1' },
      emailjsOrigin: 'https://api.eu.emailjs.com',
      writeRateLimit: 0,
      createRateLimit: 0,
      searchRateLimit: 120,
      demoPosts: false,
      trashDays: 7,
      trustProxy: ['10.0.0.0/8', '192.0.2.1'],
      publicOrigin: 'https://news.example.com',
      timeouts: { requestMs: 60_000, headersMs: 20_000, keepAliveMs: 15_000 },
      maxConnections: 5000,
      maxConnectionsPerAddress: 0,
      maxStreams: 2500,
      logLevel: 'debug',
      logAddresses: true,
      metricsToken: 'scrape-0123456789abcdef',
      pageCacheBytes: 16 * 1024 * 1024,
      metricsPort: 9464,
    })
  })

  it('refuses a short or spaced METRICS_TOKEN without repeating it, and a METRICS_PORT out of range', () => {
    const problems = problemsOf({ METRICS_TOKEN: 'hunter2', METRICS_PORT: '70000' })
    expect(problems).toEqual([
      'METRICS_TOKEN must be at least 16 characters of A-Z a-z 0-9 . _ ~ + / -',
      'METRICS_PORT must be a whole number from 0 to 65535, got "70000"',
    ])
    expect(problemsOf({ METRICS_TOKEN: 'a token with spaces in it' })).toHaveLength(1)
  })

  it('fits a thousand live streams with the defaults, and keeps as many connections for requests', () => {
    const { maxConnections, maxStreams } = readConfig({})
    expect(maxStreams).toBeGreaterThanOrEqual(1000)
    expect(maxConnections - maxStreams).toBeGreaterThanOrEqual(1000)
  })

  it('keeps half the connections for requests: MAX_STREAMS defaults to at most half of MAX_CONNECTIONS, and is refused above it', () => {
    expect(readConfig({ MAX_CONNECTIONS: '500' }).maxStreams).toBe(250)
    expect(readConfig({ MAX_CONNECTIONS: '500', MAX_STREAMS: '0' }).maxStreams).toBe(0)
    expect(problemsOf({ MAX_CONNECTIONS: '500', MAX_STREAMS: '251' })).toEqual([
      'MAX_STREAMS must be at most half of MAX_CONNECTIONS (250), so that the rest stay for requests, got "251"',
    ])
  })

  it('bounds the headers by a short REQUEST_TIMEOUT when HEADERS_TIMEOUT is unset', () => {
    expect(readConfig({ REQUEST_TIMEOUT: '4' }).timeouts).toEqual({
      requestMs: 4000,
      headersMs: 4000,
      keepAliveMs: 5000,
    })
  })

  it('refuses a HEADERS_TIMEOUT longer than REQUEST_TIMEOUT, and timeouts out of range', () => {
    expect(problemsOf({ REQUEST_TIMEOUT: '5', HEADERS_TIMEOUT: '6' })).toEqual([
      'HEADERS_TIMEOUT must not exceed REQUEST_TIMEOUT (5), got "6"',
    ])
    expect(
      problemsOf({ REQUEST_TIMEOUT: '0', KEEP_ALIVE_TIMEOUT: '3601', MAX_CONNECTIONS: '0' }),
    ).toEqual([
      'REQUEST_TIMEOUT must be a whole number from 1 to 3600, got "0"',
      'KEEP_ALIVE_TIMEOUT must be a whole number from 1 to 3600, got "3601"',
      'MAX_CONNECTIONS must be a whole number from 1 to 1000000, got "0"',
    ])
  })

  it('takes PAGE_CACHE_MB in whole megabytes, 0 for no page cache', () => {
    expect(readConfig({ PAGE_CACHE_MB: '0' }).pageCacheBytes).toBe(0)
  })

  /** A setting refused, and the one line that says why. */
  type Refusal = [Record<string, string>, string]
  /** `name` set to each of `raws`, each refused as `NAME must be RULE, got "RAW"`. */
  const refusals = (name: string, rule: string, raws: string[]): Refusal[] =>
    raws.map((raw) => [{ [name]: raw }, `${name} must be ${rule}, got "${raw}"`])
  const WHOLE = 'a whole number from 0 to 1000000'
  it.each<Refusal>([
    [{ PORT: '8080', METRICS_PORT: '8080' }, 'METRICS_PORT must differ from PORT, got "8080"'],
    ...refusals('LOG_LEVEL', 'one of fatal, error, warn, info, debug, trace, silent', ['loud']),
    ...refusals('PAGE_CACHE_MB', 'a whole number from 0 to 65536', ['1.5']),
    ...refusals('TRASH_DAYS', 'a whole number from 1 to 3650', [
      '0',
      '3651',
      '1.5',
      'thirty',
      '-1',
    ]),
    ...refusals('CREATE_RATE_LIMIT', WHOLE, ['-1', 'ten', '1e3']),
    // Digits only: no hexadecimal, exponent, sign or fraction.
    ...refusals('WRITE_RATE_LIMIT', WHOLE, ['0x10', '1e3', '+5', '0.0']),
    ...refusals('SEARCH_RATE_LIMIT', WHOLE, ['-1', '1e3', '1000001']),
    ...refusals('PUBLIC_URL', 'an origin such as https://news.example.com', [
      'news.example.com',
      'ftp://news.example.com',
      'https://news.example.com/news',
    ]),
    ...refusals(
      'TRUST_PROXY',
      'off, a hop count from 1 to 10, or comma-separated proxy addresses or CIDRs (e.g. 10.0.0.0/8,::1)',
      [
        'true',
        'yes',
        '11',
        '-1',
        '1.5',
        '10.0.0.0/33',
        '::1/129',
        '10.0.0.1,',
        '10.0.0.1/8/8',
        'proxy.internal',
      ],
    ),
  ])('refuses %o in one line: %s', (env, problem) => {
    expect(problemsOf(env)).toEqual([problem])
  })

  it('treats an empty value as unset', () => {
    expect(readConfig({ PORT: '', EMAILJS_SERVICE_ID: ' ' }).port).toBe(3000)
  })

  it('names every bad variable at once', () => {
    const problems = problemsOf({
      PORT: '70000',
      WRITE_RATE_LIMIT: '-1',
      DEMO_POSTS: 'maybe',
      EMAILJS_ORIGIN: 'https://api.emailjs.com/v1',
      DATABASE_URL: 'mysql://root:hunter2@db/news',
    })
    expect(problems).toHaveLength(5)
    expect(problems.join('\n')).toMatch(/PORT must be a whole number from 0 to 65535, got "70000"/)
    expect(problems.join('\n')).toMatch(/WRITE_RATE_LIMIT must be a whole number/)
    expect(problems.join('\n')).toMatch(/DEMO_POSTS must be 1 or 0, got "maybe"/)
    expect(problems.join('\n')).toMatch(/EMAILJS_ORIGIN must be an origin/)
    expect(problems.join('\n')).toMatch(/DATABASE_URL must be sqlite:PATH/)
  })

  it('accepts TRASH_DAYS from 1 to 3650 days', () => {
    expect(readConfig({ TRASH_DAYS: '1' }).trashDays).toBe(1)
    expect(readConfig({ TRASH_DAYS: '3650' }).trashDays).toBe(3650)
  })

  it.each([
    ['off', false],
    ['OFF', false],
    ['false', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['127.0.0.1', ['127.0.0.1']],
    ['10.0.0.0/8,fd00::/8, ::1', ['10.0.0.0/8', 'fd00::/8', '::1']],
    ['loopback, uniquelocal', ['loopback', 'uniquelocal']],
  ] as const)('reads TRUST_PROXY=%s', (raw, trustProxy) => {
    expect(readConfig({ TRUST_PROXY: raw }).trustProxy).toEqual(trustProxy)
  })

  it('never repeats a database password in its message', () => {
    const problems = problemsOf({ DATABASE_URL: 'mysql://root:hunter2@db/news' })
    expect(problems.join('\n')).not.toContain('hunter2')
  })

  it.each(['3000abc', '1e3', '3.5', 'abc'])('refuses PORT=%s', (port) => {
    expect(problemsOf({ PORT: port })).toHaveLength(1)
  })

  it.each(['sqlite:', 'file:./x.db', 'postgres:/db', 'postgres://exa mple/db'])(
    'refuses DATABASE_URL=%s',
    (url) => {
      expect(problemsOf({ DATABASE_URL: url })).toHaveLength(1)
    },
  )

  it('accepts sqlite::memory: and postgresql:// URLs', () => {
    expect(problemsOf({ DATABASE_URL: 'sqlite::memory:' })).toEqual([])
    expect(problemsOf({ DATABASE_URL: 'postgresql://localhost/newswire' })).toEqual([])
  })

  it('refuses a partial EmailJS account, naming what is missing', () => {
    const problems = problemsOf({ EMAILJS_SERVICE_ID: 's', EMAILJS_PUBLIC_KEY: 'k' })
    expect(problems).toEqual([expect.stringMatching(/missing: EMAILJS_TEMPLATE_ID$/)])
  })

  it.each([
    ['1', true],
    ['TRUE', true],
    ['0', false],
    ['False', false],
  ] as const)('reads DEMO_POSTS=%s whatever its case', (raw, demoPosts) => {
    expect(readConfig({ DEMO_POSTS: raw }).demoPosts).toBe(demoPosts)
  })

  it('hands on DATABASE_URL read once, with the PostgreSQL host and port', () => {
    expect(readConfig({ DATABASE_URL: 'postgresql://news@db.internal/newswire' }).database).toEqual(
      {
        engine: 'postgres',
        connectionString: 'postgresql://news@db.internal/newswire',
        host: 'db.internal',
        port: 5432,
        preparedStatements: true,
      },
    )
    expect(readConfig({ DATABASE_URL: ' sqlite::memory: ' }).database).toEqual({
      engine: 'sqlite',
      path: ':memory:',
    })
  })

  it('reads prepared_statements=off from DATABASE_URL and keeps it from the driver', () => {
    expect(
      readConfig({
        DATABASE_URL:
          'postgres://news@pgbouncer:6432/newswire?prepared_statements=off&sslmode=require',
      }).database,
    ).toMatchObject({
      connectionString: 'postgres://news@pgbouncer:6432/newswire?sslmode=require',
      port: 6432,
      preparedStatements: false,
    })
    expect(
      problemsOf({ DATABASE_URL: 'postgres://news@db/newswire?prepared_statements=maybe' }),
    ).toEqual([expect.stringMatching(/^DATABASE_URL must be .*prepared_statements=on or off/)])
  })

  it('refuses a PostgreSQL port out of range without repeating the password', () => {
    const problems = problemsOf({ DATABASE_URL: 'postgres://news:hunter2@db:70000/newswire' })
    expect(problems).toEqual([expect.stringMatching(/^DATABASE_URL must be sqlite:PATH/)])
    expect(problems.join('\n')).not.toContain('hunter2')
  })

  it('reads only the variables it is given, not the process environment', () => {
    vi.stubEnv('PORT', '4321')
    try {
      expect(readConfig({}).port).toBe(3000)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it('reports a bad type and a bad form together, in the order of the variables', () => {
    expect(
      problemsOf({ TRUST_PROXY: 'yes', PORT: 'x', EMAILJS_PUBLIC_KEY: 'k', TRASH_DAYS: '0' }),
    ).toEqual([
      'PORT must be a whole number from 0 to 65535, got "x"',
      expect.stringMatching(/^Set all of EMAILJS_SERVICE_ID/),
      'TRASH_DAYS must be a whole number from 1 to 3650, got "0"',
      expect.stringMatching(/^TRUST_PROXY must be off/),
    ])
  })

  it('says what is wrong in the error message', () => {
    expect(() => readConfig({ PORT: 'x' })).toThrow(/^Invalid configuration:\n {2}- PORT must be/)
  })
})

describe('runtimeConfigOf', () => {
  it.each([
    [
      'the outbox on the same origin without an account',
      {},
      {
        origin: '',
        serviceId: 'newswire_outbox',
        templateId: 'contact_form',
        publicKey: 'newswire-outbox',
      },
    ],
    [
      'the account and the EmailJS origin with one',
      { EMAILJS_SERVICE_ID: 's', EMAILJS_TEMPLATE_ID: 't', EMAILJS_PUBLIC_KEY: 'k' },
      { origin: 'https://api.emailjs.com', serviceId: 's', templateId: 't', publicKey: 'k' },
    ],
  ])('is %s', (_what, env: Record<string, string>, emailjs) => {
    const config = readConfig(env)
    expect(usesOutbox(config)).toBe(emailjs.origin === '')
    expect(runtimeConfigOf(config)).toEqual({ emailjs })
  })
})
