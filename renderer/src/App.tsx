import { useEffect } from 'react';
import { StationHeader } from './components/StationHeader.tsx';
import { resolveConnection } from './connection.ts';
import { useStationStore } from './state/station-store.ts';

export function App() {
  const watch = useStationStore((state) => state.watch);
  useEffect(() => watch(resolveConnection()), [watch]);

  return (
    <div className="station-layout">
      <StationHeader />
      <main className="station-work" aria-label="Receiving">
        <section className="scan-panel" aria-label="Scan">
          <p className="hint">Scan a parcel&apos;s tracking number to open its return package.</p>
        </section>
      </main>
      <footer className="station-footer" aria-label="Today">
        <span>Received today: —</span>
        <span>In progress: —</span>
      </footer>
    </div>
  );
}
