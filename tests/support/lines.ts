import type { Readable } from 'node:stream'

/** Calls `each` with every whole line `stream` writes, as it comes. */
export function onLines(stream: Readable, each: (line: string) => void): void {
  let pending = ''
  stream.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8')
    const lines = pending.split('\n')
    pending = lines.pop() ?? ''
    for (const line of lines) each(line)
  })
}
