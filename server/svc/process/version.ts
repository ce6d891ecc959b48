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
 * 5: the split uncertainty's outage term comes from the accelerometer noise
 *    measured on the file (BRIDGE_EXCESS × σ_a²·L/f_s), not from the spread
 *    of offset differences, which the Doppler noise swamps; only the stored
 *    uncertainty figures change (every ±), no other figure.
 * 6: a training work set's last stroke ends with its work: a catch after the
 *    set's end (the rest's first easy stroke) is no longer its next catch, so
 *    its rate and distance per stroke keep the set's rhythm (issue 28 §6).
 *    Only the last stroke of each training work set changes (and the set's
 *    averages that include it); single efforts are unchanged.
 */
export const PROCESSING_CORE_VERSION = 6;
