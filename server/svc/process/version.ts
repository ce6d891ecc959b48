/**
 * The version of the processing core (docs/processing.md "Versions").
 * Bump it whenever a change can alter any figure the core produces, so
 * stored results can record which core made them and be reprocessed.
 *
 * 1: first release (speed: ±1 s moving average of IMU–Doppler offsets).
 * 2: speed from a Kalman/RTS smoother of the offsets with measured noise
 *    (better split times on noisy recordings); stroke threshold at 15 % of
 *    strong drives (light paddling counts); training set segmentation.
 * 3: every track stores what the split uncertainty needs (issue 19 §2; the
 *    figures before it are unchanged, but results of core 2 serve no ±
 *    until reprocessed). Issue 19's set detection shares this version.
 */
export const PROCESSING_CORE_VERSION = 3;
