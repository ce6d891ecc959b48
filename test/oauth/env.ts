// The app as the e2e server runs it: behind one trusted proxy, so X-Forwarded-For is the client's
// address (the per-address sign-in limits need one). Set before any module reads the configuration.
process.env.TRUST_PROXY ??= "1";
