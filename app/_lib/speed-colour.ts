/** Slow → fast: blue, teal, yellow, orange, red (readable on a plain and on a tiled background). Shared by the map (client) and its legend (server). */
const RAMP = ["#2c7bb6", "#00a6ca", "#f9d057", "#f29e2e", "#d7191c"];

export function speedColour(speed: number, min: number, max: number): string {
  const f = max > min ? (speed - min) / (max - min) : 0.5;
  return RAMP[Math.min(RAMP.length - 1, Math.max(0, Math.floor(f * RAMP.length)))];
}
