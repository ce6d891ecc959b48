import * as THREE from "three";
import { paddlePose, type ModelClass } from "./playback";

/**
 * Boat models to scale (docs/replay.md "Player"): hull length and beam of
 * each class at the ICF maximum length, its seats spaced along the cockpit,
 * a paddler per seat with a paddle that follows `paddle_phase`. Axes: +X is
 * the bow (course direction), +Y up, so the left side is −Z.
 */
export const BOAT_DIMENSIONS: Record<ModelClass, { lengthM: number; beamM: number; seats: number }> = {
  K1: { lengthM: 5.2, beamM: 0.5, seats: 1 },
  K2: { lengthM: 6.5, beamM: 0.55, seats: 2 },
  K4: { lengthM: 11.0, beamM: 0.6, seats: 4 },
  C1: { lengthM: 5.2, beamM: 0.75, seats: 1 },
  C2: { lengthM: 6.5, beamM: 0.75, seats: 2 },
  C4: { lengthM: 9.0, beamM: 0.9, seats: 4 },
};

export { LANE_COLORS } from "./lane-colors";

interface PaddleRig {
  group: THREE.Group;
  shoulderY: number;
  /** Canoe only: +1 paddles on the left, −1 on the right. */
  canoeSide: 1 | -1;
}

export interface BoatModel {
  root: THREE.Group;
  /** Poses every paddle of the crew for one phase (crews paddle in time). */
  setPhase(phase: number): void;
}

export function createBoat(
  modelClass: ModelClass,
  color: string,
  materials: { skin: THREE.Material; paddle: THREE.Material; blade: THREE.Material },
): BoatModel {
  const dims = BOAT_DIMENSIONS[modelClass];
  const kayak = modelClass.startsWith("K");
  const root = new THREE.Group();
  const hullMaterial = new THREE.MeshLambertMaterial({ color });
  const hull = new THREE.Mesh(new THREE.SphereGeometry(1, 28, 10), hullMaterial);
  hull.scale.set(dims.lengthM / 2, 0.16, dims.beamM / 2);
  hull.position.y = 0.04;
  root.add(hull);
  const deck = new THREE.Mesh(
    new THREE.BoxGeometry(dims.lengthM * 0.55, 0.02, dims.beamM * 0.35),
    new THREE.MeshLambertMaterial({ color: "#1f2933" }),
  );
  deck.position.y = 0.18;
  root.add(deck);

  const bodyMaterial = new THREE.MeshLambertMaterial({ color: new THREE.Color(color).multiplyScalar(0.55) });
  const rigs: PaddleRig[] = [];
  // Seats spread over the middle of the hull, bow seat first; about 1.5 m apart in crew boats.
  const spacing = dims.seats === 1 ? 0 : Math.min(1.6, (dims.lengthM * 0.62) / (dims.seats - 1));
  for (let seat = 0; seat < dims.seats; seat++) {
    const x = ((dims.seats - 1) / 2 - seat) * spacing;
    const torsoHeight = kayak ? 0.55 : 0.6;
    const hipY = kayak ? 0.2 : 0.45; // kayakers sit, canoeists kneel
    const torso = new THREE.Mesh(new THREE.CylinderGeometry(0.15, 0.18, torsoHeight, 10), bodyMaterial);
    torso.position.set(x, hipY + torsoHeight / 2, 0);
    torso.rotation.z = -0.12; // a slight forward lean
    const head = new THREE.Mesh(new THREE.SphereGeometry(0.11, 12, 8), materials.skin);
    head.position.set(x + 0.05, hipY + torsoHeight + 0.13, 0);
    root.add(torso, head);

    const shoulderY = hipY + torsoHeight - 0.08;
    const canoeSide: 1 | -1 = seat % 2 === 0 ? -1 : 1;
    const group = new THREE.Group();
    group.rotation.order = "YXZ";
    if (kayak) {
      const shaft = new THREE.Mesh(new THREE.CylinderGeometry(0.016, 0.016, 2.15, 6), materials.paddle);
      shaft.rotation.x = Math.PI / 2; // along Z, across the boat
      group.add(shaft);
      for (const end of [-1, 1]) {
        const blade = new THREE.Mesh(new THREE.BoxGeometry(0.16, 0.02, 0.48), materials.blade);
        blade.position.z = end * 0.95;
        group.add(blade);
      }
      group.position.set(x + 0.25, shoulderY, 0);
    } else {
      // A single-blade paddle hangs from the top hand: shaft down, blade at the bottom.
      const shaft = new THREE.Mesh(new THREE.CylinderGeometry(0.017, 0.017, 1.45, 6), materials.paddle);
      shaft.position.y = -0.72;
      const blade = new THREE.Mesh(new THREE.BoxGeometry(0.22, 0.5, 0.02), materials.blade);
      blade.position.y = -1.3;
      group.add(shaft, blade);
      group.position.set(x + 0.2, shoulderY + 0.35, -canoeSide * (dims.beamM / 2 + 0.08));
    }
    root.add(group);
    rigs.push({ group, shoulderY: group.position.y, canoeSide });
  }

  return {
    root,
    setPhase(phase: number) {
      for (const rig of rigs) {
        if (kayak) {
          const pose = paddlePose(phase, "kayak");
          const side = Math.sign(pose.tilt) || 1;
          rig.group.rotation.set(-pose.tilt, -side * pose.sweep, 0);
          rig.group.position.y = rig.shoulderY + (1 - pose.depth) * 0.12;
        } else {
          const pose = paddlePose(phase, "canoe", rig.canoeSide);
          rig.group.rotation.set(rig.canoeSide * (0.15 + (1 - pose.depth) * 0.2), 0, pose.sweep);
          rig.group.position.y = rig.shoulderY + (1 - pose.depth) * 0.25;
        }
      }
    },
  };
}
