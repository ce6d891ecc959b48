/**
 * Shared types of the `.svc` core (docs/svc-format.md, docs/processing.md).
 *
 * The container layer (decode/encode) and the processing layer meet here:
 * the decoder produces a `DecodedSvc`, the simulator produces an
 * `SvcContent` for the encoder, and processing reads a `DecodedSvc`.
 * Streams are dense typed arrays indexed by sample number so that a
 * 6-hour 100 Hz file stays compact and fast to walk.
 */

export type VesselType = "K1" | "K2" | "K4" | "C1" | "C2" | "C4";

export interface SvcHeader {
  formatVersion: 1;
  headerLength: 64;
  /** Secret: never leaves the service. NUL padding stripped. */
  deviceSerial: string;
  hardwareModel: number;
  firmware: { major: number; minor: number; patch: number };
  /** Device clock at sample 0, ms since the Unix epoch, UTC. */
  startUnixMs: number;
  /** Local offset of the device clock, minutes. */
  utcOffsetMin: number;
  imuHz: number;
  gnssHz: number;
  hrPeriodMs: number;
  keyId: number;
  /** 12-byte AES-GCM nonce. */
  nonce: Uint8Array;
  flags: number;
}

/** IMU stream in raw LSB units (1/2048 g, 1/16 °/s), one slot per sample index. */
export interface ImuStream {
  /** Number of sample slots = end-chunk imu_total. */
  total: number;
  /** 1 where the sample was recorded, 0 where it was lost (a gap). */
  present: Uint8Array;
  ax: Int16Array;
  ay: Int16Array;
  az: Int16Array;
  gx: Int16Array;
  gy: Int16Array;
  gz: Int16Array;
}

/** GNSS stream, one slot per fix index; a missing record reads as fix = 0. */
export interface GnssStream {
  total: number;
  latE7: Int32Array;
  lonE7: Int32Array;
  speedMmS: Uint16Array;
  courseCdeg: Uint16Array;
  fix: Uint8Array;
  satellites: Uint8Array;
  hdopC: Uint16Array;
}

export interface SvcEvent {
  imuIndex: number;
  /** 1 = start button, 2 = lap button, 3 = stop button. */
  kind: number;
}

export interface DecodedSvc {
  header: SvcHeader;
  imu: ImuStream;
  gnss: GnssStream;
  /** Heart rate in bpm per reading slot; 0 = no reading. */
  hrBpm: Uint8Array;
  events: SvcEvent[];
  /** IMU slots not covered by any block. */
  imuLostSamples: number;
  skippedExtensionChunks: number;
}

/** What the encoder writes: the same content, header fields the writer may choose. */
export interface SvcContent {
  header: Omit<SvcHeader, "formatVersion" | "headerLength" | "nonce" | "flags"> & {
    /** Defaults to random bytes. */
    nonce?: Uint8Array;
    /** Defaults to 1 (deflate). */
    flags?: number;
  };
  imu: ImuStream;
  gnss: GnssStream;
  hrBpm: Uint8Array;
  events: SvcEvent[];
}

/** Key id to 32-byte master key. */
export type Keyring = ReadonlyMap<number, Uint8Array>;

/**
 * A planned step of an interval practice, as the workout template writes it
 * (docs/workouts.md; parsed by server/workouts/template.ts). The core owns
 * the shape: segmentation matches measured sets to these steps and the
 * simulator paddles them, without knowing the template around them.
 */
export interface StepTargets {
  /** Stroke rate, strokes per minute (every blade entry). */
  rate_spm?: number;
  /** Pace, seconds per 500 m. */
  pace_s_per_500m?: number;
  /** Training zone 1 (easy) to 5 (maximal). */
  zone?: number;
}

/** One work or rest step: exactly one of a distance and a duration. */
export interface WorkoutStep {
  kind: "work" | "rest";
  distance_m?: number;
  duration_s?: number;
  targets?: StepTargets;
}
