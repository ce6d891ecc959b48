/** Loopback addresses and origins: a leaf, read by the configuration and the upload rule. */

/** 127.0.0.0/8 and ::1, also in their IPv4-mapped IPv6 forms (::ffff:127.0.0.1). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const ip = address.toLowerCase().replace(/^::ffff:(?=\d+\.)/, "");
  if (ip === "::1" || ip === "0:0:0:0:0:0:0:1") return true;
  const octets = ip.split(".");
  return octets.length === 4 && octets[0] === "127" && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255);
}

/** A loopback origin: http(s) on localhost, 127.0.0.0/8 or [::1]. */
export function isLoopbackOrigin(url: string): boolean {
  const parsed = URL.parse(url);
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) return false;
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || isLoopbackAddress(host);
}
