// A small SVG line chart of recent round-trip times with the degraded threshold as a dashed line.
import type { HealthView } from '../../shared/ipc';
import { formatMs } from '../ui/format';

const WIDTH = 480;
const HEIGHT = 120;
const PAD = 24;

export function RttChart({ health }: { health: HealthView }) {
  const samples = health.rttSamples;
  if (samples.length < 2) return <p className="muted">Waiting for RTT samples…</p>;
  const t0 = samples[0]![0];
  const t1 = samples[samples.length - 1]![0];
  const maxRtt = Math.max(health.thresholds.degradedRttMs * 1.1, ...samples.map(([, r]) => r));
  const x = (t: number) => PAD + ((t - t0) / Math.max(1, t1 - t0)) * (WIDTH - 2 * PAD);
  const y = (r: number) => HEIGHT - PAD / 2 - (r / maxRtt) * (HEIGHT - PAD);
  const points = samples.map(([t, r]) => `${x(t).toFixed(1)},${y(r).toFixed(1)}`).join(' ');
  const threshold = y(health.thresholds.degradedRttMs);
  return (
    <svg
      className="chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width="100%"
      style={{ maxWidth: WIDTH }}
      role="img"
      aria-label={`RTT over the last ${Math.round((t1 - t0) / 1000)} s, latest ${formatMs(samples[samples.length - 1]![1])}`}
    >
      <line className="threshold" x1={PAD} x2={WIDTH - PAD} y1={threshold} y2={threshold} />
      <text x={WIDTH - PAD} y={threshold - 3} textAnchor="end">
        degraded {formatMs(health.thresholds.degradedRttMs)}
      </text>
      <text x={2} y={12}>
        {formatMs(maxRtt)}
      </text>
      <polyline points={points} />
    </svg>
  );
}
