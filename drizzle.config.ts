import { defineConfig } from "drizzle-kit";

// drizzle-kit only generates SQL from the schema; migrations are applied by
// server/db/migrate.ts on start and by `npm run db:migrate`.
export default defineConfig({
  dialect: "postgresql",
  schema: "./server/db/schema/index.ts",
  out: "./drizzle",
});
