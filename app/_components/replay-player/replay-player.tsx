"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { LANE_COLORS } from "./lane-colors";
import { decodeTrack, formatClock, SPEEDS, type ArtifactJson, type LaneTrack, type ModelClass } from "./playback";
import type { ReplayScene } from "./replay-scene";
import styles from "./replay-player.module.css";
import { useHashSeek } from "./use-hash-seek";
import { nearViewport } from "@/app/_lib/near-viewport";
import { useSessionCursor } from "../session-cursor";
import { LiveFigures } from "./live-figures";

/**
 * The 3D replay player (docs/replay.md "Player"), shared by the embed launch
 * page, the session page and the public share page. Each lane's artifact URL
 * is fetched once; with a lease (embeds), the lease is renewed before it
 * runs out, and once it is refused the player stops fetching and says so,
 * keeping what it already has.
 */
export interface PlayerLane {
  lane: number;
  /** Shown in the legend: a lane number and boat class, never a name (docs/replay.md "Labels"). */
  label: string;
  modelClass: ModelClass;
  /** Artifact URL: a single-use embed URL, or the signed-in/share route. */
  url: string;
}

export interface PlayerLease {
  credential: string;
  renewUrl: string;
}

/** The position slider's arrow keys step as the player's own do (docs/replay.md "Player"); Shift (and Page Up/Down) further. */
export const SEEK_STEP_S = 5;
export const SEEK_STEP_LONG_S = 30;

/** Renew well before the ten-minute lease ends; check on this period. */
const RENEW_AFTER_MS = 4 * 60_000;
const RENEW_CHECK_MS = 15_000;

type Status = "loading" | "ready" | "no-webgl" | "failed";

export function ReplayPlayer({ lanes, lease, fill = false }: { lanes: PlayerLane[]; lease?: PlayerLease; fill?: boolean }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const seekRef = useRef<HTMLInputElement>(null);
  const clockRef = useRef<HTMLSpanElement>(null);
  const sceneRef = useRef<ReplayScene | null>(null);
  const timeRef = useRef(0);
  const durationRef = useRef(0);
  const playingRef = useRef(false);
  const speedRef = useRef(1);
  const [status, setStatus] = useState<Status>("loading");
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  const [duration, setDuration] = useState(0);
  const [revoked, setRevoked] = useState(false);
  const [missingLanes, setMissingLanes] = useState<number[]>([]);
  const revokedRef = useRef(false);
  /** Checks the lease at once (after an artifact was refused: was the embed revoked?). */
  const checkLeaseRef = useRef<() => void>(() => {});
  /** The session page's cursor (null in an embed): the player publishes its time there and takes seeks from it. */
  const cursor = useSessionCursor();

  useEffect(() => {
    playingRef.current = playing;
  }, [playing]);
  useEffect(() => {
    speedRef.current = speed;
  }, [speed]);

  // The scene, the artifacts and the render loop: one effect, torn down together.
  useEffect(() => {
    const abort = new AbortController();
    let frame = 0;
    let disposed = false;
    let lastTick = performance.now();
    let firstFrameMarked = false;
    (async () => {
      // three.js (~145 KB compressed) loads only once the player is on screen: a session
      // page whose replay sits below the fold stays light (docs/benchmarks.md "Web pages").
      await nearViewport(containerRef.current!, abort.signal);
      if (disposed) return;
      const { ReplayScene, webglAvailable } = await import("./replay-scene");
      if (disposed) return;
      if (!webglAvailable()) {
        setStatus("no-webgl");
        return;
      }
      let scene: ReplayScene;
      try {
        scene = new ReplayScene(canvasRef.current!, lanes);
      } catch {
        setStatus("no-webgl");
        return;
      }
      sceneRef.current = scene;
      const container = containerRef.current!;
      const resize = () => scene.resize(container.clientWidth, container.clientHeight);
      resize();
      const observer = new ResizeObserver(resize);
      observer.observe(container);
      abort.signal.addEventListener("abort", () => observer.disconnect());

      const tick = (now: number) => {
        if (disposed) return;
        const dt = Math.min(0.25, (now - lastTick) / 1000);
        lastTick = now;
        if (playingRef.current && durationRef.current > 0) {
          timeRef.current = Math.min(durationRef.current, timeRef.current + dt * speedRef.current);
          if (timeRef.current >= durationRef.current) setPlaying(false);
        }
        scene.render(timeRef.current);
        if (cursor) {
          cursor.playing = playingRef.current;
          if (durationRef.current > 0) cursor.publish(timeRef.current);
        }
        if (seekRef.current) seekRef.current.value = String(timeRef.current);
        if (clockRef.current) clockRef.current.textContent = `${formatClock(timeRef.current)} / ${formatClock(durationRef.current)}`;
        if (!firstFrameMarked && durationRef.current > 0) {
          firstFrameMarked = true;
          // Read by the e2e test and the benchmark (ms since navigation start).
          container.dataset.firstFrameMs = String(Math.round(now));
        }
        frame = requestAnimationFrame(tick);
      };
      frame = requestAnimationFrame(tick);

      const missing: number[] = [];
      let loaded = 0;
      for (const lane of lanes) {
        if (abort.signal.aborted) return;
        // Revoked: keep what was received, fetch nothing more.
        if (revokedRef.current) break;
        try {
          const response = await fetch(lane.url, { signal: abort.signal, cache: "no-store", credentials: "same-origin" });
          if (!response.ok) throw new Error(String(response.status));
          // The artifact is a gzip body (docs/replay.md "Artifact delivery").
          const json = await new Response(response.body!.pipeThrough(new DecompressionStream("gzip"))).json();
          const track: LaneTrack = decodeTrack(json as ArtifactJson);
          scene.setTrack(lane.lane, track);
          durationRef.current = Math.max(durationRef.current, track.durationS);
          setDuration(durationRef.current);
          // A chart clicked before the replay was there: start from that point.
          if (cursor && cursor.timeS > 0) timeRef.current = Math.min(durationRef.current, cursor.timeS);
          loaded++;
        } catch (error) {
          if (abort.signal.aborted) return;
          console.warn(`replay: lane ${lane.lane} could not be loaded`, error);
          missing.push(lane.lane);
          setMissingLanes([...missing]);
          if (error instanceof Error && error.message === "404") checkLeaseRef.current();
        }
      }
      if (!abort.signal.aborted) {
        setStatus(loaded > 0 ? "ready" : "failed");
        container.dataset.lanesLoaded = String(loaded);
        if (loaded > 0) setPlaying(true);
      }
    })();
    return () => {
      disposed = true;
      abort.abort();
      cancelAnimationFrame(frame);
      sceneRef.current?.dispose();
      sceneRef.current = null;
    };
    // The lanes are fixed for the life of a player.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The lease: renewed every few minutes; the first refusal ends all fetching.
  useEffect(() => {
    if (!lease || revoked) return;
    let lastRenewal = Date.now();
    let stopped = false;
    const renew = async () => {
      if (stopped) return;
      lastRenewal = Date.now();
      try {
        const response = await fetch(lease.renewUrl, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ lease: lease.credential }),
          cache: "no-store",
        });
        if (response.status === 401) {
          stopped = true;
          revokedRef.current = true;
          setRevoked(true);
        }
      } catch {
        // A network error is not a revocation: try again at the next check.
      }
    };
    checkLeaseRef.current = () => void renew();
    const timer = setInterval(() => {
      if (Date.now() - lastRenewal >= RENEW_AFTER_MS) void renew();
    }, RENEW_CHECK_MS);
    const onVisible = () => {
      if (document.visibilityState === "visible" && Date.now() - lastRenewal >= 60_000) void renew();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [lease, revoked]);

  const seek = useCallback((timeS: number) => {
    timeRef.current = Math.max(0, Math.min(durationRef.current, timeS));
    if (seekRef.current) seekRef.current.value = String(timeRef.current);
  }, []);
  useHashSeek(containerRef, status === "ready", seek);
  useEffect(() => cursor?.onSeek(seek), [cursor, seek]);
  const changeSpeed = useCallback((step: number) => {
    setSpeed((current) => SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, SPEEDS.indexOf(current as (typeof SPEEDS)[number]) + step))]);
  }, []);
  const togglePlay = useCallback(() => {
    setPlaying((p) => {
      if (!p && timeRef.current >= durationRef.current) timeRef.current = 0;
      return !p;
    });
  }, []);

  const onKeyDown = (event: React.KeyboardEvent) => {
    const actions: Record<string, () => void> = {
      " ": togglePlay,
      k: togglePlay,
      ArrowLeft: () => seek(timeRef.current - 5),
      j: () => seek(timeRef.current - 5),
      ArrowRight: () => seek(timeRef.current + 5),
      l: () => seek(timeRef.current + 5),
      ArrowUp: () => changeSpeed(1),
      "+": () => changeSpeed(1),
      ArrowDown: () => changeSpeed(-1),
      "-": () => changeSpeed(-1),
      Home: () => seek(0),
      "0": () => seek(0),
      End: () => seek(durationRef.current),
    };
    const action = actions[event.key];
    // Native controls keep their own keys (a focused slider moves with the arrows).
    if (!action || (event.target instanceof HTMLInputElement && event.key.startsWith("Arrow")) || event.target instanceof HTMLSelectElement)
      return;
    event.preventDefault();
    action();
  };

  const player = (
    <div
      ref={containerRef}
      className={fill ? styles.fill : styles.player}
      tabIndex={0}
      onKeyDown={onKeyDown}
      role="region"
      aria-label="3D replay. Space plays or pauses, arrows seek five seconds, up and down change the speed."
      data-state={revoked ? "revoked" : status}
      data-playing={playing ? "true" : "false"}
    >
      <canvas ref={canvasRef} className={styles.canvas} aria-hidden="true" />
      <ul className={styles.legend} aria-label="Lanes">
        {lanes.map((lane) => (
          <li key={lane.lane}>
            <span className={styles.swatch} style={{ background: LANE_COLORS[(lane.lane - 1) % LANE_COLORS.length] }} />
            {lane.label}
            {missingLanes.includes(lane.lane) ? " (unavailable)" : ""}
          </li>
        ))}
      </ul>
      {status === "loading" ? <div className={styles.message}>Loading replay…</div> : null}
      {status === "no-webgl" ? (
        <div className={styles.message}>This 3D replay needs WebGL, which this browser does not offer or has turned off.</div>
      ) : null}
      {status === "failed" && !revoked ? <div className={styles.message}>The replay could not be loaded.</div> : null}
      {revoked ? (
        <div className={styles.banner} role="status">
          replay no longer available
        </div>
      ) : null}
      {status === "ready" ? (
        <div className={styles.controls}>
          <button type="button" onClick={togglePlay} aria-label={playing ? "Pause" : "Play"}>
            {playing ? "❚❚" : "▶"}
          </button>
          <input
            ref={seekRef}
            className={styles.seek}
            type="range"
            min={0}
            max={duration}
            step={1 / 30}
            defaultValue={0}
            aria-label="Position in the replay"
            onInput={(e) => seek(Number(e.currentTarget.value))}
            onKeyDown={(e) => {
              const step = e.shiftKey || e.key.startsWith("Page") ? SEEK_STEP_LONG_S : SEEK_STEP_S;
              const direction = { ArrowRight: 1, ArrowUp: 1, PageUp: 1, ArrowLeft: -1, ArrowDown: -1, PageDown: -1 }[e.key];
              if (direction === undefined) return;
              // Not the native 1/30 s step: 5 s like the player's own arrows, 30 s with Shift.
              e.preventDefault();
              e.stopPropagation();
              seek(timeRef.current + direction * step);
            }}
          />
          <span ref={clockRef} className={styles.clock} aria-live="off" />
          <select aria-label="Speed" value={speed} onChange={(e) => setSpeed(Number(e.currentTarget.value))}>
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </div>
      ) : null}
    </div>
  );
  return cursor ? (
    <>
      {player}
      <LiveFigures cursor={cursor} />
    </>
  ) : (
    player
  );
}
