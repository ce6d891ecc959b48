import * as THREE from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import { BOAT_DIMENSIONS, createBoat, LANE_COLORS, type BoatModel } from "./boat-model";
import { poseAt, type LaneTrack, type ModelClass } from "./playback";

/**
 * The three.js side of the player: water, lane buoys, distance markers every
 * 50 m, one boat per lane aligned at the start, and a camera that follows the
 * lead boat while the viewer orbits it. The React component owns time; this
 * class only draws a given moment.
 */
export const LANE_WIDTH_M = 9;
const MARKER_EVERY_M = 50;

export interface SceneLane {
  lane: number;
  modelClass: ModelClass;
}

/** Whether this browser can give us a WebGL context at all. */
export function webglAvailable(): boolean {
  try {
    const canvas = document.createElement("canvas");
    return Boolean(canvas.getContext("webgl2") ?? canvas.getContext("webgl"));
  } catch {
    return false;
  }
}

function textSprite(text: string, color: string, heightM: number): THREE.Sprite {
  const canvas = document.createElement("canvas");
  canvas.width = 256;
  canvas.height = 96;
  const ctx = canvas.getContext("2d")!;
  ctx.font = "bold 64px system-ui, sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.lineWidth = 8;
  ctx.strokeStyle = "rgba(0,0,0,0.6)";
  ctx.strokeText(text, 128, 48);
  ctx.fillStyle = color;
  ctx.fillText(text, 128, 48);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: texture, depthWrite: false }));
  sprite.scale.set((heightM * 256) / 96, heightM, 1);
  return sprite;
}

export class ReplayScene {
  private readonly renderer: THREE.WebGLRenderer;
  private readonly scene = new THREE.Scene();
  private readonly camera: THREE.PerspectiveCamera;
  private readonly controls: OrbitControls;
  private readonly boats = new Map<number, { model: BoatModel; track: LaneTrack | null; z: number }>();
  private readonly markers = new THREE.Group();
  private readonly materials = {
    skin: new THREE.MeshLambertMaterial({ color: "#e0ac69" }),
    paddle: new THREE.MeshLambertMaterial({ color: "#222222" }),
    blade: new THREE.MeshLambertMaterial({ color: "#f8f8f8" }),
  };
  private markedUpToM = -1;
  private readonly laneCount: number;

  constructor(canvas: HTMLCanvasElement, lanes: SceneLane[]) {
    this.renderer = new THREE.WebGLRenderer({
      canvas,
      antialias: false,
      powerPreference: "high-performance",
      preserveDrawingBuffer: false,
    });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.scene.background = new THREE.Color("#a9d3f5");
    this.scene.fog = new THREE.Fog("#a9d3f5", 120, 420);
    this.scene.add(new THREE.HemisphereLight("#ffffff", "#335577", 1.6));
    const sun = new THREE.DirectionalLight("#ffffff", 1.4);
    sun.position.set(-30, 60, 20);
    this.scene.add(sun);

    this.laneCount = Math.max(...lanes.map((l) => l.lane));
    const water = new THREE.Mesh(new THREE.PlaneGeometry(6000, 2000), new THREE.MeshLambertMaterial({ color: "#2f6f9f" }));
    water.rotation.x = -Math.PI / 2;
    water.position.x = 2900;
    this.scene.add(water);
    // Buoy lines between lanes: long thin strips, cheap to draw.
    const lineMaterial = new THREE.MeshBasicMaterial({ color: "#d9e8f5" });
    for (let i = 0; i <= this.laneCount; i++) {
      const strip = new THREE.Mesh(new THREE.PlaneGeometry(2400, 0.12), lineMaterial);
      strip.rotation.x = -Math.PI / 2;
      strip.position.set(1180, 0.01, this.laneZ(i + 0.5));
      this.scene.add(strip);
    }
    this.scene.add(this.markers);

    for (const lane of lanes) {
      const model = createBoat(lane.modelClass, LANE_COLORS[(lane.lane - 1) % LANE_COLORS.length], this.materials);
      const z = this.laneZ(lane.lane);
      model.root.position.set(-BOAT_DIMENSIONS[lane.modelClass].lengthM / 2, 0, z);
      const label = textSprite(String(lane.lane), "#ffffff", 0.9);
      label.position.set(0, 2.2, 0);
      model.root.add(label);
      this.scene.add(model.root);
      this.boats.set(lane.lane, { model, track: null, z });
    }
    this.extendMarkers(200);

    this.camera = new THREE.PerspectiveCamera(50, 16 / 9, 0.3, 1500);
    const spread = 10 + this.laneCount * LANE_WIDTH_M * 0.9;
    this.camera.position.set(-spread * 0.9, spread * 0.55, spread * 0.9);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.target.set(0, 0, this.laneZ((this.laneCount + 1) / 2));
    this.controls.maxPolarAngle = Math.PI / 2 - 0.05;
    this.controls.minDistance = 4;
    this.controls.maxDistance = 400;
    this.controls.enablePan = false;
    this.controls.update();
  }

  /** Lane 1 nearest the camera's default side, each lane 9 m wide (a sprint course). */
  private laneZ(lane: number): number {
    return (lane - 1) * LANE_WIDTH_M;
  }

  private extendMarkers(uptoM: number) {
    const farZ = this.laneZ(this.laneCount + 0.5) + 1.5;
    const nearZ = this.laneZ(0.5) - 1.5;
    const buoyGeometry = new THREE.SphereGeometry(0.35, 10, 6);
    const buoyMaterial = new THREE.MeshLambertMaterial({ color: "#ffd400" });
    for (let m = this.markedUpToM + 1; m <= uptoM; m++) {
      if (m % MARKER_EVERY_M !== 0) continue;
      for (const z of [nearZ, farZ]) {
        const buoy = new THREE.Mesh(buoyGeometry, buoyMaterial);
        buoy.position.set(m, 0.15, z);
        this.markers.add(buoy);
      }
      const label = textSprite(`${m} m`, "#ffffff", 2.2);
      label.position.set(m, 2.2, nearZ - 1.5);
      this.markers.add(label);
    }
    this.markedUpToM = Math.max(this.markedUpToM, uptoM);
  }

  setTrack(lane: number, track: LaneTrack) {
    const boat = this.boats.get(lane);
    if (!boat) return;
    boat.track = track;
    this.extendMarkers(Math.ceil((track.finishX + 1) / MARKER_EVERY_M) * MARKER_EVERY_M);
  }

  /** Draws the moment `timeS` seconds after the common start; the camera keeps its offset from the lead boat. */
  render(timeS: number) {
    let leadX = -Infinity;
    for (const boat of this.boats.values()) {
      const { model, track } = boat;
      if (!track) continue;
      const pose = poseAt(track, timeS);
      const length = BOAT_DIMENSIONS[track.modelClass].lengthM;
      // x is the distance covered by the bow since the start; the model's origin is its middle.
      model.root.position.set(pose.x - length / 2, 0, boat.z);
      model.root.rotation.set(pose.roll, -pose.yaw, pose.pitch, "YZX");
      model.setPhase(pose.phase);
      leadX = Math.max(leadX, pose.x);
    }
    if (Number.isFinite(leadX)) {
      const target = new THREE.Vector3(leadX - 3, 0, this.controls.target.z);
      const delta = target.clone().sub(this.controls.target);
      this.camera.position.add(delta);
      this.controls.target.copy(target);
    }
    this.controls.update();
    this.renderer.render(this.scene, this.camera);
  }

  resize(width: number, height: number) {
    if (width <= 0 || height <= 0) return;
    this.renderer.setSize(width, height, false);
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
  }

  dispose() {
    this.controls.dispose();
    this.scene.traverse((object) => {
      if (object instanceof THREE.Mesh || object instanceof THREE.Sprite) {
        object.geometry.dispose();
        const material = object.material as THREE.Material & { map?: THREE.Texture | null };
        material.map?.dispose();
        material.dispose();
      }
    });
    this.renderer.dispose();
  }
}
