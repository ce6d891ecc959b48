/**
 * What an export is built from. A training becomes `{ kind: "training"; trainingId }`
 * here; the job machinery stores (kind, id) and never looks inside.
 */
export type ExportSource = { kind: "session"; sessionId: number };
