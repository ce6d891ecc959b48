/**
 * The version of the processing core (docs/processing.md "Versions").
 * Bump it whenever a change can alter any figure the core produces, so
 * stored results can record which core made them and be reprocessed.
 *
 * 1: first release (speed: ±1 s moving average of IMU–Doppler offsets).
 * 2: speed from a Kalman/RTS smoother of the offsets with measured noise
 *    (better split times on noisy recordings); stroke threshold at 15 % of
 *    strong drives (light paddling counts); training set segmentation.
 * 3: training sets measured against the practice's typical work stroke (the
 *    cruising part of candidate pieces), held through fade until the last
 *    work stroke: standing starts, fading crews and drifting rests.
 *    Every track also stores what the split uncertainty needs (results of
 *    core 2 serve no ± until reprocessed).
 * 4: the effort's start is a real drive: a sensor-noise peak taken for a
 *    catch just before a standing start (under 20 % of the drives after it)
 *    no longer starts the effort a stroke early (single efforts).
 */
export const PROCESSING_CORE_VERSION = 4;
