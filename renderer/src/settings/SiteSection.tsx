import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { SiteInvite, SiteView } from '#shared/api/site.ts';
import { describeError } from '../api/describe-error.ts';
import { pageClient } from '../api/station-api.ts';
import { useReveal } from '../components/use-reveal.ts';
import { HandheldsPart } from './HandheldsPart.tsx';
import { HandoverState, PromoteConfirm, TakeOverPart } from './HubMovePart.tsx';
import { SiteAddress } from './SiteAddress.tsx';
import './site.css';

/**
 * Settings → Site (docs/decisions/site-join.md): on a hub, a join code for a station and the members
 * that joined (remove one, or make one the hub); on a station, the form that joins a hub with its
 * address and code, the hub it joined, and taking over as the hub once the hub offered it. Making a code, removing a member and joining need a supervisor (the station
 * refuses a terminal's token, and the sign-in opens).
 */
export function SiteSection() {
  const [view, setView] = useState<SiteView | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const reload = useCallback(() => pageClient.site().then(setView, (error: unknown) => setMessage(describeError(error))), []);
  useEffect(() => {
    pageClient.site().then(setView, (error: unknown) => setMessage(describeError(error)));
  }, []);
  return (
    <>
      <div className="settings-column site-column" data-testid="site-hub-side">
        <SiteAddress />
        <InviteForm />
        <HandheldsPart />
        {view?.handover && <HandoverState handover={view.handover} />}
        {view && view.members.length > 0 && (
          <Members members={view.members} canPromote={!view.handover?.taken_at && !view.hub} changed={reload} say={setMessage} />
        )}
      </div>
      <div className="settings-column site-column" data-testid="site-station-side">
        {view?.hub && <JoinedHub hub={view.hub} pending={view.pending_changes} />}
        <JoinForm joined={(joined) => setView(joined)} />
        {/* Below the join form: the hub's answer comes later and must not push the join's outcome down. */}
        {view?.hub && !view.hub.removed && <TakeOverPart changed={reload} say={setMessage} />}
        {message && (
          <p role="status" data-testid="site-state">
            {message}
          </p>
        )}
      </div>
    </>
  );
}

/** A join code for a station, shown once with the address and fingerprint to give with it. */
function InviteForm() {
  const [invite, setInvite] = useState<SiteInvite | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const make = async () => {
    try {
      setInvite(await pageClient.createSiteInvite());
      setProblem(null);
    } catch (error) {
      setProblem(describeError(error));
    }
  };
  return (
    <div className="site-invite">
      <p>
        <button type="button" className="btn btn-small" data-testid="site-invite" onClick={() => void make()}>
          Make a join code
        </button>{' '}
        — for a station to join this one as its hub (supervisor).
      </p>
      {invite && (
        <div data-testid="site-invite-code-box">
          <p>
            <code className="join-code" data-testid="site-invite-code">
              {invite.code}
            </code>
          </p>
          <p className="small">
            Works once, until {invite.expires_at.slice(11, 16)} UTC, at <code>{invite.hub_url ?? 'this station'}</code>
            {invite.ca_sha256 ? '; the station then trusts the fingerprint above.' : ': this station serves no TLS, so no station can join it yet.'}
          </p>
        </div>
      )}
      {problem && (
        <p role="alert" data-testid="site-invite-problem">
          {problem}
        </p>
      )}
    </div>
  );
}

function Members({
  members,
  canPromote,
  changed,
  say,
}: {
  members: SiteView['members'];
  /** This station holds the site's uplink (it may hand it to a member). */
  canPromote: boolean;
  changed: () => Promise<unknown>;
  say: (message: string) => void;
}) {
  const [promoting, setPromoting] = useState<SiteView['members'][number] | null>(null);
  const remove = async (id: number, name: string) => {
    try {
      await pageClient.removeSiteMember(id);
      say(`${name} was removed from the site: its token no longer works; it keeps its unsent changes.`);
      await changed();
    } catch (error) {
      say(describeError(error));
    }
  };
  return (
    <>
      <table className="site-members" data-testid="site-members">
        <caption>Stations that joined this hub</caption>
        <thead>
          <tr>
            <th scope="col">Station</th>
            <th scope="col">Last contact</th>
            <th scope="col">Unsent</th>
            <th scope="col">Remove</th>
            {canPromote && <th scope="col">Hub</th>}
          </tr>
        </thead>
        <tbody>
          {members.map((m) => (
            <tr key={m.id} data-testid="site-member" data-removed={m.removed_at ? 'yes' : 'no'}>
              <td>{m.name}</td>
              <td>{m.last_contact_at ? m.last_contact_at.replace('T', ' ').slice(0, 19) : 'never'}</td>
              <td>{m.pending_changes ?? '?'}</td>
              <td>
                {m.removed_at ? (
                  'removed'
                ) : (
                  <button type="button" className="btn btn-small" data-testid="site-member-remove" onClick={() => void remove(m.id, m.name)}>
                    Remove
                  </button>
                )}
              </td>
              {canPromote && (
                <td>
                  {!m.removed_at && (
                    <button
                      type="button"
                      className="btn btn-small"
                      data-testid="site-member-promote"
                      aria-label={`Make ${m.name} the hub`}
                      onClick={() => setPromoting(m)}
                    >
                      Make hub
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {promoting && canPromote && (
        <PromoteConfirm
          key={promoting.id}
          member={promoting}
          cancel={() => setPromoting(null)}
          done={(message) => {
            setPromoting(null);
            say(message);
            void changed();
          }}
        />
      )}
    </>
  );
}

function JoinedHub({ hub, pending }: { hub: NonNullable<SiteView['hub']>; pending: number }) {
  return (
    <div data-testid="site-joined" data-removed={hub.removed ? 'yes' : 'no'}>
      <p>
        {hub.removed ? 'Removed from the site by its hub ' : 'Syncing with the hub '}
        <code>{hub.url}</code> (member {hub.member_id}); {pending} changes unsent{hub.removed ? ', kept here' : ''}.
      </p>
      <p className="small">
        Trusted certificate: <code className="fingerprint">{hub.ca_sha256}</code>
        {hub.next_ca_sha256 ? (
          <>
            {' '}
            and its successor, announced by the hub: <code className="fingerprint">{hub.next_ca_sha256}</code>
          </>
        ) : null}
      </p>
    </div>
  );
}

/** Joins a hub: its address and the code it showed. The station stores nothing unless the hub proves the code. */
function JoinForm({ joined }: { joined: (view: SiteView) => void }) {
  const [hubUrl, setHubUrl] = useState('');
  const [code, setCode] = useState('');
  const [state, setState] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const outcome = useReveal<HTMLParagraphElement>(state);
  const join = async (event: FormEvent) => {
    event.preventDefault();
    // The outcome of an earlier join is not this one's: it goes while the hub is asked.
    setState(null);
    setBusy(true);
    try {
      const view = await pageClient.joinHub({ hub_url: hubUrl.trim(), code: code.trim() });
      joined(view);
      setCode('');
      setState({ ok: true, text: 'Joined: this station syncs with the hub from now on.' });
    } catch (error) {
      setState({ ok: false, text: describeError(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void join(e)} aria-label="Join a hub" data-testid="site-join-form">
      <p className="small">Join a hub: its address and the code it shows (its Settings → Site).</p>
      <div className="settings-pair site-join-fields">
        <label>
          Hub address{' '}
          <input
            data-testid="site-join-url"
            type="url"
            value={hubUrl}
            onChange={(e) => setHubUrl(e.target.value)}
            placeholder="https://192.0.2.7:4780"
            maxLength={2048}
            required
          />
        </label>
        <label>
          Join code{' '}
          <input
            data-testid="site-join-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            placeholder="XXXX-XXXX-XXXX-XXXX-XXXX"
            maxLength={29}
            autoComplete="off"
            spellCheck={false}
            required
          />
        </label>
        <button type="submit" className="btn btn-small" data-testid="site-join" disabled={busy}>
          Join the hub
        </button>
      </div>
      {state && (
        <p ref={outcome} role={state.ok ? 'status' : 'alert'} data-testid="site-join-state" data-ok={state.ok ? 'yes' : 'no'}>
          {state.text}
        </p>
      )}
    </form>
  );
}
