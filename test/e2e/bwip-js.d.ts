// bwip-js types sit behind its `node` export condition, which the Bundler resolution of the
// type-check does not pick; this is the one call the camera spec uses.
declare module 'bwip-js' {
  const bwipjs: { toBuffer(options: Record<string, unknown>): Promise<Buffer> };
  export default bwipjs;
}
