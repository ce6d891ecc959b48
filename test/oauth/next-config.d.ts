// next.config.mjs is plain JavaScript; the harness reads only its rewrites.
declare module "@/next.config.mjs" {
  const config: { rewrites(): Promise<{ source: string; destination: string }[]> };
  export default config;
}
