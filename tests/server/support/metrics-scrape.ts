import parsePrometheusTextFormat, {
  type PrometheusFamily,
  type PrometheusSample,
} from 'parse-prometheus-text-format'

/** A scrape of GET /metrics, parsed by a Prometheus text parser, not by the server's library. */
export class Scrape {
  private readonly families: ReadonlyMap<string, PrometheusFamily>

  constructor(text: string) {
    this.families = new Map(parsePrometheusTextFormat(text).map((family) => [family.name, family]))
  }

  family(name: string): PrometheusFamily {
    const family = this.families.get(name)
    if (family === undefined) throw new Error(`no metric ${name} in the scrape`)
    return family
  }

  /** The sample of `name` whose labels include `labels`; undefined when there is none yet. */
  sample(name: string, labels: Record<string, string> = {}): PrometheusSample | undefined {
    return this.family(name).metrics.find((sample) =>
      Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value),
    )
  }

  /** A counter's or gauge's value, 0 when the labelled series does not exist yet. */
  value(name: string, labels: Record<string, string> = {}): number {
    return Number(this.sample(name, labels)?.value ?? 0)
  }

  /** A histogram's count of observations, 0 when the labelled series does not exist yet. */
  count(name: string, labels: Record<string, string> = {}): number {
    return Number(this.sample(name, labels)?.count ?? 0)
  }
}
