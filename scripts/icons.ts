/**
 * `npx tsx scripts/icons.ts`: draws the site's icons from the design of public/favicon.svg (a
 * globe in white on a rounded square shaded from blue to teal) and writes them into public/,
 * where vite build copies them to dist/:
 *   - favicon.ico: PNG images of 16, 32 and 48 px, for browsers and crawlers that ask for it;
 *   - icon-192.png, icon-512.png: the web app manifest's icons;
 *   - icon-maskable-512.png: the same globe on a full square, for launchers that cut their own
 *     shape (the globe stays inside the middle 80%, the maskable safe zone);
 *   - manifest.webmanifest, naming them.
 * The shapes are drawn here, sampled 8×8 per pixel, and encoded with pngjs (pure JavaScript), so
 * that no native image library is needed. Run it again after changing the design, and commit
 * what it writes.
 */
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { PNG } from 'pngjs'

const PUBLIC_DIR = resolve(import.meta.dirname, '..', 'public')

// The design, in the 96-unit space of favicon.svg's viewBox.
const VIEW = 96
const CENTRE = 48
const CORNER_RADIUS = 20
const GRADIENT_FROM: Colour = [0x1d, 0x4e, 0xd8]
const GRADIENT_TO: Colour = [0x0f, 0x76, 0x6e]
const WHITE: Colour = [0xff, 0xff, 0xff]
const SAMPLES_PER_AXIS = 8

type Colour = readonly [number, number, number]
type Shape = 'rounded' | 'square'

const MANIFEST = {
  name: 'NewsWire',
  short_name: 'NewsWire',
  description: 'Discover the world through our news',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  theme_color: '#1d4ed8',
  background_color: '#f8fafc',
  icons: [
    { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
    { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
    { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
} as const

const FAVICON_SIZES = [16, 32, 48] as const

/** What the design shows at a point: a colour, or nothing (transparent). */
function colourAt(x: number, y: number, shape: Shape): Colour | undefined {
  if (shape === 'rounded' && !insideRoundedSquare(x, y)) return undefined
  if (onGlobe(x, y)) return WHITE
  // The gradient runs from the top left corner to the bottom right one.
  const t = Math.min(Math.max((x + y) / (2 * VIEW), 0), 1)
  return mix(GRADIENT_FROM, GRADIENT_TO, t)
}

function mix([r0, g0, b0]: Colour, [r1, g1, b1]: Colour, t: number): Colour {
  return [r0 + (r1 - r0) * t, g0 + (g1 - g0) * t, b0 + (b1 - b0) * t]
}

function insideRoundedSquare(x: number, y: number): boolean {
  if (x < 0 || y < 0 || x > VIEW || y > VIEW) return false
  const cornerX = Math.min(Math.max(x, CORNER_RADIUS), VIEW - CORNER_RADIUS)
  const cornerY = Math.min(Math.max(y, CORNER_RADIUS), VIEW - CORNER_RADIUS)
  return Math.hypot(x - cornerX, y - cornerY) <= CORNER_RADIUS
}

/** The globe's strokes: a circle, a meridian ellipse and three parallels. */
function onGlobe(x: number, y: number): boolean {
  const dx = x - CENTRE
  const dy = y - CENTRE
  return (
    Math.abs(Math.hypot(dx, dy) - 28) <= 2 ||
    Math.abs(ellipseDistance(dx, dy, 12, 28)) <= 1.5 ||
    onLine(x, y, 48, 20, 76) ||
    onLine(x, y, 34, 24, 72) ||
    onLine(x, y, 62, 24, 72)
  )
}

/** A horizontal line of width 3 at `lineY` from `fromX` to `toX`, with butt ends. */
function onLine(x: number, y: number, lineY: number, fromX: number, toX: number): boolean {
  return Math.abs(y - lineY) <= 1.5 && x >= fromX && x <= toX
}

/** The signed distance to an ellipse around the origin, to first order (Quílez's estimate). */
function ellipseDistance(dx: number, dy: number, rx: number, ry: number): number {
  const k0 = Math.hypot(dx / rx, dy / ry)
  const k1 = Math.hypot(dx / (rx * rx), dy / (ry * ry))
  return k1 === 0 ? -Math.min(rx, ry) : (k0 * (k0 - 1)) / k1
}

/** The design drawn at `size` px square, anti-aliased, as RGBA. */
function draw(size: number, shape: Shape): PNG {
  const png = new PNG({ width: size, height: size })
  const scale = VIEW / size
  const samples = SAMPLES_PER_AXIS * SAMPLES_PER_AXIS
  for (let row = 0; row < size; row += 1) {
    for (let column = 0; column < size; column += 1) {
      let alpha = 0
      let [red, green, blue] = [0, 0, 0]
      for (let sy = 0; sy < SAMPLES_PER_AXIS; sy += 1) {
        for (let sx = 0; sx < SAMPLES_PER_AXIS; sx += 1) {
          const x = (column + (sx + 0.5) / SAMPLES_PER_AXIS) * scale
          const y = (row + (sy + 0.5) / SAMPLES_PER_AXIS) * scale
          const colour = colourAt(x, y, shape)
          if (colour === undefined) continue
          alpha += 1
          red += colour[0]
          green += colour[1]
          blue += colour[2]
        }
      }
      // Straight (not premultiplied) colour: the mean of the samples that hit the design.
      const offset = (row * size + column) * 4
      const mean = (total: number) => (alpha === 0 ? 0 : Math.round(total / alpha))
      png.data[offset] = mean(red)
      png.data[offset + 1] = mean(green)
      png.data[offset + 2] = mean(blue)
      png.data[offset + 3] = Math.round((alpha / samples) * 255)
    }
  }
  return png
}

function pngOf(size: number, shape: Shape): Buffer {
  return PNG.sync.write(draw(size, shape), { colorType: 6 })
}

/**
 * An ICO file holding PNG images (allowed since Windows Vista, read by every current browser):
 * a 6-byte header, a 16-byte directory entry per image, then the images.
 */
function icoOf(images: readonly { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6)
  header.writeUInt16LE(0, 0)
  header.writeUInt16LE(1, 2) // 1: icon
  header.writeUInt16LE(images.length, 4)
  let offset = header.length + 16 * images.length
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16)
    entry.writeUInt8(size >= 256 ? 0 : size, 0)
    entry.writeUInt8(size >= 256 ? 0 : size, 1)
    entry.writeUInt8(0, 2) // no palette
    entry.writeUInt8(0, 3)
    entry.writeUInt16LE(1, 4) // colour planes
    entry.writeUInt16LE(32, 6) // bits per pixel
    entry.writeUInt32LE(png.length, 8)
    entry.writeUInt32LE(offset, 12)
    offset += png.length
    return entry
  })
  return Buffer.concat([header, ...entries, ...images.map(({ png }) => png)])
}

function main(): void {
  const favicon = icoOf(FAVICON_SIZES.map((size) => ({ size, png: pngOf(size, 'rounded') })))
  const files: Record<string, Buffer | string> = {
    'favicon.ico': favicon,
    'icon-192.png': pngOf(192, 'rounded'),
    'icon-512.png': pngOf(512, 'rounded'),
    'icon-maskable-512.png': pngOf(512, 'square'),
    'manifest.webmanifest': `${JSON.stringify(MANIFEST, null, 2)}\n`,
  }
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(PUBLIC_DIR, name), content)
    console.log(`public/${name}: ${content.length} bytes`)
  }
}

main()
