import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { resolveConnection } from './connection.ts';
import { useStationStore } from './state/station-store.ts';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
// The API client exists before the first render: screens may call the station in their first effect.
useStationStore.getState().watch(resolveConnection());
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
