import { useStationStore, type LinkState } from '../state/station-store.ts';

const LINK_LABEL: Record<LinkState, string> = {
  connecting: 'Connecting…',
  online: 'Station online',
  unreachable: 'Station unreachable — work stays on screen',
};

export function StationHeader() {
  const health = useStationStore((state) => state.health);
  const link = useStationStore((state) => state.link);
  return (
    <header className="station-header">
      <h1 className="station-name">{health?.name ?? 'Returns Station'}</h1>
      <span className="station-version" data-testid="station-version">
        {health ? `Version ${health.version}` : ''}
      </span>
      <span className={`link-state link-${link}`} role="status" data-testid="link-state">
        {LINK_LABEL[link]}
      </span>
    </header>
  );
}
