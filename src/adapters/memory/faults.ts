import { DomainErrorException, unavailable } from '@/domain/domain-error'

/**
 * Lets a test make chosen operations of an in-memory adapter fail as Unavailable, or wait
 * until released, so that failure and loading paths run without a network.
 */
export class Faults<Operation extends string> {
  private readonly failing = new Set<Operation>()
  private held: Promise<void> | undefined

  failOn(...operations: Operation[]): void {
    for (const operation of operations) this.failing.add(operation)
  }

  recover(): void {
    this.failing.clear()
  }

  /** Holds every call until the returned function is called. */
  hold(): () => void {
    let release = (): void => undefined
    this.held = new Promise<void>((resolve) => {
      release = () => {
        this.held = undefined
        resolve()
      }
    })
    return release
  }

  async enter(operation: Operation): Promise<void> {
    if (this.held !== undefined) await this.held
    if (this.failing.has(operation)) throw new DomainErrorException(unavailable())
  }
}
