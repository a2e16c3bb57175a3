import type { DispositionRules } from '#shared/api/disposition-rules.ts';

/** On a site's member: the rules it had before it joined, kept aside and shown — the site's rules apply. */
export function OwnRulesBeforeJoin({ rules }: { rules: DispositionRules }) {
  return (
    <section className="own-rules" aria-labelledby="own-rules-title" data-testid="own-rules-before-join">
      <h3 id="own-rules-title">This station&apos;s rules before it joined the site — not applied</h3>
      <ol>
        {rules.rules.map((rule, index) => (
          <li key={index}>
            {rule.name ?? `Rule ${index + 1}`} → {rules.dispositions[rule.disposition].label}, bin <code>{rule.bin}</code>
          </li>
        ))}
      </ol>
    </section>
  );
}
