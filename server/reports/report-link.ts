import QRCode from "qrcode";
import type { Db } from "../db/client";
import { sessionPublicLink, shareUrl } from "../shares/share-links";

/** The session's public link as the compact report prints it: a QR code and the address beside it. */
export interface ReportLink {
  url: string;
  /** PNG data URL of the QR code to `url`. */
  qrDataUrl: string;
}

/**
 * The one link a session's compact PDF carries, from either path (the direct
 * report and the export job): the session's public link, reused until revoked
 * (server/shares/share-links.ts), so building the report again gives the same
 * link and the same bytes. Throws not_found when the person cannot open the session.
 */
export async function sessionReportLink(db: Db, userId: number, resultId: number, appUrl: string): Promise<ReportLink> {
  const { token } = await sessionPublicLink(db, userId, resultId);
  const url = shareUrl(appUrl, token);
  return { url, qrDataUrl: await QRCode.toDataURL(url, { margin: 1, width: 300, errorCorrectionLevel: "M" }) };
}
