/* The public pieces of the station API contract, for the server, the renderer and tests. */
export * from './common.ts';
export * from './currencies.ts';
export * from './errors.ts';
export * from './returns.ts';
export * from './return-packages.ts';
export * from './line-items.ts';
export * from './media.ts';
export * from './station.ts';
export * from './events.ts';
export * from './sync.ts';
export * from './sse.ts';
export * from './routes.ts';
export * from './client.ts';
export * from './openapi.ts';
export * from '../package-status.ts';
export * from '../barcode.ts';
export * from '../health.ts';
