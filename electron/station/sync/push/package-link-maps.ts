import { type ReturnPackage, type UpstreamLink } from '../../store/index.ts';
import type { SyncContext } from '../sync-context.ts';
import { answerKind, type UpstreamAnswer } from '../upstream/answers.ts';
import { linkOf, putLink } from '../links/upstream-links.ts';

/*
 * What the pushes of a package's media and of its line items share: each keeps a map of local to
 * upstream ids on the package's link, saved one change at a time, and each meets an upstream that may
 * have no such sub-resource.
 */

/** The maps a package's link keeps for its sub-resources. */
export type PackageLinkMap = 'media' | 'line_items';

/** Saves a change to one map of the package's link (and `extra` fields of the link) in its own store write, on the link as stored now. */
export type PackageLinkMapSaver<K extends PackageLinkMap> = (
  update: (map: NonNullable<UpstreamLink[K]>) => void,
  extra?: Partial<UpstreamLink>,
) => Promise<void>;

export function packageLinkMapSaver<K extends PackageLinkMap>(sc: SyncContext, pkg: ReturnPackage, name: K): PackageLinkMapSaver<K> {
  return (update, extra = {}) =>
    sc.store.write(async (t) => {
      const current = await linkOf(t, 'return_package', pkg.id);
      if (!current) return;
      const map = { ...(current[name] ?? {}) } as NonNullable<UpstreamLink[K]>;
      update(map);
      await putLink(t, { ...current, ...extra, [name]: map }, sc.clock.now());
    });
}

/** 405/501, or a 404 while the package itself is there: the upstream has no such sub-resource. */
export async function subResourceUnsupported(sc: SyncContext, pkg: ReturnPackage, link: UpstreamLink, answer: UpstreamAnswer): Promise<boolean> {
  if (answer.status === 405 || answer.status === 501) return true;
  if (answer.status !== 404) return false;
  const check = await sc.client.send({ method: 'GET', url: sc.client.packagesUrl(pkg.account_id, link.upstream_id), priority: 'push' });
  return check !== null && answerKind(check.status) === 'ok';
}
