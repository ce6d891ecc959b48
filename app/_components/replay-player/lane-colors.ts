/** One colour per lane, distinct on blue water. Its own module: the player's legend needs it before three.js loads. */
export const LANE_COLORS = ["#e4572e", "#f3c623", "#2ec4b6", "#9b5de5", "#ff70a6", "#70e000", "#ff9f1c", "#f15bb5", "#ffffff"];
