import type { ReportLink } from "../../reports/report-link";
/** The language of an export file (ExportRequest `lang`). */
export type ExportLang = "en" | "es";

/** Words the export files use beyond the compact report's (server/reports/report-text.ts). */
export const EXPORT_TEXT = {
  en: {
    seat: (n: number) => `Seat ${n}`,
    /** What the file is about, where a format names its source. */
    source: { session: "Session", training: "Training" },
    reportTitle: { session: "Session report", training: "Training report" },
    fullTitle: { session: "Session report, full", training: "Training report, full" },
    set: (n: number) => `Set ${n}`,
    work: "work",
    rest: "rest",
    athlete: "Athlete",
    page: (n: number, of: number) => `Page ${n} of ${of}`,
    allSplits: "Splits",
    strokeTable: "Every stroke",
    strokeColumns: ["#", "t (s)", "side", "d (m)", "v (m/s)", "spm", "m/stroke", "acc (m/s²)"],
    strokeLegend:
      "t: time from the start · d: distance from the start · v: speed · spm: stroke rate · m/stroke: distance per stroke · acc: peak surge acceleration",
    charts: "Charts along the distance",
    speedChart: "Speed (m/s)",
    rateChart: "Stroke rate (spm)",
    dpsChart: "Distance per stroke (m)",
    heartRateChart: "Heart rate (bpm)",
    dataQuality: "Data quality",
    warnings: "Warnings",
    none: "None",
    left: "left",
    right: "right",
    privacySafe: "Privacy-safe export: other crew members appear without identity.",
    quality: {
      imu_samples: "Inertial samples",
      imu_lost_samples: "Inertial samples lost",
      imu_gaps: "Inertial gaps",
      longest_imu_gap_ms: "Longest inertial gap (ms)",
      gnss_fixes: "Satellite fixes",
      gnss_missing_fixes: "Missing fixes",
      effort_fix_gaps: "Fix gaps in the effort",
      effort_fix_gap_s: "Fix gap time in the effort (s)",
      satellites_min: "Satellites, minimum",
      satellites_mean: "Satellites, mean",
      hdop_mean: "HDOP, mean",
      hdop_max: "HDOP, maximum",
      heart_rate_coverage: "Heart-rate coverage",
    },
  },
  es: {
    seat: (n: number) => `Asiento ${n}`,
    source: { session: "Sesión", training: "Entrenamiento" },
    reportTitle: { session: "Informe de la sesión", training: "Informe del entrenamiento" },
    fullTitle: { session: "Informe completo de la sesión", training: "Informe completo del entrenamiento" },
    set: (n: number) => `Serie ${n}`,
    work: "trabajo",
    rest: "descanso",
    athlete: "Deportista",
    page: (n: number, of: number) => `Página ${n} de ${of}`,
    allSplits: "Parciales",
    strokeTable: "Todas las paladas",
    strokeColumns: ["#", "t (s)", "lado", "d (m)", "v (m/s)", "pal/min", "m/palada", "acel (m/s²)"],
    strokeLegend:
      "t: tiempo desde la salida · d: distancia desde la salida · v: velocidad · pal/min: ritmo · m/palada: avance por palada · acel: aceleración máxima de avance",
    charts: "Gráficas a lo largo de la distancia",
    speedChart: "Velocidad (m/s)",
    rateChart: "Ritmo de palada (pal/min)",
    dpsChart: "Avance por palada (m)",
    heartRateChart: "Frecuencia cardiaca (lpm)",
    dataQuality: "Calidad de los datos",
    warnings: "Avisos",
    none: "Ninguno",
    left: "izquierda",
    right: "derecha",
    privacySafe: "Exportación con privacidad: el resto de la tripulación aparece sin identidad.",
    quality: {
      imu_samples: "Muestras inerciales",
      imu_lost_samples: "Muestras inerciales perdidas",
      imu_gaps: "Huecos inerciales",
      longest_imu_gap_ms: "Hueco inercial más largo (ms)",
      gnss_fixes: "Posiciones de satélite",
      gnss_missing_fixes: "Posiciones perdidas",
      effort_fix_gaps: "Huecos de posición en el esfuerzo",
      effort_fix_gap_s: "Tiempo sin posición en el esfuerzo (s)",
      satellites_min: "Satélites, mínimo",
      satellites_mean: "Satélites, media",
      hdop_mean: "HDOP, media",
      hdop_max: "HDOP, máximo",
      heart_rate_coverage: "Cobertura de frecuencia cardiaca",
    },
  },
} as const;

/** A seat as a file names it: the paddler's name, or "Seat n" when the projection gives no identity. */
export const seatName = (s: { seat: number; athlete: { name: string } | null }, lang: ExportLang) =>
  s.athlete?.name ?? EXPORT_TEXT[lang].seat(s.seat);
export const crewNames = (crew: { seat: number; athlete: { name: string } | null }[], lang: ExportLang) =>
  crew.map((s) => seatName(s, lang));

/** A lap's label: a training's set ("Set 3 · work"), or a session's split number. */
export const lapLabel = (lap: { index: number; set?: { position: number; kind: "work" | "rest" } }, lang: ExportLang) =>
  lap.set ? `${EXPORT_TEXT[lang].set(lap.set.position)} · ${EXPORT_TEXT[lang][lap.set.kind]}` : String(lap.index);

/** What a builder gets beside the model: the compact PDF's link to the session (and its QR code). */
export interface BuildExtras {
  link?: ReportLink;
}
