import { useId, useState } from 'react';
import type { PackageWeight } from '#shared/api/scale.ts';
import type { ReturnPackage } from '#shared/api/return-packages.ts';
import { packagePhotos } from '../receiving/package-store.ts';
import { usePackage } from '../receiving/page-package.ts';
import { useScale } from '../scale/scale-store.ts';
import { useSession } from '../session/session-store.ts';
import { weightOfPackage, useWeighing } from './weighing-store.ts';
import './weighing.css';

const VERDICT_WORDS = { ok: 'Weight OK', light: 'Too light', heavy: 'Too heavy', nothing_to_compare: 'Nothing to compare' } as const;
const FROM_WORDS = { package: 'the package', return: 'the return', learned_skus: 'learned item weights + box' } as const;

const weightText = (value: number, unit: string) => `${Number(value.toFixed(unit === 'g' ? 0 : 3))} ${unit}`;

/** The later of two weighings of the package (this terminal's, or one the station told of since). */
function latest(a: PackageWeight | null, b: PackageWeight | null): PackageWeight | null {
  if (!a || !b) return a ?? b;
  return a.weighed_at >= b.weighed_at ? a : b;
}

/**
 * The parcel's weight on the package screen: what the scale measured, what the parcel should weigh,
 * and the verdict in its colour; off its weight, a photo of the open parcel is asked for (F4) until
 * one is taken. With a scale typed by hand, the weight is typed here.
 */
export function WeighingPanel({ pkg }: { pkg: ReturnPackage }) {
  const mine = useWeighing((s) => (s.packageId === pkg.id ? s : null));
  const weight = latest(mine?.weight ?? null, weightOfPackage(pkg));
  const manual = useScale((s) => s.settings?.scale.kind ?? 'manual') === 'manual';
  const photoCount = usePackage((s) => packagePhotos(pkg, s.uploads).length);
  const flagged = weight?.verdict === 'light' || weight?.verdict === 'heavy';
  // The photos there were when it was flagged: one more is the photo of the open parcel.
  const [whenFlagged, setWhenFlagged] = useState<{ at: string; count: number } | null>(null);
  if (flagged && weight && whenFlagged?.at !== weight.weighed_at) setWhenFlagged({ at: weight.weighed_at, count: photoCount });
  const photoTaken = flagged && whenFlagged !== null && photoCount > whenFlagged.count;

  return (
    <section
      className={`weighing weighing-${weight?.verdict ?? 'none'}`}
      aria-label="Weight"
      data-testid="weighing"
      data-verdict={weight?.verdict ?? 'none'}
      role="status"
    >
      <div className="weighing-line">
        <span className="weighing-measured" data-testid="weight-measured">
          {weight ? weightText(weight.weight, weight.unit) : mine?.busy ? 'Weighing…' : 'Not weighed'}
        </span>
        {weight?.verdict && (
          <strong className="weighing-verdict" data-testid="weight-verdict">
            {VERDICT_WORDS[weight.verdict]}
          </strong>
        )}
        <span className="weighing-expected" data-testid="weight-expected">
          {weight?.expected_weight != null && weight.expected_from
            ? `expected ${weightText(weight.expected_weight, weight.unit)} (${FROM_WORDS[weight.expected_from]})`
            : weight
              ? 'No expected weight: the weight is recorded.'
              : null}
        </span>
        {manual && pkg.status !== 'received' && pkg.status !== 'cancelled' && <TypedWeight />}
      </div>
      {flagged && (
        <p className="weighing-photo" data-testid="weight-photo-ask" data-taken={photoTaken ? 'yes' : 'no'}>
          {photoTaken ? (
            'Photo of the open parcel taken.'
          ) : (
            <>
              Open the parcel and take a photo <kbd>F4</kbd>
            </>
          )}
        </p>
      )}
      {mine?.problem && (
        <p className="weighing-problem" data-testid="weight-problem">
          {mine.problem}
        </p>
      )}
    </section>
  );
}

/** A weight typed by hand (no scale, or one that cannot be read here): Enter records it. */
function TypedWeight() {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const operatorId = useSession((s) => s.operator?.id ?? null);
  const id = useId();
  return (
    <form
      className="weighing-typed"
      onSubmit={(event) => {
        event.preventDefault();
        void useWeighing
          .getState()
          .typed(text, 'kg', operatorId)
          .then((why) => {
            setProblem(why);
            if (why === null) setText('');
          });
      }}
    >
      <label htmlFor={id}>Weight (kg)</label>
      <input
        id={id}
        data-testid="weight-typed"
        inputMode="decimal"
        autoComplete="off"
        maxLength={20}
        value={text}
        onChange={(event) => setText(event.target.value)}
        aria-invalid={problem !== null}
      />
      <button type="submit" className="btn btn-secondary">
        Record
      </button>
      {problem && (
        <span className="field-error" role="alert">
          {problem}
        </span>
      )}
    </form>
  );
}
