/** "1 session", "12 sessions": the deletion statements are read by people. */
export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
