import pkg from '../../package.json' with { type: 'json' };

export const STATION_VERSION: string = pkg.version;
export const STATION_NAME = 'Returns Station';
