import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Decoder, Stream } from "@garmin/fitsdk";
import ExcelJS from "exceljs";
import { PNG } from "pngjs";
import type { ExportFormat } from "../../server/exports/builders";

/** Poppler's command-line tools (poppler-utils) on a PDF held in memory: page count, text, one page as pixels. */
export function withPdf<T>(bytes: Uint8Array, run: (path: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "export-pdf-"));
  try {
    const path = join(dir, "file.pdf");
    writeFileSync(path, bytes);
    return run(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const pageCount = (bytes: Uint8Array) =>
  withPdf(bytes, (path) => Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [path], { encoding: "utf8" }))![1]));

export const pdfText = (bytes: Uint8Array, page?: number) =>
  withPdf(bytes, (path) =>
    execFileSync("pdftotext", [...(page ? ["-f", String(page), "-l", String(page)] : []), "-layout", path, "-"], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    }),
  );

/** One page rendered by pdftoppm at `dpi`, decoded with pngjs. */
export const renderPage = (bytes: Uint8Array, page: number, dpi = 72) =>
  withPdf(bytes, (path) => {
    const out = join(path, "..", "page");
    execFileSync("pdftoppm", ["-f", String(page), "-l", String(page), "-r", String(dpi), "-png", "-singlefile", path, out]);
    return PNG.sync.read(readFileSync(`${out}.png`));
  });

/** Pixels in a rectangle (fractions of the page) whose colour is close to `rgb`. */
export function pixelsNear(
  png: PNG,
  area: { x0: number; y0: number; x1: number; y1: number },
  rgb: [number, number, number],
  tolerance = 60,
): number {
  let n = 0;
  for (let y = Math.floor(area.y0 * png.height); y < Math.ceil(area.y1 * png.height); y++) {
    for (let x = Math.floor(area.x0 * png.width); x < Math.ceil(area.x1 * png.width); x++) {
      const i = (y * png.width + x) * 4;
      const d = Math.abs(png.data[i] - rgb[0]) + Math.abs(png.data[i + 1] - rgb[1]) + Math.abs(png.data[i + 2] - rgb[2]);
      if (d <= tolerance) n++;
    }
  }
  return n;
}

/** Everything a person could read out of an export file, as text (PDF text, every cell, every FIT message, the JSON or XML). */
export async function readable(format: ExportFormat, bytes: Uint8Array): Promise<string> {
  if (format === "pdf" || format === "pdf-full") return pdfText(bytes);
  if (format === "xlsx") {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
    return JSON.stringify(workbook.worksheets.map((w) => w.getSheetValues()));
  }
  if (format === "fit")
    return JSON.stringify(new Decoder(Stream.fromByteArray(Array.from(bytes))).read().messages, (_, v) =>
      typeof v === "bigint" ? String(v) : v,
    );
  return new TextDecoder().decode(bytes);
}
