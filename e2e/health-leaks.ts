import { Decoder, Stream } from "@garmin/fitsdk";
import ExcelJS from "exceljs";
import { pdfText } from "../test/support/pdf-tools";

/** What must not appear for one viewer (e2e/health-web-world.ts `forbiddenFor`). */
export interface Forbidden {
  bpm: number[];
  coverage: number[];
  values: string[];
}

/** Words that put a number in a heart-rate context, in both export languages and the TCX/FIT names. */
const HEART_CONTEXT = /heart|bpm|lpm|frecuencia|pulse|pulso/i;
const COVERAGE_CONTEXT = /coverage|cobertura/gi;
/** A whole number not part of a longer or decimal number. */
const wholeNumber = (n: number) => new RegExp(`(?<![\\d.])${n}(?![\\d]|\\.\\d)`, "g");

/**
 * Leaks in text a person reads (a page's visible text, a PDF's, a TCX, a
 * workbook's cells): another person's weight or lactate value anywhere; their
 * bpm marker within 150 characters of a heart-rate word; their coverage as a
 * percentage after a coverage label.
 */
export function textLeaks(text: string, forbidden: Forbidden): string[] {
  const found: string[] = [];
  for (const v of forbidden.values) if (text.includes(v)) found.push(`value ${v}: …${around(text, text.indexOf(v))}…`);
  for (const bpm of forbidden.bpm) {
    for (const m of text.matchAll(wholeNumber(bpm))) {
      const window = text.slice(Math.max(0, m.index - 150), m.index + 150);
      if (HEART_CONTEXT.test(window)) found.push(`bpm ${bpm}: …${around(text, m.index)}…`);
    }
  }
  for (const c of forbidden.coverage) {
    const pct = Math.round(c * 100);
    for (const m of text.matchAll(COVERAGE_CONTEXT)) {
      const after = text.slice(m.index, m.index + 300);
      if (new RegExp(`(?<![\\d.])${pct}\\s?%`).test(after)) found.push(`coverage ${pct} %: …${around(text, m.index, 120)}…`);
    }
  }
  return found;
}

/**
 * Leaks in data a page loaded or a file holds (HTML with its inline RSC
 * payload, RSC and JSON responses, a JSON export, a decoded FIT file): the
 * values anywhere, and any key naming heart rate, bpm or coverage whose value
 * holds another person's marker. Quotes may be escaped (RSC data inside a
 * script string).
 */
export function dataLeaks(raw: string, forbidden: Forbidden): string[] {
  const found: string[] = [];
  for (const v of forbidden.values) if (raw.includes(v)) found.push(`value ${v}: …${around(raw, raw.indexOf(v))}…`);
  // The keyed search is slow on megabytes of payload; without any marker's digits in it, it cannot match.
  if (![...forbidden.bpm, ...forbidden.coverage].some((n) => raw.includes(String(n)))) return found;
  const keyed = /\\?"([A-Za-z_]*(?:heart|bpm|coverage)[A-Za-z_]*)\\?"\s*:\s*(\[[^\]]*\]|-?\d+(?:\.\d+)?)/gi;
  for (const m of raw.matchAll(keyed)) {
    const numbers = (m[2].match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
    const hit = numbers.find((n) => forbidden.bpm.includes(n) || forbidden.coverage.includes(n));
    if (hit !== undefined) found.push(`${m[1]} = ${hit}: …${around(raw, m.index)}…`);
  }
  return found;
}

/** A downloaded file as text to search: PDF text, workbook cells, decoded FIT messages, or the bytes as UTF-8. */
export async function fileLeaks(name: string, contentType: string, bytes: Buffer, forbidden: Forbidden): Promise<string[]> {
  if (contentType.includes("pdf") || name.endsWith(".pdf")) return textLeaks(pdfText(bytes), forbidden);
  if (contentType.includes("spreadsheet") || name.endsWith(".xlsx")) {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const lines: string[] = [];
    workbook.eachSheet((sheet) =>
      sheet.eachRow((row) =>
        lines.push(
          (row.values as unknown[])
            .slice(1)
            .map((v) => (v === null || v === undefined ? "" : String(v)))
            .join("\t"),
        ),
      ),
    );
    const text = lines.join("\n");
    return [...textLeaks(text, forbidden), ...dataLeaks(JSON.stringify(lines), forbidden)];
  }
  if (name.endsWith(".fit")) {
    const { messages, errors } = new Decoder(Stream.fromByteArray([...bytes])).read();
    if (errors.length) throw new Error(`${name}: ${errors.join("; ")}`);
    return dataLeaks(JSON.stringify(messages), forbidden);
  }
  const text = bytes.toString("utf8");
  return [...textLeaks(text, forbidden), ...dataLeaks(text, forbidden)];
}

const around = (text: string, index: number, width = 60) => text.slice(Math.max(0, index - width), index + width).replace(/\s+/g, " ");
