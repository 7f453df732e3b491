/**
 * Model-based testing with xstate/graph: a machine's own graph gives the paths, each path runs
 * against the machine as the app provides it, and an inspector records which states and
 * transitions the running machine really took.
 */
import type {
  AnyEventObject,
  AnyMachineSnapshot,
  AnyStateMachine,
  AnyStateNode,
  AnyTransitionDefinition,
  InspectionEvent,
  StateValue,
} from 'xstate'
import { initialTransition, transition } from 'xstate'
import { getShortestPaths, getStateNodes, type StatePath } from 'xstate/graph'
import type { DomainError } from '@/domain/domain-error'

export type ModelPath = StatePath<AnyMachineSnapshot, AnyEventObject>

// ---------------------------------------------------------------------------------------------
// What the machine defines

/** Every transition a state node defines: `on`, invoke `onDone`/`onError`, `after`, `always`. */
function transitionsOf(node: AnyStateNode): AnyTransitionDefinition[] {
  return [...[...node.transitions.values()].flat(), ...(node.always ?? [])]
}

/** Names a transition by where it is defined, so that the name survives `machine.provide()`. */
export function transitionName(transition: AnyTransitionDefinition): string {
  const { source, eventType } = transition
  const alternatives =
    eventType === '' ? (source.always ?? []) : (source.transitions.get(eventType) ?? [])
  return `${source.id} on ${eventType || 'always'} #${alternatives.indexOf(transition) + 1}`
}

export function definedStates(machine: AnyStateMachine): string[] {
  return getStateNodes(machine.root).map((node) => node.id)
}

/** Guarded alternatives for one event count as separate transitions. */
export function definedTransitions(machine: AnyStateMachine): string[] {
  return [machine.root, ...getStateNodes(machine.root)].flatMap((node) =>
    transitionsOf(node).map(transitionName),
  )
}

function activeStates(node: AnyStateNode, value: StateValue): string[] {
  if (typeof value === 'string') {
    const child = node.states[value]
    return child === undefined ? [] : [child.id]
  }
  return Object.entries(value).flatMap(([key, inner]) => {
    const child = node.states[key]
    return child === undefined || inner === undefined
      ? []
      : [child.id, ...activeStates(child, inner)]
  })
}

function invokeSources(machine: AnyStateMachine): Map<string, string> {
  const sources = new Map<string, string>()
  for (const node of getStateNodes(machine.root)) {
    for (const invoke of node.invoke) sources.set(invoke.id, String(invoke.src))
  }
  return sources
}

// ---------------------------------------------------------------------------------------------
// Coverage, from the running machine

export interface CoverageReport {
  readonly states: { readonly visited: number; readonly defined: number; readonly missed: string[] }
  readonly transitions: {
    readonly taken: number
    readonly defined: number
    readonly missed: string[]
  }
}

/**
 * An `inspect` observer that records, for one machine, each state it entered and each
 * transition it took (XState reports them with every microstep).
 */
export class CoverageRecorder {
  private readonly states = new Set<string>()
  private readonly transitions = new Set<string>()

  constructor(readonly machine: AnyStateMachine) {}

  readonly inspect = (event: InspectionEvent): void => {
    if (event.type !== '@xstate.microstep' && event.type !== '@xstate.snapshot') return
    const snapshot = event.snapshot as Partial<AnyMachineSnapshot>
    if (snapshot.machine?.id !== this.machine.id || snapshot.value === undefined) return
    for (const id of activeStates(snapshot.machine.root, snapshot.value)) this.states.add(id)
    if (event.type !== '@xstate.microstep') return
    for (const transition of event._transitions) {
      this.transitions.add(transitionName(transition))
      // A state left at once (an `always` that fires on entry) never rests in a snapshot.
      if (transition.source.parent !== undefined) this.states.add(transition.source.id)
    }
  }

  report(): CoverageReport {
    const states = definedStates(this.machine)
    const transitions = definedTransitions(this.machine)
    return {
      states: {
        visited: states.filter((id) => this.states.has(id)).length,
        defined: states.length,
        missed: states.filter((id) => !this.states.has(id)),
      },
      transitions: {
        taken: transitions.filter((name) => this.transitions.has(name)).length,
        defined: transitions.length,
        missed: transitions.filter((name) => !this.transitions.has(name)),
      },
    }
  }
}

/** One test per path, named after the events that lead along it. */
export function itTakesEachPath(
  model: Model,
  paths: readonly ModelPath[],
  run: (path: ModelPath) => Promise<void>,
): void {
  it.each(paths.map((path) => [describePath(model, path), path] as const))('%s', (_, path) =>
    run(path),
  )
}

/**
 * The paths run so far visited every state of the machine and took every transition, but the
 * ones `missed` names, which something else reaches (each says what).
 */
export function expectCoverage(
  coverage: CoverageRecorder,
  missed: { readonly states?: readonly string[]; readonly transitions?: readonly string[] } = {},
  where = '',
): void {
  const report = coverage.report()
  console.info(`${where}${formatCoverage(coverage.machine, report)}`)
  expect(report.states.missed).toEqual(missed.states ?? [])
  expect(report.transitions.missed).toEqual(missed.transitions ?? [])
}

export function formatCoverage(machine: AnyStateMachine, report: CoverageReport): string {
  const percent = (part: number, whole: number) =>
    whole === 0 ? '100%' : `${Math.round((100 * part) / whole)}%`
  const { states, transitions } = report
  return `${machine.id}: states ${states.visited}/${states.defined} (${percent(states.visited, states.defined)}), transitions ${transitions.taken}/${transitions.defined} (${percent(transitions.taken, transitions.defined)})`
}

// ---------------------------------------------------------------------------------------------
// The model: events, including the invoked use cases' answers

/** How an invoked use case may answer, by actor name: the values it may return or reject with. */
export type Answers = Record<
  string,
  {
    readonly done: (snapshot: AnyMachineSnapshot) => readonly unknown[]
    readonly errors: readonly DomainError[]
  }
>

export interface Model {
  readonly machine: AnyStateMachine
  readonly input?: unknown
  /** What the visitor (or another actor) may send. */
  readonly events: (snapshot: AnyMachineSnapshot) => readonly AnyEventObject[]
  readonly answers: Answers
  /** What tells two snapshots apart; by default, the state and all of the context. */
  readonly abstract?: (snapshot: AnyMachineSnapshot) => unknown
  /** Names an event's payload in test names: `form.submit (empty)`. */
  readonly label?: (event: AnyEventObject) => string | undefined
  /** Events left out in a snapshot, to keep the graph finite. */
  readonly skip?: (snapshot: AnyMachineSnapshot, event: AnyEventObject) => boolean
}

/** The events that can happen in a snapshot: visitor events and each running actor's answers. */
function candidateEvents(model: Model, snapshot: AnyMachineSnapshot): AnyEventObject[] {
  const sources = invokeSources(model.machine)
  const answers = Object.keys(snapshot.children).flatMap((id) => {
    const src = sources.get(id)
    const answer = src === undefined ? undefined : model.answers[src]
    if (answer === undefined) return []
    return [
      ...answer.done(snapshot).map((output) => ({ type: `xstate.done.actor.${id}`, output })),
      ...answer.errors.map((error) => ({ type: `xstate.error.actor.${id}`, error })),
    ]
  })
  return [...model.events(snapshot), ...answers]
}

function withoutPrefixes(paths: readonly ModelPath[]): ModelPath[] {
  const keyOf = (path: ModelPath) => path.steps.map((step) => JSON.stringify(step.event))
  const sorted = [...paths].sort((a, b) => b.steps.length - a.steps.length)
  const kept: ModelPath[] = []
  for (const path of sorted) {
    const key = keyOf(path)
    const covered = kept.some((longer) => {
      const longerKey = keyOf(longer)
      return key.every((event, index) => longerKey[index] === event)
    })
    if (!covered) kept.push(path)
  }
  return kept.reverse()
}

/**
 * Paths from the machine's start that, together, take every transition the model allows.
 * Each vertex of the graph is a snapshot together with the event that led to it, so the
 * shortest path to every vertex ends with a different edge: getShortestPaths then covers every
 * edge, not only every state. Paths that are the start of a longer one are dropped.
 */
export function transitionPaths(model: Model): ModelPath[] {
  const abstract =
    model.abstract ??
    ((snapshot: AnyMachineSnapshot) => ({ value: snapshot.value, context: snapshot.context }))
  const key = (snapshot: AnyMachineSnapshot) => JSON.stringify(abstract(snapshot))
  const paths = getShortestPaths(model.machine, {
    input: model.input,
    events: (snapshot) => candidateEvents(model, snapshot),
    filterEvents: (snapshot, event) =>
      snapshot.can(event) && !(model.skip?.(snapshot, event) ?? false),
    serializeState: (snapshot, event, previous) =>
      `${key(snapshot)} via ${event === undefined ? 'start' : JSON.stringify(event)} from ${previous === undefined ? '' : key(previous)}`,
  })
  return withoutPrefixes(paths).map((path) => replay(model, path))
}

/**
 * The snapshots along a path, computed again from its events. When `abstract` leaves part of
 * the context out, the graph keeps one snapshot for many, so the path's own snapshots may come
 * from different runs; replaying the events gives the ones this run must reach.
 */
function replay(model: Model, path: ModelPath): ModelPath {
  let [snapshot] = initialTransition(model.machine, model.input)
  const steps = path.steps.map((step, index) => {
    if (index > 0) [snapshot] = transition(model.machine, snapshot, step.event)
    return { event: step.event, state: snapshot }
  })
  return { ...path, steps, state: snapshot }
}

/** The state value as a designer reads it: `loading`, `closed.locked`. */
export function stateName(value: StateValue): string {
  if (typeof value === 'string') return value
  return Object.entries(value)
    .map(([key, inner]) => (inner === undefined ? key : `${key}.${stateName(inner)}`))
    .join(', ')
}

/** An event as the chart names it: `news.retry`, `done: listNews`, `error: getNewsItem (NotFound)`. */
export function eventName(model: Model, event: AnyEventObject): string {
  const outcome = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)
  if (outcome === null) {
    const label = model.label?.(event)
    return label === undefined ? event.type : `${event.type} (${label})`
  }
  const [, kind, id] = outcome
  const src = invokeSources(model.machine).get(id ?? '') ?? id
  const { error } = event as { error?: { code?: string } }
  return kind === 'error' ? `error: ${src} (${error?.code ?? 'error'})` : `done: ${src}`
}

export function describePath(model: Model, path: ModelPath): string {
  const [, ...steps] = path.steps
  const names = steps.map((step) => eventName(model, step.event))
  return `${stateName(path.state.value)} ← ${names.length ? names.join(' → ') : 'start'}`
}

/** Which use case an outcome event answers for, and how. */
export function outcomeOf(
  machine: AnyStateMachine,
  event: AnyEventObject,
):
  | { readonly src: string; readonly ok: true; readonly value: unknown }
  | { readonly src: string; readonly ok: false; readonly error: DomainError }
  | undefined {
  const outcome = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type)
  if (outcome === null) return undefined
  const [, kind, id] = outcome
  const src = invokeSources(machine).get(id ?? '')
  if (src === undefined) throw new Error(`no invoke with the id ${id}`)
  const { output, error } = event as { output?: unknown; error?: DomainError }
  return kind === 'done'
    ? { src, ok: true, value: output }
    : { src, ok: false, error: error ?? { code: 'Unavailable' } }
}

/** A field of an event's payload: a form's `values`, an answer's `error`. */
export function payload<T>(event: AnyEventObject, field: string): T {
  return (event as unknown as Record<string, T>)[field] as T
}

/** Lets promises and the actors' reactions to them run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}
