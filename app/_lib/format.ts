/** 95_430 ms → "1:35.43". */
export function formatDuration(ms: number): string {
  const totalCentis = Math.round(ms / 10);
  const minutes = Math.floor(totalCentis / 6000);
  const seconds = (totalCentis % 6000) / 100;
  return `${minutes}:${seconds.toFixed(2).padStart(5, "0")}`;
}
