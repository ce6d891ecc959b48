import { formatDuration } from "@/app/_lib/format";
import type { ProgressionPoint } from "@/server/athletes/athlete-bests";

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 56, right: 12, top: 12, bottom: 28 };

/** Times over the season as a server-drawn SVG: each effort a dot, the running best a line; with a title and the same in words. */
export function ProgressionChart({ title, points }: { title: string; points: ProgressionPoint[] }) {
  const days = points.map((p) => Date.parse(`${p.date}T00:00:00Z`) / 86_400_000);
  const [d0, d1] = [Math.min(...days), Math.max(...days)];
  const times = points.map((p) => p.durationMs);
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  // By date; when every effort is of one day, in their order across the plot (else they would stack on one vertical line).
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const xs = days.map(
    (d, k) =>
      PAD.left + (d1 > d0 ? ((d - d0) / (d1 - d0)) * plotWidth : points.length > 1 ? (k / (points.length - 1)) * plotWidth : plotWidth / 2),
  );
  // Faster is higher: the axis runs from the slowest time at the bottom to the fastest at the top.
  const y = (t: number) =>
    PAD.top + (t1 > t0 ? ((t - t0) / (t1 - t0)) * (HEIGHT - PAD.top - PAD.bottom) : (HEIGHT - PAD.top - PAD.bottom) / 2);
  const runningBest = points.map((_, k) => Math.min(...times.slice(0, k + 1)));
  const bestLine = runningBest.map((best, k) => `${k ? "L" : "M"}${xs[k].toFixed(1)},${y(best).toFixed(1)}`);
  const first = points[0];
  const fastest = points.reduce((a, b) => (b.durationMs < a.durationMs ? b : a));
  const summary = `${points.length} efforts from ${first.date} to ${points.at(-1)!.date}: first ${formatDuration(first.durationMs)}, best ${formatDuration(fastest.durationMs)} on ${fastest.date}.`;
  return (
    <figure className="card" aria-labelledby="progression-title" aria-describedby="progression-summary">
      <figcaption id="progression-title">{title}</figcaption>
      <p id="progression-summary" className="chart-summary" data-testid="progression-summary">
        {summary}
      </p>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img" aria-label={`${title}. ${summary}`}>
        <line x1={PAD.left} y1={HEIGHT - PAD.bottom} x2={WIDTH - PAD.right} y2={HEIGHT - PAD.bottom} stroke="#d0d7de" />
        <line x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={HEIGHT - PAD.bottom} stroke="#d0d7de" />
        <text x={PAD.left - 6} y={y(t0) + 4} textAnchor="end" fontSize="11" fill="#57606a">
          {formatDuration(t0)}
        </text>
        <text x={PAD.left - 6} y={y(t1) + 4} textAnchor="end" fontSize="11" fill="#57606a">
          {formatDuration(t1)}
        </text>
        <text x={PAD.left} y={HEIGHT - 8} fontSize="11" fill="#57606a">
          {first.date}
        </text>
        <text x={WIDTH - PAD.right} y={HEIGHT - 8} textAnchor="end" fontSize="11" fill="#57606a">
          {points.at(-1)!.date}
        </text>
        <path d={bestLine.join(" ")} fill="none" stroke="#1a7f37" strokeWidth="2" />
        {points.map((p, k) => (
          <circle key={p.resultId} cx={xs[k]} cy={y(p.durationMs)} r="3.5" fill="#0b5cad" />
        ))}
      </svg>
    </figure>
  );
}
