/** "1 session", "12 sessions": the deletion statements are read by people. */
export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "1 session keeps its data", "3 sessions keep their data": the sentence every deletion statement opens with. */
export const keepTheirData = (n: number, one: string, many = `${one}s`) =>
  `${count(n, one, many)} keep${n === 1 ? "s" : ""} ${n === 1 ? "its" : "their"} data`;
