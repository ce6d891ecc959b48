import type { DataApiOperation } from "../define-operation";

export const equipmentOperations: DataApiOperation[] = [];
