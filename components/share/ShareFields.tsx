"use client";

// The Share dialog's form parts: sections, check boxes, the rule boxes and the password fields.
import { useId, type ReactNode } from "react";

const INPUT =
  "mt-1 w-full rounded-md border border-border-strong bg-background px-2 focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent";

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section>
      <h3 className="mb-1 text-[11px] font-semibold tracking-wide text-muted uppercase">{title}</h3>
      {children}
    </section>
  );
}

export function Check({ checked, onChange, testId, children }: { checked: boolean; onChange: (on: boolean) => void; testId: string; children: ReactNode }) {
  return (
    <label className="inline-flex items-center gap-1.5">
      <input type="checkbox" className="accent-accent" checked={checked} onChange={(event) => onChange(event.target.checked)} data-testid={testId} />
      <span>{children}</span>
    </label>
  );
}

/** A label above the field it names. */
function Labelled({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-[12px] font-medium">
        {label}
      </label>
      {children(id)}
    </div>
  );
}

interface FieldProps {
  label: string;
  value: string;
  onChange: (text: string) => void;
  testId: string;
}

export function RuleBox({ label, hint, value, onChange, testId }: FieldProps & { hint: string }) {
  return (
    <Labelled label={label}>
      {(id) => (
        <textarea
          id={id}
          rows={3}
          spellCheck={false}
          placeholder={hint}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          className={`${INPUT} resize-y py-1 font-mono text-[12px] placeholder:text-subtle`}
          data-testid={testId}
        />
      )}
    </Labelled>
  );
}

export function PasswordField({ label, value, onChange, testId }: FieldProps) {
  return (
    <Labelled label={label}>
      {(id) => (
        <input
          id={id}
          type="password"
          autoComplete="new-password"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          className={`${INPUT} h-8 text-[13px]`}
          data-testid={testId}
        />
      )}
    </Labelled>
  );
}
