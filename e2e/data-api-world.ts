/**
 * The Data API's seeded test world (scripts/e2e-seed-data-api.ts writes it
 * before the e2e server starts): two people whose sessions, crews, health
 * rows, devices and equipment cross, with distinctive values that must never
 * leave through the other person's tokens. Specs find ids through the API.
 */
export const DATA_WORLD = {
  anna: { email: "anna-data@e2e.example", password: "anna-data-password-e2e", name: "Anna Owner" },
  olaf: { email: "olaf-other@e2e.example", password: "olaf-other-password-e2e", name: "Olaf Outsider" },
  /** Anna manages Ben (no account) and coaches him in her team. */
  ben: { name: "Ben", surname: "Managed" },
  /** A paddler typed by hand into one of Anna's crews: never an identity in the API. */
  external: { name: "Xavier", surname: "Externo" },
  /** Simulator seeds of the uploaded files; each unit's serial is derived from its seed. */
  seeds: { annaK1: 601, annaK4: 602, annaC1Ben: 603, olafK2WithAnna: 611, olafK1: 612, olafC2WithBen: 613 },
  /** External-provider health rows: stored, never served (four decimals: no processed value collides with them). */
  externalWeightKg: 77.7731,
  externalLactate: 13.3717,
  externalSource: "ExternalFit Cloud",
  /** Olaf's own health values: never served to Anna. */
  olafWeightKg: 91.2347,
  olafLactate: 9.8713,
  annaWeightsKg: [68.4, 68.9],
  annaLactate: 4.2,
  annaVesselName: "Anna red K1",
  annaPaddleName: "Anna wing paddle",
  olafVesselName: "Olaf private boat",
  /** Olaf's course; it names sessions Anna paddled in there, so it is no secret. */
  olafTrackName: "Lake Nord",
  failedDescription: "world failed session",
  /**
   * Trainings (docs/data-api.md "Trainings"): titles name them. Their seeds are those of sessions
   * recorded on the same units, so the trainings bring no new devices (the serial derives from the seed).
   */
  trainings: {
    /** Anna's own practice against her template annaTemplateName, with her lactate reading of it. */
    annaTemplated: { title: "World intervals 4x250", spec: "4x250m/60s", seed: 601 },
    /** Anna's practice paddled by Ben (managed): the heart rate is Ben's, never served. */
    annaBen: { title: "Ben pieces 3x200", spec: "3x200m/45s", seed: 603 },
    /** Created by the seeded session-surface application (sessionApp). */
    annaApp: { title: "Logger intervals 3x200", spec: "3x200m/45s", seed: 602 },
    /** Processing failed: a status and a reason, no sets. */
    annaFailed: { title: "World failed training" },
    olaf: { title: "Olaf private pieces", spec: "3x200m/45s", seed: 612 },
  },
  annaTrainingLactate: 7.3,
  /** Anna's public session-surface application, seeded so a training can be created by it (no API creates trainings). */
  sessionApp: { clientId: "e2e-trainings-logger", redirectUri: "http://127.0.0.1:45901/callback" },
  annaTemplateName: "Anna 4x250",
  olafTemplateName: "Olaf private intervals",
} as const;

/** The serial the simulator writes for a seed (server/svc/simulator/simulate.ts); secret, never served. */
export const serialOfSeed = (seed: number) => `SIM${String(seed).padStart(13, "0")}`.slice(0, 16);
