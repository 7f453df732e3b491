/** parse-prometheus-text-format ships no types: its one function, as its README shows it. */
declare module 'parse-prometheus-text-format' {
  export interface PrometheusSample {
    readonly labels?: Readonly<Record<string, string>>
    /** Counters, gauges and untyped samples. */
    readonly value?: string
    /** Histograms: the cumulative count per upper bound (`le`), and the count and sum. */
    readonly buckets?: Readonly<Record<string, string>>
    readonly count?: string
    readonly sum?: string
  }

  export interface PrometheusFamily {
    readonly name: string
    readonly help: string
    readonly type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED'
    readonly metrics: readonly PrometheusSample[]
  }

  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[]
}
