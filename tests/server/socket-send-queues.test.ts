import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { endianness } from 'node:os'
import { readSendQueues, tableAddressOf } from '@/server/services/socket-send-queues'
import { waitUntil } from './support/stream-reader'

describe('tableAddressOf', () => {
  // /proc/net/tcp prints each 32-bit word of an address as the machine stores it.
  const little = endianness() === 'LE'

  it.each([
    ['127.0.0.1', little ? '0100007F' : '7F000001'],
    ['::1', little ? '000000000000000000000000' + '01000000' : '0'.repeat(31) + '1'],
    [
      '::ffff:127.0.0.2',
      little
        ? '00000000' + '00000000' + 'FFFF0000' + '0200007F'
        : '00000000' + '00000000' + '0000FFFF' + '7F000002',
    ],
    [
      '2001:db8::8a2e:370:7334',
      little
        ? 'B80D0120' + '00000000' + '2E8A0000' + '34737003'
        : '20010DB8' + '00000000' + '00008A2E' + '03707334',
    ],
  ])('writes %s as the tables do', (address, expected) => {
    expect(tableAddressOf(address)).toBe(expected)
  })

  it('answers undefined for what is not an address', () => {
    expect(tableAddressOf('1:2:3')).toBeUndefined()
  })
})

describe.runIf(process.platform === 'linux')('readSendQueues', () => {
  let server: Server
  const sockets: Socket[] = []

  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy()
    await new Promise((resolve) => server.close(resolve))
  })

  it('tells what a connection has sent that a peer which reads nothing has not acknowledged', async () => {
    const accepted: Socket[] = []
    server = createServer((socket) => accepted.push(socket))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const stalled = connect({ host: '127.0.0.1', port, localAddress: '127.0.0.3' })
    stalled.pause()
    const idle = connect({ host: '127.0.0.1', port })
    sockets.push(stalled, idle)
    await waitUntil(
      () => accepted.length === 2,
      () => 'both connections',
    )
    const [toStalled, toIdle] = accepted.sort((a, b) =>
      a.remoteAddress === '127.0.0.3' ? -1 : b.remoteAddress === '127.0.0.3' ? 1 : 0,
    ) as [Socket, Socket]
    sockets.push(toStalled, toIdle)
    // Far more than the peer's receive buffer takes: the rest waits in the send queue.
    const megabyte = Buffer.alloc(1024 * 1024, 'x')
    for (let index = 0; index < 2; index += 1) toStalled.write(megabyte)
    let queued = 0
    const deadline = Date.now() + 5_000
    while (queued < 512 * 1024 && Date.now() < deadline) {
      queued = (await readSendQueues())?.of(toStalled) ?? 0
      if (queued < 512 * 1024) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(queued).toBeGreaterThan(512 * 1024)
    expect((await readSendQueues())?.of(toIdle)).toBe(0)
  })
})
