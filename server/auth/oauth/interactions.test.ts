import { describe, expect, it } from "vitest";
import { freshSignInRequired } from "./interactions";

const at = (params: Record<string, unknown>, reasons: string[] = ["no_session"]) => ({
  params,
  prompt: { name: "login", reasons, details: {} },
});
const NOW = Date.parse("2026-06-01T12:00:00Z");
const secondsAgo = (s: number) => Math.floor(NOW / 1000) - s;

describe("reusing the site session at the OAuth sign-in", () => {
  it("reuses it when nothing asks for a fresh sign-in", () => {
    expect(freshSignInRequired(at({}), secondsAgo(86_400), NOW)).toBe(false);
    expect(freshSignInRequired(at({}), null, NOW)).toBe(false);
  });

  it("prompt=login always asks for the password", () => {
    expect(freshSignInRequired(at({ prompt: "login" }), secondsAgo(1), NOW)).toBe(true);
    expect(freshSignInRequired(at({ prompt: "login consent" }), secondsAgo(1), NOW)).toBe(true);
    expect(freshSignInRequired(at({}, ["login_prompt"]), secondsAgo(1), NOW)).toBe(true);
  });

  it("max_age asks for it when the last sign-in is older, or unknown", () => {
    expect(freshSignInRequired(at({ max_age: 3600 }), secondsAgo(60), NOW)).toBe(false);
    expect(freshSignInRequired(at({ max_age: 3600 }), secondsAgo(3601), NOW)).toBe(true);
    expect(freshSignInRequired(at({ max_age: 0 }), secondsAgo(1), NOW)).toBe(true);
    expect(freshSignInRequired(at({ max_age: 3600 }), null, NOW)).toBe(true);
    expect(freshSignInRequired(at({ max_age: "not-a-number" }), secondsAgo(1), NOW)).toBe(true);
  });
});
