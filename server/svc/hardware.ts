/** Hardware model ids of the header (docs/svc-format.md); an unknown id is not an error. */
const HARDWARE_NAMES: Record<number, string> = { 1: "SVC One", 2: "SVC Pro", 3: "SVC Pro 2" };

export const hardwareName = (model: number) => HARDWARE_NAMES[model] ?? `SVC model ${model}`;
