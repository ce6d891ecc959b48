import type { LoadWeek } from "@/server/load/load-reads";
import type { FitnessDay } from "@/server/load/model";
import { zeroBasedAxis } from "@/app/_lib/chart-axes";

/**
 * The load page's two charts as server-drawn SVG (like progression-chart.tsx):
 * weekly load bars and the fitness, fatigue and form lines, each a titled
 * figure with the figures in words; value axes on even round steps.
 */
const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 44, right: 10, top: 10, bottom: 26 };
const PLOT_W = WIDTH - PAD.left - PAD.right;
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;

function YAxis({ ticks, y }: { ticks: number[]; y: (v: number) => number }) {
  return (
    <g className="load-axis">
      {ticks.map((t) => (
        <g key={t}>
          <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(t)} y2={y(t)} stroke={t === 0 ? "#8c959f" : "#eef1f4"} />
          <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" fontSize="11" fill="#57606a">
            {t}
          </text>
        </g>
      ))}
    </g>
  );
}

const shortDate = (iso: string) => `${Number(iso.slice(8, 10))}/${Number(iso.slice(5, 7))}`;

export function WeeklyLoadBars({ weeks, heartRate }: { weeks: LoadWeek[]; heartRate: boolean }) {
  const max = Math.max(0, ...weeks.map((w) => Math.max(w.speedLoad, heartRate ? (w.heartRateLoad ?? 0) : 0)));
  const { ticks, domain } = zeroBasedAxis([max]);
  const top = domain[1];
  const y = (v: number) => PAD.top + PLOT_H - (v / top) * PLOT_H;
  const slot = PLOT_W / weeks.length;
  const barW = heartRate ? slot * 0.38 : slot * 0.7;
  const total = weeks.reduce((s, w) => s + w.speedLoad, 0);
  const summary = `${weeks.length} weeks from ${weeks[0].weekStart}: speed load ${Math.round(total)} in all, ${weeks.at(-1)!.speedLoad} this week${
    heartRate ? `; heart-rate load ${weeks.at(-1)!.heartRateLoad ?? 0} this week` : ""
  }.`;
  return (
    <figure className="card load-chart" aria-labelledby="load-weeks-title" aria-describedby="load-weeks-summary" data-testid="load-weeks">
      <figcaption id="load-weeks-title">Weekly load{heartRate ? " (speed load, and heart-rate load in red)" : " (speed load)"}</figcaption>
      <p id="load-weeks-summary" className="chart-summary">
        {summary}
      </p>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img" aria-label={summary}>
        <YAxis ticks={ticks} y={y} />
        {weeks.map((w, k) => {
          const x = PAD.left + k * slot + (slot - (heartRate ? barW * 2 : barW)) / 2;
          return (
            <g key={w.weekStart}>
              <rect
                className="load-bar"
                data-week={w.weekStart}
                data-load={w.speedLoad}
                x={x}
                y={y(w.speedLoad)}
                width={barW}
                height={Math.max(0, y(0) - y(w.speedLoad))}
                fill="#0b5cad"
              >
                <title>{`Week of ${w.weekStart}: speed load ${w.speedLoad}${heartRate ? `, heart-rate load ${w.heartRateLoad ?? 0}` : ""}`}</title>
              </rect>
              {heartRate ? (
                <rect
                  className="load-bar-hr"
                  x={x + barW}
                  y={y(w.heartRateLoad ?? 0)}
                  width={barW}
                  height={Math.max(0, y(0) - y(w.heartRateLoad ?? 0))}
                  fill="#cf222e"
                />
              ) : null}
              {k % 4 === 0 ? (
                <text x={PAD.left + k * slot + slot / 2} y={HEIGHT - 8} textAnchor="middle" fontSize="11" fill="#57606a">
                  {shortDate(w.weekStart)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

const LINES = [
  { key: "fitness", label: "Fitness", colour: "#0b5cad" },
  { key: "fatigue", label: "Fatigue", colour: "#bc4c00" },
  { key: "form", label: "Form", colour: "#1a7f37" },
] as const;

export function FitnessChart({ series }: { series: FitnessDay[] }) {
  const values = series.flatMap((d) => [d.fitness, d.fatigue, d.form]);
  const {
    ticks,
    domain: [lo, hi],
  } = zeroBasedAxis(values);
  const y = (v: number) => PAD.top + PLOT_H - ((v - lo) / (hi - lo)) * PLOT_H;
  const x = (k: number) => PAD.left + (series.length > 1 ? (k / (series.length - 1)) * PLOT_W : PLOT_W / 2);
  const today = series.at(-1)!;
  const summary = `Today (${today.date}): fitness ${today.fitness}, fatigue ${today.fatigue}, form ${today.form}.`;
  return (
    <figure
      className="card load-chart"
      aria-labelledby="load-fitness-title"
      aria-describedby="load-fitness-summary"
      data-testid="load-fitness"
    >
      <figcaption id="load-fitness-title">Fitness, fatigue and form (speed load, 42- and 7-day averages)</figcaption>
      <p id="load-fitness-summary" className="chart-summary" data-testid="load-today">
        {summary}
      </p>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img" aria-label={summary}>
        <YAxis ticks={ticks} y={y} />
        {LINES.map((l) => (
          <path
            key={l.key}
            className="load-line"
            data-line={l.key}
            d={series.map((d, k) => `${k ? "L" : "M"}${x(k).toFixed(1)},${y(d[l.key]).toFixed(1)}`).join(" ")}
            fill="none"
            stroke={l.colour}
            strokeWidth="2"
          />
        ))}
        {series
          .filter((d) => d.date.endsWith("-01"))
          .map((d) => (
            <text key={d.date} x={x(series.indexOf(d))} y={HEIGHT - 8} textAnchor="middle" fontSize="11" fill="#57606a">
              {shortDate(d.date)}
            </text>
          ))}
      </svg>
      <ul className="load-legend">
        {LINES.map((l) => (
          <li key={l.key}>
            <span className="load-swatch" style={{ background: l.colour }} aria-hidden="true" /> {l.label}
          </li>
        ))}
      </ul>
    </figure>
  );
}
