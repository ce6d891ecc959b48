/** A used, expired, revoked or unknown launch: a plain page the iframe can show (docs/replay.md). */
export default function LaunchNotFound() {
  return (
    <main
      style={{
        position: "fixed",
        inset: 0,
        display: "flex",
        alignItems: "center",
        justifyContent: "center",
        padding: 24,
        textAlign: "center",
        background: "#0b2233",
        color: "#fff",
        font: "15px system-ui, sans-serif",
      }}
    >
      <p>This replay link is no longer valid. Replay links open once, within two minutes.</p>
    </main>
  );
}
