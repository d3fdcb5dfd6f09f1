// The API key the console calls with: typed in, kept in this page's memory
// only (not in storage, not in the URL), gone on reload or "Forget".
import { useState } from 'preact/hooks';

/** `mlk_<key id>_<secret>` -> the key id part, to say which key is in use without showing the secret. */
export function keyLabel(key: string): string {
  const parts = key.split('_');
  return parts.length >= 3 ? `${parts[0]}_${parts[1]}_…` : 'a key';
}

export function KeyForm({ current, onKey }: { readonly current: string | undefined; readonly onKey: (key: string | undefined) => void }) {
  const [typed, setTyped] = useState('');
  if (current)
    return (
      <div class="key-form">
        <p>
          Using <code>{keyLabel(current)}</code> (kept in this page only).
        </p>
        <button type="button" class="small" onClick={() => onKey(undefined)}>
          Forget the key
        </button>
      </div>
    );
  return (
    <form
      class="key-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (typed.trim()) onKey(typed.trim());
        setTyped('');
      }}
    >
      <label for="api-key">API key (auditor or admin)</label>
      <input
        id="api-key"
        type="password"
        autoComplete="off"
        spellcheck={false}
        value={typed}
        onInput={(e) => setTyped((e.target as HTMLInputElement).value)}
        aria-describedby="api-key-help"
      />
      <button type="submit">Use key</button>
      <p id="api-key-help" class="muted">
        The console calls this service’s API with it and shows nothing the API would not give the key.
      </p>
    </form>
  );
}
