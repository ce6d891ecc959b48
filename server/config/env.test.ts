import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env";

describe("environment", () => {
  it("defaults to PGlite in .data on port 3000", () => {
    const env = parseEnv({});
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.dataDir.endsWith(".data")).toBe(true);
    expect(env.PORT).toBe(3000);
    expect(env.appUrl).toBe("http://localhost:3000");
  });

  it("names every bad variable in one message", () => {
    const error = (() => {
      try {
        parseEnv({ PORT: "http", DATABASE_URL: "mysql://x", APP_URL: "https://example.com/", AUTH_SECRET: "short" });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(EnvError);
    for (const name of ["PORT", "DATABASE_URL", "APP_URL", "AUTH_SECRET"]) expect(error!.message).toContain(name);
  });

  it("treats empty values as unset and accepts NEXTAUTH_SECRET as the secret", () => {
    const env = parseEnv({ DATABASE_URL: "", NEXTAUTH_SECRET: "x".repeat(40), PORT: "4100" });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.AUTH_SECRET).toBe("x".repeat(40));
    expect(env.appUrl).toBe("http://localhost:4100");
  });

  it("takes a map tile URL template only with {z}, {x} and {y}", () => {
    expect(parseEnv({ MAP_TILE_URL: "https://tiles.example.org/{z}/{x}/{y}.png" }).MAP_TILE_URL).toBe("https://tiles.example.org/{z}/{x}/{y}.png");
    expect(parseEnv({}).MAP_TILE_URL).toBeUndefined();
    for (const bad of ["https://tiles.example.org/{z}/{x}.png", "ftp://tiles/{z}/{x}/{y}", "javascript:alert(1)//{z}{x}{y}"]) {
      expect(() => parseEnv({ MAP_TILE_URL: bad })).toThrow(/MAP_TILE_URL/);
    }
  });
});
