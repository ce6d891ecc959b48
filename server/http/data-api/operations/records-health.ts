import type { DataApiOperation } from "../define-operation";

export const recordsHealthOperations: DataApiOperation[] = [];
