"use client";

import "leaflet/dist/leaflet.css";
import { useEffect, useRef } from "react";
import type { CourseMap as CourseMapData } from "@/server/results/course-map";

import { nearViewport } from "@/app/_lib/near-viewport";
import { useSessionCursor } from "./session-cursor";
import { speedColour } from "@/app/_lib/speed-colour";

/**
 * The course on a map (Leaflet): the route coloured by speed, a start marker
 * and one marker per split end. Without a tile URL the route is drawn on a
 * plain Web Mercator background, with no request leaving the browser.
 */
export function CourseMap({ data, tileUrl, label }: { data: CourseMapData; tileUrl: string | null; label: string }) {
  const container = useRef<HTMLDivElement>(null);
  const cursor = useSessionCursor();
  useEffect(() => {
    let disposed = false;
    let unsubscribe = () => {};
    let map: import("leaflet").Map | null = null;
    const abort = new AbortController();
    // Leaflet loads once the map is on screen: the session page's map sits below the fold.
    void nearViewport(container.current!, abort.signal)
      .then(() => (disposed ? null : import("leaflet")))
      .then((L) => {
        if (!L) return;
        if (disposed || !container.current) return;
        map = L.map(container.current, { attributionControl: Boolean(tileUrl), scrollWheelZoom: false, keyboard: true });
        if (tileUrl) L.tileLayer(tileUrl, { attribution: `Tiles: ${new URL(tileUrl.replace(/[{}]/g, "")).host}`, maxZoom: 19 }).addTo(map);
        const { points, minSpeed, maxSpeed } = data;
        // One polyline per run of points in the same colour band: few layers, exact colours.
        let run: [number, number][] = [[points[0][0], points[0][1]]];
        let colour = speedColour(points[0][2], minSpeed, maxSpeed);
        for (let k = 1; k < points.length; k++) {
          const next = speedColour(points[k][2], minSpeed, maxSpeed);
          run.push([points[k][0], points[k][1]]);
          if (next !== colour || k === points.length - 1) {
            const segment = L.polyline(run, { color: colour, weight: 5, opacity: 0.95, className: "course-segment" }).addTo(map);
            // The page's cursor: a click on the course seeks the replay to that point.
            if (cursor) segment.on("click", (event) => cursor.seekDistance(distanceNear(data, event.latlng.lat, event.latlng.lng)));
            run = [[points[k][0], points[k][1]]];
            colour = next;
          }
        }
        L.circleMarker([points[0][0], points[0][1]], {
          radius: 7,
          color: "#1b1f24",
          fillColor: "#1a7f37",
          fillOpacity: 1,
          weight: 2,
          className: "course-start",
        })
          .bindTooltip("Start")
          .addTo(map);
        for (const split of data.splits) {
          L.circleMarker([split.lat, split.lon], {
            radius: 5,
            color: "#1b1f24",
            fillColor: "#ffffff",
            fillOpacity: 1,
            weight: 2,
            className: "split-marker",
          })
            .bindTooltip(`${Math.round(split.distanceM)} m`)
            .addTo(map);
        }
        map.fitBounds(L.latLngBounds(points.map((p) => [p[0], p[1]] as [number, number])), { padding: [16, 16] });
        if (cursor) {
          const marker = L.circleMarker([points[0][0], points[0][1]], {
            radius: 8,
            color: "#ffffff",
            fillColor: "#1b1f24",
            fillOpacity: 1,
            weight: 3,
            className: "course-cursor",
            interactive: false,
          }).addTo(map);
          const element = container.current;
          unsubscribe = cursor.subscribe(() => {
            const d = cursor.distanceM();
            marker.setLatLng(positionAt(data, d));
            element.dataset.cursorM = d.toFixed(1);
          });
        }
        container.current.dataset.ready = "true";
      });
    return () => {
      disposed = true;
      abort.abort();
      unsubscribe();
      map?.remove();
    };
  }, [data, tileUrl, cursor]);
  return <div ref={container} className="course-map" data-testid="course-map" role="region" aria-label={label} />;
}

/** [lat, lon] at `distanceM` along the course, between its two nearest points. */
function positionAt(data: CourseMapData, distanceM: number): [number, number] {
  const { points, pointDistancesM: d } = data;
  let k = 0;
  while (k + 1 < d.length && d[k + 1] <= distanceM) k++;
  if (k + 1 >= d.length) return [points[k][0], points[k][1]];
  const f = d[k + 1] > d[k] ? Math.max(0, Math.min(1, (distanceM - d[k]) / (d[k + 1] - d[k]))) : 0;
  return [points[k][0] + (points[k + 1][0] - points[k][0]) * f, points[k][1] + (points[k + 1][1] - points[k][1]) * f];
}

/** The distance of the course point nearest to a clicked place. */
function distanceNear(data: CourseMapData, lat: number, lon: number): number {
  let best = 0;
  let bestGap = Infinity;
  const cos = Math.cos((lat * Math.PI) / 180);
  data.points.forEach((p, k) => {
    const gap = (p[0] - lat) ** 2 + ((p[1] - lon) * cos) ** 2;
    if (gap < bestGap) {
      bestGap = gap;
      best = k;
    }
  });
  return data.pointDistancesM[best];
}
