import { useEffect } from 'react';
import { useSiteManaged } from './site-managed.ts';

/** On a site's member: says that what the screen shows is the hub's, and where to change it. Nothing elsewhere. */
export function SiteManagedNote({ what }: { what: string }) {
  const managed = useSiteManaged((s) => s.managed);
  useEffect(() => void useSiteManaged.getState().load(), []);
  if (!managed) return null;
  return (
    <p className="site-managed" role="note" data-testid="site-managed">
      Managed by the site&apos;s hub at <code>{managed.hub_url}</code>: {what} are changed there.
    </p>
  );
}
