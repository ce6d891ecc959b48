import { Canvas, Document, Line, Page, Polyline, renderToBuffer, StyleSheet, Svg, Text, View } from "@react-pdf/renderer";
import { withUncertainty } from "../../svc/process/uncertainty";
import {
  formatHeartRate,
  formatPace500,
  formatPaceAndSpeed,
  formatRate,
  formatSeconds,
  formatSpeed,
  formatStrokeDistance,
} from "../../results/figure-format";
import { averageSpeedMS } from "../../results/figures";
import { REPORT_TEXT } from "../../reports/report-text";
import type { ExportModel } from "../export-model";
import { crewNames, EXPORT_TEXT, lapLabel, seatName } from "./export-text";
import type { ExportLang } from "./export-text";

/**
 * The full PDF a coach prints (docs/exports.md "Full PDF"): facts and every
 * split, the charts over distance (speed, rate, distance per stroke, and
 * heart rate when included) drawn with react-pdf's Svg primitives from the
 * bounded series, the data-quality report, then the stroke table. Each page
 * carries "Page n of N". The stroke table is laid out as fixed-width text
 * lines on explicit pages: one text node per stroke keeps a 60-minute
 * session (about 5,000 strokes) well inside the time and memory budget.
 */
const STROKES_PER_PAGE = 70;
const CHART_WIDTH = 515;

const styles = StyleSheet.create({
  page: { paddingTop: 36, paddingBottom: 44, paddingHorizontal: 40, fontSize: 9, fontFamily: "Helvetica", color: "#1b1f24" },
  title: { fontSize: 16, fontFamily: "Helvetica-Bold", marginBottom: 8 },
  h2: { fontSize: 11, fontFamily: "Helvetica-Bold", marginTop: 10, marginBottom: 4 },
  facts: { flexDirection: "row", flexWrap: "wrap", marginBottom: 6 },
  fact: { width: "33%", marginBottom: 4 },
  label: { color: "#57606a", fontSize: 8 },
  value: { fontSize: 10 },
  row: { flexDirection: "row", borderBottomWidth: 0.5, borderBottomColor: "#d0d7de", paddingVertical: 2 },
  head: { fontFamily: "Helvetica-Bold", backgroundColor: "#eef1f4" },
  cell: { flex: 1, textAlign: "right", paddingHorizontal: 2 },
  firstCell: { flex: 1, textAlign: "left", paddingHorizontal: 2 },
  note: { fontSize: 8, color: "#57606a", marginBottom: 4 },
  footer: {
    position: "absolute",
    bottom: 20,
    left: 40,
    right: 40,
    fontSize: 8,
    color: "#57606a",
    flexDirection: "row",
    justifyContent: "space-between",
  },
});

export async function buildFullPdfExport(model: ExportModel, lang: ExportLang): Promise<Uint8Array> {
  return new Uint8Array(await renderToBuffer(<FullReport model={model} lang={lang} />));
}

function FullReport({ model, lang }: { model: ExportModel; lang: ExportLang }) {
  const t = { ...REPORT_TEXT[lang], ...EXPORT_TEXT[lang] };
  const f = model.facts;
  const title = t.fullTitle[f.kind];
  const sum = model.summary;
  const unit = (text: string, u: string) => (text === "—" ? text : `${text} ${u}`);
  const facts: [string, string][] = [
    [t.date, `${f.date} ${f.timeOfDay.slice(0, 5)}`],
    [t.track, f.track ?? "—"],
    [t.boat, f.boatClass],
    [t.athlete, model.athlete.athlete ? `${seatName(model.athlete, lang)} (${t.seat(model.athlete.seat)})` : t.seat(model.athlete.seat)],
    [t.crew, crewNames(f.crew, lang).join(", ")],
    [t.distance, `${f.distanceM} m`],
    [t.time, formatSeconds(f.durationMs / 1000)],
    [t.strokes, String(sum.stroke_count)],
    // The average from distance and time unrounded (server/results/figures.ts), not the API's 3-decimal value rounded again.
    [t.avgSpeed, formatPaceAndSpeed(averageSpeedMS(sum.distance_m, sum.duration_ms))],
    [t.maxSpeed, formatPaceAndSpeed(sum.max_speed_m_s)],
    [t.avgRate, unit(formatRate(sum.avg_rate_spm), "spm")],
    [t.avgStrokeDistance, unit(formatStrokeDistance(sum.avg_stroke_distance_m), "m")],
  ];
  if (sum.heart_rate)
    facts.push([t.heartRateChart, `${formatHeartRate(sum.heart_rate.avg_bpm)} / ${formatHeartRate(sum.heart_rate.max_bpm)}`]);
  const footer = (
    <View style={styles.footer} fixed>
      <Text>{`${title} · ${f.date} · ${t.source[f.kind]} #${f.id}`}</Text>
      <Text render={({ pageNumber, totalPages }) => t.page(pageNumber, totalPages)} />
    </View>
  );
  const series = model.series;
  const along = (values: (number | null)[] | undefined) =>
    (values ?? []).flatMap((y, p) => (y === null || series.distance_m?.[p] == null ? [] : [{ x: series.distance_m[p]!, y }]));
  const charts: [string, string, { x: number; y: number }[]][] = [
    [t.speedChart, "#0b5cad", along(series.speed_m_s)],
    [t.rateChart, "#b42318", along(series.rate_spm)],
    [t.dpsChart, "#1a7f37", along(series.stroke_distance_m)],
  ];
  if (model.heartRateIncluded) charts.push([t.heartRateChart, "#8250df", along(series.heart_rate_bpm)]);
  const strokePages: ExportModel["strokes"][] = [];
  for (let k = 0; k < model.strokes.length; k += STROKES_PER_PAGE) strokePages.push(model.strokes.slice(k, k + STROKES_PER_PAGE));
  const quality = sum.data_quality;

  return (
    <Document title={`${title} ${f.date}`} language={lang} creationDate={new Date(model.startUnixMs)}>
      <Page size="A4" style={styles.page}>
        <Text style={styles.title}>{f.title ? `${title}: ${f.title}` : title}</Text>
        {model.mode === "privacy-safe" ? <Text style={styles.note}>{t.privacySafe}</Text> : null}
        <View style={styles.facts}>
          {facts.map(([label, value]) => (
            <View style={styles.fact} key={label}>
              <Text style={styles.label}>{label}</Text>
              <Text style={styles.value}>{value}</Text>
            </View>
          ))}
        </View>
        <Text style={styles.h2}>{t.allSplits}</Text>
        <View style={[styles.row, styles.head]}>
          {[t.split, t.at, t.splitTime, t.elapsed, t.pace, t.speed, t.rate].map((h, i) => (
            <Text key={h} style={i === 0 ? styles.firstCell : styles.cell}>
              {h}
            </Text>
          ))}
        </View>
        {model.splits.map((split) => (
          <View style={styles.row} key={split.index} wrap={false}>
            <Text style={styles.firstCell}>{lapLabel(split, lang)}</Text>
            <Text style={styles.cell}>{`${Math.round(split.distance_m)} m`}</Text>
            <Text style={styles.cell}>{withUncertainty(formatSeconds(split.split_s), split.split_uncertainty_s)}</Text>
            <Text style={styles.cell}>{withUncertainty(formatSeconds(split.elapsed_s), split.elapsed_uncertainty_s)}</Text>
            <Text style={styles.cell}>{unit(formatPace500(split.speed_m_s), "/500 m")}</Text>
            <Text style={styles.cell}>{unit(formatSpeed(split.speed_m_s), "m/s")}</Text>
            <Text style={styles.cell}>{unit(formatRate(split.rate_spm), "spm")}</Text>
          </View>
        ))}
        {footer}
      </Page>

      <Page size="A4" style={styles.page}>
        <Text style={styles.title}>{t.charts}</Text>
        {charts.map(([title, color, points]) => (
          <View key={title} wrap={false}>
            <Text style={styles.h2}>{title}</Text>
            <Chart points={points} color={color} height={model.heartRateIncluded ? 140 : 180} />
          </View>
        ))}
        {footer}
      </Page>

      <Page size="A4" style={styles.page}>
        <Text style={styles.title}>{t.dataQuality}</Text>
        {(Object.keys(t.quality) as (keyof typeof t.quality)[]).map((key) => (
          <View style={styles.row} key={key}>
            <Text style={styles.firstCell}>{t.quality[key]}</Text>
            <Text style={styles.cell}>{qualityValue(key, quality[key])}</Text>
          </View>
        ))}
        <Text style={styles.h2}>{t.warnings}</Text>
        {quality.warnings.length ? quality.warnings.map((w, i) => <Text key={i}>{`• ${w}`}</Text>) : <Text>{t.none}</Text>}
        {footer}
      </Page>

      {strokePages.map((strokes, pageIndex) => (
        <Page size="A4" style={styles.page} key={pageIndex}>
          <Text style={styles.h2}>{t.strokeTable}</Text>
          <Text style={styles.note}>{t.strokeLegend}</Text>
          <StrokeTable
            header={strokeLine([...t.strokeColumns])}
            lines={strokes.map((k) =>
              strokeLine([
                String(k.index + 1),
                k.time_s.toFixed(2),
                k.side === null ? "—" : t[k.side],
                num(k.distance_m, 1),
                num(k.speed_m_s, 2),
                num(k.rate_spm, 1),
                num(k.stroke_distance_m, 2),
                num(k.max_accel_x_m_s2, 2),
              ]),
            )}
          />
          {footer}
        </Page>
      ))}
    </Document>
  );
}

const LINE_HEIGHT = 9.6;
/**
 * Stroke lines painted straight onto the page (react-pdf's Canvas hands over
 * pdfkit's own text drawing): thousands of lines through react-pdf's text
 * layout cost seconds and hundreds of MB; painted, they cost milliseconds.
 */
function StrokeTable({ header, lines }: { header: string; lines: string[] }) {
  return (
    <Canvas
      style={{ width: CHART_WIDTH, height: (lines.length + 1) * LINE_HEIGHT + 4 }}
      paint={(painter) => {
        painter.font("Courier-Bold").fontSize(7.2).fillColor("#1b1f24").text(header, 0, 0, { lineBreak: false });
        painter.moveTo(0, LINE_HEIGHT).lineTo(CHART_WIDTH, LINE_HEIGHT).lineWidth(0.5).strokeColor("#8c959f").stroke();
        painter.font("Courier");
        lines.forEach((line, i) => painter.text(line, 0, (i + 1) * LINE_HEIGHT + 2, { lineBreak: false }));
        return null;
      }}
    />
  );
}

const STROKE_COLUMNS = [6, 9, 7, 9, 9, 9, 10, 12];
/** Fixed-width columns: the first left-aligned, the rest right-aligned (Courier keeps them straight). */
function strokeLine(cells: string[]): string {
  return cells
    .map((c, i) =>
      i === 0 ? c.slice(0, STROKE_COLUMNS[i]).padEnd(STROKE_COLUMNS[i]) : c.slice(0, STROKE_COLUMNS[i] - 1).padStart(STROKE_COLUMNS[i]),
    )
    .join("");
}
const num = (v: number | null, digits: number) => (v === null ? "—" : v.toFixed(digits));

function qualityValue(key: string, value: number | null | string[]): string {
  if (value === null || Array.isArray(value)) return "—";
  if (key === "heart_rate_coverage") return `${Math.round(value * 100)} %`;
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

/** A line chart over distance with axes, a light grid and min/max labels. */
function Chart({ points, color, height }: { points: { x: number; y: number }[]; color: string; height: number }) {
  const width = CHART_WIDTH;
  const [left, right, top, bottom] = [34, 6, 6, 16];
  if (points.length < 2) return <Text>—</Text>;
  let [xMin, xMax, yMin, yMax] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const p of points) {
    xMin = Math.min(xMin, p.x);
    xMax = Math.max(xMax, p.x);
    yMin = Math.min(yMin, p.y);
    yMax = Math.max(yMax, p.y);
  }
  if (yMax - yMin < 1e-6) [yMin, yMax] = [yMin - 1, yMax + 1];
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const sx = (x: number) => left + ((x - xMin) / (xMax - xMin || 1)) * plotW;
  const sy = (y: number) => top + plotH - ((y - yMin) / (yMax - yMin)) * plotH;
  const line = points.map((p) => `${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(" ");
  const grid = [0.25, 0.5, 0.75].map((f) => top + plotH * f);
  return (
    <Svg width={width} height={height}>
      {grid.map((y) => (
        <Line key={y} x1={left} y1={y} x2={width - right} y2={y} stroke="#e5e8eb" strokeWidth={0.5} />
      ))}
      <Line x1={left} y1={top + plotH} x2={width - right} y2={top + plotH} stroke="#8c959f" strokeWidth={0.6} />
      <Line x1={left} y1={top} x2={left} y2={top + plotH} stroke="#8c959f" strokeWidth={0.6} />
      <Polyline points={line} stroke={color} strokeWidth={1.2} fill="none" />
      <Text x={2} y={top + 6} style={{ fontSize: 7 }}>
        {yMax.toFixed(1)}
      </Text>
      <Text x={2} y={top + plotH} style={{ fontSize: 7 }}>
        {yMin.toFixed(1)}
      </Text>
      <Text x={left} y={height - 3} style={{ fontSize: 7 }}>
        {`${Math.round(xMin)} m`}
      </Text>
      <Text x={width - right - 40} y={height - 3} style={{ fontSize: 7 }}>
        {`${Math.round(xMax)} m`}
      </Text>
    </Svg>
  );
}
