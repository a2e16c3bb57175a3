// bwip-js types sit behind its `node` export condition, which the Bundler resolution of the
// type-check does not pick; these are the calls the specs use.
declare module 'bwip-js' {
  const bwipjs: { toBuffer(options: Record<string, unknown>): Promise<Buffer>; toSVG(options: Record<string, unknown>): string };
  export default bwipjs;
}
