/**
 * One wrapper for every port a test wants to misbehave: the real adapter runs underneath, and
 * the test decides, per operation, that calls fail (Unavailable, or any domain error such as the
 * write limit's RateLimited), wait until released, lose their answer after the adapter acted
 * (a timeout), or wait for the test to answer them itself (a model path's outcome). It wraps
 * any port by its method names, so a method added to a port needs nothing here.
 */
import { unavailable, type DomainError } from '@/domain/domain-error'

/** The names of a port's methods. */
export type OperationOf<Port> = {
  [Name in keyof Port]: Port[Name] extends (...args: never[]) => unknown ? Name : never
}[keyof Port] &
  string

/** How the test answers a scripted call. */
export type Outcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: DomainError }

/** A call that reached the port: its method and arguments, and, scripted, how to answer it. */
export interface PortCall<Operation extends string = string> {
  readonly operation: Operation
  readonly args: readonly unknown[]
  answered: boolean
  readonly answer: (outcome: Outcome) => void
}

export class PortFaults<Operation extends string> {
  /** Every call, in order; scripted ones wait in here until answered. */
  readonly calls: PortCall<Operation>[] = []
  private readonly failing = new Map<Operation, DomainError>()
  private readonly lost = new Set<Operation>()
  private scripted: ReadonlySet<Operation> | 'all' | undefined
  private held: Promise<void> | undefined

  /** Calls of `operations` fail as Unavailable until `recover`. */
  failOn(...operations: Operation[]): void {
    this.failWith(unavailable(), ...operations)
  }

  /** Calls of `operations` fail with `error` until `recover`. */
  failWith(error: DomainError, ...operations: Operation[]): void {
    for (const operation of operations) this.failing.set(operation, error)
  }

  /** Every operation answers as the adapter does again (holds and scripts stay). */
  recover(): void {
    this.failing.clear()
    this.lost.clear()
  }

  /** The next call of `operation` reaches the adapter, but its answer is lost (Unavailable). */
  loseNextAnswer(operation: Operation): void {
    this.lost.add(operation)
  }

  /** Holds every call until the returned function is called; one hold at a time. */
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

  /**
   * Calls of `operations` (of every operation if none is named) never reach the adapter: each
   * waits until the test `answer`s it.
   */
  script(...operations: Operation[]): void {
    this.scripted = operations.length === 0 ? 'all' : new Set(operations)
  }

  /** The scripted calls not answered yet, oldest first. */
  pending(operation?: Operation): PortCall<Operation>[] {
    return this.calls.filter(
      (call) => !call.answered && (operation === undefined || call.operation === operation),
    )
  }

  /**
   * Answers an open call of `operation`: the newest by default (a machine that abandons a call
   * and makes it again waits only for the last), or the oldest.
   */
  answer(operation: Operation, outcome: Outcome, which: 'newest' | 'oldest' = 'newest'): PortCall {
    const open = this.pending(operation)
    const call = which === 'newest' ? open.at(-1) : open[0]
    if (call === undefined) throw new Error(`no ${operation} call is waiting for an answer`)
    call.answer(outcome)
    return call
  }

  /** Runs one call of `operation` through the faults, then (unless scripted) through `work`. */
  async enter<T>(
    operation: Operation,
    args: readonly unknown[],
    work: () => Promise<T>,
  ): Promise<T> {
    const isScripted = this.scripted === 'all' || this.scripted?.has(operation) === true
    if (isScripted) return this.scriptedCall<T>(operation, args)
    this.calls.push({ operation, args, answered: true, answer: () => undefined })
    if (this.held !== undefined) await this.held
    const error = this.failing.get(operation)
    if (error !== undefined) throw error
    const result = await work()
    if (this.lost.delete(operation)) throw unavailable()
    return result
  }

  private scriptedCall<T>(operation: Operation, args: readonly unknown[]): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const call: PortCall<Operation> = {
        operation,
        args,
        answered: false,
        answer: (outcome) => {
          call.answered = true
          if (outcome.ok) resolve(outcome.value as T)
          else reject(outcome.error)
        },
      }
      this.calls.push(call)
    })
  }
}

/** A port with its faults beside its methods. */
export type Faulty<Port> = Omit<Port, 'faults'> & { readonly faults: PortFaults<OperationOf<Port>> }

/** `port`, each of its methods entered through `faults` first. */
export function faulty<Port extends object>(port: Port): Faulty<Port> {
  const faults = new PortFaults<OperationOf<Port>>()
  // Keyed by the method itself, so that a method the adapter replaces is wrapped in turn.
  const wrapped = new WeakMap<object, unknown>()
  // A method a test puts on the wrapper (vi.spyOn) wraps the faulty one it found there, so it
  // is not wrapped again: the spy sees every call, and the faults apply once, inside it.
  const own = new Set<string | symbol>()
  const methodOf = (target: Port, name: string, value: unknown): unknown => {
    if (typeof value !== 'function' || own.has(name)) return value
    let method = wrapped.get(value)
    if (method === undefined) {
      const call = value as (...args: unknown[]) => unknown
      method = (...args: unknown[]) =>
        faults.enter(name as OperationOf<Port>, args, async () => call.apply(target, args))
      wrapped.set(value, method)
    }
    return method
  }
  return new Proxy(port, {
    defineProperty(target, name, descriptor) {
      own.add(name)
      return Reflect.defineProperty(target, name, descriptor)
    },
    // A spy looks for the method it replaces here: it finds the faulty one.
    getOwnPropertyDescriptor(target, name) {
      const descriptor = Reflect.getOwnPropertyDescriptor(target, name)
      const value: unknown = Reflect.get(target, name)
      if (typeof name !== 'string' || typeof value !== 'function' || descriptor?.get) {
        return descriptor
      }
      return {
        writable: true,
        configurable: true,
        ...descriptor,
        value: methodOf(target, name, value),
      }
    },
    get(target, name, receiver) {
      if (name === 'faults') return faults
      const value: unknown = Reflect.get(target, name, receiver)
      return typeof name === 'string' ? methodOf(target, name, value) : value
    },
  }) as Faulty<Port>
}
