import { readFile } from 'node:fs/promises'
import { isIPv4, type Socket } from 'node:net'
import { endianness } from 'node:os'

/** Linux's tables of this network namespace's TCP sockets, IPv4 and IPv6, one line each. */
const TABLES = ['/proc/net/tcp', '/proc/net/tcp6'] as const
const ESTABLISHED = '01'
const LITTLE_ENDIAN = endianness() === 'LE'

/** What the send queues of the open TCP connections hold, by connection. */
export interface SendQueues {
  /** Bytes sent on `socket` that its peer has not acknowledged; 0 when none or unknown. */
  of(socket: Socket): number
}

/**
 * Reads, off the event loop, how many bytes each TCP connection has sent that its peer has not
 * acknowledged (the tx_queue of Linux's /proc/net/tcp and tcp6): what the system holds for a
 * reader beyond this process's own buffers. Node tells nothing of it, and for a reader that
 * stops reading the system grows a connection's send buffer up to net.ipv4.tcp_wmem's maximum
 * (4 MiB by default). Undefined where there are no such tables (not Linux) or they cannot be
 * read. Each call reads the whole of both tables: a few hundred KiB for some thousand sockets.
 */
export async function readSendQueues(): Promise<SendQueues | undefined> {
  if (process.platform !== 'linux') return undefined
  const tables = await Promise.all(TABLES.map((table) => readFile(table, 'latin1').catch(() => '')))
  if (tables.every((table) => table === '')) return undefined
  const queued = new Map<string, number>()
  for (const table of tables) {
    for (const line of table.split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue …
      const [, local, remote, state, queues] = line.trim().split(/\s+/, 5)
      if (state !== ESTABLISHED || queues === undefined || queues.startsWith('00000000:')) continue
      queued.set(`${local}-${remote}`, Number.parseInt(queues, 16))
    }
  }
  return { of: (socket) => queued.get(tableKeyOf(socket) ?? '') ?? 0 }
}

const keys = new WeakMap<Socket, string>()

/** How the tables name `socket`'s connection: its local and remote address:port in hex. */
function tableKeyOf(socket: Socket): string | undefined {
  const known = keys.get(socket)
  if (known !== undefined) return known
  const { localAddress, localPort, remoteAddress, remotePort } = socket
  if (localAddress === undefined || localPort === undefined) return undefined
  if (remoteAddress === undefined || remotePort === undefined) return undefined
  const local = tableAddressOf(localAddress)
  const remote = tableAddressOf(remoteAddress)
  if (local === undefined || remote === undefined) return undefined
  const key = `${local}:${tablePortOf(localPort)}-${remote}:${tablePortOf(remotePort)}`
  keys.set(socket, key)
  return key
}

function tablePortOf(port: number): string {
  return port.toString(16).toUpperCase().padStart(4, '0')
}

/** An address as the tables print it: each 32-bit word in the machine's byte order, in hex. */
export function tableAddressOf(address: string): string | undefined {
  const bytes = isIPv4(address) ? ipv4Bytes(address) : ipv6Bytes(address)
  if (bytes === undefined) return undefined
  let text = ''
  for (let word = 0; word < bytes.length; word += 4) {
    const group = bytes.slice(word, word + 4)
    if (LITTLE_ENDIAN) group.reverse()
    text += group.map((byte) => byte.toString(16).toUpperCase().padStart(2, '0')).join('')
  }
  return text
}

function ipv4Bytes(address: string): number[] {
  return address.split('.').map(Number)
}

/** The 16 bytes of an IPv6 address, `::` and a trailing dotted IPv4 part included. */
function ipv6Bytes(address: string): number[] | undefined {
  let text = address.split('%', 1)[0] ?? ''
  let tail: number[] = []
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1]
  if (dotted !== undefined) {
    tail = ipv4Bytes(dotted)
    text = text.slice(0, -dotted.length).replace(/:$/, '')
    if (text.endsWith(':')) text += ':'
  }
  const [head = '', rest] = text.split('::')
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'))
  const groups = groupsOf(head)
  const after = rest === undefined ? [] : groupsOf(rest)
  const missing = 8 - tail.length / 2 - groups.length - after.length
  if (missing < 0 || (rest === undefined && missing !== 0)) return undefined
  const words = [...groups, ...Array<string>(missing).fill('0'), ...after]
  const bytes = words.flatMap((word) => {
    const value = Number.parseInt(word, 16)
    return [value >> 8, value & 0xff]
  })
  return [...bytes, ...tail]
}
