import { copyFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PNG } from 'pngjs'
import type { ComposedServer } from '@/composition/server/server.composition'
import { composeTestServer, fakeDistDir } from './server-fixture'
import { REPO_ROOT } from './server-process'

const PUBLIC_DIR = join(REPO_ROOT, 'public')

interface ManifestIcon {
  readonly src: string
  readonly sizes: string
  readonly type: string
  readonly purpose?: string
}

interface Manifest {
  readonly name: string
  readonly short_name: string
  readonly start_url: string
  readonly display: string
  readonly theme_color: string
  readonly background_color: string
  readonly icons: readonly ManifestIcon[]
}

const manifest = JSON.parse(
  readFileSync(join(PUBLIC_DIR, 'manifest.webmanifest'), 'utf8'),
) as Manifest

const publicFile = (path: string) => readFileSync(join(PUBLIC_DIR, path.replace(/^\//, '')))

/** The images of an ICO file, as its directory lists them. */
function icoImages(ico: Buffer): { width: number; height: number; data: Buffer }[] {
  expect(ico.readUInt16LE(0)).toBe(0)
  expect(ico.readUInt16LE(2)).toBe(1)
  const count = ico.readUInt16LE(4)
  return Array.from({ length: count }, (_, index) => {
    const entry = 6 + 16 * index
    const size = ico.readUInt32LE(entry + 8)
    const offset = ico.readUInt32LE(entry + 12)
    return {
      width: ico.readUInt8(entry) || 256,
      height: ico.readUInt8(entry + 1) || 256,
      data: ico.subarray(offset, offset + size),
    }
  })
}

/** Every alpha value of a decoded PNG. */
function alphas(png: PNG): number[] {
  return Array.from({ length: png.width * png.height }, (_, pixel) => png.data[pixel * 4 + 3] ?? 0)
}

describe('the icons in public/', () => {
  it('favicon.ico holds PNG images of 16, 32 and 48 px, each of the size its entry says', () => {
    const images = icoImages(publicFile('favicon.ico'))
    expect(images.map(({ width, height }) => [width, height])).toEqual([
      [16, 16],
      [32, 32],
      [48, 48],
    ])
    for (const { width, height, data } of images) {
      const png = PNG.sync.read(data)
      expect([png.width, png.height]).toEqual([width, height])
    }
  })

  it('the manifest names the app and icons of 192 and 512 px, which exist at those sizes', () => {
    expect(manifest).toMatchObject({
      name: 'NewsWire',
      short_name: 'NewsWire',
      start_url: '/',
      display: 'standalone',
      theme_color: '#1d4ed8',
      background_color: expect.stringMatching(/^#[0-9a-f]{6}$/),
    })
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(
      expect.arrayContaining(['192x192', '512x512']),
    )
    for (const icon of manifest.icons) {
      expect(icon.type).toBe('image/png')
      const png = PNG.sync.read(publicFile(icon.src))
      expect(`${png.width}x${png.height}`).toBe(icon.sizes)
    }
  })

  it('the maskable icon fills its whole square, and the others have rounded, clear corners', () => {
    const maskable = manifest.icons.filter((icon) => icon.purpose === 'maskable')
    expect(maskable).toHaveLength(1)
    for (const icon of manifest.icons) {
      const png = PNG.sync.read(publicFile(icon.src))
      if (icon.purpose === 'maskable') expect(new Set(alphas(png))).toEqual(new Set([255]))
      else expect(alphas(png)[0]).toBe(0)
    }
  })
})

describe('the icons as the server sends them', () => {
  let server: ComposedServer

  beforeAll(async () => {
    // The fixture's stand-in for a build, with the icons vite build would copy from public/.
    const dist = fakeDistDir()
    copyFileSync(join(PUBLIC_DIR, 'favicon.ico'), join(dist, 'favicon.ico'))
    copyFileSync(join(PUBLIC_DIR, 'manifest.webmanifest'), join(dist, 'manifest.webmanifest'))
    for (const icon of manifest.icons) {
      copyFileSync(join(PUBLIC_DIR, icon.src), join(dist, icon.src))
    }
    server = await composeTestServer({}, { distDir: dist })
  })

  afterAll(async () => {
    await server.close()
  })

  it.each([
    ['/favicon.ico', 'image/vnd.microsoft.icon'],
    ['/manifest.webmanifest', 'application/manifest+json'],
    ['/icon-192.png', 'image/png'],
  ])('serves %s as %s', async (path, type) => {
    const response = await server.app.inject(path)
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe(type)
    expect(response.rawPayload.equals(publicFile(path))).toBe(true)
  })
})
