import { useEffect, useState } from 'react';
import type { SiteView, UplinkOffer } from '#shared/api/site.ts';
import { describeError } from '../api/describe-error.ts';
import { pageClient } from '../api/station-api.ts';
import type { UpstreamSettingsInput } from '#shared/api/sync.ts';
import { useReveal } from '../components/use-reveal.ts';
import { useStationLink } from '../state/station-link.ts';
import { UpstreamForm } from '../sync/UpstreamForm.tsx';

/*
 * Moving the hub from Settings → Site (docs/decisions/site-promote.md), the same API as `site
 * promote`: on the hub, a supervisor makes a member the hub; on that member, once the hub offered
 * it, a supervisor takes over. Each asks first, saying what happens; the station refuses a
 * terminal's token and the sign-in opens.
 */

type Member = SiteView['members'][number];

/** On the hub: where its uplink went, once it stepped down. */
export function HandoverState({ handover }: { handover: NonNullable<SiteView['handover']> }) {
  return (
    <p data-testid="site-handover" data-taken={handover.taken_at ? 'yes' : 'no'}>
      {handover.taken_at
        ? `This station stepped down as the hub: member ${handover.member_id} took its link to the returns service at ${when(handover.taken_at)}. Join the stations to the new hub.`
        : `This station stepped down as the hub at ${when(handover.stepped_down_at)}: it sends nothing to the returns service; its link waits for member ${handover.member_id} (there: Settings → Site → Take over as hub).`}
    </p>
  );
}

/** On the hub: asks before making `member` the hub, then does it. */
export function PromoteConfirm({ member, done, cancel }: { member: Member; done: (message: string) => void; cancel: () => void }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const promote = async () => {
    setBusy(true);
    try {
      await pageClient.promoteSiteMember({ member_id: member.id });
      done(`${member.name} becomes the hub: this station sends nothing more to the returns service; its link waits for ${member.name} to take over.`);
    } catch (error) {
      setProblem(describeError(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="site-confirm" role="group" aria-label={`Make ${member.name} the hub`} data-testid="site-promote-confirm">
      <p>
        <strong>Make {member.name} the hub?</strong>
      </p>
      <ul className="small">
        <li>This station stops sending to the returns service at once and keeps its link (address, token, accounts) for {member.name}.</li>
        <li>It keeps serving its stations until {member.name} takes over (there: Settings → Site → Take over as hub).</li>
        <li>Then the other stations are removed from this hub and hold their work until they join {member.name}; so does this one.</li>
      </ul>
      <p>
        <button type="button" className="btn btn-small btn-primary" data-testid="site-promote-yes" disabled={busy} onClick={() => void promote()}>
          Make {member.name} the hub
        </button>{' '}
        <button type="button" className="btn btn-small" data-testid="site-promote-no" disabled={busy} onClick={cancel}>
          Cancel
        </button>
      </p>
      {problem && (
        <p role="alert" data-testid="site-promote-problem">
          {problem}
        </p>
      )}
    </div>
  );
}

/** On a member: whether its hub offered it the uplink; if so, taking over, after asking. Its outcome is said by `say` (this part goes with the hub). */
export function TakeOverPart({ changed, say }: { changed: () => Promise<unknown>; say: (message: string) => void }) {
  const [offer, setOffer] = useState<UplinkOffer | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [state, setState] = useState<{ kind: 'busy' | 'problem'; text: string } | null>(null);
  useEffect(() => {
    // The station itself did not answer: nothing can be taken from here, so no take-over without the hub either.
    pageClient.uplinkOffer().then(setOffer, (error: unknown) => setOffer({ offered: false, hub_answered: true, message: describeError(error) }));
  }, []);
  const takeOver = async () => {
    setState({ kind: 'busy', text: 'Catching up with the hub and taking its link to the returns service…' });
    try {
      const upstream = await pageClient.takeOverAsHub();
      say(
        `This station is the site's hub now: it syncs with ${upstream.returns_url ?? 'the returns service'}. The other stations join it with a join code from this screen.`,
      );
      await changed();
    } catch (error) {
      setState({ kind: 'problem', text: describeError(error) });
    }
  };
  return (
    <div data-testid="site-takeover-part" data-offered={offer === null ? 'unknown' : offer.offered ? 'yes' : 'no'}>
      {/* Nothing while the hub is asked: a hub that does not answer would keep a line of the tab for it. */}
      {offer !== null && (
        <p className="small" data-testid="site-takeover-offer">
          {offer.message}
        </p>
      )}
      {offer?.offered && !confirming && (
        <p>
          <button type="button" className="btn btn-small" data-testid="site-takeover" onClick={() => setConfirming(true)}>
            Take over as hub
          </button>
        </p>
      )}
      {offer?.offered && confirming && (
        <div className="site-confirm" role="group" aria-label="Take over as hub" data-testid="site-takeover-confirm">
          <p>
            <strong>Take over as the site&apos;s hub?</strong>
          </p>
          <ul className="small">
            <li>This station sends the hub what it holds, takes everything the hub holds, then takes the hub&apos;s link to the returns service.</li>
            <li>From then on it syncs with the returns service; its first rounds match its records there before anything is sent.</li>
            <li>The hub&apos;s other stations are removed from it and hold their work until they join this one.</li>
          </ul>
          <p>
            <button
              type="button"
              className="btn btn-small btn-primary"
              data-testid="site-takeover-yes"
              disabled={state?.kind === 'busy'}
              onClick={() => void takeOver()}
            >
              Take over as hub
            </button>{' '}
            <button
              type="button"
              className="btn btn-small"
              data-testid="site-takeover-no"
              disabled={state?.kind === 'busy'}
              onClick={() => setConfirming(false)}
            >
              Cancel
            </button>
          </p>
        </div>
      )}
      {offer && !offer.hub_answered && <TakeOverWithoutHub changed={changed} say={say} />}
      {state && (
        <p role={state.kind === 'problem' ? 'alert' : 'status'} data-testid="site-takeover-state" data-state={state.kind}>
          {state.text}
        </p>
      )}
    </div>
  );
}

function when(at: string): string {
  return `${at.replace('T', ' ').slice(0, 16)} UTC`;
}

/**
 * On a member whose hub does not answer: taking over without it (its machine lost), with the returns
 * service the supervisor enters, as `site promote --without-hub` does. It asks first, saying what is lost.
 */
function TakeOverWithoutHub({ changed, say }: { changed: () => Promise<unknown>; say: (message: string) => void }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const accounts = useStationLink((s) => s.status?.accounts.map((a) => a.id).join(', ') ?? '');
  const shown = useReveal<HTMLDivElement>(open);
  const takeOver = async (uplink: UpstreamSettingsInput): Promise<boolean> => {
    setBusy(true);
    setProblem(null);
    try {
      const upstream = await pageClient.takeOverAsHub({ without_hub: uplink });
      say(
        `This station is the site's hub now, without the old hub: it syncs with ${upstream.returns_url ?? 'the returns service'}. What only the lost hub held is lost with it. The other stations join this one with a join code from this screen.`,
      );
      setOpen(false);
      await changed();
      return true;
    } catch (error) {
      setProblem(describeError(error));
      return false;
    } finally {
      setBusy(false);
    }
  };
  if (!open)
    return (
      <p>
        <button type="button" className="btn btn-small" data-testid="site-takeover-lost" onClick={() => setOpen(true)}>
          Take over without the hub…
        </button>
      </p>
    );
  return (
    <div ref={shown} className="site-confirm" role="group" aria-label="Take over without the hub" data-testid="site-takeover-lost-confirm">
      <p>
        <strong>Take over as the site&apos;s hub without the old hub?</strong> Only if its machine is lost.
      </p>
      <ul className="small">
        <li>This station syncs with the returns service entered here; its first rounds match its records there before anything is sent.</li>
        <li>What only the lost hub held (its own unsent work, photos kept only there) is lost with it.</li>
        <li>If the old hub&apos;s machine comes back, join it to this hub before it starts syncing.</li>
      </ul>
      <UpstreamForm
        title="The returns service"
        saved={null}
        initialAccounts={accounts}
        tokenSet={false}
        busy={busy}
        submitLabel="Take over without the hub"
        submit={takeOver}
      />
      <p>
        <button type="button" className="btn btn-small" data-testid="site-takeover-lost-no" disabled={busy} onClick={() => setOpen(false)}>
          Cancel
        </button>
      </p>
      {problem && (
        <p role="alert" data-testid="site-takeover-lost-problem">
          {problem}
        </p>
      )}
    </div>
  );
}
