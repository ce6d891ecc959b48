import type { DataApiOperation } from "../define-operation";

export const devicesOperations: DataApiOperation[] = [];
