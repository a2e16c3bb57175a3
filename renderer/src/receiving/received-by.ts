import { useEffect, useState } from 'react';
import type { ReturnPackage } from '#shared/api/return-packages.ts';
import { pageClient } from '../api/station-api.ts';

/**
 * Who received the open package, by name (docs/decisions/site-receipt.md): the station keeps it with
 * the package (`processor_name`), also for a receipt made at another station of the site, whose
 * worker's id means nothing here. The G view has no such field, so the whole receipt is read once
 * per version of a received package. Null while unknown (not received, not read yet, or no name kept).
 */
export function useReceivedBy(accountId: number | null, pkg: Pick<ReturnPackage, 'id' | 'status' | 'updated_at'> | null): string | null {
  const key = accountId !== null && pkg?.status === 'received' ? `${accountId}/${pkg.id}/${pkg.updated_at}` : null;
  const [named, setNamed] = useState<{ key: string; name: string | null } | null>(null);
  useEffect(() => {
    if (key === null) return;
    const [account, id] = key.split('/').map(Number);
    let live = true;
    pageClient.getSiteReceipt(account ?? 0, id ?? 0).then(
      (receipt) => live && setNamed({ key, name: receipt.processor_name }),
      // Not shown rather than a second error beside the package: the lock notice stays without a name.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [key]);
  return named?.key === key ? named.name : null;
}
