import { Document, Image, Line, Link, Page, Polyline, StyleSheet, Svg, Text, View } from "@react-pdf/renderer";
import { withUncertainty } from "../svc/process/uncertainty";
import { formatPace500, formatPaceAndSpeed, formatRate, formatSeconds, formatSpeed, formatStrokeDistance } from "../results/figure-format";
import { REPORT_TEXT, type ReportLang } from "./report-text";

/**
 * The compact PDF report (results API GET /results/{id}/pdf and the session
 * page): header facts, split table, speed and rate charts, stroke metrics,
 * and the session's public link as a QR code and its address. Built-in Helvetica: nothing is fetched.
 */
export interface ReportData {
  lang: ReportLang;
  /** The heading; by default the session report's. Exports of a training say so. */
  title?: string;
  date: string;
  timeOfDay: string;
  trackName: string;
  vesselType: string;
  crew: { name: string; external: boolean }[];
  distanceM: number;
  durationMs: number;
  splits: {
    distanceM: number;
    elapsedS: number;
    splitS: number;
    speedMS: number;
    rateSpm: number | null;
    elapsedUncertaintyS: number | null;
    splitUncertaintyS: number | null;
  }[];
  strokes: { distanceM: number; speedMS: number | null; rateSpm: number | null }[];
  /** The effort's figures as server/results/figures.ts defines them (the average speed unrounded: distance ÷ time). */
  summary: {
    strokeCount: number;
    avgRateSpm: number | null;
    avgSpeedMS: number;
    maxSpeedMS: number | null;
    avgStrokeDistanceM: number | null;
  };
  /**
   * The session's public link (server/reports/report-link.ts), printed as a QR code and its address: the
   * same on the direct report and the export's. None on a training's report (a training has no public
   * link) or a privacy-safe export (the link would show the names the file leaves out).
   */
  link?: { url: string; qrDataUrl: string };
  /** The PDF's creation date; exports fix it to the session so the same request gives the same bytes. */
  createdAt?: Date;
}

const styles = StyleSheet.create({
  page: { padding: 32, fontSize: 9, fontFamily: "Helvetica", color: "#1b1f24" },
  title: { fontSize: 16, fontFamily: "Helvetica-Bold", marginBottom: 8 },
  facts: { flexDirection: "row", flexWrap: "wrap", marginBottom: 10 },
  fact: { width: "33%", marginBottom: 4 },
  label: { color: "#57606a", fontSize: 8 },
  value: { fontSize: 10 },
  h2: { fontSize: 11, fontFamily: "Helvetica-Bold", marginTop: 10, marginBottom: 4 },
  row: { flexDirection: "row", borderBottomWidth: 0.5, borderBottomColor: "#d0d7de", paddingVertical: 2 },
  head: { fontFamily: "Helvetica-Bold", backgroundColor: "#eef1f4" },
  cell: { flex: 1, textAlign: "right", paddingHorizontal: 2 },
  firstCell: { flex: 1, textAlign: "left", paddingHorizontal: 2 },
  charts: { flexDirection: "row", justifyContent: "space-between" },
  chartBox: { width: "49%" },
  bottom: { flexDirection: "row", marginTop: 10, alignItems: "flex-start" },
  metrics: { flex: 1 },
  qrBox: { width: 110, alignItems: "center" },
  qrText: { fontSize: 7, color: "#57606a", textAlign: "center", marginTop: 2 },
});

function Chart({ points, color }: { points: { x: number; y: number }[]; color: string }) {
  const width = 250;
  const height = 110;
  const pad = 22;
  if (points.length < 2) return <Text>—</Text>;
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const [xMin, xMax] = [Math.min(...xs), Math.max(...xs)];
  let [yMin, yMax] = [Math.min(...ys), Math.max(...ys)];
  if (yMax - yMin < 1e-6) [yMin, yMax] = [yMin - 1, yMax + 1];
  const sx = (x: number) => pad + ((x - xMin) / (xMax - xMin || 1)) * (width - pad - 4);
  const sy = (y: number) => height - pad + 4 - ((y - yMin) / (yMax - yMin)) * (height - pad);
  const line = points.map((p) => `${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(" ");
  return (
    <Svg width={width} height={height}>
      <Line x1={pad} y1={height - pad + 4} x2={width - 4} y2={height - pad + 4} stroke="#8c959f" strokeWidth={0.5} />
      <Line x1={pad} y1={4} x2={pad} y2={height - pad + 4} stroke="#8c959f" strokeWidth={0.5} />
      <Polyline points={line} stroke={color} strokeWidth={1} fill="none" />
      <Text x={2} y={10} style={{ fontSize: 6 }}>
        {yMax.toFixed(1)}
      </Text>
      <Text x={2} y={height - pad + 4} style={{ fontSize: 6 }}>
        {yMin.toFixed(1)}
      </Text>
      <Text x={pad} y={height - 4} style={{ fontSize: 6 }}>
        {`${Math.round(xMin)} m`}
      </Text>
      <Text x={width - 40} y={height - 4} style={{ fontSize: 6 }}>
        {`${Math.round(xMax)} m`}
      </Text>
    </Svg>
  );
}

export function ResultReport({ data }: { data: ReportData }) {
  const t = REPORT_TEXT[data.lang];
  const unit = (text: string, u: string) => (text === "—" ? text : `${text} ${u}`);
  const facts: [string, string][] = [
    [t.date, `${data.date} ${data.timeOfDay.slice(0, 5)}`],
    [t.track, data.trackName],
    [t.boat, data.vesselType],
    [t.distance, `${data.distanceM} m`],
    [t.time, formatSeconds(data.durationMs / 1000)],
    [t.crew, data.crew.map((c) => (c.external ? `${c.name} (${t.external})` : c.name)).join(", ")],
  ];
  return (
    <Document title={`${data.title ?? t.title} ${data.date}`} language={data.lang} creationDate={data.createdAt}>
      <Page size="A4" style={styles.page}>
        <Text style={styles.title}>{data.title ?? t.title}</Text>
        <View style={styles.facts}>
          {facts.map(([label, value]) => (
            <View style={styles.fact} key={label}>
              <Text style={styles.label}>{label}</Text>
              <Text style={styles.value}>{value}</Text>
            </View>
          ))}
        </View>

        <Text style={styles.h2}>{t.splits}</Text>
        <View style={[styles.row, styles.head]}>
          <Text style={styles.firstCell}>{t.split}</Text>
          <Text style={styles.cell}>{t.at}</Text>
          <Text style={styles.cell}>{t.splitTime}</Text>
          <Text style={styles.cell}>{t.elapsed}</Text>
          <Text style={styles.cell}>{t.pace}</Text>
          <Text style={styles.cell}>{t.speed}</Text>
          <Text style={styles.cell}>{t.rate}</Text>
        </View>
        {data.splits.map((s, i) => (
          <View style={styles.row} key={i}>
            <Text style={styles.firstCell}>{i + 1}</Text>
            <Text style={styles.cell}>{`${Math.round(s.distanceM)} m`}</Text>
            <Text style={styles.cell}>{withUncertainty(formatSeconds(s.splitS), s.splitUncertaintyS)}</Text>
            <Text style={styles.cell}>{withUncertainty(formatSeconds(s.elapsedS), s.elapsedUncertaintyS)}</Text>
            <Text style={styles.cell}>{unit(formatPace500(s.speedMS), "/500 m")}</Text>
            <Text style={styles.cell}>{unit(formatSpeed(s.speedMS), "m/s")}</Text>
            <Text style={styles.cell}>{unit(formatRate(s.rateSpm), "spm")}</Text>
          </View>
        ))}

        <View style={styles.charts}>
          <View style={styles.chartBox}>
            <Text style={styles.h2}>{t.speedChart}</Text>
            <Chart
              color="#0b5cad"
              points={data.strokes.filter((s) => s.speedMS !== null).map((s) => ({ x: s.distanceM, y: s.speedMS! }))}
            />
          </View>
          <View style={styles.chartBox}>
            <Text style={styles.h2}>{t.rateChart}</Text>
            <Chart
              color="#b42318"
              points={data.strokes.filter((s) => s.rateSpm !== null).map((s) => ({ x: s.distanceM, y: s.rateSpm! }))}
            />
          </View>
        </View>

        <View style={styles.bottom}>
          <View style={styles.metrics}>
            <Text style={styles.h2}>{t.strokeMetrics}</Text>
            {(
              [
                [t.strokes, String(data.summary.strokeCount)],
                [t.avgRate, unit(formatRate(data.summary.avgRateSpm), "spm")],
                [t.avgSpeed, formatPaceAndSpeed(data.summary.avgSpeedMS)],
                [t.maxSpeed, formatPaceAndSpeed(data.summary.maxSpeedMS)],
                [t.avgStrokeDistance, unit(formatStrokeDistance(data.summary.avgStrokeDistanceM), "m")],
              ] as const
            ).map(([label, value]) => (
              <View style={styles.row} key={label}>
                <Text style={styles.firstCell}>{label}</Text>
                <Text style={styles.cell}>{value}</Text>
              </View>
            ))}
          </View>
          {data.link ? (
            <View style={styles.qrBox}>
              {/* eslint-disable-next-line jsx-a11y/alt-text -- react-pdf's Image has no alt; the caption below describes it */}
              <Image src={data.link.qrDataUrl} style={{ width: 96, height: 96 }} />
              <Text style={styles.qrText}>{t.scan}</Text>
              <Link src={data.link.url}>
                {/* Lines of 24 characters: a long address must wrap without the hyphens a word break would add. */}
                {(data.link.url.match(/.{1,24}/g) ?? []).map((part, i) => (
                  <Text key={i} style={styles.qrText}>
                    {part}
                  </Text>
                ))}
              </Link>
            </View>
          ) : null}
        </View>
      </Page>
    </Document>
  );
}
