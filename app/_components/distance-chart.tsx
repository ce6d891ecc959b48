"use client";

import { useEffect, useRef, type ReactNode } from "react";
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Axis } from "@/app/_lib/chart-axes";
import { useSessionCursor } from "./session-cursor";

/** One line of a distance chart: the row field it draws, its legend name and colour. */
export interface DistanceSeries {
  dataKey: string;
  name?: string;
  colour: string;
  /** Draw across strokes with no value (a gap in the rate during a glide) rather than break the line. */
  connectNulls?: boolean;
}

/**
 * The one chart every session surface draws: values along the effort's
 * distance, a titled `figure` with the chart in words below its caption (for
 * screen readers and for anyone who wants the figures, not the picture), the
 * distance axis and value axis fitted by app/_lib/chart-axes.ts, dashed
 * markers at split ends. The stroke charts, the heart-rate chart and the
 * compare view differ only in what they pass here.
 */
export function DistanceChart(props: {
  /** The caption's id; the summary's is `${id}-summary`. */
  id: string;
  title: string;
  summary: ReactNode;
  /** One object per point: `distance` and a field per series. */
  rows: readonly object[];
  series: DistanceSeries[];
  x: Axis;
  y: Axis | null;
  /** A tick label and a tooltip value of the value axis. */
  formatTick: (value: number) => string;
  formatValue: (value: number) => string;
  markers?: readonly number[];
  height?: number;
  yAxisWidth?: number;
  legend?: boolean;
  figureProps?: { className?: string; "data-chart"?: string; "data-testid"?: string };
}) {
  const { id, title, summary, rows, series, x, y, formatTick, formatValue, markers = [], height = 180, yAxisWidth = 44 } = props;
  const marker = useRef<HTMLDivElement>(null);
  const plot = useCursorPlot(x, yAxisWidth, marker);
  return (
    <figure className="card" {...props.figureProps} aria-labelledby={id} aria-describedby={`${id}-summary`}>
      <figcaption id={id}>{title}</figcaption>
      <p id={`${id}-summary`} className="chart-summary">
        {summary}
      </p>
      <div className="chart-plot" onClick={plot.onClick} onPointerMove={plot.onPointerMove}>
        <ResponsiveContainer width="100%" height={height}>
          <LineChart data={rows} margin={{ top: MARGIN.top, right: MARGIN.right, bottom: MARGIN.bottom, left: 0 }}>
            <CartesianGrid stroke="#eef1f4" />
            <XAxis
              dataKey="distance"
              type="number"
              domain={x.domain}
              ticks={x.ticks}
              // Every tick the axis chose (0, each split end, the effort's distance): recharts' own thinning dropped
              // "375 m" beside the end's label. The first label starts at 0 and the last ends at the edge, so all fit.
              interval={0}
              allowDataOverflow
              tick={(tick) => <DistanceTick x={Number(tick.x)} y={Number(tick.y)} value={Number(tick.payload.value)} domain={x.domain} />}
              height={X_AXIS_HEIGHT}
            />
            {/* Every tick the axis was given (even steps, app/_lib/chart-axes.ts); values outside a trimmed axis are clipped. */}
            <YAxis
              domain={y?.domain ?? ["auto", "auto"]}
              ticks={y?.ticks}
              interval={0}
              allowDataOverflow
              width={yAxisWidth}
              tickFormatter={formatTick}
            />
            <Tooltip
              formatter={(value) => (typeof value === "number" ? formatValue(value) : String(value))}
              labelFormatter={(d) => `${Math.round(Number(d))} m`}
            />
            {props.legend ? <Legend /> : null}
            {markers.map((d) => (
              <ReferenceLine key={d} x={d} stroke="#8c959f" strokeDasharray="3 3" ifOverflow="hidden" className="split-marker" />
            ))}
            {series.map((s) => (
              <Line
                key={s.dataKey}
                type="monotone"
                dataKey={s.dataKey}
                name={s.name}
                stroke={s.colour}
                dot={false}
                isAnimationActive={false}
                connectNulls={s.connectNulls}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
        {plot.enabled ? (
          <div
            ref={marker}
            className="chart-cursor"
            data-testid="chart-cursor"
            aria-hidden="true"
            style={{ left: yAxisWidth, top: MARGIN.top, bottom: MARGIN.bottom + X_AXIS_HEIGHT }}
          />
        ) : null}
      </div>
    </figure>
  );
}

const MARGIN = { top: 8, right: 8, bottom: 8 };

/** A distance label: "375 m", anchored at its start on the axis' first tick and at its end on the last, so none leaves the chart. */
function DistanceTick({ x, y, value, domain }: { x: number; y: number; value: number; domain: [number, number] }) {
  const anchor = value <= domain[0] ? "start" : value >= domain[1] ? "end" : "middle";
  return (
    <text x={x} y={y} dy={12} textAnchor={anchor} fill="#57606a" fontSize={12} className="distance-tick recharts-cartesian-axis-tick-value">
      {`${Math.round(value)} m`}
    </text>
  );
}
const X_AXIS_HEIGHT = 30;

/**
 * The session page's cursor on a chart (docs/replay.md "One cursor through the
 * session page"): a vertical line at the replay's distance, moved by style, not
 * by rendering the chart again; a click seeks the replay to the distance under
 * the pointer, and so does a hover while the replay is paused.
 */
function useCursorPlot(x: Axis, yAxisWidth: number, marker: React.RefObject<HTMLDivElement | null>) {
  const cursor = useSessionCursor();
  const [start, end] = x.domain;
  useEffect(() => {
    if (!cursor) return;
    return cursor.subscribe(() => {
      const el = marker.current;
      if (!el) return;
      const d = cursor.distanceM();
      const fraction = Math.max(0, Math.min(1, (d - start) / Math.max(1e-9, end - start)));
      el.style.left = `calc(${yAxisWidth}px + (100% - ${yAxisWidth + MARGIN.right}px) * ${fraction.toFixed(5)})`;
      el.dataset.distanceM = d.toFixed(1);
    });
  }, [cursor, start, end, yAxisWidth, marker]);
  const distanceUnder = (event: React.MouseEvent<HTMLDivElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    const fraction = (event.clientX - rect.left - yAxisWidth) / Math.max(1, rect.width - yAxisWidth - MARGIN.right);
    return fraction < 0 || fraction > 1 ? null : start + fraction * (end - start);
  };
  return {
    enabled: cursor !== null,
    onClick: cursor
      ? (event: React.MouseEvent<HTMLDivElement>) => {
          const d = distanceUnder(event);
          if (d !== null) cursor.seekDistance(d);
        }
      : undefined,
    onPointerMove: cursor
      ? (event: React.PointerEvent<HTMLDivElement>) => {
          if (cursor.playing || event.pointerType !== "mouse") return;
          const d = distanceUnder(event);
          if (d !== null) cursor.seekDistance(d);
        }
      : undefined,
  };
}
