// The console's frame: the key, the subject, the four views, and the view
// the route names. Each view asks the API itself, with the key in use.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { apiClient } from './api/client.js';
import { KeyForm } from './key-form.js';
import { DEFAULT_ROUTE, formatRoute, parseRoute, VIEWS, type Route, type ViewName } from './route.js';
import { ErasureView } from './views/erasure/erasure-view.js';
import { LineageView } from './views/lineage/lineage-view.js';
import { RecallView } from './views/recall/recall-view.js';
import { TimelineView } from './views/timeline/timeline-view.js';

const TITLES: Readonly<Record<ViewName, { title: string; intro: string }>> = {
  timeline: {
    title: 'Subject timeline',
    intro:
      'The subject’s events in order. Move system time T and valid time V: the page shows what the system believed then (as-of, from the projection) beside what replay computes from the event stream alone, and whether they agree.',
  },
  lineage: {
    title: 'Lineage',
    intro:
      'Which summary served when, and for one summary the graph of its claims, the memory versions they derive from and its parent summaries, with STALE marks and their cause.',
  },
  recall: {
    title: 'Recall explained',
    intro:
      'What a recall would put in an agent’s context about the subject: each item with its standing and provenance, and what was left out and why.',
  },
  erasure: {
    title: 'Erasure',
    intro: 'The subject’s deletion receipts, the verification recorded with each, and the checks run again on demand.',
  },
};

export function App() {
  const [route, setRoute] = useState<Route>(() => parseRoute(location.hash) ?? DEFAULT_ROUTE);
  const [key, setKey] = useState<string | undefined>(undefined);
  const [subjectTyped, setSubjectTyped] = useState(route.subject);
  const api = useMemo(() => (key ? apiClient(key) : undefined), [key]);
  const heading = useRef<HTMLHeadingElement>(null);
  const firstView = useRef(true);

  useEffect(() => {
    const onHash = () => {
      const next = parseRoute(location.hash);
      if (next) {
        setRoute(next);
        setSubjectTyped(next.subject);
      }
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    // Moving to another view puts the keyboard at its heading, as a page load would.
    if (firstView.current) firstView.current = false;
    else heading.current?.focus();
  }, [route.view]);

  const go = (next: Route) => {
    location.hash = formatRoute(next);
  };
  const { title, intro } = TITLES[route.view];
  const subject = route.subject;

  return (
    <>
      <a
        class="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          heading.current?.focus();
        }}
      >
        Skip to the view
      </a>
      <header class="top">
        <h1>memledger · auditor’s console</h1>
        <KeyForm current={key} onKey={setKey} />
        <form
          class="subject-form"
          onSubmit={(e) => {
            e.preventDefault();
            go({ view: route.view, subject: subjectTyped.trim() });
          }}
        >
          <label for="subject">Subject</label>
          <input id="subject" type="text" value={subjectTyped} onInput={(e) => setSubjectTyped((e.target as HTMLInputElement).value)} />
          <button type="submit">Open</button>
        </form>
        <nav aria-label="Views">
          <ul>
            {VIEWS.map((view) => (
              <li key={view}>
                <a href={formatRoute({ view, subject })} aria-current={view === route.view ? 'page' : undefined}>
                  {TITLES[view].title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main">
        <h2 ref={heading} tabIndex={-1}>
          {title}
          {subject ? (
            <>
              {' '}
              · <span class="subject-name">{subject}</span>
            </>
          ) : null}
        </h2>
        <p class="intro">{intro}</p>
        {!api ? (
          <p class="hint">Enter an API key above to begin.</p>
        ) : !subject ? (
          <p class="hint">Enter a subject above.</p>
        ) : route.view === 'timeline' ? (
          <TimelineView key={`${key}/${subject}`} api={api} subject={subject} />
        ) : route.view === 'lineage' ? (
          <LineageView api={api} subject={subject} artifact={route.artifact} onArtifact={(artifact) => go({ ...route, artifact })} />
        ) : route.view === 'recall' ? (
          <RecallView key={`${key}/${subject}`} api={api} subject={subject} />
        ) : (
          <ErasureView api={api} subject={subject} />
        )}
      </main>
    </>
  );
}
