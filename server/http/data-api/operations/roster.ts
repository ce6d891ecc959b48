import type { DataApiOperation } from "../define-operation";

export const rosterOperations: DataApiOperation[] = [];
