import { buildApp } from '@/server/app'
import {
  composeTestServer,
  emptyDistDir,
  memoryUseCases,
  removeTempDirs,
  testConfig,
} from './server-fixture'

afterAll(removeTempDirs)

describe('GET /api/config', () => {
  it('points the SPA at the built-in outbox on its own origin when no EmailJS account is set', async () => {
    const server = await composeTestServer()
    const response = await server.app.inject('/api/config')
    await server.close()
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      emailjs: {
        origin: '',
        serviceId: 'newswire_outbox',
        templateId: 'contact_form',
        publicKey: 'newswire-outbox',
      },
    })
  })

  it('hands over the EmailJS account and origin when one is set', async () => {
    const server = await composeTestServer({
      EMAILJS_SERVICE_ID: 'service_abc',
      EMAILJS_TEMPLATE_ID: 'template_def',
      EMAILJS_PUBLIC_KEY: 'pk_123',
      EMAILJS_ORIGIN: 'https://api.eu.emailjs.com/',
    })
    const response = await server.app.inject('/api/config')
    await server.close()
    expect(response.json()).toEqual({
      emailjs: {
        origin: 'https://api.eu.emailjs.com',
        serviceId: 'service_abc',
        templateId: 'template_def',
        publicKey: 'pk_123',
      },
    })
  })
})

describe('GET /api/health', () => {
  it('answers 200 while the database answers', async () => {
    const server = await composeTestServer()
    const response = await server.app.inject('/api/health')
    await server.close()
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ status: 'ok' })
    expect(response.headers['cache-control']).toBe('no-store')
  })

  it('answers a 503 problem once the database is gone', async () => {
    const server = await composeTestServer()
    await server.database.close()
    const response = await server.app.inject('/api/health')
    await server.app.close()
    expect(response.statusCode).toBe(503)
    expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8')
    expect(response.json()).toMatchObject({ status: 503, title: 'Service Unavailable' })
  })

  it('answers 503 when the check fails or hangs', async () => {
    for (const health of [
      async () => Promise.reject(new Error('down')),
      () => new Promise<boolean>(() => undefined),
    ]) {
      const app = await buildApp({
        useCases: memoryUseCases(),
        config: testConfig(),
        health,
        distDir: emptyDistDir(),
      })
      const response = await app.inject('/api/health')
      await app.close()
      expect(response.statusCode).toBe(503)
      expect(response.body).not.toContain('down')
    }
  }, 10_000)
})
