// The metrics view (#/metrics): the testnet's metrics over the last minutes (api/metrics: the points the harness
// keeps, one a second while the page asks, harness/ui/metrics.ts) as small line charts of the height, the pool and the
// transactions per second, with the confirmation latency's quantiles, the slowest RPC methods, restarts and scan lag.
// The charts are inline SVG drawn here: no library.
import { el, facts, table } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
const W = 320;
const H = 90;
const PAD = 4;

function svg(tag, attrs, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  e.append(...children);
  return e;
}

/** A number as the charts label it: whole, or to three significant digits. */
const num = (n) => (Number.isInteger(n) ? String(n) : n.toPrecision(3));
const secs = (s) => (s === null ? '–' : s < 1 ? `${Math.round(s * 1000)} ms` : `${num(s)} s`);

/**
 * A line chart of named series over time (each a list of [time, value]), its scale from the smallest to the largest
 * value shown; data-last and data-points say what it draws (the tests read them).
 */
function chart(name, title, series) {
  const all = series.flatMap((s) => s.values);
  const times = all.map(([t]) => t);
  const values = all.map(([, v]) => v);
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  const [v0, v1] = [Math.min(...values), Math.max(...values)];
  const x = (t) => PAD + ((W - 2 * PAD) * (t - t0)) / (t1 - t0 || 1);
  const y = (v) => H - PAD - ((H - 2 * PAD) * (v - v0)) / (v1 - v0 || 1);
  const lines = series.map((s, i) =>
    svg('polyline', {
      class: `line line-${i % 4}`,
      'data-series': s.name,
      points: s.values.map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(' '),
    }),
  );
  const last = series[0]?.values.at(-1)?.[1];
  return el(
    'figure',
    {
      class: 'chart',
      'data-chart': name,
      'data-points': all.length ? series[0].values.length : 0,
      'data-last': last === undefined ? '' : last,
    },
    el(
      'figcaption',
      {},
      el('strong', {}, title),
      ' ',
      el('span', { 'data-field': 'now' }, last === undefined ? '–' : num(last)),
      all.length ? el('span', { class: 'muted' }, ` (${num(v0)} to ${num(v1)})`) : '',
      series.length > 1 ? el('span', { class: 'muted' }, ` ${series.map((s) => s.name).join(', ')}`) : '',
    ),
    svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': title }, ...lines),
  );
}

/** The series of one metric per node (height, pool): each node's values over the points. */
function perNode(points, key) {
  const nodes = [...new Set(points.flatMap((p) => Object.keys(p[key])))].sort();
  return nodes.map((n) => ({
    name: n,
    values: points.filter((p) => p[key][n] !== undefined).map((p) => [p.at, p[key][n]]),
  }));
}

export function metricsView(d) {
  const p = d.points;
  const span = p.length > 1 ? Math.round((p.at(-1).at - p[0].at) / 1000) : 0;
  const c = d.confirmation;
  return [
    el('h2', {}, 'Metrics ', el('span', { class: 'muted' }, `(the last ${span} s, a point a second while shown)`)),
    el(
      'div',
      { class: 'charts' },
      chart('height', 'height', perNode(p, 'height')),
      chart('pool', 'pool (transactions)', perNode(p, 'pool')),
      chart('tps', 'transactions per second (last 60 s)', [{ name: 'tx/s', values: p.map((x) => [x.at, x.tps]) }]),
      chart('mined', 'transactions mined (since the metrics began)', [
        { name: 'mined', values: p.map((x) => [x.at, x.mined]) },
      ]),
    ),
    el('h3', {}, 'Confirmation latency ', el('span', { class: 'muted' }, '(from the pool to a block)')),
    el(
      'div',
      { 'data-testid': 'confirmation', 'data-count': c.count },
      facts([
        ['confirmed', String(c.count), 'confirmed'],
        ['p50', secs(c.p50), 'p50'],
        ['p90', secs(c.p90), 'p90'],
        ['p99', secs(c.p99), 'p99'],
        ['blocks p50 / p90', c.blocks.count ? `≤ ${c.blocks.p50} / ≤ ${c.blocks.p90}` : '–', 'blocks'],
      ]),
    ),
    el('h3', {}, 'Slowest RPC methods ', el('span', { class: 'muted' }, "(the harness's own requests, by mean)")),
    d.rpc.length
      ? table(
          ['server', 'method', 'requests', 'mean', 'p90'],
          d.rpc.map((r) =>
            el(
              'tr',
              { 'data-method': r.method },
              el('td', {}, r.server),
              el('td', {}, el('code', {}, r.method)),
              el('td', {}, String(r.count)),
              el('td', {}, secs(r.mean)),
              el('td', {}, secs(r.p90)),
            ),
          ),
          { 'data-testid': 'rpc' },
        )
      : el('p', { class: 'empty', 'data-testid': 'rpc' }, 'no request yet'),
    el('h3', {}, 'Restarts and scan lag'),
    facts([
      ...Object.entries(d.restarts).map(([k, v]) => [`${k} restarts`, String(v)]),
      ...Object.entries(d.scanLag).map(([k, v]) => [`${k} scan lag`, `${v} blocks`]),
    ]),
  ];
}
