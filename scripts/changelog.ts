import fs from "node:fs";
import { changelogMarkdown } from "../server/changelog/changelog";

/** Writes docs/changelog.md from server/changelog/changelog.ts (the portal's /developer/changelog reads the same list). */
fs.writeFileSync("docs/changelog.md", changelogMarkdown());
console.log("wrote docs/changelog.md");
