// The metrics of the running testnet (`saltnet metrics`, and GET /metrics of the control endpoint for Prometheus):
// heights, pools, transactions per second, confirmation times, RPC latency, restarts and wallets' scan lag, in
// Prometheus' text format (metrics/metrics.ts says what each is and how the testnet is read for them).
import { METRICS_CONTENT_TYPE, readMetrics, type MetricsReading } from '../metrics/metrics.js';
import { defineOperation, NO_BODY } from './operation.js';

export const metricsOperation = defineOperation({
  name: 'metrics',
  what: 'read the metrics',
  body: NO_BODY,
  concurrent: true,
  run(t): Promise<MetricsReading> {
    return readMetrics(t);
  },
  get: { contentType: METRICS_CONTENT_TYPE, text: (r) => r.text },
  command: {
    usage: 'metrics',
    describe:
      "print the running testnet's metrics in Prometheus' text format: heights, pools, transactions per second, " +
      'confirmation times, RPC latency, restarts, wallets’ scan lag',
    say: (r) => r.text.trimEnd(),
    json: (r) => r.metrics,
  },
});
