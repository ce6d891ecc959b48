// One file per table or small group; drizzle-kit reads this barrel.
export * from "./roles";
export * from "./users";
export * from "./athletes";
export * from "./teams";
export * from "./tracks";
export * from "./reference";
export * from "./devices";
export * from "./blobs";
export * from "./results";
export * from "./auth-state";
export * from "./rate-limits";
export * from "./key-pairs";
export * from "./result-shares";
export * from "./equipment";
export * from "./health";
export * from "./jobs";
